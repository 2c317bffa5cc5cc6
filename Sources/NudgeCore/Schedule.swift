import Foundation

/// When an alert fires.
public enum Schedule: Sendable, Hashable, Codable {
    /// At these wall-clock times on the chosen weekdays (all days by default). An
    /// `--every` window is this too: its times are laid out from the window's start.
    case daily(times: [LocalTime], days: Set<Weekday>)
    /// Every `seconds` from `anchor`, on the chosen weekdays of the zone.
    case interval(seconds: Int, anchor: Date, days: Set<Weekday>)
    /// Once, at an instant.
    case once(Date)
    /// A cron expression.
    case cron(CronExpression)
    /// Every `seconds` after the last answer (Done, or a drink for a water reminder) or
    /// the last pop-up, whichever came later, inside the daily `window` (all day when
    /// `nil`) on the chosen weekdays. An instant that falls outside moves to the window's
    /// next start; from there the window's times are laid out as `--every` lays them out.
    case afterAnswer(seconds: Int, window: DayWindow?, days: Set<Weekday>)
    /// A daily, interval or cron schedule narrowed as a calendar's rule narrows it: every
    /// Nth day, week, month or year, a first and a last instant, instants left out.
    indirect case restricted(Schedule, Restriction)
    /// On arriving at a place or leaving it: no time at all (``occurrences(after:count:in:anchor:)``
    /// is empty); the daemon's place sources fire it through ``Scheduler/place(_:now:)``.
    case place(PlaceTrigger)

    /// Every day of the week.
    public static let everyDay = Set(Weekday.allCases)

    /// The next `count` instants strictly after `after`, in `zone`, following the DST rules
    /// of ``CivilZone``. Fewer come back when the schedule ends (a one-shot) or matches no
    /// day within eight years (a cron expression for February 31).
    ///
    /// An ``afterAnswer(seconds:window:days:)`` schedule counts from `anchor`, the last
    /// answer or pop-up; without one, from `after`.
    public func occurrences(after: Date, count: Int, in zone: TimeZone, anchor: Date? = nil) -> [Date] {
        guard count > 0 else { return [] }
        let clock = CivilZone(zone)
        switch self {
        case .once(let instant):
            return instant > after ? [instant] : []
        case .interval(let seconds, let anchor, let days):
            var result: [Date] = []
            let step = Double(seconds)
            var n = max(0, ((after.timeIntervalSince(anchor)) / step).rounded(.down) + 1)
            // Skipping whole weeks of unchosen days is bounded: at most 8 days of steps.
            var misses = 0
            while result.count < count && misses < 8 * 86400 / max(seconds, 1) + 8 {
                let t = anchor.addingTimeInterval(n * step)
                n += 1
                if t <= after { continue }
                if days.count == 7 || days.contains(clock.local(t).day.weekday) {
                    result.append(t)
                    misses = 0
                } else {
                    misses += 1
                }
            }
            return result
        case .daily(let times, let days):
            return Self.walkDays(after: after, count: count, clock: clock, times: times.sorted()) { days.contains($0.weekday) }
        case .cron(let cron):
            return Self.walkDays(after: after, count: count, clock: clock, times: cron.times) { cron.matches($0) }
        case .afterAnswer(let seconds, let window, let days):
            let from = anchor ?? after
            guard let window else {
                // Strictly after the anchor: an answer is not a reminder.
                return Schedule.interval(seconds: seconds, anchor: from, days: days).occurrences(after: max(after, from), count: count, in: zone)
            }
            // The steps after the anchor that stay inside the window they fall in...
            var result: [Date] = []
            var t = from.addingTimeInterval(TimeInterval(seconds))
            let local = clock.local(t)
            var rest = t
            if days.contains(local.day.weekday), window.contains(local.second) {
                let end = clock.instant(local.day, window.end)
                while t <= end && result.count < count {
                    if t > after { result.append(t) }
                    t = t.addingTimeInterval(TimeInterval(seconds))
                }
                rest = end
            }
            // ...then the window's own times, from its next start on.
            guard result.count < count else { return result }
            return result + Self.walkDays(after: max(after, rest), count: count - result.count, clock: clock,
                                          times: window.times(every: seconds)) { days.contains($0.weekday) }
        case .restricted(let base, let restriction):
            return Self.occurrences(of: base, restriction, after: after, count: count, clock: clock, zone: zone, anchor: anchor)
        case .place:
            return []
        }
    }

    /// Walks local days from the one `after` falls on, trying each time of each matching
    /// day (only the days of `period`, and none after `last`); instants come out strictly
    /// increasing (two gap times that both land on the gap's end count once). It goes as
    /// far as a matching day can be: fewer instants come back only when no day matches again.
    static func walkDays(after: Date, count: Int, clock: CivilZone, times: [LocalTime], period: Period? = nil, through last: CivilDay? = nil,
                         matches: (CivilDay) -> Bool) -> [Date] {
        guard !times.isEmpty else { return [] }
        var result: [Date] = []
        var latest = after
        // The local day `after` falls on is the first that can hold a later instant: a
        // repeated hour of the day before happened first, and that is the one we fire.
        var next = clock.local(after).day
        while let day = firstDay(from: next, through: last, period: period, matches: matches) {
            let resolve = clock.resolver(for: day)
            for time in times {
                let t = Date(timeIntervalSince1970: TimeInterval(resolve(time)))
                if t > latest {
                    result.append(t)
                    latest = t
                    if result.count == count { return result }
                }
            }
            next = day.advanced(by: 1)
        }
        return result
    }
}

/// A daily window of wall-clock times, both ends included: `--from 09:30 --until 21:30`.
public struct DayWindow: Sendable, Hashable, Codable {
    /// Its first time.
    public var start: LocalTime
    /// Its last time (included).
    public var end: LocalTime

    /// A window; `nil` when it ends before it starts.
    public init?(start: LocalTime, end: LocalTime) {
        guard start <= end else { return nil }
        (self.start, self.end) = (start, end)
    }

    /// Whether a second of the day lies inside.
    public func contains(_ secondOfDay: Int) -> Bool {
        (start.secondOfDay...end.secondOfDay).contains(secondOfDay)
    }

    /// Its times every `seconds` from its start: what `--every` fires on.
    public func times(every seconds: Int) -> [LocalTime] {
        stride(from: start.secondOfDay, through: end.secondOfDay, by: max(seconds, 1)).map {
            LocalTime(hour: $0 / 3600, minute: $0 / 60 % 60, second: $0 % 60)!
        }
    }
}
