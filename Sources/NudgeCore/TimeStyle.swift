import Foundation

/// How a schedule's times are written: 24-hour ISO by default; the CLI passes the
/// person's locale ("오전 9:30", "9:30 AM").
public struct TimeStyle: Sendable {
    /// A wall-clock time.
    public var time: @Sendable (LocalTime) -> String
    /// An instant, in a zone.
    public var instant: @Sendable (Date, TimeZone) -> String
    /// An instant with its year, for what a schedule says (a one-shot, a first or last
    /// showing): the next showing may leave the year out, a schedule read back may not.
    public var dated: @Sendable (Date, TimeZone) -> String

    public init(time: @escaping @Sendable (LocalTime) -> String, instant: @escaping @Sendable (Date, TimeZone) -> String,
                dated: (@Sendable (Date, TimeZone) -> String)? = nil) {
        self.time = time
        self.instant = instant
        self.dated = dated ?? instant
    }

    /// `09:30` and `2026-12-01T09:00:00+01:00`: the same in every locale.
    public static let iso = TimeStyle(time: \.description, instant: InstantFormat.iso8601)
}
