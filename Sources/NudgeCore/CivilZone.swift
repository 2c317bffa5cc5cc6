import Foundation

/// Turns wall-clock times in one time zone into instants and back, with Nudge's DST
/// rules: a local time that does not exist (spring forward) is the instant the gap ends;
/// a local time that happens twice (fall back) is the first of the two.
public struct CivilZone: Sendable {
    /// The zone.
    public let zone: TimeZone

    /// A clock for a zone.
    public init(_ zone: TimeZone) { self.zone = zone }

    func offset(at seconds: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The local day and second of day at an instant.
    public func local(_ instant: Date) -> (day: CivilDay, second: Int) {
        let t = Int(instant.timeIntervalSince1970.rounded(.down))
        let local = t + offset(at: t)
        let day = local >= 0 ? local / 86400 : (local - 86399) / 86400
        return (CivilDay(daysSinceEpoch: day), local - day * 86400)
    }

    /// The instant a wall-clock time happens on a day (see the type's DST rules).
    public func instant(_ day: CivilDay, _ time: LocalTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds(day, time)))
    }

    /// Resolves times on one day: two offset look-ups for the whole day when no offset
    /// change is near (every day but about two a year), the full rules otherwise.
    func resolver(for day: CivilDay) -> (LocalTime) -> Int {
        let midnight = day.daysSinceEpoch * 86400
        let before = offset(at: midnight - 86400), after = offset(at: midnight + 2 * 86400)
        // Offsets change at most once in three days, so equal ends mean no change between.
        if before == after { return { midnight + $0.secondOfDay - before } }
        return { seconds(day, $0) }
    }

    func seconds(_ day: CivilDay, _ time: LocalTime) -> Int {
        let wall = day.daysSinceEpoch * 86400 + time.secondOfDay
        // Zones change offset at most once a day, so the offsets a day either side are
        // the two that can apply.
        let before = offset(at: wall - 86400), after = offset(at: wall + 86400)
        let early = wall - before, late = wall - after
        let earlyValid = offset(at: early) == before, lateValid = offset(at: late) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        case (false, false):
            // In the gap: the clock jumped over this time. Fire when the gap ends.
            let from = Date(timeIntervalSince1970: TimeInterval(min(early, late)))
            guard let end = zone.nextDaylightSavingTimeTransition(after: from) else { return early }
            return Int(end.timeIntervalSince1970.rounded(.up))
        }
    }
}
