/// One alert as every face lists it, in words already in the person's language and locale.
public struct AlertRow: Sendable, Equatable {
    /// The alert's full id (hex).
    public var id: String
    /// Switched on.
    public var on: Bool
    /// Why it is not plain on or off, and what waits: "snoozed", "done today ×2"; empty
    /// when there is nothing to say.
    public var state: String
    /// The title, with control characters escaped.
    public var title: String
    /// The schedule in words.
    public var schedule: String
    /// When it fires next, in the locale's format ("—" for never).
    public var next: String

    /// A drink-water reminder (its answers include a drink).
    public var water: Bool

    /// A row with every word given; ``AlertList`` makes them from an alert.
    public init(id: String, on: Bool, state: String, title: String, schedule: String, next: String, water: Bool = false) {
        (self.id, self.on, self.state, self.title, self.schedule, self.next, self.water) = (id, on, state, title, schedule, next, water)
    }
}
