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

        public init(from: Date? = nil, until: Date? = nil, except: Set<Date> = [], period: Period? = nil) {
            (self.from, self.until, self.except, self.period) = (from, until, except, period)
        }

        /// Whether it narrows nothing.
        public var isEmpty: Bool { from == nil && until == nil && except.isEmpty && period == nil }

        /// The most instants one schedule leaves out.
        public static let maxExcept = 10_000
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
    /// resolved, so a rule every 5 years does not walk every day's times.
    static func occurrences(of base: Schedule, _ restriction: Restriction, after: Date, count: Int, clock: ZoneClock,
                            zone: TimeZone, anchor: Date?) -> [Date] {
        var result: [Date] = []
        var cursor = max(after, restriction.from.map { $0.addingTimeInterval(-0.001) } ?? after)
        // A few more than asked for: times left out are few (a walk goes on when they are not).
        let batch = min(count + 4, 512)
        let period = restriction.period
        let horizon = horizon(period)
        while result.count < count {
            if let until = restriction.until, cursor >= until { break }
            let found: [Date] = switch base {
            case .daily(let times, let days):
                walkDays(after: cursor, count: batch, clock: clock, times: times.sorted(), horizon: horizon) {
                    days.contains($0.weekday) && period?.contains($0) != false
                }
            case .cron(let cron):
                walkDays(after: cursor, count: batch, clock: clock, times: cron.times, horizon: horizon) {
                    cron.matches($0) && period?.contains($0) != false
                }
            default:
                base.occurrences(after: cursor, count: batch, in: zone, anchor: anchor).filter {
                    period?.contains(clock.local($0).day) != false
                }
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
