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

    /// A showing with every part given.
    public init(instant: Date?, reason: Reason?, pending: Int32) {
        (self.instant, self.reason, self.pending) = (instant, reason, pending)
    }

    /// What in an alert's state moves its next showing.
    public enum Reason: Sendable, Hashable {
        /// Switched off: it never shows until switched on.
        case off
        /// Snoozed: it shows again then, before its next scheduled time.
        case snoozed(until: Date)
        /// "Done for today": the rest of that local day is skipped.
        case doneForDay(CivilDay)
        /// A water reminder whose day's goal is met: the rest of that drink day, up to
        /// `until`, is skipped.
        case goalMet(until: Date)
    }

    /// The next showing of `alert` in its state, looking from `now` (or from where the
    /// state was last checked, if later). `system` is the zone floating alerts follow;
    /// `water`, the day's water, which water reminders follow.
    public static func of(_ alert: Alert, state: AlertState?, system: TimeZone, now: Date,
                          water: WaterProgress? = nil) -> NextShowing {
        let state = state ?? AlertState(checkedUntil: now)
        guard alert.enabled else { return NextShowing(instant: nil, reason: .off, pending: state.pendingCount) }
        let zone = alert.zone(system: system)
        var after = max(state.checkedUntil, now)
        var reason: Reason?
        if let done = state.doneForDay {
            let nextMorning = CivilZone(zone).instant(done.advanced(by: 1), LocalTime(hour: 0, minute: 0)!).addingTimeInterval(-0.001)
            if nextMorning > after {
                after = nextMorning
                reason = .doneForDay(done)
            }
        }
        if alert.kind == .water, let until = goalMet(state, water: water, at: after), until > after {
            after = until.addingTimeInterval(-0.001)
            reason = .goalMet(until: until)
        }
        var next = alert.schedule.occurrences(after: after, count: 1, in: zone, anchor: anchor(alert, state: state, water: water)).first
        if let snooze = state.snoozedUntil, next.map({ snooze <= $0 }) ?? true {
            next = snooze
            reason = .snoozed(until: snooze)
        }
        return NextShowing(instant: next, reason: reason, pending: state.pendingCount)
    }

    /// Until when a water reminder is skipped because the day's goal is met; `nil` when it is not.
    static func goalMet(_ state: AlertState, water: WaterProgress?, at instant: Date) -> Date? {
        if let water, water.goalMet(at: instant) { return water.end }
        return state.goalMetUntil
    }

    /// What an after-answer schedule counts from: the last answer, the last pop-up, the
    /// last drink (for a water reminder) or the alert's creation, whichever came last.
    public static func anchor(_ alert: Alert, state: AlertState, water: WaterProgress?) -> Date? {
        guard case .afterAnswer = alert.schedule else { return nil }
        let drink = alert.kind == .water ? water?.lastDrink : nil
        return [state.lastAnswer, state.lastFired, drink, alert.created].compactMap { $0 }.max()
    }
}
