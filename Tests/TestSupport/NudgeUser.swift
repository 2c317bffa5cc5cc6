import Foundation

/// Someone who runs the built `nudge` as a person would, in an environment of their own:
/// a ``Home`` (a data folder) or a ``Desktop`` (a whole session). What both do is here once.
public protocol NudgeUser {
    /// The environment `nudge` runs with; `extra` overrides (nil unsets).
    func environment(_ extra: [String: String?]) -> [String: String?]
}

extension NudgeUser {
    /// Runs the built `nudge` with arguments.
    @discardableResult
    public func nudge(_ arguments: String..., environment extra: [String: String?] = [:]) throws -> Bench.Outcome {
        try Bench.nudge(arguments, environment: environment(extra))
    }

    /// Runs the built `nudge` with an argument list.
    @discardableResult
    public func nudge(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> Bench.Outcome {
        try Bench.nudge(arguments, environment: environment(extra))
    }

    /// `nudge log --json`, parsed.
    public func log() throws -> [[String: Any]] {
        let out = try nudge("log", "--json")
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]) ?? []
    }
}
