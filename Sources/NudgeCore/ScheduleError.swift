/// Why a schedule could not be read: which token is wrong and what is accepted instead, as
/// phrases a person reads in their language (the description is English).
public struct ScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token as the person typed it.
    public var token: String
    /// What was wrong with it.
    public var problem: Phrase
    /// The forms that are accepted there.
    public var accepted: Phrase

    /// More about what is wrong, when the problem alone does not say it.
    public var detail: Phrase?

    /// Makes the error.
    public init(_ token: String, _ problem: Phrase, detail: Phrase? = nil, accepted: Phrase) {
        self.token = token
        self.problem = problem
        self.detail = detail
        self.accepted = accepted
    }

    /// Whether it asks at what time: a day said without a time of day ("tomorrow", "every
    /// monday"), which the person's default reminder time would complete.
    public var wantsTimeOfDay: Bool { problem.template == "no time of day given" }

    /// One line: `invalid duration '0m': it must be more than 0 (use numbers with units…)`.
    public var phrase: Phrase {
        // Nothing given at all has no token to show (no empty quotes).
        let head = token.isEmpty && problem.template.hasPrefix("no ")
            ? problem
            // TRANSLATORS: a schedule error: %1$s is what is wrong, %2$s the token as typed, quoted.
            : Phrase("%1$s %2$s", problem, token.quotedForMessage())
        // TRANSLATORS: a schedule error: %1$s is the problem, %2$s more about it, %3$s what is accepted.
        return detail.map { Phrase("%1$s: %2$s (%3$s)", head, $0, accepted) }
            // TRANSLATORS: a schedule error: %1$s is the problem, %2$s what is accepted.
            ?? Phrase("%1$s (%2$s)", head, accepted)
    }

    public var description: String { phrase.description }
}
