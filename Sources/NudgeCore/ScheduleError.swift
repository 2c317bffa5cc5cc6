/// Why a schedule could not be read: which token is wrong and what is accepted instead.
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token as the person typed it.
    public var token: String
    /// What was wrong with it.
    public var problem: String
    /// The forms that are accepted there.
    public var accepted: String

    /// Makes the error.
    public init(_ token: String, _ problem: String, accepted: String) {
        self.token = token
        self.problem = problem
        self.accepted = accepted
    }

    /// One line: `invalid time '25:61': hour must be 0–23 (use HH:MM, 24 h, or 9:30am)`.
    public var description: String { "\(problem) '\(token)' (\(accepted))" }
}
