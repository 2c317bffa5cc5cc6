import DBus
import Foundation

/// A desktop session of its own for one test: a private session bus, a notification server
/// (dunst on the bench's X display with the bench's config, or another server on an X
/// display of its own), and a person's data folder. Tests that each have one run side by
/// side without sharing pop-ups, counts or history.
public final class Desktop: NudgeUser, @unchecked Sendable {
    /// The session's scratch folder (data home, dunst config, the scripted dmenu's choice).
    public let directory: String
    /// The private bus's address.
    public let address: String
    /// The zone the session's programs run in.
    public let zone: String
    /// The notification server this session runs.
    public let serverKind: NotificationServer
    /// The X display of its own, for servers other than dunst (so clicks and screenshots
    /// see only this session's pop-ups).
    public let display: PrivateDisplay?
    private let bus: Running
    private var server: Running?
    /// A second private bus standing for the system bus (``startSystemBus()``).
    private var systemBus: PrivateBus?
    /// Its address; until it runs, programs are given one where no bus listens.
    public private(set) var systemAddress: String?
    private var dunstConfig: String

    /// Starts the bus and, unless told otherwise, the notification server. With
    /// `expireAfter` pop-ups of normal urgency expire after that many seconds. With
    /// `activatable` the bus has a services folder holding Nudge's D-Bus service file
    /// (from `packaging/`, pointing at the built binary), so a call can start the daemon.
    /// With `activatableServer` the bus can start dunst itself, as a session whose
    /// notification server is started on demand has it (i3, sway), where none runs yet.
    public init(server: Bool = true, expireAfter seconds: Int? = nil, zone: String = "Europe/Berlin",
                activatable: Bool = false, activatableServer: Bool = false, serverKind: NotificationServer = .dunst) throws {
        guard let bench = Bench.directory else { throw CocoaError(.fileNoSuchFile) }
        self.zone = zone
        self.serverKind = serverKind
        display = serverKind == .dunst ? nil : try PrivateDisplay()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-desktop-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        var config = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("Tests/bench/dunstrc.in").path, encoding: .utf8)
            .replacingOccurrences(of: "@BENCH@", with: directory)
        if let seconds {
            config = config.replacingOccurrences(of: "    foreground = \"#f8fafc\"\n    timeout = 0\n",
                                                 with: "    foreground = \"#f8fafc\"\n    timeout = \(seconds)\n")
        }
        dunstConfig = directory + "/dunstrc"
        try config.write(toFile: dunstConfig, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Bench.packageRoot.appendingPathComponent("Tests/bench/fake-dmenu").path,
                                         toPath: directory + "/fake-dmenu")
        var busConfig = "\(bench)/bus.conf"
        var busEnvironment: [String: String?] = [:]
        if activatable || activatableServer {
            let services = directory + "/services"
            try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
            if activatable {
                let template = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("packaging/dbus/io.github.nudge.Nudge.service.in").path,
                                          encoding: .utf8)
                let bindir = (Bench.nudgePath as NSString).deletingLastPathComponent
                try template.replacingOccurrences(of: "@BINDIR@", with: bindir)
                    .write(toFile: services + "/io.github.nudge.Nudge.service", atomically: true, encoding: .utf8)
            }
            if activatableServer {
                try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/dunst -conf \(dunstConfig)\n"
                    .write(toFile: services + "/org.freedesktop.Notifications.service", atomically: true, encoding: .utf8)
            }
            let config = try String(contentsOfFile: busConfig, encoding: .utf8)
                .replacingOccurrences(of: "</busconfig>", with: "  <servicedir>\(services)</servicedir>\n</busconfig>")
            busConfig = directory + "/bus.conf"
            try config.write(toFile: busConfig, atomically: true, encoding: .utf8)
            // What the bus starts inherits the bus's environment: the session's data folder and zone.
            busEnvironment = ["XDG_DATA_HOME": directory + "/data", "TZ": zone, "DBUS_SESSION_BUS_ADDRESS": nil]
        }
        let running = try Running("/usr/bin/dbus-daemon", ["--config-file=\(busConfig)", "--nofork", "--print-address=1"],
                                  environment: busEnvironment)
        bus = running
        _ = Bench.eventually(5) { running.stdoutSoFar.contains("unix:") }
        address = running.stdoutSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
        if server { try startServer() }
    }

    deinit {
        if let server { _ = server.stop() }
        endSessionPrograms()
        _ = bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment the session's programs get; `extra` overrides (nil unsets).
    public func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = [
            "DBUS_SESSION_BUS_ADDRESS": address, "XDG_DATA_HOME": directory + "/data", "TZ": zone,
            "NUDGE_BENCH_DIR": directory, "NO_COLOR": "1", "LANG": "C", "LC_ALL": nil, "LC_TIME": nil,
            "XDG_RUNTIME_DIR": nil, "XDG_CURRENT_DESKTOP": nil, "XDG_SESSION_ID": nil,
            "DBUS_SYSTEM_BUS_ADDRESS": systemAddress ?? "unix:path=\(directory)/no-system-bus",
        ]
        if let display { environment["DISPLAY"] = display.name }
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts a private bus that the session's programs take for the system bus, and
    /// returns its address.
    public func startSystemBus() throws -> String {
        let bus = try PrivateBus()
        systemBus = bus
        systemAddress = bus.address
        return bus.address
    }

    /// Stops the system bus standing in (as if the machine's D-Bus restarted).
    public func stopSystemBus() {
        systemBus = nil
    }

    // MARK: The notification server

    /// Starts the notification server and waits until it owns its name.
    public func startServer() throws {
        server = try Running(serverKind.executable, serverKind == .dunst ? ["-conf", dunstConfig] : [],
                            environment: environment())
        guard Bench.eventually(5, { (try? bool(call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                       "NameHasOwner", [.string("org.freedesktop.Notifications")]))) == true }) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(serverKind) did not start"])
        }
    }

    /// The server's process id.
    public var serverPID: Int32? { server?.pid }

    /// The server's pop-ups on screen (servers other than dunst, on the session's own display).
    public func popUps() -> [PrivateDisplay.Window] {
        guard let display, let pid = serverPID else { return [] }
        return display.windows(of: pid)
    }

    /// Kills the server (SIGKILL: a crash) and waits until its name is free.
    public func killServer() {
        if let server { kill(server.pid, SIGKILL); _ = server.finish(timeout: 3) }
        server = nil
        _ = Bench.eventually(5) { (try? bool(call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                    "NameHasOwner", [.string("org.freedesktop.Notifications")]))) == false }
    }

    /// Stops or continues the server (SIGSTOP / SIGCONT): a hung server.
    public func freezeServer(_ frozen: Bool) {
        if let server { kill(server.pid, frozen ? SIGSTOP : SIGCONT) }
    }

    private func bool(_ values: [Value]) -> Bool? { values.first?.bool }

    /// Runs `dunstctl` in this session and returns its trimmed output.
    @discardableResult
    public func dunstctl(_ arguments: String...) throws -> String {
        try Bench.run("dunstctl", arguments, environment: environment()).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `dunstctl count displayed`.
    public func displayed() throws -> Int { Int(try dunstctl("count", "displayed")) ?? -1 }

    /// Chooses an action through dunst's context menu, as a person would (the scripted
    /// dmenu picks the first line containing `label`).
    public func chooseFromMenu(_ label: String) throws {
        try label.write(toFile: directory + "/dmenu-choice", atomically: true, encoding: .utf8)
        try dunstctl("context")
    }

    // MARK: Nudge

    /// Adds an alert and returns its full id (from `show --json`).
    public func add(_ arguments: String...) throws -> String {
        try add(arguments)
    }

    /// Adds an alert and returns its full id (from `show --json`).
    public func add(_ arguments: [String]) throws -> String {
        let added = try Bench.nudge(["add"] + arguments, environment: environment())
        guard added.status == 0, let short = added.stdout.split(separator: " ").dropFirst().first?.dropLast() else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: added.stderr])
        }
        let show = try Bench.nudge(["show", String(short), "--json"], environment: environment())
        guard let object = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any],
              let id = object["id"] as? String else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: show.stdout + show.stderr])
        }
        return id.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The log's events for an alert, in order.
    public func events(_ id: String) throws -> [String] {
        try logged(id).map(\.event)
    }

    /// The log's entries for an alert, in order.
    public func logged(_ id: String) throws -> [LoggedEvent] {
        try log().filter { ($0["id"] as? String)?.replacingOccurrences(of: "-", with: "") == id }.compactMap(LoggedEvent.init)
    }

    /// Starts `nudge daemon` and waits until it owns its name.
    public func startDaemon(_ arguments: String..., waitForName: Bool = true,
                            environment extra: [String: String?] = [:]) throws -> Running {
        let daemon = try Bench.start(["daemon"] + arguments, environment: environment(extra))
        if waitForName {
            // Owning the name comes first; answering Status means the loop runs.
            guard Bench.eventually(10, { daemonPID(daemon.pid) != nil && (try? self.daemon("Status")) != nil }) else {
                let outcome = daemon.stop()
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "the daemon did not start: \(outcome.stderr)"])
            }
        }
        return daemon
    }

    private func daemonOwner() -> String? {
        try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                  [.string("io.github.nudge.Nudge")]).first?.string
    }

    private func daemonPID(_ pid: Int32) -> String? {
        guard let owner = daemonOwner(),
              let owned = try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "GetConnectionUnixProcessID", [.string(owner)]).first?.uint32,
              owned == UInt32(pid) else { return nil }
        return owner
    }

    /// The local wall-clock time `seconds` from now in the session's zone, as `--at` takes
    /// it (HH:MM:SS), and the instant it stands for (whole seconds).
    public func clock(in seconds: Double) -> (text: String, instant: Date) {
        let instant = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
        return (clockText(instant), instant)
    }

    /// An instant's wall-clock time in the session's zone, as `--at` takes it (HH:MM:SS).
    public func clockText(_ instant: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: instant)
    }

    /// When the running daemon will show an alert next (its `Next`, to the microsecond);
    /// `nil` for never, or when it cannot say.
    public func next(_ id: String) -> Date? {
        guard case .int64(let usec)? = try? daemon("Next", [.string(id)]).first, usec >= 0 else { return nil }
        return Date(timeIntervalSince1970: Double(usec) / 1e6)
    }

    /// Sets up an alert due a moment from now (`nudge add --at` with ``clockText(_:)``, say)
    /// and makes sure the running daemon knew of it while it was still ahead, so that what
    /// the test sees of it then cannot depend on how busy the machine is: the daemon's timer
    /// was set for it. `arrange` gets a whole second at least `lead` seconds ahead and
    /// returns the alert's full id and its first due instant (that second, or one it chose
    /// from it); the daemon's `Next` must answer that instant before it comes. Where the
    /// machine was too slow for that (the add parsed a time already gone, or the daemon
    /// heard of it late), the alert is removed, which withdraws a pop-up it got, and the
    /// next try has twice the lead, up to 32 s.
    public func dueSoon(lead: Double = 1, _ arrange: (Date) throws -> (id: String, due: Date)) throws -> DueSoon {
        var lead = lead
        while true {
            let since = Date()
            let (id, due) = try arrange(Date(timeIntervalSince1970: (since.timeIntervalSince1970 + lead).rounded(.up)))
            while Date() < due {
                // An answer that came back before the instant was given before it.
                if next(id) == due, Date() < due { return DueSoon(id: id, due: due, since: since) }
                usleep(10_000)
            }
            _ = try nudge("rm", id)
            guard lead < 32 else {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "the daemon never knew in time of an alert due \(lead) s ahead"])
            }
            lead *= 2
        }
    }

    /// ``dueSoon(lead:_:)`` for an alert whose first due instant is the one given.
    public func dueSoon(lead: Double = 1, _ arrange: (Date) throws -> String) throws -> DueSoon {
        try dueSoon(lead: lead) { due in (try arrange(due), due) }
    }

    // MARK: The bus

    /// Calls a method on the session's bus from a fresh connection (never starting a
    /// service unless `autoStart`).
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                     _ arguments: [Value] = [], timeout: Duration = .seconds(5), autoStart: Bool = false) throws(BusError) -> [Value] {
        let connection = try Connection.bus(address: address)
        return try connection.call(destination: destination, path: path, interface: interface, member: member,
                                   arguments: arguments, timeout: timeout, autoStart: autoStart)
    }

    /// Whether a name has an owner on the session's bus.
    public func hasOwner(_ name: String) -> Bool {
        (try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                   [.string(name)]).first?.bool) ?? false
    }

    /// Ends what is still connected to the session's bus that the tests did not start
    /// themselves, as a logout does: a window a pop-up's click opened outlives the daemon
    /// that started it. (What a test started sees the bus go, as some tests want.)
    private func endSessionPrograms() {
        guard case .array(_, let names)? = try? call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                    "org.freedesktop.DBus", "ListNames").first else { return }
        for case .string(let name) in names where name.hasPrefix(":") {
            guard let pid = try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                      "GetConnectionUnixProcessID", [.string(name)]).first?.uint32,
                  pid_t(pid) != getpid(), parent(of: pid_t(pid)) != getpid() else { continue }
            kill(pid_t(pid), SIGTERM)
        }
    }

    private func parent(of pid: pid_t) -> pid_t? {
        // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// Calls a method of the daemon's interface.
    public func daemon(_ member: String, _ arguments: [Value] = []) throws(BusError) -> [Value] {
        try call("io.github.nudge.Nudge", "/io/github/nudge/Nudge", "io.github.nudge.Nudge1", member, arguments)
    }

    /// Starts a `dbus-monitor` capture on this bus.
    public func monitor(_ rule: String = "type='method_call',interface='org.freedesktop.Notifications',member='Notify'") throws -> BusMonitor {
        try BusMonitor(rule: rule, address: address)
    }
}

/// One `Notify` call as `dbus-monitor` saw it.
public struct MonitoredNotify: Sendable {
    /// When it crossed the bus (the monitor's wall-clock stamp).
    public var time: Double
    /// replaces_id.
    public var replacesID: UInt32
    /// The icon, summary and body.
    public var icon: String, summary: String, body: String
    /// The actions, as key/label pairs flattened.
    public var actions: [String]
    /// The whole record as printed, for hints.
    public var text: String

    /// The `Notify` calls in a `dbus-monitor` capture.
    public static func parse(_ capture: String) -> [MonitoredNotify] {
        var result: [MonitoredNotify] = []
        for block in capture.components(separatedBy: "\nmethod call ").dropFirst() where block.contains("member=Notify") {
            guard let timeText = block.split(separator: " ").first(where: { $0.hasPrefix("time=") })?.dropFirst(5),
                  let time = Double(timeText) else { continue }
            // A string with line breaks goes on over the next lines, up to its closing quote.
            var lines: [Substring] = []
            var inString = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
                if inString, let last = lines.popLast() {
                    lines.append(last + "\n" + line)
                    inString = !line.hasSuffix("\"")
                    continue
                }
                lines.append(line)
                let trimmed = line.drop { $0 == " " }
                if trimmed.hasPrefix("string \"") { inString = !trimmed.dropFirst(8).hasSuffix("\"") }
            }
            let top = lines.filter { $0.hasPrefix("   ") && !$0.hasPrefix("    ") }.map { String($0.dropFirst(3)) }
            func string(_ line: String) -> String {
                guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { return "" }
                return String(line[line.index(after: first)..<last])
            }
            guard top.count >= 5 else { continue }
            var actions: [String] = []
            var inActions = false
            for line in lines {
                if line == "   array [" && actions.isEmpty && !inActions { inActions = true; continue }
                if inActions {
                    if line == "   ]" { break }
                    actions.append(string(String(line)))
                }
            }
            result.append(MonitoredNotify(time: time, replacesID: UInt32(top[1].split(separator: " ").last ?? "") ?? 0,
                                          icon: string(top[2]), summary: string(top[3]), body: string(top[4]),
                                          actions: actions, text: block))
        }
        return result
    }
}

/// An alert the daemon knew of before it was due (``Desktop/dueSoon(lead:_:)``).
public struct DueSoon: Sendable {
    /// Its full id.
    public var id: String
    /// Its first due instant (a whole second).
    public var due: Date
    /// When the try that made it began: what tries the machine was too slow for did, on
    /// the bus or on screen, came before.
    public var since: Date
}
