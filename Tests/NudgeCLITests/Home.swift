import Foundation
import TestSupport

/// A person's home for one test: its own XDG_DATA_HOME, a fixed zone, the C locale and
/// no colour unless a test asks otherwise.
final class Home {
    let dir: String
    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-cli-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    var database: String { dir + "/nudge/nudge.sqlite" }

    /// The environment `nudge` runs with; `extra` overrides (nil unsets).
    func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = ["XDG_DATA_HOME": dir, "TZ": "Asia/Seoul", "NO_COLOR": "1", "LANG": "C",
                                              "LC_ALL": nil, "LC_TIME": nil, "DBUS_SESSION_BUS_ADDRESS": nil,
                                              "XDG_RUNTIME_DIR": nil]
        environment.merge(extra) { $1 }
        return environment
    }

    @discardableResult
    func nudge(_ arguments: String..., environment extra: [String: String?] = [:]) throws -> Bench.Outcome {
        try Bench.nudge(arguments, environment: environment(extra))
    }

    @discardableResult
    func nudge(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> Bench.Outcome {
        try Bench.nudge(arguments, environment: environment(extra))
    }

    /// `nudge list --all --json`, parsed.
    func list() throws -> [[String: Any]] {
        let out = try nudge("list", "--all", "--json")
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// `nudge log --json`, parsed.
    func log() throws -> [[String: Any]] {
        let out = try nudge("log", "--json")
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// Adds an alert and returns its short id.
    @discardableResult
    func add(_ arguments: String...) throws -> String {
        try add(arguments)
    }

    /// Adds an alert and returns its short id.
    @discardableResult
    func add(_ arguments: [String]) throws -> String {
        let added = try nudge(["add"] + arguments)
        guard added.status == 0, let id = added.stdout.split(separator: " ").dropFirst().first else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: added.stderr])
        }
        return String(id.dropLast())
    }

    /// Runs `nudge` with its output file a named pipe (`arguments` then the pipe's path, as
    /// `-o /dev/stdout` names one); returns the outcome, what came through the pipe, and
    /// whether the pipe is still one afterwards (not replaced by a file).
    func nudgeIntoPipe(_ arguments: [String]) throws -> (outcome: Bench.Outcome, read: String, stillAPipe: Bool) {
        let pipe = dir + "/pipe", read = dir + "/read"
        unlink(pipe)
        let outcome = try Bench.run("/bin/sh", ["-c", "mkfifo \"$1\" && { cat \"$1\" > \"$2\" & } && shift 2 && \"$0\" \"$@\"; s=$?; wait; exit $s", Bench.nudgePath, pipe, read] + arguments + [pipe],
                                    environment: environment())
        var info = stat()
        let stillAPipe = stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
        return (outcome, (try? String(contentsOfFile: read, encoding: .utf8)) ?? "", stillAPipe)
    }

    /// The database file's bytes.
    func digest() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: database)) }
}
