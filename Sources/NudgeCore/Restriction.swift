import Foundation

extension Schedule {
    /// What narrows a schedule the way a calendar's recurrence rule does: only every Nth
    /// day, week, month or year, not before a first instant, not after a last one, and not
    /// at instants left out (RRULE's INTERVAL, DTSTART, UNTIL or COUNT, and EXDATE); and the
    /// instants a calendar adds to its rule (RDATE, an occurrence moved by RECURRENCE-ID).
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
        /// Only these days of the month: 1…31, or -1…-31 from its end (-1 is its last day), or
        /// ``lastWeekday`` (0: its last Monday to Friday); none: every day the schedule has.
        public var monthDays: [Int]

        /// The month's last weekday (Monday to Friday), as a day of the month: RRULE's
        /// `BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1` ("the last working day of the month").
        public static let lastWeekday = 0

        /// Whether `day` is its month's last Monday to Friday.
        public static func isLastWeekday(_ day: CivilDay) -> Bool {
            guard ![.saturday, .sunday].contains(day.weekday) else { return false }
            let (year, month, date) = day.components
            let last = CivilDay.daysIn(month: month, year: year)
            // Only weekend days after it.
            return stride(from: date + 1, through: last, by: 1).allSatisfy { d in
                CivilDay(year: year, month: month, day: d).map { [.saturday, .sunday].contains($0.weekday) } ?? true
            }
        }
        /// Instants that fire as well, whatever the rest says (RDATE, and an occurrence a
        /// calendar moved: its old time is in ``except``).
        public var also: Set<Date>

        public init(from: Date? = nil, until: Date? = nil, except: Set<Date> = [], period: Period? = nil, places: [Place] = [],
                    monthDays: [Int] = [], also: Set<Date> = []) {
            (self.from, self.until, self.except, self.period, self.places) = (from, until, except, period, places)
            (self.monthDays, self.also) = (monthDays, also)
        }

        /// Whether it narrows nothing and adds nothing.
        public var isEmpty: Bool {
            from == nil && until == nil && except.isEmpty && period == nil && places.isEmpty && monthDays.isEmpty && also.isEmpty
        }

        /// Whether it only leaves out and adds instants: what a one-shot can have (an event
        /// with RDATEs, or whose one time was moved).
        public var onlyInstants: Bool { from == nil && until == nil && period == nil && places.isEmpty && monthDays.isEmpty }

        /// Whether it keeps only some days (a period, places, days of the month): what steps
        /// of elapsed time, whose days are not a calendar's, cannot take.
        public var narrowsDays: Bool { period != nil || !places.isEmpty || !monthDays.isEmpty }

        /// Whether a day is one it keeps: in a period, one of the places and one of the days
        /// of the month when there are any.
        public func includes(_ day: CivilDay) -> Bool {
            (period?.contains(day) ?? true) && keeps(day)
        }

        /// ``includes(_:)`` for a day of the period (a walk over the period's days).
        func keeps(_ day: CivilDay) -> Bool {
            guard places.isEmpty || places.contains(where: { $0.matches(day) }) else { return false }
            guard !monthDays.isEmpty else { return true }
            let (year, month, date) = day.components
            let fromEnd = date - CivilDay.daysIn(month: month, year: year) - 1
            return monthDays.contains { $0 == date || $0 == fromEnd || ($0 == Self.lastWeekday && Self.isLastWeekday(day)) }
        }

        /// `day 13`, `the last day`, `day 2 from the end`, in the words given.
        public static func monthDay(_ day: Int, language: Language = .english) -> String {
            // TRANSLATORS: a day of the month by its number: %d is 1 to 31.
            if day > 0 { return format(language.tr("day %d"), day) }
            // TRANSLATORS: the last Monday to Friday of the month.
            if day == lastWeekday { return language.tr("the last weekday") }
            // TRANSLATORS: the last day of the month.
            if day == -1 { return language.tr("the last day") }
            // TRANSLATORS: a day of the month counted from its end: %d is 2 to 31 (2: the day before the last).
            return format(language.tr("day %d from the end"), -day)
        }

        /// The most instants one schedule leaves out, and the most it adds.
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
        public func summary(language: Language = .english) -> String {
            let day = weekday.shortName(language)
            switch place {
            // TRANSLATORS: a weekday of the month, every one of them: %s is the weekday (Mon).
            case 0: return format(language.tr("each %s"), day)
            // TRANSLATORS: the first such weekday of the month: %s is the weekday (Mon).
            case 1: return format(language.tr("first %s"), day)
            // TRANSLATORS: the second such weekday of the month: %s is the weekday (Mon).
            case 2: return format(language.tr("second %s"), day)
            // TRANSLATORS: the third such weekday of the month: %s is the weekday (Mon).
            case 3: return format(language.tr("third %s"), day)
            // TRANSLATORS: the fourth such weekday of the month: %s is the weekday (Mon).
            case 4: return format(language.tr("fourth %s"), day)
            // TRANSLATORS: the fifth such weekday of the month: %s is the weekday (Mon).
            case 5: return format(language.tr("fifth %s"), day)
            // TRANSLATORS: the last such weekday of the month: %s is the weekday (Fri).
            case -1: return format(language.tr("last %s"), day)
            // TRANSLATORS: the second-to-last such weekday of the month: %s is the weekday (Fri).
            case -2: return format(language.tr("second-to-last %s"), day)
            // TRANSLATORS: the third-to-last such weekday of the month: %s is the weekday (Fri).
            case -3: return format(language.tr("third-to-last %s"), day)
            // TRANSLATORS: the fourth-to-last such weekday of the month: %s is the weekday (Fri).
            case -4: return format(language.tr("fourth-to-last %s"), day)
            // TRANSLATORS: the fifth-to-last such weekday of the month: %s is the weekday (Fri).
            default: return format(language.tr("fifth-to-last %s"), day)
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

        /// The days from `day` on of the period holding it, or of the next period when none
        /// does: the first of them (`day` itself, or the next period's first day) and the
        /// day after the period's last.
        func span(from day: CivilDay) -> (first: CivilDay, end: CivilDay) {
            let current = index(day), behind = ((current - index(anchor)) % every + every) % every
            let period = behind == 0 ? current : current + every - behind
            return (max(day, start(period)), start(period + 1))
        }

        /// The first day of the period numbered `index` (see ``index(_:)``).
        private func start(_ index: Int) -> CivilDay {
            switch unit {
            case .day:
                return CivilDay(daysSinceEpoch: index)
            case .week:
                return CivilDay(daysSinceEpoch: index * 7 + weekStart.rawValue - 4)
            case .month:
                let year = index >= 0 ? index / 12 : (index - 11) / 12
                return CivilDay(year: year, month: index - year * 12 + 1, day: 1)!
            case .year:
                return CivilDay(year: index, month: 1, day: 1)!
            }
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
        public func summary(language: Language = .english) -> String {
            switch unit {
            // TRANSLATORS: a schedule's period: %d is a number of days (2 or more).
            case .day: format(language.tr("every %d days"), every)
            // TRANSLATORS: a schedule's period: %d is a number of weeks (2 or more).
            case .week: format(language.tr("every %d weeks"), every)
            // TRANSLATORS: a schedule's period: %d is a number of months (2 or more).
            case .month: format(language.tr("every %d months"), every)
            // TRANSLATORS: a schedule's period: %d is a number of years (2 or more).
            case .year: format(language.tr("every %d years"), every)
            }
        }

        /// How many days a period can last (what ``maxDays`` bounds).
        var longestDays: Int {
            switch unit {
            case .day: every
            case .week: every * 7
            case .month: every * 31
            case .year: every * 366
            }
        }
    }

    /// The first day from `start` on (up to `last`, when given) that a period keeps (every
    /// day without one) and `matches` holds; `nil` when there is none, ever. Every day's
    /// weekday, month and month length come back every 400 Gregorian years (146,097 days,
    /// 20,871 weeks, 4,800 months), and a period's days with them after a whole number of
    /// such cycles: a walk over the period's days that finds no match among as many of them
    /// as one cycle holds (``cycleDays(_:)``) never will. Most walks stop on their first
    /// days; one for a day that never comes checks at most 148,800 days.
    @inline(__always)
    public static func firstDay(from start: CivilDay, through last: CivilDay? = nil, period: Period?,
                                matches: (CivilDay) -> Bool) -> CivilDay? {
        // `end`: the day after the period `day` lies in (the next one is looked up there).
        var day = start, end = start
        for _ in 0..<cycleDays(period) {
            if let period, day >= end { (day, end) = period.span(from: day) }
            if let last, day > last { return nil }
            if matches(day) { return day }
            day = day.advanced(by: 1)
        }
        return nil
    }

    /// How many of a period's days (every day without one) one cycle of its days and of the
    /// calendar holds: every N days, `146,097 / gcd(146,097, N)`; weeks, 7 days of
    /// `20,871 / gcd(20,871, N)` of them; months, at most 31 days of `4,800 / gcd(4,800, N)`;
    /// years, at most 366 days of `400 / gcd(400, N)`.
    static func cycleDays(_ period: Period?) -> Int {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        guard let period else { return 146_097 }
        let n = period.every
        switch period.unit {
        case .day: return 146_097 / gcd(146_097, n)
        case .week: return 7 * (20_871 / gcd(20_871, n))
        case .month: return 31 * (4_800 / gcd(4_800, n))
        case .year: return 366 * (400 / gcd(400, n))
        }
    }

    /// The schedule without its restriction.
    public var unrestricted: Schedule {
        if case .restricted(let base, _) = self { return base }
        return self
    }

    /// The last instant it can fire at, when it ends: a one-shot's, or a restriction's end
    /// (or the last instant it adds, when later).
    public var end: Date? {
        switch self {
        case .once(let instant): return instant
        case .restricted(let base, let restriction):
            guard let end = restriction.until ?? base.end else { return nil }
            return max(end, restriction.also.max() ?? end)
        default: return nil
        }
    }

    /// ``occurrences(after:count:in:anchor:)`` of a restricted schedule: the base's, less
    /// what the restriction leaves out, and the instants it adds. A period filters days before their times are
    /// resolved, so a rule every 5 years does not walk every day's times; the walk jumps
    /// from one period to the next and goes as far as a day can be (``firstDay(from:through:period:matches:)``),
    /// and no further than the end.
    static func occurrences(of base: Schedule, _ restriction: Restriction, after: Date, count: Int, clock: CivilZone,
                            zone: TimeZone, anchor: Date?) -> [Date] {
        let ruled = ruledOccurrences(of: base, restriction, after: after, count: count, clock: clock, zone: zone, anchor: anchor)
        guard !restriction.also.isEmpty else { return ruled }
        // The instants added, merged in order (one that the rule gives too counts once).
        let added = restriction.also.filter { $0 > after }.sorted().prefix(count)
        return Array(Set(ruled).union(added).sorted().prefix(count))
    }

    /// The base's instants less what the restriction leaves out (see above).
    private static func ruledOccurrences(of base: Schedule, _ restriction: Restriction, after: Date, count: Int, clock: CivilZone,
                                         zone: TimeZone, anchor: Date?) -> [Date] {
        var result: [Date] = []
        var cursor = max(after, restriction.from.map { $0.addingTimeInterval(-0.001) } ?? after)
        // A few more than asked for: times left out are few (a walk goes on when they are not).
        let batch = min(count + 4, 512)
        // The day after the end's: a zone that turns its clock back over midnight has times
        // of the next day before the end.
        let lastDay = restriction.until.map { clock.local($0).day.advanced(by: 1) }
        // Most restrictions keep every day of their periods: no call per day for them.
        let keepsAll = restriction.places.isEmpty && restriction.monthDays.isEmpty
        while result.count < count {
            if let until = restriction.until, cursor >= until { break }
            let found: [Date] = switch base {
            case .daily(let times, let days):
                walkDays(after: cursor, count: batch, clock: clock, times: times.sorted(), period: restriction.period, through: lastDay) {
                    days.contains($0.weekday) && (keepsAll || restriction.keeps($0))
                }
            case .cron(let cron):
                walkDays(after: cursor, count: batch, clock: clock, times: cron.times, period: restriction.period, through: lastDay) {
                    cron.matches($0) && (keepsAll || restriction.keeps($0))
                }
            default:
                // Steps of elapsed time: no days narrowed (see `narrowsDays`).
                base.occurrences(after: cursor, count: batch, in: zone, anchor: anchor)
            }
            guard let last = found.last else { break }
            for instant in found {
                if let until = restriction.until, instant > until { return result }
                if !restriction.except.isEmpty, restriction.except.contains(instant) { continue }
                result.append(instant)
                if result.count == count { break }
            }
            cursor = last
        }
        return result
    }
}
