/// A day on the proleptic gregorian calendar, as a count of days since 1970-01-01.
///
/// Pure integer arithmetic (Howard Hinnant's civil-date algorithms): no `Calendar`, no
/// locale, no time zone, and nothing that can search backwards.
public struct CivilDay: Sendable, Hashable, Comparable, Strideable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int

    /// The day with that count.
    public init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

    /// The day with that year, month (1–12) and day of month (1–31); `nil` when it does
    /// not exist (February 30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDay.daysIn(month: month, year: year) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        daysSinceEpoch = era * 146_097 + doe - 719_468
    }

    /// Year, month and day of month.
    public var components: (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday(rawValue: ((daysSinceEpoch % 7 + 7) % 7 + 4) % 7)!
    }

    /// Whether the year is a leap year.
    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// How many days the month has.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (y, m, d) = components
        return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    public static func < (a: CivilDay, b: CivilDay) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
    public func distance(to other: CivilDay) -> Int { other.daysSinceEpoch - daysSinceEpoch }
    public func advanced(by n: Int) -> CivilDay { CivilDay(daysSinceEpoch: daysSinceEpoch + n) }
}

/// A day of the week, Sunday = 0 as in cron.
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// `Mon`, `Tue`, ….
    public var shortName: String { ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][rawValue] }

    /// The short name in the words given (`Mon`, `월`).
    public func shortName(_ language: Language) -> String {
        switch self {
        // TRANSLATORS: short weekday names, as in schedules (Mon–Fri).
        case .sunday: language.tr("Sun")
        case .monday: language.tr("Mon")
        case .tuesday: language.tr("Tue")
        case .wednesday: language.tr("Wed")
        case .thursday: language.tr("Thu")
        case .friday: language.tr("Fri")
        case .saturday: language.tr("Sat")
        }
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A wall-clock time of day, to the second.
public struct LocalTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Seconds since midnight, 0..<86400.
    public var secondOfDay: Int

    /// The time with these fields; `nil` when one is out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        secondOfDay = hour * 3600 + minute * 60 + second
    }

    /// The time a second of the day is; `nil` outside 0..<86400.
    public init?(secondOfDay: Int) {
        guard (0..<86400).contains(secondOfDay) else { return nil }
        self.secondOfDay = secondOfDay
    }

    /// The hour, 0–23.
    public var hour: Int { secondOfDay / 3600 }
    /// The minute, 0–59.
    public var minute: Int { secondOfDay / 60 % 60 }
    /// The second, 0–59.
    public var second: Int { secondOfDay % 60 }

    /// `HH:MM`, with `:SS` when the seconds are not zero.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(hour)):\(two(minute))" + (second == 0 ? "" : ":\(two(second))")
    }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.secondOfDay < b.secondOfDay }
}
