import Foundation

/// Orca, the screen reader, on a ``WindowSession``'s display and buses: what it says, as a
/// blind person would hear it. Orca runs with no voice and writes every line it would speak
/// to its debug file (`SPEECH OUTPUT: '…'`), keys it echoes included ("tab "). Started
/// before the window, as a person's screen reader is there before the app.
public final class ScreenReader: @unchecked Sendable {
    /// Whether Orca is installed here (`make deps` installs it).
    public static var canRun: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/orca") }

    private let process: Running
    private let log: String

    /// One line Orca spoke; `key` for a key it echoed ("tab", "left control").
    public struct Line: CustomStringConvertible, Sendable {
        public let text: String
        public let key: Bool
        public var description: String { key ? "[\(text)]" : text }
    }

    /// Starts Orca with its own settings folder, and waits until it says it is on.
    public init(session: WindowSession) throws {
        let folder = session.desktop.directory + "/orca"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        log = folder + "/speech.log"
        // Orca as it is, its debug file opened line-buffered: Python buffers 8 KB of it, and
        // the last words said could wait there for the next event's lines.
        let lineBuffered = """
            import builtins, sys
            plain = builtins.open
            log = sys.argv[sys.argv.index("--debug-file") + 1]
            builtins.open = lambda f, m="r", *a, **k: plain(f, m, 1) if f == log and m == "w" else plain(f, m, *a, **k)
            sys.argv[0] = "/usr/bin/orca"
            exec(compile(plain("/usr/bin/orca").read(), "/usr/bin/orca", "exec"))
            """
        // In a PID namespace of its own where it can have one (as root): Orca refuses to start
        // while `pgrep -u UID -x orca` finds another, and the Debian 13 root's Orca (the
        // current GNOME's suite, run at the same time) is one to this machine's /proc.
        let arguments = ["-c", lineBuffered, "--user-prefs", folder, "--debug-file", log]
        let alone = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        process = try Bench.start(alone ? "/usr/bin/unshare" : "/usr/bin/python3",
                                  alone ? ["--pid", "--fork", "--mount-proc", "--kill-child", "/usr/bin/python3"] + arguments : arguments,
                                  environment: session.environment())
        // It takes a few seconds to start (a Python program reading the whole desktop).
        guard Bench.eventually(60, { self.lines().contains { $0.text == "Screen reader on." } }) else {
            let output = process.finish(timeout: 2)
            let said = (FileManager.default.contents(atPath: log).map { String(decoding: $0, as: UTF8.self) } ?? "no debug file").suffix(1500)
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey:
                "Orca did not start: \(output.stdout.suffix(500)) \(output.stderr.suffix(1500)); its log: \(said)"])
        }
    }

    deinit { _ = process.stop() }

    /// Everything Orca said so far, in order.
    public func lines() -> [Line] {
        guard let data = FileManager.default.contents(atPath: log) else { return [] }
        // 'words'{'established': False}, or for an echoed key 'tab ' {…}: the words end at
        // the last quote before the brace.
        let spoken = /SPEECH OUTPUT: '(.*)' ?\{[^{]*\}$/
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: spoken) else { return nil }
            let text = String(match.1)
            return Line(text: text.trimmingCharacters(in: .whitespaces), key: text.hasSuffix(" "))
        }
    }

    /// Presses `key` in `window` (by its title; `nil`: where the focus is), waits until Orca
    /// is done with it (``settle(quiet:seconds:)``) and returns what it said beside the key's
    /// own echo. Empty: the key met silence.
    public func press(_ key: String, in session: WindowSession, into window: String? = "^Nudge$") throws -> [Line] {
        let before = lines().count
        if let window { _ = try session.type(key, into: window) } else { _ = try session.press(key) }
        settle()
        return Array(lines().dropFirst(before)).filter { !$0.key }
    }

    /// Waits until Orca has written nothing for `quiet` seconds (up to `seconds`). It logs
    /// every step of every event it takes, so a quiet log is a reader with nothing left to
    /// say; a key pressed sooner makes it drop what it had not said yet for the newer focus,
    /// as a person pressing Tab quickly hears only where they land.
    public func settle(quiet: Double = 1, seconds: Double = 30) {
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: log))?[.size] as? Int) ?? 0 }
        let deadline = Date().addingTimeInterval(seconds)
        var last = size(), since = Date()
        while Date() < deadline {
            usleep(100_000)
            let now = size()
            if now != last { (last, since) = (now, Date()) } else if Date().timeIntervalSince(since) >= quiet { return }
        }
    }
}
