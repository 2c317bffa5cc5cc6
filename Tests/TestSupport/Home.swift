import Foundation

/// A person's home for one test: its own XDG_DATA_HOME, a fixed zone, the C locale and
/// no colour unless a test asks otherwise. No bus: for a session, see ``Desktop``.
public final class Home: NudgeUser {
    /// The folder (the data home).
    public let dir: String

    /// A new, empty home.
    public init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-cli-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// The store's path.
    public var database: String { dir + "/nudge/nudge.sqlite" }

    /// The environment `nudge` runs with; `extra` overrides (nil unsets).
    public func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = ["XDG_DATA_HOME": dir, "TZ": "Asia/Seoul", "NO_COLOR": "1", "LANG": "C",
                                              "LC_ALL": nil, "LC_TIME": nil, "DBUS_SESSION_BUS_ADDRESS": nil,
                                              "XDG_RUNTIME_DIR": nil]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Adds an alert and returns its short id.
    @discardableResult
    public func add(_ arguments: String...) throws -> String {
        try add(arguments)
    }

    /// Adds an alert and returns its short id.
    @discardableResult
    public func add(_ arguments: [String]) throws -> String {
        let added = try nudge(["add"] + arguments)
        guard added.status == 0, let id = added.stdout.split(separator: " ").dropFirst().first else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: added.stderr])
        }
        return String(id.dropLast())
    }

    /// Runs `nudge` with its output file a named pipe (`arguments` then the pipe's path, as
    /// `-o /dev/stdout` names one); returns the outcome, what came through the pipe, and
    /// whether the pipe is still one afterwards (not replaced by a file).
    public func nudgeIntoPipe(_ arguments: [String]) throws -> (outcome: Bench.Outcome, read: String, stillAPipe: Bool) {
        let pipe = dir + "/pipe", read = dir + "/read"
        unlink(pipe)
        let outcome = try Bench.run("/bin/sh", ["-c", "mkfifo \"$1\" && { cat \"$1\" > \"$2\" & } && shift 2 && \"$0\" \"$@\"; s=$?; wait; exit $s", Bench.nudgePath, pipe, read] + arguments + [pipe],
                                    environment: environment())
        var info = stat()
        let stillAPipe = stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
        return (outcome, (try? String(contentsOfFile: read, encoding: .utf8)) ?? "", stillAPipe)
    }

    /// The database file's bytes.
    public func digest() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: database)) }

    /// Runs `nudge` with input it must refuse and says where it broke the house rule for bad
    /// input: exit 64, ONE line on stderr naming what was wrong (the whole line, with its
    /// newline, when `line` is given; a line containing `mentions` otherwise), and the store
    /// byte-for-byte as it was. One finding per broken part; none when it kept to the rule,
    /// so a test says `#expect(try home.refuses(…) == [])` and a failure shows what broke.
    public func refuses(_ arguments: [String], line: String? = nil, mentions: String? = nil) throws -> [String] {
        let before = try digest()
        let outcome = try nudge(arguments)
        var findings: [String] = []
        if outcome.status != 64 { findings.append("exit status \(outcome.status), not 64") }
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if lines.count != 1 || !outcome.stderr.hasSuffix("\n") { findings.append("stderr is not one line: \(outcome.stderr.debugDescription)") }
        if let line, outcome.stderr != line { findings.append("stderr is \(outcome.stderr.debugDescription), not \(line.debugDescription)") }
        if let mentions, !outcome.stderr.contains(mentions) { findings.append("stderr \(outcome.stderr.debugDescription) does not mention \(mentions.debugDescription)") }
        if try digest() != before { findings.append("the store changed") }
        return findings
    }
}
