import Foundation

/// How a schedule's times are written: 24-hour ISO by default; the CLI passes the
/// person's locale ("오전 9:30", "9:30 AM").
public struct TimeWording: Sendable {
    /// A wall-clock time.
    public var time: @Sendable (LocalTime) -> String
    /// An instant, in a zone.
    public var instant: @Sendable (Date, TimeZone) -> String

    public init(time: @escaping @Sendable (LocalTime) -> String, instant: @escaping @Sendable (Date, TimeZone) -> String) {
        self.time = time
        self.instant = instant
    }

    /// `09:30` and `2026-12-01T09:00:00+01:00`: the same in every locale.
    public static let iso = TimeWording(time: \.description, instant: InstantFormat.iso8601)
}

extension Schedule {
    /// The schedule in words, e.g. "every 30 min, 09:30–21:30, Mon–Fri" or "daily at 09:00".
    public func summary(in zone: TimeZone, wording: TimeWording = .iso) -> String {
        switch self {
        case .daily(let times, let days):
            let sorted = times.sorted()
            let dayText = Self.describe(days)
            if sorted.count >= 3, let step = Self.uniformStep(sorted) {
                return "every \(Self.duration(step)), \(wording.time(sorted[0]))–\(wording.time(sorted[sorted.count - 1]))" + (dayText.isEmpty ? "" : ", \(dayText)")
            }
            let at = sorted.map(wording.time).joined(separator: ", ")
            return dayText.isEmpty ? "daily at \(at)" : "\(dayText) at \(at)"
        case .interval(let seconds, _, let days):
            let dayText = Self.describe(days)
            return "every \(Self.duration(seconds))" + (dayText.isEmpty ? "" : ", \(dayText)")
        case .once(let instant):
            return "once, " + wording.instant(instant, zone)
        case .cron(let cron):
            return "cron \(cron.text)"
        }
    }

    static func uniformStep(_ times: [LocalTime]) -> Int? {
        let step = times[1].secondOfDay - times[0].secondOfDay
        guard step > 0 else { return nil }
        for (a, b) in zip(times, times.dropFirst()) where b.secondOfDay - a.secondOfDay != step { return nil }
        return step
    }

    /// `30 min`, `1 h`, `1 h 30 min`, `90 s`.
    public static func duration(_ seconds: Int) -> String {
        if seconds % 60 != 0 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// "" for every day, else `Mon–Fri`, `Sat–Sun`, or a list `Mon, Wed`.
    static func describe(_ days: Set<Weekday>) -> String {
        if days.count == 7 { return "" }
        let order: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let chosen = order.filter(days.contains)
        if chosen.count >= 3, let first = order.firstIndex(of: chosen[0]),
           order[first..<(first + chosen.count)].elementsEqual(chosen) {
            return "\(chosen[0].shortName)–\(chosen[chosen.count - 1].shortName)"
        }
        return chosen.map(\.shortName).joined(separator: ", ")
    }
}
