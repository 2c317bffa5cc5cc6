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
        /// Nothing ahead, but it came up since the state was last checked (`since` the
        /// first time) with nothing there to show it (the daemon stopped): due, and
        /// waiting. The daemon shows it as soon as it runs, once, as its catch-up; the
        /// instant is when it came due. A one-shot due while the service was stopped
        /// vanished from the list (issue 52).
        case due(since: Date)
    }

    /// The next showing of `alert` in its state, looking from `now` (or from where the
    /// state was last checked, if later). `system` is the zone floating alerts follow;
    /// `water`, the day's water, which water reminders follow.
    public static func of(_ alert: Alert, state: AlertState?, system: TimeZone, now: Date,
                          water: WaterProgress? = nil) -> NextShowing {
        let stored = state
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
        // Nothing ahead, but it came up while nothing showed it (a one-shot due while the
        // daemon was stopped; without a state yet, owing what came up since it was made, as
        // the daemon counts): due and waiting, not gone.
        if next == nil, reason == nil,
           let due = due(alert, state: stored ?? AlertState(checkedUntil: min(now, alert.created)), zone: zone, now: now, water: water) {
            return NextShowing(instant: due.at, reason: .due(since: due.since), pending: state.pendingCount)
        }
        return NextShowing(instant: next, reason: reason, pending: state.pendingCount)
    }

    /// What came up between the state's last check and `now` that the daemon's catch-up
    /// will show when it runs: a showing within the alert's catch-up grace, nothing snoozed,
    /// done for the day or met; `nil` otherwise (a running daemon keeps the state checked
    /// up to now, so its own answer, from `checkedUntil`, never has one).
    /// One showing at most ``lateTolerance`` late is shown as it is, whatever the catch-up
    /// (the scheduler's rule: late, not missed).
    static func due(_ alert: Alert, state: AlertState, zone: TimeZone, now: Date, water: WaterProgress?) -> (at: Date, since: Date)? {
        guard now > state.checkedUntil, state.snoozedUntil == nil, state.doneForDay == nil else { return nil }
        if alert.kind == .water, goalMet(state, water: water, at: now) != nil { return nil }
        let anchor = anchor(alert, state: state, water: water)
        var reach = lateTolerance
        if case .once(let grace) = alert.catchUp { reach = max(reach, TimeInterval(grace)) }
        let window = max(state.checkedUntil, now.addingTimeInterval(-reach))
        guard let at = alert.schedule.occurrences(after: window, count: 1, in: zone, anchor: anchor).first, at <= now,
              let since = alert.schedule.occurrences(after: state.checkedUntil, count: 1, in: zone, anchor: anchor).first
        else { return nil }
        return (at, since)
    }

    /// How late a showing may be and still be shown as it is, not as missed: the
    /// scheduler's default (``Scheduler/lateTolerance``).
    public static let lateTolerance: TimeInterval = 60

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
