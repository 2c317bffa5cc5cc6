import Foundation

extension Schedule {
    /// What narrows a schedule the way a calendar's recurrence rule does: only every Nth
    /// day, week, month or year, not before a first instant, not after a last one, and not
    /// at instants left out (RRULE's INTERVAL, DTSTART, UNTIL or COUNT, and EXDATE).
    public struct Restriction: Sendable, Hashable, Codable {
        /// Nothing fires before this instant.
        public var from: Date?
        /// Nothing fires after this instant (it may fire at it).
        public var until: Date?
        /// Instants that do not fire.
        public var except: Set<Date>
        /// Only the days of every Nth day, week, month or year.
        public var period: Period?
        /// Only these weekdays by their place in the month (the first Monday, the last
        /// Friday); none: every day the schedule has.
        public var places: [Place]
        /// Only these days of the month: 1…31, or -1…-31 from its end (-1 is its last day);
        /// none: every day the schedule has.
        public var monthDays: [Int]

        public init(from: Date? = nil, until: Date? = nil, except: Set<Date> = [], period: Period? = nil, places: [Place] = [],
                    monthDays: [Int] = []) {
            (self.from, self.until, self.except, self.period, self.places) = (from, until, except, period, places)
            self.monthDays = monthDays
        }

        /// Whether it narrows nothing.
        public var isEmpty: Bool { from == nil && until == nil && except.isEmpty && period == nil && places.isEmpty && monthDays.isEmpty }

        /// Whether it keeps only some days (a period, places, days of the month): what steps
        /// of elapsed time, whose days are not a calendar's, cannot take.
        public var narrowsDays: Bool { period != nil || !places.isEmpty || !monthDays.isEmpty }

        /// Whether a day is one it keeps: in a period, one of the places and one of the days
        /// of the month when there are any.
        public func includes(_ day: CivilDay) -> Bool {
            guard period?.contains(day) ?? true, places.isEmpty || places.contains(where: { $0.matches(day) }) else { return false }
            guard !monthDays.isEmpty else { return true }
            let (year, month, date) = day.components
            let fromEnd = date - CivilDay.daysIn(month: month, year: year) - 1
            return monthDays.contains { $0 == date || $0 == fromEnd }
        }

        /// `day 13`, `the last day`, `day 2 from the end`, in the words given.
        public static func monthDay(_ day: Int, words: Wording = .english) -> String {
            // TRANSLATORS: a day of the month by its number: %d is 1 to 31.
            if day > 0 { return format(words.tr("day %d"), day) }
            // TRANSLATORS: the last day of the month.
            if day == -1 { return words.tr("the last day") }
            // TRANSLATORS: a day of the month counted from its end: %d is 2 to 31 (2: the day before the last).
            return format(words.tr("day %d from the end"), -day)
        }

        /// The most instants one schedule leaves out.
        public static let maxExcept = 10_000
    }

    /// A weekday by its place in its month: the first Monday is (1, Monday), the last
    /// Friday (-1, Friday); place 0 is every such weekday (RRULE's `BYDAY=MO,1FR`).
    public struct Place: Sendable, Hashable, Codable {
        /// -5…5: from the month's start, from its end, or 0 for every one.
        public var place: Int
        public var weekday: Weekday

        /// A place; `nil` outside -5…5.
        public init?(_ place: Int, _ weekday: Weekday) {
            guard (-5...5).contains(place) else { return nil }
            (self.place, self.weekday) = (place, weekday)
        }

        /// `first Mon`, `last Fri`, `each Wed`, in the words given.
        public func summary(words: Wording = .english) -> String {
            let day = weekday.shortName(words)
            switch place {
            // TRANSLATORS: a weekday of the month, every one of them: %s is the weekday (Mon).
            case 0: return format(words.tr("each %s"), day)
            // TRANSLATORS: the first such weekday of the month: %s is the weekday (Mon).
            case 1: return format(words.tr("first %s"), day)
            // TRANSLATORS: the second such weekday of the month: %s is the weekday (Mon).
            case 2: return format(words.tr("second %s"), day)
            // TRANSLATORS: the third such weekday of the month: %s is the weekday (Mon).
            case 3: return format(words.tr("third %s"), day)
            // TRANSLATORS: the fourth such weekday of the month: %s is the weekday (Mon).
            case 4: return format(words.tr("fourth %s"), day)
            // TRANSLATORS: the fifth such weekday of the month: %s is the weekday (Mon).
            case 5: return format(words.tr("fifth %s"), day)
            // TRANSLATORS: the last such weekday of the month: %s is the weekday (Fri).
            case -1: return format(words.tr("last %s"), day)
            // TRANSLATORS: the second-to-last such weekday of the month: %s is the weekday (Fri).
            case -2: return format(words.tr("second-to-last %s"), day)
            // TRANSLATORS: the third-to-last such weekday of the month: %s is the weekday (Fri).
            case -3: return format(words.tr("third-to-last %s"), day)
            // TRANSLATORS: the fourth-to-last such weekday of the month: %s is the weekday (Fri).
            case -4: return format(words.tr("fourth-to-last %s"), day)
            // TRANSLATORS: the fifth-to-last such weekday of the month: %s is the weekday (Fri).
            default: return format(words.tr("fifth-to-last %s"), day)
            }
        }

        public func matches(_ day: CivilDay) -> Bool {
            guard day.weekday == weekday else { return false }
            guard place != 0 else { return true }
            let (year, month, date) = day.components
            return place > 0 ? (date - 1) / 7 + 1 == place : (CivilDay.daysIn(month: month, year: year) - date) / 7 + 1 == -place
        }
    }

    /// Every `every`th day, week, month or year, counted from the one holding `anchor`.
    public struct Period: Sendable, Hashable, Codable {
        public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
            case day, week, month, year
        }

        public var unit: Unit
        /// 2 or more; a period lasts at most ``maxDays``.
        public var every: Int
        /// A day of the first period.
        public var anchor: CivilDay
        /// The day weeks start on (RRULE's WKST, Monday by default).
        public var weekStart: Weekday

        /// A period; `nil` for one of fewer than 2 units or longer than ``maxDays``.
        public init?(unit: Unit, every: Int, anchor: CivilDay, weekStart: Weekday = .monday) {
            guard every >= 2 else { return nil }
            (self.unit, self.every, self.anchor, self.weekStart) = (unit, every, anchor, weekStart)
            guard every <= Self.maxDays, longestDays <= Self.maxDays else { return nil }
        }

        /// The longest period, in days: a century.
        public static let maxDays = 36_600

        /// Whether a day lies in one of the periods.
        public func contains(_ day: CivilDay) -> Bool {
            let distance = index(day) - index(anchor)
            return (distance % every + every) % every == 0
        }

        /// The period's number since 1970: days, weeks starting on ``weekStart``, months, years.
        private func index(_ day: CivilDay) -> Int {
            switch unit {
            case .day:
                return day.daysSinceEpoch
            case .week:
                // 1970-01-01 was a Thursday (raw value 4).
                let shifted = day.daysSinceEpoch - (weekStart.rawValue - 4)
                return shifted >= 0 ? shifted / 7 : (shifted - 6) / 7
            case .month:
                let (year, month, _) = day.components
                return year * 12 + month - 1
            case .year:
                return day.components.year
            }
        }

        /// `every 2 weeks`, in the words given.
        public func summary(words: Wording = .english) -> String {
            switch unit {
            // TRANSLATORS: a schedule's period: %d is a number of days (2 or more).
            case .day: format(words.tr("every %d days"), every)
            // TRANSLATORS: a schedule's period: %d is a number of weeks (2 or more).
            case .week: format(words.tr("every %d weeks"), every)
            // TRANSLATORS: a schedule's period: %d is a number of months (2 or more).
            case .month: format(words.tr("every %d months"), every)
            // TRANSLATORS: a schedule's period: %d is a number of years (2 or more).
            case .year: format(words.tr("every %d years"), every)
            }
        }

        /// How many days a period can last: how far a walk over days must look ahead.
        var longestDays: Int {
            switch unit {
            case .day: every
            case .week: every * 7
            case .month: every * 31
            case .year: every * 366
            }
        }
    }

    /// How many days ahead a walk looks for a matching day: 8 years (a cron expression for
    /// February 29 in a century year), and 8 periods more.
    public static func horizon(_ period: Period?) -> Int {
        8 * 366 + 2 + (period?.longestDays ?? 0) * 8
    }

    /// The schedule without its restriction.
    public var unrestricted: Schedule {
        if case .restricted(let base, _) = self { return base }
        return self
    }

    /// The last instant it can fire at, when it ends: a one-shot's, or a restriction's end.
    public var end: Date? {
        switch self {
        case .once(let instant): instant
        case .restricted(_, let restriction): restriction.until
        default: nil
        }
    }

    /// ``occurrences(after:count:in:anchor:)`` of a restricted schedule: the base's, less
    /// what the restriction leaves out. A period filters days before their times are
    /// resolved, so a rule every 5 years does not walk every day's times. A place in the
    /// month (the fifth Monday) can be a year away: the walk looks 8 years further.
    static func occurrences(of base: Schedule, _ restriction: Restriction, after: Date, count: Int, clock: ZoneClock,
                            zone: TimeZone, anchor: Date?) -> [Date] {
        var result: [Date] = []
        var cursor = max(after, restriction.from.map { $0.addingTimeInterval(-0.001) } ?? after)
        // A few more than asked for: times left out are few (a walk goes on when they are not).
        let batch = min(count + 4, 512)
        let horizon = horizon(restriction.period)
        while result.count < count {
            if let until = restriction.until, cursor >= until { break }
            let found: [Date] = switch base {
            case .daily(let times, let days):
                walkDays(after: cursor, count: batch, clock: clock, times: times.sorted(), horizon: horizon) {
                    days.contains($0.weekday) && restriction.includes($0)
                }
            case .cron(let cron):
                walkDays(after: cursor, count: batch, clock: clock, times: cron.times, horizon: horizon) {
                    cron.matches($0) && restriction.includes($0)
                }
            default:
                // Steps of elapsed time: no days narrowed (see `narrowsDays`).
                base.occurrences(after: cursor, count: batch, in: zone, anchor: anchor)
            }
            guard let last = found.last else { break }
            for instant in found {
                if let until = restriction.until, instant > until { return result }
                if restriction.except.contains(instant) { continue }
                result.append(instant)
                if result.count == count { break }
            }
            cursor = last
        }
        return result
    }
}
