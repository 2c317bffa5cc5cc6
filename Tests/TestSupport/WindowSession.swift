import DBus
import Foundation

/// Nudge's window as a person meets it, for one test: on an X display of its own, in a
/// ``Desktop``'s session, with the accessibility bus a screen reader uses. It is driven
/// through AT-SPI by `Tests/bench/window/atspi-window.py`, by role and accessible name,
/// as a screen reader or a keyboard reaches it.
public final class WindowSession: @unchecked Sendable {
    public let desktop: Desktop
    public private(set) var display: PrivateDisplay
    /// The locale the window runs in (`LANG`).
    public let locale: String
    private var accessibility: Running
    private var window: Running?

    /// The built window, beside the built `nudge`.
    public static var windowPath: String { (Bench.nudgePath as NSString).deletingLastPathComponent + "/nudge-window" }
    static var driverPath: String { Bench.packageRoot.appendingPathComponent("Tests/bench/window/atspi-window.py").path }

    /// Windows share the machine with each other but not with a screen reader: beside Orca
    /// (the suite's one test with it), other windows could not open their displays or failed
    /// without a word, in three whole make tests. A session taken `alone` waits until no other
    /// window runs and keeps the others waiting while it lives.
    nonisolated(unsafe) private static var sharing: pthread_rwlock_t = {
        var lock = pthread_rwlock_t()
        pthread_rwlock_init(&lock, nil)
        return lock
    }()
    private static let sharingReady: Void = { _ = sharing }()

    /// Starts the display and the accessibility bus (at-spi2-core's launcher, which owns
    /// `org.a11y.Bus` on the session bus, where GTK looks for it).
    public init(desktop: Desktop, locale: String = "en_US.UTF-8", alone: Bool = false) throws {
        self.desktop = desktop
        self.locale = locale
        display = try PrivateDisplay()
        for folder in ["config", "cache"] {
            try FileManager.default.createDirectory(atPath: desktop.directory + "/" + folder, withIntermediateDirectories: true)
        }
        accessibility = try Self.startAccessibility(desktop, display, locale)
        _ = Self.sharingReady
        if alone {
            // Ten minutes at most (a window kept past its test would hold it for ever): then it
            // runs beside the others, as it did before the lock.
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += 600
            holdsSharing = pthread_rwlock_timedwrlock(&Self.sharing, &deadline) == 0
        } else {
            holdsSharing = pthread_rwlock_rdlock(&Self.sharing) == 0
        }
    }

    private var holdsSharing = false

    /// Starts at-spi2-core's launcher for this display and waits until it owns `org.a11y.Bus`.
    /// Its output goes nowhere: the bus and registry it starts would otherwise hold the
    /// collector's pipes open past the test. On SIGTERM it stops the bus it started.
    private static func startAccessibility(_ desktop: Desktop, _ display: PrivateDisplay, _ locale: String) throws -> Running {
        let launcher = try Bench.start("/bin/sh", ["-c", "exec /usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1"],
                                       environment: environment(desktop, display, locale))
        guard Bench.eventually(10, { accessibilityOwned(desktop) == true }) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "at-spi-bus-launcher did not start"])
        }
        return launcher
    }

    private static func accessibilityOwned(_ desktop: Desktop) -> Bool? {
        (try? desktop.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                           "NameHasOwner", [.string("org.a11y.Bus")]))?.first?.bool
    }

    deinit {
        if let window { _ = window.stop() }
        _ = accessibility.stop()
        if holdsSharing { pthread_rwlock_unlock(&Self.sharing) }
    }

    private static func environment(_ desktop: Desktop, _ display: PrivateDisplay, _ locale: String) -> [String: String?] {
        desktop.environment([
            "DISPLAY": display.name, "GDK_BACKEND": "x11", "WAYLAND_DISPLAY": nil, "GSK_RENDERER": "cairo",
            "GSETTINGS_BACKEND": "memory", "HOME": desktop.directory, "XDG_CONFIG_HOME": desktop.directory + "/config",
            "XDG_CONFIG_DIRS": desktop.directory + "/xdg",
            "XDG_CACHE_HOME": desktop.directory + "/cache", "LANG": locale, "LANGUAGE": nil, "LC_ALL": nil,
            "GTK_A11Y": nil, "NO_AT_BRIDGE": nil, "AT_SPI_BUS_ADDRESS": nil,
        ])
    }

    /// The environment the window and the driver run with.
    public func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        Self.environment(desktop, display, locale).merging(extra) { $1 }
    }

    /// Starts the window and waits until its frame is there for AT-SPI.
    public func open(_ arguments: [String] = [], environment extra: [String: String?] = [:]) throws {
        window = try Bench.start(Self.windowPath, arguments, environment: environment(extra))
        var shown = try waitForFrame()
        // GTK refused a display that answered xdpyinfo before and after: once in a CI run, and
        // in three whole make tests, each time as a live desktop's session started beside it;
        // a second start on a new display at once was refused too. So a window that ended
        // saying it has no display is started again up to three times, on a new display, a
        // second apart, and the test's log says so. Its line is in the session's language
        // ("화면을 열 수 없습니다"): its end is known by 69, the status of nothing else this early.
        for attempt in 1...3 {
            guard shown.status != 0, let ended = window, !ended.isRunning, ended.finish(timeout: 1).status == 69 else { break }
            let refused = "\(display.name) (\(display.health))"
            sleep(1)
            display = try PrivateDisplay()
            // The registry the launcher started is a client of the old display and ended with
            // it (then a screen reader's calls and GTK's own registration are answered "Message
            // recipient disconnected", as in a CI run): the launcher is started again with the
            // new display.
            _ = accessibility.stop()
            _ = Bench.eventually(10) { Self.accessibilityOwned(desktop) == false }
            accessibility = try Self.startAccessibility(desktop, display, locale)
            print("WindowSession: the window could not open \(refused); starting it again on \(display.name) (\(attempt) of 3)")
            window = try Bench.start(Self.windowPath, arguments, environment: environment(extra))
            shown = try waitForFrame()
        }
        guard shown.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey:
                "the window did not show: \(shown.stderr) \(window?.stderrSoFar ?? "") (\(display.health))"])
        }
    }

    /// Waits up to a minute for the window's frame, in steps of five seconds, and no longer
    /// once the window has ended (one that cannot open its display ends at once).
    private func waitForFrame() throws -> Bench.Outcome {
        var outcome = try drive("wait", "frame", "Nudge", "present", "5")
        for _ in 1..<12 where outcome.status != 0 && window?.isRunning == true {
            outcome = try drive("wait", "frame", "Nudge", "present", "5")
        }
        return outcome
    }

    /// Runs `nudge-window` with arguments to its end (a second start, --help).
    public func runWindow(_ arguments: [String]) throws -> Bench.Outcome {
        try Bench.run(Self.windowPath, arguments, environment: environment(), timeout: 20)
    }

    /// The window's process, while it runs.
    public var windowProcess: Running? { window }

    /// Runs the AT-SPI driver (see its usage).
    @discardableResult
    /// Types keys into the window as a keyboard does (xdotool through XTEST, once the
    /// window has the focus): `ctrl+z`.
    /// `into` names the window by its title (a regular expression): the main one unless said.
    public func type(_ keys: String, into window: String = "^Nudge$") throws -> Bench.Outcome {
        try Bench.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", window, "windowfocus", "--sync", "key", "--clearmodifiers", keys],
                      environment: environment(), timeout: 20)
    }

    /// Types keys into a window until a node they bring shows (`role`, `name`): a key sent
    /// while the window manager moved the focus elsewhere is lost, as a person's would be, and
    /// a person presses it again. False when it never showed in three tries.
    public func type(_ keys: String, into window: String = "^Nudge$", bringing role: String, _ name: String) throws -> Bool {
        for attempt in 0..<3 {
            let typed = try type(keys, into: window)
            if typed.status == 0, try reaches(role, name, within: attempt == 2 ? 30 : 10) { return true }
            FileHandle.standardError.write(Data("window: \(keys) into \(window) brought no \(role) \(name) (try \(attempt + 1)); focus: \((try? focused()) ?? "?"); \(scene())\n".utf8))
        }
        return false
    }

    /// The windows, dialogs and named buttons there are now, for a failure's message: as
    /// AT-SPI has them, and the X windows mapped with their names.
    public func scene() -> String {
        let shown = ((try? nodes()) ?? []).filter { ["frame", "dialog", "alert", "window", "push button"].contains($0.role) && !$0.name.isEmpty }
        let mapped = (try? Bench.run("/bin/sh", ["-c", "for w in $(xdotool search --onlyvisible --name ''); do printf '%s=%s; ' $w \"$(xdotool getwindowname $w)\"; done; printf 'focus=%s' $(xdotool getwindowfocus)"],
                                     environment: environment(), timeout: 10).stdout) ?? "?"
        return shown.map { "\($0.role):\($0.name)" }.joined(separator: " | ") + " || X: " + mapped
    }

    /// Gives the keyboard's focus to the visible window titled so (a regular expression), if
    /// there is one, as a window manager does to a window it maps: these displays have none,
    /// and a dialog's own window (Settings on libadwaita before 1.5) mapped while the main
    /// window took the focus a key asked for stays without it, the keys going to the main
    /// window behind it. False when there is no such window (the dialog is in the main one).
    @discardableResult
    public func focusWindow(titled window: String) throws -> Bool {
        try Bench.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", window, "windowfocus", "--sync"],
                      environment: environment(), timeout: 20).status == 0
    }

    /// Presses keys where the keyboard's focus is now, without raising a window first (a
    /// popover has the focus, and focusing its window would close it).
    public func press(_ keys: String) throws -> Bench.Outcome {
        try Bench.run("/usr/bin/xdotool", ["key", "--clearmodifiers", keys], environment: environment(), timeout: 20)
    }

    /// Types text into the focused control of a window, as a keyboard does (xdotool type).
    public func write(_ text: String, into window: String = "^Nudge$") throws -> Bench.Outcome {
        try Bench.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", window, "windowfocus", "--sync", "type", "--delay", "20", text],
                      environment: environment(), timeout: 20)
    }

    /// The focused control: role and name, tab between.
    public func focused() throws -> String {
        try drive("focused").stdout.trimmingCharacters(in: .newlines)
    }

    /// Presses Tab (or Shift+Tab) until `control` ("check box\tTea") has the focus; false
    /// when it never comes within `limit` presses.
    public func tab(to control: String, backward: Bool = false, limit: Int = 40, into window: String = "^Nudge$") throws -> Bool {
        for _ in 0..<limit {
            if try focused() == control { return true }
            _ = try type(backward ? "shift+Tab" : "Tab", into: window)
        }
        return try focused() == control
    }

    /// Resizes the window as a person dragging its edge would (the display has no window
    /// manager, so X resizes it at once); waits until it has that size.
    public func resize(width: Int, height: Int) throws -> Bench.Outcome {
        try Bench.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "^Nudge$", "windowsize", "--sync", String(width), String(height)],
                      environment: environment(), timeout: 20)
    }

    /// Starts listening, as a screen reader does, for `seconds`: each node that takes the
    /// focus and each window activated, a line each (see the driver's `listen`); returns
    /// once it listens.
    /// With `until` (role and name) it ends once that node takes the focus.
    public func listen(seconds: Double, until: (role: String, name: String)? = nil) throws -> Running {
        let listener = try Bench.start("/usr/bin/python3", [Self.driverPath, "listen", String(seconds)] + (until.map { [$0.role, $0.name] } ?? []),
                                       environment: environment())
        _ = Bench.eventually(10) { listener.stdoutSoFar.contains("listening") }
        return listener
    }

    public func drive(_ arguments: String...) throws -> Bench.Outcome {
        let outcome = try Bench.run("/usr/bin/python3", [Self.driverPath] + arguments, environment: environment(), timeout: 60)
        // An action that failed says what the window showed then, in the run's log (CI keeps
        // only the log: the scene is how a failure seen once there is understood).
        if outcome.status != 0, ["do", "set"].contains(arguments.first) {
            FileHandle.standardError.write(Data("window driver: \(arguments.joined(separator: " ")): \(outcome.stderr)\n".utf8))
        }
        return outcome
    }

    /// Whether a node with this role and name reaches `condition` (present, gone, checked,
    /// unchecked) within `seconds`.
    public func reaches(_ role: String, _ name: String, _ condition: String = "present", within seconds: Double = 30) throws -> Bool {
        // The driver ends with 1 when the node did not get there in time; any other failure
        // (pyatspi dying on a tree that changed under it, seen on a busy machine) is asked again.
        for _ in 0..<3 {
            let outcome = try drive("wait", role, name, condition, String(seconds))
            if outcome.status == 0 || outcome.status == 1 { return outcome.status == 0 }
        }
        return false
    }

    /// Every node: role, name and state (checked, unchecked or -).
    public func nodes() throws -> [(role: String, name: String, state: String)] {
        try drive("nodes").stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return parts.count == 3 ? (parts[0], parts[1], parts[2]) : nil
        }
    }

    /// Saves the window's display as a PNG.
    public func screenshot(to path: String) throws {
        try display.screenshot(to: path)
    }

    /// Closes the window (SIGTERM, as a session ending would) and returns how it ended.
    public func close() -> Bench.Outcome? {
        defer { window = nil }
        return window?.stop()
    }
}
