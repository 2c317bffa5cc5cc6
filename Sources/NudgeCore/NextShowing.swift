import Foundation

/// When an alert shows next, given its state, and what in its state moved it: the one
/// answer the daemon's scheduler, `list`, `show`, `next ID` and the bus's `Status` share,
/// so what a person reads is what the daemon will do.
public struct NextShowing: Sendable, Hashable {
    /// The instant it shows next; `nil` when never (off, or a schedule that is over).
    public var instant: Date?
    /// What moved it away from the bare schedule, if anything.
    public var reason: Reason?
    /// How many times it came up unanswered (its pop-up may be on screen).
    public var pending: Int32

    /// What in an alert's state moves its next showing.
    public enum Reason: Sendable, Hashable {
        /// Switched off: it never shows until switched on.
        case off
        /// Snoozed: it shows again then, before its next scheduled time.
        case snoozed(until: Date)
        /// "Done for today": the rest of that local day is skipped.
        case doneForDay(CivilDay)
    }

    /// The next showing of `alert` in its state, looking from `now` (or from where the
    /// state was last checked, if later). `system` is the zone floating alerts follow.
    public static func of(_ alert: Alert, state: AlertState?, system: TimeZone, now: Date) -> NextShowing {
        let state = state ?? AlertState(checkedUntil: now)
        guard alert.enabled else { return NextShowing(instant: nil, reason: .off, pending: state.pendingCount) }
        let zone = alert.zone(system: system)
        var after = max(state.checkedUntil, now)
        var reason: Reason?
        if let done = state.doneForDay {
            let nextMorning = ZoneClock(zone).instant(done.advanced(by: 1), LocalTime(hour: 0, minute: 0)!).addingTimeInterval(-0.001)
            if nextMorning > after {
                after = nextMorning
                reason = .doneForDay(done)
            }
        }
        var next = alert.schedule.occurrences(after: after, count: 1, in: zone).first
        if let snooze = state.snoozedUntil, next.map({ snooze <= $0 }) ?? true {
            next = snooze
            reason = .snoozed(until: snooze)
        }
        return NextShowing(instant: next, reason: reason, pending: state.pendingCount)
    }
}
