/// Why a schedule could not be read: which token is wrong and what is accepted instead.
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token as the person typed it.
    public var token: String
    /// What was wrong with it.
    public var problem: String
    /// The forms that are accepted there.
    public var accepted: String

    /// More about what is wrong, when the problem alone does not say it.
    public var detail: String?

    /// Makes the error.
    public init(_ token: String, _ problem: String, detail: String? = nil, accepted: String) {
        self.token = token
        self.problem = problem
        self.detail = detail
        self.accepted = accepted
    }

    /// One line: `invalid duration '0m': it must be more than 0 (use a number with s, m or h…)`.
    public var description: String {
        // Nothing given at all has no token to show (no empty quotes).
        (token.isEmpty && problem.hasPrefix("no ") ? problem : "\(problem) \(token.quotedForMessage())") + (detail.map { ": " + $0 } ?? "") + " (\(accepted))"
    }
}
