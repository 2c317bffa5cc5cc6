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

    /// Every day of the week.
    public static let everyDay = Set(Weekday.allCases)

    /// The next `count` instants strictly after `after`, in `zone`, following the DST rules
    /// of ``ZoneClock``. Fewer come back when the schedule ends (a one-shot) or matches no
    /// day within eight years (a cron expression for February 31).
    public func occurrences(after: Date, count: Int, in zone: TimeZone) -> [Date] {
        guard count > 0 else { return [] }
        let clock = ZoneClock(zone)
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
        }
    }

    /// Walks local days from the one `after` falls on, trying each time of each matching
    /// day; instants come out strictly increasing (two gap times that both land on the
    /// gap's end count once).
    static func walkDays(after: Date, count: Int, clock: ZoneClock, times: [LocalTime],
                         matches: (CivilDay) -> Bool) -> [Date] {
        guard !times.isEmpty else { return [] }
        var result: [Date] = []
        var last = after
        // The local day `after` falls on is the first that can hold a later instant: a
        // repeated hour of the day before happened first, and that is the one we fire.
        let start = clock.local(after).day
        for day in start..<start.advanced(by: 8 * 366 + 2) where matches(day) {
            let resolve = clock.resolver(for: day)
            for time in times {
                let t = Date(timeIntervalSince1970: TimeInterval(resolve(time)))
                if t > last {
                    result.append(t)
                    last = t
                    if result.count == count { return result }
                }
            }
        }
        return result
    }
}
