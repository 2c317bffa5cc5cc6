import Foundation

/// The pure scheduler: from alerts, their states and an instant it delivers what is due
/// through a ``Delivery``, coalesces what was missed, applies the answers, and says when it
/// wants to run next. It never reads the clock and never waits; the daemon does both.
///
/// This type is the policy; what it keeps lives in three parts: the ``AlertTable`` (alerts,
/// states and the counts over them), the ``WakeQueue`` (when to run next, O(log n) per
/// change) and the ``PopupLedger`` (which pop-up is whose, and answers still coming).
public final class Scheduler {
    private var table: AlertTable
    private var queue: WakeQueue
    private var popups: PopupLedger

    /// Total unacknowledged count: the launcher badge.
    public var totalPending: Int { table.totalPending }
    /// The system zone, for alerts that float.
    public private(set) var systemZone: TimeZone
    /// The words of the person's language for buttons and catch-up lines.
    public let language: Language
    /// An occurrence found up to this late still fires as usual; older ones count as missed.
    public var lateTolerance: TimeInterval = NextShowing.lateTolerance
    /// The day's water, which water reminders follow; `nil` until the daemon says.
    public private(set) var water: WaterProgress?
    /// Whether the person is away (screen locked, do not disturb): alerts that hold
    /// while away count their showings instead of showing them.
    public private(set) var away = false

    private let delivery: Delivery
    /// Alerts whose delivery failed: they wait for ``deliveryRestored(now:)``, not the clock.
    private var blocked: Set<UUID> = []
    /// Alerts whose last pop-up failed after it was handed over; shown again on restore.
    private var undelivered: Set<UUID> = []

    /// The action keys that answer a reminder's pop-up.
    static let answerKeys: Set<ActionKey> = [.default, .done, .snooze, .skipToday, .drink]

    /// A scheduler over alerts. An alert without a state owes what came due since it was
    /// created (an alert added while no daemon ran is not lost).
    public init(alerts: [Alert], states: [UUID: AlertState] = [:], zone: TimeZone, now: Date, delivery: Delivery,
                language: Language = .english) {
        self.systemZone = zone
        self.language = language
        self.delivery = delivery
        table = AlertTable(capacity: alerts.count)
        queue = WakeQueue(capacity: alerts.count)
        popups = PopupLedger(letGo: { delivery.release($0) })
        for alert in alerts where table.position(alert.id) == nil {
            let state = states[alert.id] ?? AlertState(checkedUntil: min(now, alert.created))
            table.insert(alert, state)
            if let shown = state.shownID { popups.up(shown, for: alert.id) }
            reschedule(alert.id)
        }
    }

    /// The alert with an id.
    public func alert(_ id: UUID) -> Alert? { table.alert(id) }

    /// The state of the alert with an id.
    public func state(_ id: UUID) -> AlertState? { table.state(id) }

    /// How many alerts there are.
    public var alertCount: Int { table.count }

    /// Each alert, in no particular order (the desktop's search looks through the titles).
    public func forEachAlert(_ body: (Alert) -> Void) {
        for i in 0..<table.count { body(table.alert(at: i)) }
    }

    /// Every alert's state by id (built on each call: for a few alerts, not in a loop).
    public var states: [UUID: AlertState] { table.states }

    /// The alert whose pop-up has this delivery id now.
    public func alert(shownAs deliveryID: UInt32) -> UUID? { popups.alert(shownAs: deliveryID) }

    /// Marks a state as changed again (its write failed and must be retried).
    public func markChanged(_ id: UUID) { table.markChanged(id) }

    /// The ids whose state changed since the last call: what to write back to the store.
    public func takeChanged() -> Set<UUID> { table.takeChanged() }

    /// When an alert shows next, and why, as the scheduler will do it.
    public func nextShowing(_ id: UUID) -> NextShowing? {
        guard let i = table.position(id) else { return nil }
        let state = table.state(at: i)
        if table.wake(at: i) == 0 && blocked.contains(id) {
            return NextShowing(instant: nil, reason: nil, pending: state.pendingCount)
        }
        return NextShowing.of(table.alert(at: i), state: state, system: systemZone, now: state.checkedUntil, water: water)
    }

    /// When the scheduler wants to run next; `nil` when nothing is ever due.
    public var nextWake: Date? {
        queue.next { table.isCurrent($0.id, generation: $0.generation) }
    }

    /// Whether an enabled water reminder is among the alerts (the launcher then shows the
    /// day's water).
    public var hasWaterReminder: Bool { table.hasEnabledWater }

    /// The actions a pop-up gets (when the server shows actions). Clicking the pop-up
    /// (`default`) is Done too; its label stays empty, as GIO sends it, because servers
    /// that draw `default` as a button (xfce4-notifyd) would otherwise show "Done" twice.
    /// A water reminder offers the drink first: "Drank 250 ml", the cup size.
    public func actions(for alert: Alert) -> [Notification.Action] {
        var actions: [Notification.Action] = [.init(key: .default, label: "")]
        if alert.kind == .water, let water { actions.append(.init(key: .drink, label: language.drank(water.cup))) }
        return actions + [.init(key: .done, label: language.done),
                          .init(key: .snooze, label: language.snooze(minutes: alert.snoozeSeconds / 60)),
                          .init(key: .skipToday, label: language.doneForToday)]
    }

    // MARK: Running

    /// Delivers what is due at `now`, for at most `limit` alerts, and returns what happened.
    /// The daemon fires one alert at a time and records it before the next, so a crash can
    /// repeat at most the one pop-up in flight.
    public func run(now: Date, limit: Int = .max) -> [SchedulerRecord] {
        var records: [SchedulerRecord] = []
        var fired = 0
        while fired < limit, let top = queue.popDue(now) {
            guard let i = table.position(top.id), table.wake(at: i) == top.generation else { continue }
            table.setWake(0, at: i)
            records += fire(top.id, now: now)
            reschedule(top.id)
            fired += 1
        }
        return records
    }

    /// Whether something is due at `now` that ``run(now:limit:)`` has not delivered yet.
    public func isDue(_ now: Date) -> Bool {
        nextWake.map { $0 <= now } ?? false
    }

    /// Fires what is due for one alert. A failed delivery leaves its state untouched and
    /// holds the alert until ``deliveryRestored(now:)``.
    private func fire(_ id: UUID, now: Date) -> [SchedulerRecord] {
        do {
            return try attemptFire(id, now: now)
        } catch {
            blocked.insert(id)
            return [.deliveryFailed(alert: id, error: error)]
        }
    }

    private func attemptFire(_ id: UUID, now: Date) throws(DeliveryError) -> [SchedulerRecord] {
        guard let i = table.position(id) else { return [] }
        let alert = table.alert(at: i)
        guard alert.enabled else { return [] }
        var state = table.state(at: i)
        let zone = alert.zone(system: systemZone)
        let holds = away && alert.holdsWhileAway
        if holds, let snooze = state.snoozedUntil, snooze <= now {
            state.snoozedUntil = nil
            return hold(id, &state, count: 1, since: snooze, latest: nil, now: now)
        }
        if let snooze = state.snoozedUntil, snooze <= now {
            state.pendingCount = max(state.pendingCount, 1)
            let shown = try show(alert, &state, count: state.pendingCount, body: nil, now: now)
            state.snoozedUntil = nil
            startNag(alert, &state, now: now)
            table.setState(id, state)
            return [.snoozeFired(alert: id, deliveryID: shown)]
        }
        let passed = occurrences(of: alert, state: state, zone: zone, through: now)
        if holds, let latest = passed.last {
            return hold(id, &state, count: passed.count, since: passed[0], latest: latest, now: now)
        }
        if !away, state.heldCount > 0 {
            return try showOnReturn(alert, &state, passed: passed, now: now)
        }
        guard let latest = passed.last else {
            if let nag = alert.nag, let at = state.nagAt, at <= now, state.pendingCount > 0 {
                // Never while away: the try is dropped, and the return brings what waits.
                if away {
                    state.nagAt = nil
                } else {
                    return try nagAgain(alert, &state, nag, now: now)
                }
            }
            state.checkedUntil = now
            table.setState(id, state)
            return []
        }
        var records: [SchedulerRecord] = []
        if passed.count == 1 && now.timeIntervalSince(latest) <= lateTolerance {
            let shown = try show(alert, &state, count: state.pendingCount + 1, body: nil, now: now)
            state.pendingCount += 1
            records.append(.fired(alert: id, due: latest, deliveryID: shown, count: state.pendingCount))
        } else if case .once(let grace) = alert.catchUp, now.timeIntervalSince(latest) <= TimeInterval(grace) {
            let since = passed[0]
            let n = Int32(clamping: passed.count)
            let body = language.missed(passed.count, since: Self.clockText(since, zone))
            let shown = try show(alert, &state, count: state.pendingCount + n, body: body, now: now)
            state.pendingCount += n
            records.append(.caughtUp(alert: id, missed: passed.count, since: since, deliveryID: shown))
        } else {
            records.append(.missed(alert: id, count: passed.count, since: passed[0]))
        }
        if records.contains(where: { if case .missed = $0 { false } else { true } }) { startNag(alert, &state, now: now) }
        state.lastFired = latest
        state.checkedUntil = now
        table.setState(id, state)
        return records
    }

    /// A fresh showing starts the alert's follow-ups (when it nags).
    private func startNag(_ alert: Alert, _ state: inout AlertState, now: Date) {
        state.nagAt = alert.nag.map { now.addingTimeInterval(TimeInterval($0.seconds)) }
        state.nagCount = 0
    }

    /// Shows an unanswered pop-up again, the count unchanged (it is the same showing), the
    /// sound replayed; the last third of the tries (the last one at least) are critical.
    private func nagAgain(_ alert: Alert, _ state: inout AlertState, _ nag: Alert.Nag, now: Date) throws(DeliveryError) -> [SchedulerRecord] {
        let attempt = Int(state.nagCount) + 1
        let urgent = attempt > nag.times - max(1, nag.times / 3)
        let shown = try show(alert, &state, count: state.pendingCount, body: nil, now: now, urgency: urgent ? .critical : nil)
        state.nagCount = Int32(attempt)
        state.nagAt = attempt < nag.times ? now.addingTimeInterval(TimeInterval(nag.seconds)) : nil
        state.checkedUntil = now
        table.setState(alert.id, state)
        return [.nagged(alert: alert.id, attempt: attempt, deliveryID: shown)]
    }

    /// Counts showings that came due while the person is away, instead of showing them.
    private func hold(_ id: UUID, _ state: inout AlertState, count: Int, since: Date, latest: Date?, now: Date) -> [SchedulerRecord] {
        state.heldCount += Int32(clamping: count)
        state.heldSince = state.heldSince ?? since
        if let latest { state.lastFired = latest }
        state.checkedUntil = now
        table.setState(id, state)
        return [.held(alert: id, count: count, since: since)]
    }

    /// The person is back: what was held, and what passed since it was last looked at
    /// (the daemon stopped meanwhile), is one pop-up, "While you were away: 3 reminders",
    /// under the alert's catch-up policy and grace, as after downtime.
    private func showOnReturn(_ alert: Alert, _ state: inout AlertState, passed: [Date], now: Date) throws(DeliveryError) -> [SchedulerRecord] {
        let total = Int(state.heldCount) + passed.count
        let since = state.heldSince ?? passed.first ?? now
        let latest = passed.last ?? state.lastFired ?? since
        var records: [SchedulerRecord] = []
        if case .once(let grace) = alert.catchUp, now.timeIntervalSince(latest) <= TimeInterval(grace) {
            let n = Int32(clamping: total)
            let shown = try show(alert, &state, count: state.pendingCount + n, body: language.whileAway(total), now: now)
            state.pendingCount += n
            records.append(.shownOnReturn(alert: alert.id, held: total, since: since, deliveryID: shown))
            startNag(alert, &state, now: now)
        } else {
            records.append(.missed(alert: alert.id, count: total, since: since))
        }
        state.heldCount = 0
        state.heldSince = nil
        if let last = passed.last { state.lastFired = last }
        state.checkedUntil = now
        table.setState(alert.id, state)
        return records
    }

    /// The person went away or came back. On return, alerts holding showings are due
    /// at once: the next run shows each one pop-up.
    public func setAway(_ away: Bool) {
        guard away != self.away else { return }
        self.away = away
        for id in table.heldIDs { reschedule(id) }
    }

    /// Shows the alert's pop-up, replacing its previous one while that is still shown. A
    /// water reminder's body ends with the day's progress.
    private func show(_ alert: Alert, _ state: inout AlertState, count: Int32, body: String?, now: Date,
                      urgency: Urgency? = nil) throws(DeliveryError) -> UInt32 {
        var notification = alert.notification(count: count, actions: actions(for: alert))
        if let body { notification.body = body }
        if let urgency { notification.urgency = urgency }
        if alert.kind == .water, let water, let intake = water.intake(at: now) {
            let progress = language.waterProgress(intake, goal: water.goal)
            notification.body = notification.body.isEmpty ? progress : notification.body + "\n" + progress
        }
        notification.replacesID = state.shownID
        let shown = try delivery.deliver(notification)
        popups.up(shown, for: alert.id, replacing: state.shownID)
        state.shownID = shown
        state.shownAt = state.shownAt ?? now
        return shown
    }

    /// The occurrences after the state's `checkedUntil` up to `now`, leaving out the day
    /// marked done and, for a water reminder, a drink day whose goal is met (the one the
    /// state marks, and the one in progress: an alert added after the goal was met has
    /// no mark).
    private func occurrences(of alert: Alert, state: AlertState, zone: TimeZone, through now: Date) -> [Date] {
        var result: [Date] = []
        var cursor = state.checkedUntil
        let clock = CivilZone(zone)
        let anchor = NextShowing.anchor(alert, state: state, water: water)
        let restsAtGoal = alert.kind == .water ? water.map { water in { water.goalMet(at: $0) } } : nil
        while result.count < 100_000 {
            let batch = alert.schedule.occurrences(after: cursor, count: 256, in: zone, anchor: anchor).filter { $0 <= now }
            result += batch.filter { instant in
                (state.doneForDay == nil || clock.local(instant).day != state.doneForDay) && instant >= (state.goalMetUntil ?? instant)
                    && restsAtGoal?(instant) != true
            }
            guard batch.count == 256, let last = batch.last else { break }
            cursor = last
        }
        return result
    }

    private func reschedule(_ id: UUID) {
        guard let i = table.position(id) else { return }
        table.setWake(0, at: i)
        guard let next = wakeInstant(at: i) else { return }
        table.setWake(queue.push(id, at: next), at: i)
        queue.compact(live: table.count) { table.isCurrent($0.id, generation: $0.generation) }
    }

    /// When the alert in slot `i` wants the scheduler next: its next showing, a held one or
    /// the next try at an unanswered pop-up; `nil` when never (or blocked).
    private func wakeInstant(at i: Int) -> Date? {
        let alert = table.alert(at: i), state = table.state(at: i)
        guard !blocked.contains(alert.id) else { return nil }
        // Looking from where the state was last checked: what lies between then and now is
        // owed, and the next run delivers it.
        var next = NextShowing.of(alert, state: state, system: systemZone, now: state.checkedUntil, water: water).instant
        // Held showings are due as soon as the person is back.
        if state.heldCount > 0 && !away && alert.enabled { next = min(next ?? state.checkedUntil, state.checkedUntil) }
        // So is the next try at an unanswered pop-up.
        if let nagAt = state.nagAt, state.pendingCount > 0, alert.enabled { next = min(next ?? nagAt, nagAt) }
        return next
    }

    // MARK: Answers and commands

    /// Applies an answer from the delivery.
    public func handle(_ event: DeliveryEvent, now: Date) -> [SchedulerRecord] {
        let shown = event.id
        // Whatever the event ended, a pop-up the ledger no longer knows is let go.
        defer { popups.settle(shown) }
        guard let id = popups.alert(of: shown), table.position(id) != nil else {
            // An alert removed since: whatever was kept for its pop-up goes now.
            popups.forget(shown)
            return []
        }
        switch event {
        case .action(_, let key):
            // Only the answers Nudge offers: another key (a server's own, or anyone's on the
            // bus) must not use up the pop-up's one answer.
            guard Self.answerKeys.contains(key) else { return [] }
            let answer = popups.action(shown, alert: id)
            if answer == .again { return [] }
            switch key {
            case .default, .done: return answer == .afterDismissal ? [] : acknowledge(id, now: now)
            case .snooze: return snooze(id, now: now)
            case .skipToday: return doneForToday(id, now: now)
            case .drink: return drank(id, now: now)
            default: return []
            }
        case .failed(_, let error):
            guard var state = state(id), state.shownID == shown else {
                popups.takenDown(shown)
                return []
            }
            state.shownID = nil
            table.setState(id, state)
            undelivered.insert(id)
            // A server that was only slow still shows it and replies late: see `.appeared`.
            popups.failed(shown, alert: id, replyMayCome: error.kind == .noReply)
            return [.deliveryFailed(alert: id, error: error)]
        case .appeared:
            guard popups.lateReply(shown) else { return [] }
            guard var state = state(id), state.shownID == nil, state.pendingCount > 0, undelivered.contains(id) else {
                // Shown again meanwhile, or answered: this copy is one too many.
                try? delivery.withdraw(shown)
                return []
            }
            undelivered.remove(id)
            state.shownID = shown
            popups.up(shown, for: id)
            table.setState(id, state)
            return [.shownLate(alert: id, deliveryID: shown)]
        case .closed(_, let reason):
            let isAnswer = popups.closed(shown, alert: id, dismissed: reason == .dismissed)
            if var state = state(id), state.shownID == shown {
                state.shownID = nil
                table.setState(id, state)
                // Gone without an answer (its server went away, or dropped it): shown again
                // when a server is back.
                if reason == .undefined, isAnswer, state.pendingCount > 0 { undelivered.insert(id) }
            }
            guard isAnswer else { return [] }
            switch reason {
            case .dismissed: return dismiss(id, now: now)
            case .expired: return [.expired(alert: id)]
            default: return []
            }
        }
    }

    /// How many pop-ups the scheduler keeps track of: those on screen and those whose
    /// answer is not complete yet (for the soak benchmark: it must stay flat).
    public var trackedPopups: (shown: Int, unsettled: Int) { popups.counts }

    /// Acknowledges (Done): the count goes to 0 and the pop-up is withdrawn. With nothing
    /// to acknowledge (no count, no pop-up, no snooze) it does nothing and records nothing.
    @discardableResult
    public func acknowledge(_ id: UUID, now: Date) -> [SchedulerRecord] {
        answer(id, now: now, done: true) { .acknowledged(alert: id, delay: $0) }
    }

    /// The alert's alarm was answered on another device at `at` (its calendar says so):
    /// occurrences due by then count as handled here, and a showing of one of them (its
    /// pop-up, its count, its snooze) ends, recorded as answered elsewhere. A showing of a
    /// later occurrence stays, and nothing after `now` is skipped.
    @discardableResult
    public func answeredElsewhere(_ id: UUID, at: Date, now: Date) -> [SchedulerRecord] {
        guard var state = state(id) else { return [] }
        var records: [SchedulerRecord] = []
        let showing = state.pendingCount > 0 || state.shownID != nil || state.snoozedUntil != nil
        if showing, let fired = state.lastFired, fired <= at {
            clearShowing(&state, now: now)
            records.append(.answeredElsewhere(alert: id, at: at))
        }
        let handled = min(at, now)
        guard !records.isEmpty || handled > state.checkedUntil else { return [] }
        if handled > state.checkedUntil { state.checkedUntil = handled }
        table.setState(id, state)
        reschedule(id)
        return records
    }

    /// The alert's alarm was snoozed on another device until `until`: a pop-up here goes,
    /// its count kept, and the alert comes back at `until`, once, as after a snooze here
    /// (a snooze here that ends later stays). Nothing when `until` has passed.
    @discardableResult
    public func snoozedElsewhere(_ id: UUID, until: Date, now: Date) -> [SchedulerRecord] {
        guard until > now, let alert = alert(id), alert.enabled, var state = state(id), state.snoozedUntil.map({ until > $0 }) ?? true else { return [] }
        let delay = clearShowing(&state, now: now, keepingCount: true)
        state.snoozedUntil = until
        table.setState(id, state)
        reschedule(id)
        return [.snoozed(alert: id, until: until, delay: delay)]
    }

    /// The pop-up was closed without a choice: acknowledged, but not done.
    private func dismiss(_ id: UUID, now: Date) -> [SchedulerRecord] {
        answer(id, now: now, done: false, withdraw: false) { .dismissed(alert: id, delay: $0) }
    }

    /// "Drank" on a water reminder: acknowledged, and the cup counts at once (the daemon
    /// keeps the drink and reads the day back).
    private func drank(_ id: UUID, now: Date) -> [SchedulerRecord] {
        guard var water, alert(id)?.kind == .water else { return acknowledge(id, now: now) }
        let records = answer(id, now: now, done: true, force: true) { .drank(alert: id, millilitres: water.cup, delay: $0) }
        if now >= water.end {
            water = WaterProgress(goal: water.goal, cup: water.cup, dayStart: water.dayStart, intake: 0, lastDrink: nil,
                                  now: now, zone: systemZone)
        }
        if now >= water.start { water.intake += water.cup }
        water.lastDrink = now
        return records + setWater(water, now: now)
    }

    /// An answer: the count goes to 0, the pop-up goes (unless it went by itself), and
    /// `record` says what it was, with how long after the pop-up came up. One that is
    /// `done` is what an after-answer schedule counts from.
    private func answer(_ id: UUID, now: Date, done: Bool, withdraw: Bool = true, force: Bool = false,
                        record: (TimeInterval?) -> SchedulerRecord) -> [SchedulerRecord] {
        guard var state = state(id) else { return [] }
        guard force || state.pendingCount > 0 || state.shownID != nil || state.snoozedUntil != nil else { return [] }
        let delay = clearShowing(&state, now: now, withdraw: withdraw)
        if done { state.lastAnswer = now }
        table.setState(id, state)
        reschedule(id)
        return [record(delay)]
    }

    /// Clears an alert's showing: its pop-up goes (withdrawn, unless it went by itself) and
    /// its follow-ups stop; unless `keepingCount` (a snooze), its count and snooze go too.
    /// Returns how long the pop-up had been up, `nil` when none was.
    @discardableResult
    private func clearShowing(_ state: inout AlertState, now: Date, withdraw: Bool = true,
                              keepingCount: Bool = false) -> TimeInterval? {
        if withdraw, let shown = state.shownID { try? delivery.withdraw(shown) }
        let delay = state.shownAt.map { max(0, now.timeIntervalSince($0)) }
        state.shownID = nil
        state.shownAt = nil
        state.nagAt = nil
        state.nagCount = 0
        if !keepingCount {
            state.pendingCount = 0
            state.snoozedUntil = nil
        }
        return delay
    }

    /// Snoozes: the pop-up goes away and comes back once after the alert's snooze length.
    @discardableResult
    public func snooze(_ id: UUID, now: Date, seconds: Int? = nil) -> [SchedulerRecord] {
        guard let alert = alert(id), var state = state(id) else { return [] }
        let delay = clearShowing(&state, now: now, keepingCount: true)
        let until = now.addingTimeInterval(TimeInterval(seconds ?? alert.snoozeSeconds))
        state.snoozedUntil = until
        table.setState(id, state)
        reschedule(id)
        return [.snoozed(alert: id, until: until, delay: delay)]
    }

    /// A snooze a store put back in place holds for an alert new to the scheduler (a backup
    /// renamed over the store): it still comes back at `until` when that is ahead. Nothing
    /// else of the file's state is taken: a restored alert counts from now (issue 52).
    public func keepSnooze(_ id: UUID, until: Date, now: Date) {
        guard until > now, alert(id) != nil, var state = state(id), state.snoozedUntil == nil else { return }
        state.snoozedUntil = until
        table.setState(id, state)
        table.markChanged(id)
        reschedule(id)
    }

    /// Acknowledges and skips the rest of the alert's local day.
    @discardableResult
    public func doneForToday(_ id: UUID, now: Date) -> [SchedulerRecord] {
        guard let alert = alert(id), var state = state(id) else { return [] }
        let day = CivilZone(alert.zone(system: systemZone)).local(now).day
        let nothingShown = state.pendingCount == 0 && state.shownID == nil && state.snoozedUntil == nil
        if state.doneForDay == day && nothingShown { return [] }
        state.doneForDay = day
        table.setState(id, state)
        return answer(id, now: now, done: true, force: true) { .doneForToday(alert: id, day: day, delay: $0) }
    }

    /// The day's water changed (a drink from anywhere, one taken back, a setting, a new
    /// day). Water reminders follow: their next showing moves with the last drink; once
    /// the goal is met their pop-ups go and the rest of the drink day is skipped, logged
    /// once as goal met; when a drink taken back leaves the goal unmet, they come back
    /// from `now`, owing nothing that was skipped.
    @discardableResult
    public func setWater(_ water: WaterProgress?, now: Date) -> [SchedulerRecord] {
        self.water = water
        var records: [SchedulerRecord] = []
        for id in table.waterIDs {
            guard var state = state(id) else { continue }
            if let water, water.goalMet(at: now) {
                if state.goalMetUntil != water.end {
                    clearShowing(&state, now: now)
                    state.goalMetUntil = water.end
                    state.checkedUntil = max(state.checkedUntil, now)
                    table.setState(id, state)
                    records.append(.goalMet(alert: id, day: water.day))
                }
            } else if let until = state.goalMetUntil, until > now {
                state.goalMetUntil = nil
                state.checkedUntil = max(state.checkedUntil, now)
                table.setState(id, state)
            }
            reschedule(id)
        }
        return records
    }

    /// How long before it is taken in an alert new to a running scheduler may have been
    /// made and still owe what came due since: the time a change takes to reach the daemon
    /// (a commit, the folder's event, a read), seconds even on a loaded machine. One made
    /// earlier came back (a last good copy restored, a file renamed over the store, another
    /// device's) and owes nothing before it arrived: a restored water reminder made weeks
    /// ago popped up at once as "missed 10" (issue 52).
    public static let arrivalAllowance: TimeInterval = 10

    /// Adds or replaces an alert. A changed alert starts owing nothing before `now`; a new
    /// one nothing before it was made, or before it arrived (``arrivalAllowance``).
    public func upsert(_ alert: Alert, now: Date) {
        if let i = table.position(alert.id) {
            table.setAlert(alert, at: i)
            var state = table.state(at: i)
            state.checkedUntil = now
            table.setState(alert.id, state)
        } else {
            let since = max(alert.created, now.addingTimeInterval(-Self.arrivalAllowance))
            table.insert(alert, AlertState(checkedUntil: min(now, since)))
            table.markChanged(alert.id)
        }
        reschedule(alert.id)
    }

    /// Brings the alerts in line with a fresh copy of the store: new ones are added, changed
    /// ones replaced (owing nothing before `now`), missing ones removed; one switched off
    /// loses its pop-up and count. Unchanged alerts keep everything.
    public func sync(_ fresh: [Alert], now: Date) {
        var seen = Set<UUID>(minimumCapacity: fresh.count)
        for alert in fresh {
            seen.insert(alert.id)
            take(alert, now: now)
        }
        for id in table.ids where !seen.contains(id) { remove(id) }
    }

    /// Brings in what changed in the store since the last look, as ``sync(_:now:)`` does for
    /// all of it: `changed` added or replaced, `removed` taken out. Alerts not named keep
    /// everything. What a follower of the store reads at 100,000 alerts when one changed.
    public func update(_ changed: [Alert], removing removed: some Sequence<UUID>, now: Date) {
        for alert in changed { take(alert, now: now) }
        for id in removed { remove(id) }
    }

    /// One alert as the store has it now: new, changed (switched off: its pop-up and count
    /// go) or the same (nothing happens).
    private func take(_ alert: Alert, now: Date) {
        guard let old = self.alert(alert.id) else { return upsert(alert, now: now) }
        guard old != alert else { return }
        if old.enabled && !alert.enabled { acknowledge(alert.id, now: now) }
        upsert(alert, now: now)
    }

    /// The ids of the alerts held, in no particular order.
    public var ids: [UUID] { table.ids }
    /// How many alerts are held.
    public var count: Int { table.count }

    /// Turns an alert on or off; off withdraws its pop-up.
    public func setEnabled(_ id: UUID, _ enabled: Bool, now: Date) {
        guard var alert = alert(id) else { return }
        alert.enabled = enabled
        if !enabled { acknowledge(id, now: now) }
        upsert(alert, now: now)
    }

    /// Removes an alert and withdraws its pop-up.
    public func remove(_ id: UUID) {
        guard let state = state(id) else { return }
        if let shown = state.shownID {
            try? delivery.withdraw(shown)
            popups.takenDown(shown)
            popups.settle(shown)
        }
        table.remove(id)
        blocked.remove(id)
        undelivered.remove(id)
    }

    /// The system zone changed: floating alerts follow it.
    public func setSystemZone(_ zone: TimeZone) {
        systemZone = zone
        for id in table.floating { reschedule(id) }
    }

    /// Shows again, once, each of these reminders still waiting for an answer whose pop-up an
    /// earlier run showed (given to ``init`` in its state): that pop-up's buttons answer a
    /// connection that is gone, and GNOME 48 and later took it down with that connection. The
    /// new pop-up takes the old one's place as a fired-again one does (replaced, or shown
    /// and the old one closed where the server cannot replace), with the count, as a
    /// catch-up is. One the delivery refuses waits for ``deliveryRestored(now:)``.
    public func showAgain(_ ids: some Sequence<UUID>, now: Date) -> [SchedulerRecord] {
        var records: [SchedulerRecord] = []
        for id in ids.sorted(by: { $0.precedes($1) }) {
            guard let i = table.position(id) else { continue }
            let alert = table.alert(at: i)
            var state = table.state(at: i)
            guard alert.enabled, state.pendingCount > 0 else { continue }
            // Due now (showings missed meanwhile, a nag): the next run shows it once, with
            // the catch-up's count and words; shown here too, it would flash twice.
            if let due = wakeInstant(at: i), due <= now { continue }
            do {
                let shown = try show(alert, &state, count: state.pendingCount, body: nil, now: now)
                table.setState(id, state)
                records.append(.redelivered(alert: id, deliveryID: shown, count: state.pendingCount))
            } catch {
                if let old = state.shownID {
                    popups.takenDown(old)
                    popups.settle(old)
                }
                state.shownID = nil
                table.setState(id, state)
                undelivered.insert(id)
                records.append(.deliveryFailed(alert: id, error: error))
            }
        }
        return records
    }

    /// The delivery works again (a server appeared): what waited is due now, and pop-ups
    /// that failed after they were handed over are shown again with their count.
    public func deliveryRestored(now: Date) -> [SchedulerRecord] {
        let waiting = blocked
        blocked.removeAll()
        for id in waiting { reschedule(id) }
        var records: [SchedulerRecord] = []
        for id in undelivered.sorted(by: { $0.precedes($1) }) {
            guard let alert = alert(id), alert.enabled, var state = state(id), state.pendingCount > 0, state.shownID == nil else {
                undelivered.remove(id)
                continue
            }
            do {
                let shown = try show(alert, &state, count: state.pendingCount, body: nil, now: now)
                undelivered.remove(id)
                table.setState(id, state)
                records.append(.redelivered(alert: id, deliveryID: shown, count: state.pendingCount))
            } catch {
                records.append(.deliveryFailed(alert: id, error: error))
            }
        }
        return records + run(now: now)
    }

    // MARK: Places

    /// The places the enabled reminders name: what the daemon's sources follow (no area,
    /// no position asked for).
    public var placesWatched: (networks: Set<String>, areas: Set<PlaceTrigger.Area>) {
        var networks = Set<String>(), areas = Set<PlaceTrigger.Area>()
        for id in table.placeIDs {
            guard let alert = table.alert(id), alert.enabled, case .place(let trigger) = alert.schedule else { continue }
            switch trigger.spot {
            case .network(let name): networks.insert(name)
            case .area(let area): areas.insert(area)
            }
        }
        return (networks, areas)
    }

    /// Arriving at a place or leaving it: every enabled reminder that it matches (in its
    /// hours and days, its rest since the last showing over) comes up now, as a reminder
    /// due now does: held while the person is away when it holds, nagging when it nags. A
    /// pop-up the server refused waits for ``deliveryRestored(now:)``.
    public func place(_ event: PlaceEvent, now: Date) -> [SchedulerRecord] {
        var records: [SchedulerRecord] = []
        for id in table.placeIDs.sorted(by: { $0.precedes($1) }) {
            guard let alert = table.alert(id), alert.enabled, case .place(let trigger) = alert.schedule, var state = table.state(id),
                  trigger.matches(event, now: now, zone: alert.zone(system: systemZone), last: state.lastFired) else { continue }
            // "Done for today" holds for place reminders too.
            if let done = state.doneForDay, CivilZone(alert.zone(system: systemZone)).local(now).day == done { continue }
            if away && alert.holdsWhileAway {
                records += hold(id, &state, count: 1, since: now, latest: now, now: now)
                continue
            }
            do {
                let shown = try show(alert, &state, count: state.pendingCount + 1, body: nil, now: now)
                state.pendingCount += 1
                records.append(.fired(alert: id, due: now, deliveryID: shown, count: state.pendingCount))
                startNag(alert, &state, now: now)
                state.lastFired = now
                state.checkedUntil = now
                table.setState(id, state)
            } catch {
                // Shown when the server is back, as a snooze that came due is.
                state.snoozedUntil = now
                state.lastFired = now
                table.setState(id, state)
                blocked.insert(id)
                records.append(.deliveryFailed(alert: id, error: error))
            }
            reschedule(id)
        }
        return records
    }

    /// `09:30`: the local time of day of an instant in a zone.
    public static func clockText(_ instant: Date, _ zone: TimeZone) -> String {
        let second = CivilZone(zone).local(instant).second
        return LocalTime(hour: second / 3600, minute: second / 60 % 60)!.description
    }
}
