import DBus
import Foundation
import FreedesktopDelivery
import Logging
import NudgeCore
import NudgeStore

/// `nudge daemon`: one per session. It owns `io.github.nudge.Nudge`, fires reminders through
/// the notification server, takes the answers back and keeps the store current.
///
/// One thread, one ``EventLoop`` over: a CLOCK_REALTIME timerfd armed at the next due
/// instant (it also wakes on clock jumps and resume), the session bus, inotify on the
/// store and on `/etc/localtime`, a signalfd, sound players and `gsettings` as children,
/// and what ``Presence`` follows (the system bus; on KDE, `GetSessionIdleTime` every half
/// second while the person is idle, the one service with no signal for it). Nothing on it
/// waits for a peer: idle, with none of those, costs nothing.
/// What happened, three ways, each in its own place: the delivery log (written with the
/// next save), the bus (`Fired`, `Water`, the launcher badge) and the daemon's own log.
extension Daemon {
    /// Reports what the scheduler did, three ways, each in its own place: into the delivery
    /// log (queued, written with the next save; a drink chosen on a pop-up is written at
    /// once with its answer, and the day's water read back), onto the bus (`Fired` for a
    /// pop-up shown) and into the daemon's own log (a line).
    func report(_ records: [SchedulerRecord], at now: Date) {
        var drank = false
        for record in records {
            let entry = LogEntry(record, at: now, zone: scheduler.systemZone)
            pending.add(entry)
            if case .drank(_, let millilitres, _) = record {
                pending.addDrink(millilitres, at: now)
                drank = true
            }
            guard let alert = scheduler.alert(record.alertID) else { continue }
            if record.showsPopup { announce(alert) }
            logLine(record, entry, alert)
        }
        if drank {
            save()
            refreshWater(now: now)
        }
    }

    /// The daemon's log line for what happened to `alert`.
    func logLine(_ record: SchedulerRecord, _ entry: LogEntry, _ alert: Alert) {
        let name = "\(alert.shortID) \u{201C}\(alert.title.escapingControls)\u{201D}"
        switch record {
        case .fired(_, let due, _, let count):
            let late = entry.at.timeIntervalSince(due) * 1000
            log.info("fired \(name) count \(count) (\(String(format: "%.2f", late)) ms after its time)")
        case .caughtUp(_, let missed, let since, _):
            log.info("caught up \(name): missed \(missed) since \(InstantFormat.iso8601(since, in: scheduler.systemZone))")
        case .snoozeFired, .redelivered: log.info("fired \(name) again (\(entry.event))")
        case .shownOnReturn(_, let held, _, _): log.info("shown on return \(name): \(held) held while away")
        case .nagged(_, let attempt, _): log.info("shown again \(name): try \(attempt), unanswered")
        case .held(_, let count, _): log.info("held \(name): \(count) while away")
        case .drank(_, let millilitres, _): log.info("drank \(millilitres) ml from \(name)")
        case .goalMet: log.info("the day's water goal is met: \(name) rests until the next drink day")
        case .missed(_, let count, let since):
            log.info("missed \(name): \(count) since \(InstantFormat.iso8601(since, in: scheduler.systemZone)), only logged")
        case .deliveryFailed(_, let error): log.warning("could not show \(name): \(error.message)")
        default: log.info("\(entry.event) \(name)")
        }
    }

    /// Reads the day's water from the store and gives it to the scheduler, whose water
    /// reminders follow it; says `Water(u today, u goal)` on the bus when it moved.
    func refreshWater(now: Date) {
        guard let store = storage.store else { return }
        do {
            let progress = try store.waterProgress(now: now, zone: scheduler.systemZone)
            let moved = progress != scheduler.water
            report(scheduler.setWater(progress, now: now), at: now)
            guard moved else { return }
            try? connection.emit(path: NudgeService.objectPath, interface: NudgeService.interface, member: "Water",
                                 arguments: [.uint32(UInt32(clamping: progress.intake)), .uint32(UInt32(clamping: progress.goal))])
        } catch {
            storage.failed(error, doing: "read the water from")
        }
    }

    /// A drink logged through the bus: kept in the store; returns the day's total.
    func drink(_ millilitres: Int, now: Date) throws(StoreError) -> Int {
        guard let store = storage.store else { throw StoreError(.io, Phrase("the store cannot be written")) }
        try store.logDrink(millilitres, at: now)
        refreshWater(now: now)
        return scheduler.water?.intake(at: now) ?? millilitres
    }

    /// `Fired(s id, u count)`, with the count the pop-up shows.
    func announce(_ alert: Alert) {
        let count = scheduler.state(alert.id)?.pendingCount ?? 0
        try? connection.emit(path: NudgeService.objectPath, interface: NudgeService.interface, member: "Fired",
                             arguments: [.string(alert.id.hex), .uint32(UInt32(max(count, 0)))])
    }

    /// Writes changed states and the log in one transaction. The log names pop-ups by the
    /// server's id; one whose id has not come back yet gets it written when it does.
    func save() {
        let changed = scheduler.takeChanged()
        guard !changed.isEmpty || !pending.isEmpty else { return }
        guard let store = storage.store else {
            // No store file: nothing to keep it in.
            return pending.discard()
        }
        var states: [UUID: AlertState] = [:]
        for id in changed {
            guard var state = scheduler.state(id) else { continue }
            state.shownID = state.shownID.flatMap(delivery.serverID(of:))
            states[id] = state
        }
        do {
            try pending.write(to: store, states: states, serverID: delivery.serverID(of:))
            storage.wrote()
        } catch {
            storage.failed(error, doing: "write")
            for id in changed { scheduler.markChanged(id) }
        }
    }

    /// Shows the total, and the day's water where a water reminder is on, on the launcher
    /// when either moved.
    func showBadge(now: Date = Date()) {
        let progress = scheduler.hasWaterReminder ? scheduler.water.map { water in
            Double(water.intake(at: now) ?? 0) / Double(max(water.goal, 1))
        } : nil
        let state = LauncherBadge.State(count: scheduler.totalPending, progress: progress)
        if shownBadge != state {
            try? badge.show(state)
            shownBadge = state
        }
    }
}

private extension SchedulerRecord {
    /// Whether it put a pop-up on screen (announced on the bus as `Fired`).
    var showsPopup: Bool {
        switch self {
        case .fired, .caughtUp, .snoozeFired, .redelivered, .shownOnReturn, .nagged: true
        default: false
        }
    }
}
