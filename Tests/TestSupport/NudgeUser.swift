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

    /// `nudge list --all --json`, parsed.
    public func list() throws -> [[String: Any]] {
        let out = try nudge("list", "--all", "--json")
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// `nudge log --json`, parsed.
    public func log() throws -> [[String: Any]] {
        let out = try nudge("log", "--json")
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]) ?? []
    }
}

/// One entry of `nudge log --json`: what the daemon or a command recorded, and when (whole
/// seconds, as the log keeps them).
public struct LoggedEvent: Equatable, Sendable, CustomStringConvertible {
    /// `fired`, `caught-up`, `acknowledged`, ….
    public var event: String
    /// When it was recorded.
    public var at: Date
    /// The count shown or missed, where there is one.
    public var count: Int?
    /// More, in words (`since 2026-11-23T21:00:00Z`).
    public var detail: String?

    /// An entry as expected.
    public init(_ event: String, at: Date, count: Int? = nil, detail: String? = nil) {
        (self.event, self.at, self.count, self.detail) = (event, at, count, detail)
    }

    /// An entry of the log's JSON; `nil` when one field is missing.
    public init?(_ json: [String: Any]) {
        guard let event = json["event"] as? String, let text = json["at"] as? String,
              let at = ISO8601DateFormatter().date(from: text) else { return nil }
        self.init(event, at: at, count: json["count"] as? Int, detail: json["detail"] as? String)
    }

    /// `fired at 2026-11-23T21:00:00Z ×1 (detail)`.
    public var description: String {
        "\(event) at \(ISO8601DateFormatter().string(from: at))" + (count.map { " ×\($0)" } ?? "") + (detail.map { " (\($0))" } ?? "")
    }
}
