/// The key of a pop-up's action: what the server reports back when the action is chosen.
/// An open set, like ``CloseReason``: Nudge's reminders use the keys below, and `nudge send`
/// passes whatever keys it is given.
public struct ActionKey: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The key on the wire.
    public var rawValue: String
    /// Wraps a key.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A click on the pop-up itself (the freedesktop specification's `default`).
    public static let `default` = ActionKey(rawValue: "default")
    /// Done: the reminder is acknowledged.
    public static let done = ActionKey(rawValue: "done")
    /// Snooze for the alert's snooze length.
    public static let snooze = ActionKey(rawValue: "snooze")
    /// Done for today: the rest of the alert's local day is skipped.
    public static let skipToday = ActionKey(rawValue: "skip-today")
    /// Drank a cup, on a water reminder.
    public static let drink = ActionKey(rawValue: "drink")

    /// The key as it is on the wire.
    public var description: String { rawValue }
}
