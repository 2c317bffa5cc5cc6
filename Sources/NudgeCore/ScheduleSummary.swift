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
    /// The schedule in words, e.g. "every 30 min, 09:30–21:30, Mon–Fri" or "daily at 09:00",
    /// in the words given (`--json` keeps the English).
    public func summary(in zone: TimeZone, wording: TimeWording = .iso, words: Wording = .english) -> String {
        switch self {
        case .daily(let times, let days):
            let sorted = times.sorted()
            let dayText = Self.describe(days, words: words)
            if sorted.count >= 3, let step = Self.uniformStep(sorted) {
                let (every, from, to) = (Self.duration(step, words: words), wording.time(sorted[0]), wording.time(sorted[sorted.count - 1]))
                return dayText.isEmpty
                    // TRANSLATORS: a schedule: %1$s is a step (30 min), %2$s and %3$s the window's first and last times.
                    ? format(words.tr("every %1$s, %2$s–%3$s"), every, from, to)
                    // TRANSLATORS: a schedule: %1$s is a step, %2$s–%3$s the window, %4$s the days (Mon–Fri).
                    : format(words.tr("every %1$s, %2$s–%3$s, %4$s"), every, from, to, dayText)
            }
            let at = sorted.map(wording.time).joined(separator: ", ")
            return dayText.isEmpty
                // TRANSLATORS: a schedule: %s is one or more times of day (09:00, 12:00).
                ? format(words.tr("daily at %s"), at)
                // TRANSLATORS: a schedule: %1$s is the days (Mon–Fri, or Sat, Sun), %2$s the times of day.
                : format(words.tr("%1$s at %2$s"), dayText, at)
        case .interval(let seconds, _, let days):
            let dayText = Self.describe(days, words: words)
            let every = Self.duration(seconds, words: words)
            return dayText.isEmpty
                // TRANSLATORS: a schedule: %s is a step (45 min, 1 h 30 min).
                ? format(words.tr("every %s"), every)
                // TRANSLATORS: a schedule: %1$s is a step, %2$s the days (Mon–Fri).
                : format(words.tr("every %1$s, %2$s"), every, dayText)
        case .once(let instant):
            // TRANSLATORS: a one-shot schedule: %s is the date and time.
            return format(words.tr("once, %s"), wording.instant(instant, zone))
        case .cron(let cron):
            // TRANSLATORS: a cron schedule: %s is the expression as given (0 18 * * fri).
            return format(words.tr("cron %s"), cron.text)
        case .afterAnswer(let seconds, let window, let days):
            let every = Self.duration(seconds, words: words)
            let dayText = Self.describe(days, words: words)
            // TRANSLATORS: a schedule counted from the last answer: %s is a step (45 min).
            var text = format(words.tr("%s after the last answer"), every)
            if let window { text += ", \(wording.time(window.start))–\(wording.time(window.end))" }
            if !dayText.isEmpty { text += ", " + dayText }
            return text
        case .restricted(let base, let restriction):
            var text: String
            if case .daily(let times, let days) = base, days.count == 7, let period = restriction.period, period.unit == .day {
                // TRANSLATORS: a schedule: %1$d is a number of days (2 or more), %2$s one or more times of day.
                text = format(words.tr("every %1$d days at %2$s"), period.every, times.sorted().map(wording.time).joined(separator: ", "))
            } else {
                text = base.summary(in: zone, wording: wording, words: words)
                if let period = restriction.period { text += ", " + period.summary(words: words) }
            }
            if !restriction.monthDays.isEmpty {
                let days = restriction.monthDays.map { Restriction.monthDay($0, words: words) }.joined(separator: ", ")
                text += ", " + format(words.tr("%s of the month"), days)
            }
            if !restriction.places.isEmpty {
                // TRANSLATORS: weekdays by their place in the month: %s is a list (first Mon, last Fri).
                text += ", " + format(words.tr("%s of the month"), restriction.places.map { $0.summary(words: words) }.joined(separator: ", "))
            }
            // TRANSLATORS: a schedule's first showing: %s is a date and time.
            if let from = restriction.from { text += ", " + format(words.tr("from %s"), wording.instant(from, zone)) }
            // TRANSLATORS: a schedule's last showing: %s is a date and time.
            if let until = restriction.until { text += ", " + format(words.tr("until %s"), wording.instant(until, zone)) }
            if restriction.except.count == 1, let only = restriction.except.first {
                // TRANSLATORS: a schedule's one left-out showing: %s is a date and time.
                text += ", " + format(words.tr("except %s"), wording.instant(only, zone))
            } else if restriction.except.count > 1 {
                // TRANSLATORS: a schedule's showings left out: %d is how many (2 or more).
                text += ", " + format(words.tr("except %d times"), restriction.except.count)
            }
            return text
        }
    }

    static func uniformStep(_ times: [LocalTime]) -> Int? {
        let step = times[1].secondOfDay - times[0].secondOfDay
        guard step > 0 else { return nil }
        for (a, b) in zip(times, times.dropFirst()) where b.secondOfDay - a.secondOfDay != step { return nil }
        return step
    }

    /// `30 min`, `1 h`, `1 h 30 min`, `90 s`, in the words given.
    public static func duration(_ seconds: Int, words: Wording = .english) -> String {
        // TRANSLATORS: a duration in seconds (90 s).
        if seconds % 60 != 0 { return format(words.tr("%d s"), seconds) }
        let minutes = seconds / 60
        // TRANSLATORS: a duration in minutes (30 min).
        if minutes < 60 { return format(words.tr("%d min"), minutes) }
        return minutes % 60 == 0
            // TRANSLATORS: a duration in hours (2 h).
            ? format(words.tr("%d h"), minutes / 60)
            // TRANSLATORS: a duration in hours and minutes (1 h 30 min).
            : format(words.tr("%1$d h %2$d min"), minutes / 60, minutes % 60)
    }

    /// "" for every day, else `Mon–Fri`, `Sat–Sun`, or a list `Mon, Wed`.
    static func describe(_ days: Set<Weekday>, words: Wording) -> String {
        if days.count == 7 { return "" }
        let order: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let chosen = order.filter(days.contains)
        if chosen.count >= 3, let first = order.firstIndex(of: chosen[0]),
           order[first..<(first + chosen.count)].elementsEqual(chosen) {
            return "\(chosen[0].shortName(words))–\(chosen[chosen.count - 1].shortName(words))"
        }
        return chosen.map { $0.shortName(words) }.joined(separator: ", ")
    }
}
