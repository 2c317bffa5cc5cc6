import Foundation

/// A real CalDAV server for one test, on 127.0.0.1 with a port of the kernel's choosing
/// and a storage folder of its own: Radicale (user `ann`, password given) or Xandikos
/// (no authentication; its default calendar at `/user/calendars/calendar/`).
public final class CalDAVServer: @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        public var description: String { rawValue }
    }

    public let kind: Kind
    /// The storage folder (kept across ``restart()``).
    public let dir: String
    public private(set) var port: Int = 0
    /// The password of user `ann` (Radicale).
    public let password: String
    /// Whether it serves https (Radicale only), with a certificate from a test CA of its own
    /// (`ca.pem` in ``dir``; `other.pem` is another CA's, which signed nothing of it).
    public let tls: Bool
    private var running: Running?

    /// Starts one, and waits until it answers.
    public init(_ kind: Kind, password: String = "pw-\(UInt32.random(in: 0...UInt32.max))", tls: Bool = false) throws {
        self.kind = kind
        self.password = password
        self.tls = tls
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-dav-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if tls { try makeCertificates() }
        try start()
    }

    /// A CA, a server certificate it signs for 127.0.0.1, and another CA.
    private func makeCertificates() throws {
        let script = """
        set -e
        cd "$0"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=Nudge test CA"
        openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1"
        printf 'subjectAltName=IP:127.0.0.1\\n' > ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext
        openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 2 -subj "/CN=Another CA"
        """
        let made = try Bench.run("/bin/sh", ["-c", script, dir], timeout: 60)
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl: \(made.stderr)"]) }
    }

    deinit {
        _ = running?.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The address a person gives Nudge.
    public var url: String { (tls ? "https" : "http") + "://127.0.0.1:\(port)/" }
    /// The user Nudge signs in as (none on Xandikos).
    public var user: String? { kind == .radicale ? "ann" : nil }

    /// Starts it again on the same folder and port (after ``kill()``).
    public func start() throws {
        for _ in 0..<5 {
            if port == 0 { port = Self.freePort() }
            let arguments: [String]
            switch kind {
            case .radicale:
                let config = """
                [server]
                hosts = 127.0.0.1:\(port)
                ssl = \(tls ? "True" : "False")
                certificate = \(dir)/server.pem
                key = \(dir)/server.key
                [auth]
                type = htpasswd
                htpasswd_filename = \(dir)/users
                htpasswd_encryption = plain
                [storage]
                filesystem_folder = \(dir)/collections
                [rights]
                type = owner_only
                [logging]
                level = warning
                """
                try config.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
                try "ann:\(password)\n".write(toFile: dir + "/users", atomically: true, encoding: .utf8)
                arguments = ["/usr/bin/radicale", "--config", dir + "/config"]
            case .xandikos:
                arguments = ["/usr/bin/xandikos", "-d", dir + "/data", "--defaults", "-l", "127.0.0.1", "-p", String(port)]
            }
            let process = try Running(arguments[0], Array(arguments.dropFirst()), environment: [:])
            if Bench.eventually(20, { Self.answers(port) || !process.isRunning }), process.isRunning {
                running = process
                return
            }
            _ = process.stop()
            port = 0
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(kind) did not start"])
    }

    /// Kills it at once (SIGKILL), as a crash or a pulled cable would.
    public func kill() {
        guard let running else { return }
        Foundation.kill(running.pid, SIGKILL)
        _ = running.finish(timeout: 5)
        self.running = nil
    }

    /// Stops or resumes it (SIGSTOP, SIGCONT): a server that stalls.
    public func freeze(_ frozen: Bool) {
        guard let running else { return }
        Foundation.kill(running.pid, frozen ? SIGSTOP : SIGCONT)
    }

    /// Runs a python-caldav script as the other device (the phone), with `URL`, `USER` and
    /// `PASSWORD` in its environment and a `client` made from them; returns its stdout.
    @discardableResult
    public func phone(_ script: String) throws -> String {
        let prelude = """
        import os, caldav
        client = caldav.DAVClient(url=os.environ["URL"], username=os.environ.get("USER") or None, password=os.environ.get("PASSWORD") or None,
                                  ssl_verify_cert=os.environ.get("CA") or True)
        def calendar(name):
            for c in client.principal().calendars():
                if c.name == name or str(c.url).rstrip("/").endswith("/" + name):
                    return c
            raise SystemExit("no calendar " + name)
        def objects(name):
            found = []
            for o in calendar(name).objects():
                try:
                    o.load()
                    found.append(o)
                except caldav.lib.error.NotFoundError:
                    pass
            return found

        """
        let outcome = try Bench.run("/usr/bin/python3", ["-c", prelude + script],
                                    environment: ["URL": url, "USER": user ?? "", "PASSWORD": kind == .radicale ? password : "",
                                                  "CA": tls ? dir + "/ca.pem" : ""])
        guard outcome.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "phone script failed: \(outcome.stderr)"])
        }
        return outcome.stdout
    }

    /// Makes a calendar (Radicale starts with none; Xandikos has `calendar`).
    public func makeCalendar(_ name: String) throws {
        try phone("client.principal().make_calendar(name=\(Self.python(name)))")
    }

    /// A Python string literal.
    public static func python(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r") + "'"
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func answers(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// A session of one's own with a keyring: a private bus, gnome-keyring-daemon serving the
/// Secret Service on it (unlocked), and a data folder; `nudge` runs in it as a person would.
public final class KeyringSession: NudgeUser, @unchecked Sendable {
    public let bus: PrivateBus
    public let dir: String
    private var keyring: Running?

    /// A session; `keyring: false` leaves the Secret Service out (the "no keyring" case).
    public init(keyring: Bool = true) throws {
        bus = try PrivateBus()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-sync-\(UUID())").path
        for sub in ["data", "config", "run", "home"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        chmod(dir + "/run", 0o700)
        if keyring { self.keyring = try Self.startKeyring(in: dir, environment: environment([:]), bus: bus.address) }
    }

    /// gnome-keyring-daemon serving the Secret Service, unlocked, on the bus at `bus` with
    /// `environment` (its keyrings under the environment's XDG_DATA_HOME); `folder` holds
    /// its unlock file. Returned once it owns `org.freedesktop.secrets`.
    public static func startKeyring(in folder: String, environment: [String: String?], bus: String) throws -> Running {
        // The keyring's own password (a test's, not a secret) on its stdin, from a file:
        // `exec` leaves the daemon itself as the process stopped at the end.
        try "keyring".write(toFile: folder + "/unlock", atomically: true, encoding: .utf8)
        let running = try Running("/bin/sh", ["-c", "exec /usr/bin/gnome-keyring-daemon --foreground --unlock --components=secrets < \"$0\"",
                                              folder + "/unlock"], environment: environment)
        func ownsSecrets() -> Bool {
            let outcome = try? Bench.run("/usr/bin/dbus-send", ["--bus=" + bus, "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"], timeout: 5)
            return outcome?.stdout.contains("boolean true") == true
        }
        guard Bench.eventually(20, { ownsSecrets() || !running.isRunning }), running.isRunning else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "gnome-keyring did not start: \(running.stderrSoFar)"])
        }
        return running
    }

    deinit {
        _ = keyring?.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    public var database: String { dir + "/data/nudge/nudge.sqlite" }

    public func environment(_ extra: [String: String?]) -> [String: String?] {
        var environment: [String: String?] = ["XDG_DATA_HOME": dir + "/data", "XDG_CONFIG_HOME": dir + "/config", "XDG_RUNTIME_DIR": dir + "/run",
                                              "HOME": dir + "/home", "TZ": "Asia/Seoul", "NO_COLOR": "1", "LANG": "C", "LC_ALL": nil,
                                              "DBUS_SESSION_BUS_ADDRESS": bus.address]
        environment.merge(extra) { $1 }
        return environment
    }

    /// `secret-tool` on this session's bus.
    public func secretTool(_ arguments: [String]) -> Bench.Outcome {
        (try? Bench.run("/usr/bin/secret-tool", arguments, environment: environment([:]), timeout: 10))
            ?? Bench.Outcome(status: 127, stdout: "", stderr: "", seconds: 0)
    }

    /// `nudge` with `input` on its stdin (a password for --password-stdin).
    public func nudge(_ arguments: [String], input: String) throws -> Bench.Outcome {
        // The password reaches nudge on stdin only: not in its argv, not in its environment.
        let script = "printf '%s\\n' \"$NUDGE_INPUT\" | (unset NUDGE_INPUT; exec \"$0\" \"$@\")"
        return try Bench.run("/bin/sh", ["-c", script, Bench.nudgePath] + arguments, environment: environment(["NUDGE_INPUT": input]))
    }

    /// The titles of `nudge list`, sorted.
    public func titles() throws -> [String] { try list().compactMap { $0["title"] as? String }.sorted() }
}

/// The tests' own proxy in front of a ``CalDAVServer`` (Tests/bench/fault-proxy.py): cuts an
/// answer short, stalls, answers 503 or 412, or lets a write through and keeps its answer back.
public final class FaultProxy: @unchecked Sendable {
    public let port: Int
    private let modeFile: String
    private let running: Running

    public init(_ server: CalDAVServer) throws {
        modeFile = server.dir + "/proxy-mode"
        try "pass\n".write(toFile: modeFile, atomically: true, encoding: .utf8)
        var started: (Int, Running)?
        for _ in 0..<5 {
            let port = CalDAVServer.freePort()
            let script = Bench.packageRoot.appendingPathComponent("Tests/bench/fault-proxy.py").path
            let process = try Running("/usr/bin/python3", [script, String(port), String(server.port), modeFile], environment: [:])
            if Bench.eventually(10, { process.stdoutSoFar.contains("listening") || !process.isRunning }), process.isRunning {
                started = (port, process)
                break
            }
            _ = process.stop()
        }
        guard let started else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the proxy did not start"]) }
        (port, running) = started
    }

    deinit { _ = running.stop() }

    /// The address Nudge is given instead of the server's.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// The fault from now on (`pass`, `stall`, `cut 200`, `status 503 120`, `refuse-writes`, `hang-after-write`).
    public func set(_ mode: String) throws {
        try? FileManager.default.removeItem(atPath: modeFile + ".written")
        try (mode + "\n").write(toFile: modeFile, atomically: true, encoding: .utf8)
    }

    /// Every request so far, one line each.
    public var log: [String] {
        ((try? String(contentsOfFile: modeFile + ".log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Whether a write reached the server under `hang-after-write`.
    public var wrote: Bool { FileManager.default.fileExists(atPath: modeFile + ".written") }
}
