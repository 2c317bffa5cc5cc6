import Foundation

/// Writes instants as ISO-8601 text in a zone, without `DateFormatter` (no locale, no ICU
/// patterns): `2026-03-29T03:00:00+02:00`, or `…Z` in UTC.
public enum InstantFormat {
    /// The instant's local date and time in `zone`, with that zone's offset at the instant.
    public static func iso8601(_ instant: Date, in zone: TimeZone) -> String {
        let (day, second) = CivilZone(zone).local(instant)
        let time = LocalTime(hour: second / 3600, minute: second / 60 % 60, second: second % 60)!
        let clock = "\(time.description.count == 5 ? time.description + ":00" : time.description)"
        return "\(day)T\(clock)\(offset(zone.secondsFromGMT(for: instant)))"
    }

    /// `Z` for zero, else `+HH:MM` / `-HH:MM`.
    public static func offset(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let hh = minutes / 60, mm = minutes % 60
        return "\(sign)\(hh < 10 ? "0" : "")\(hh):\(mm < 10 ? "0" : "")\(mm)"
    }
}
