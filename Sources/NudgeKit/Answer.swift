import DBus
import Foundation
import NudgeCore
import NudgeStore
import Platform
import Localization

/// An answer given from the command line. With the daemon running it goes through the
/// daemon (which owns the pop-ups and the state); otherwise it is applied to the store by
/// the same scheduler code, and a pop-up still shown is closed.
public enum Answer {
    /// Done (`nudge ack`): the count goes to 0 and the pop-up is closed.
    case acknowledge
    /// Done for today (`nudge done`): acknowledged, and the rest of the alert's local day
    /// skipped.
    case doneForToday
    /// Snooze (`nudge snooze`): the pop-up goes away and comes back once, `seconds` later.
    case snooze(seconds: Int)

    /// Applies the answer to the alerts the ids name, or with `nil` to every alert that has
    /// something to acknowledge. Every id is resolved before anything changes.
    ///
    /// On a face's channel (``World/channel``) the daemon is not waited for: each answer is
    /// announced, or its failure handed to `failed`, during a later turn of the face's loop.
    /// Without one (the command line) both happen before this returns, a failure thrown.
    public func apply(to ids: [String]?, _ world: World, now: Date, announce: @escaping (String) -> Void = { print($0) },
                      failed: @escaping (OperationError) -> Void = { _ in }) throws(OperationError) {
        let store = try world.store.forWriting()
        let states = try world.run { try store.states() }
        let alerts: [Alert]
        if let ids {
            alerts = try AlertIDs.resolve(ids, in: store, world)
        } else {
            let owing = Set(states.filter { $0.value.pendingCount > 0 || $0.value.shownID != nil || $0.value.snoozedUntil != nil }.keys)
            var unreadable = false
            alerts = try StoreAccess.alerts(in: store, world, unreadable: &unreadable).filter { owing.contains($0.id) }
            if alerts.isEmpty {
                // TRANSLATORS: nudge ack with no pop-up waiting for an answer.
                announce(tr("nothing to acknowledge"))
                return
            }
        }
        try refuseSnoozingOff(alerts)
        if let channel = world.channel, channel.isRunning != false {
            return send(alerts, on: channel, world, now: now, announce: announce, failed: failed)
        }
        if world.channel == nil, let daemon = world.daemon {
            for alert in alerts {
                _ = try daemon.call(member, [.string(alert.id.hex)] + (seconds.map { [.uint32(UInt32(clamping: $0))] } ?? []))
                announce(report(alert, world, now: now))
            }
            return
        }
        let scheduler = Scheduler(alerts: alerts, states: states, zone: world.zone, now: now, delivery: world.popupCloser)
        var records: [SchedulerRecord] = []
        for alert in alerts {
            switch self {
            case .acknowledge: records += scheduler.acknowledge(alert.id, now: now)
            case .doneForToday: records += scheduler.doneForToday(alert.id, now: now)
            case .snooze(let seconds): records += scheduler.snooze(alert.id, now: now, seconds: seconds)
            }
        }
        let changed = scheduler.states.filter { id, _ in alerts.contains { $0.id == id } }
        _ = try world.run { try store.save(states: changed, log: records.map { LogEntry($0, at: now, zone: world.zone) }) }
        for alert in alerts { announce(report(alert, world, now: now)) }
    }

    /// A face's answer to reminders it shows (`alerts`, as its feed read them). With the
    /// daemon running on the face's channel the answers go to it at once, the store not
    /// opened: the daemon holds the state, checks it and writes it. It refuses a snooze of an
    /// alert that is off and an alert removed meanwhile (handed to `failed`): the face's
    /// copy may be a turn behind its own change (on, then snooze, in one paste), the
    /// daemon's is not, as it takes the change's Reload first. Otherwise as
    /// ``apply(to:_:now:announce:failed:)``.
    public func apply(toShown alerts: [Alert], _ world: World, now: Date, announce: @escaping (String) -> Void,
                      failed: @escaping (OperationError) -> Void) throws(OperationError) {
        // A store found damaged, or written over and not yet marked, is refused as every write
        // to it is (the daemon would take the answer and save nothing): through the store,
        // which marks it and says so. A look at the marker and at the file's first bytes.
        let file = StoreFile(path: world.storePath)
        guard let channel = world.channel, channel.isRunning != false, file.damage() == nil, file.beginsAsSQLite else {
            return try apply(to: alerts.map(\.id.hex), world, now: now, announce: announce, failed: failed)
        }
        send(alerts, on: channel, world, now: now, announce: announce, failed: failed)
    }

    private func refuseSnoozingOff(_ alerts: [Alert]) throws(OperationError) {
        if case .snooze = self, let off = alerts.first(where: { !$0.enabled }) { throw Self.isOff(off) }
    }

    private static func isOff(_ alert: Alert) -> OperationError {
        // TRANSLATORS: %s is the alert's id.
        OperationError(.usage, format(tr("alert %1$s is off: switch it on first (nudge on %1$s)"), alert.shortID))
    }

    /// Each answer to the daemon on a face's channel, not waited for: announced, or its
    /// failure handed on, during a later turn of the face's loop.
    private func send(_ alerts: [Alert], on channel: DaemonChannel, _ world: World, now: Date, announce: @escaping (String) -> Void,
                      failed: @escaping (OperationError) -> Void) {
        for alert in alerts {
            let arguments: [Value] = [.string(alert.id.hex)] + (seconds.map { [.uint32(UInt32(clamping: $0))] } ?? [])
            channel.call(member, arguments, notThere: {
                // Gone meanwhile (or never there): applied to the store, as without a daemon.
                do throws(OperationError) { try apply(to: [alert.id.hex], world, now: now, announce: announce, failed: failed) } catch { failed(error) }
            }, reply: { result in
                switch result {
                case .success: announce(report(alert, world, now: now))
                case .failure(let error) where error.refusal == .unknownAlert:
                    // TRANSLATORS: an answer from a face (Done, Snooze) to a reminder removed meanwhile (here or by another); %s is its title.
                    failed(OperationError(.usage, format(tr("“%s” was deleted meanwhile"), alert.title.escapingControls)))
                case .failure(let error) where error.refusal == .alertOff: failed(Self.isOff(alert))
                case .failure(let error): failed(error)
                }
            })
        }
    }

    /// The daemon's method for this answer.
    public var member: String {
        switch self {
        case .acknowledge: "Ack"
        case .doneForToday: "Done"
        case .snooze: "Snooze"
        }
    }

    /// How long a snooze postpones, in seconds (the daemon's `Snooze` takes it); `nil` for
    /// the other answers.
    public var seconds: Int? {
        if case .snooze(let seconds) = self { return seconds }
        return nil
    }

    private func report(_ alert: Alert, _ world: World, now: Date) -> String {
        let zone = alert.zone(system: world.zone)
        switch self {
        case .acknowledge:
            // TRANSLATORS: nudge ack; %1$s is the alert's id, %2$s its title.
            return format(tr("acknowledged %1$s: %2$s"), alert.shortID, alert.title.escapingControls)
        case .doneForToday:
            // TRANSLATORS: nudge done; %1$s is the alert's id, %2$s its title.
            return format(tr("done for today %1$s: %2$s"), alert.shortID, alert.title.escapingControls)
        case .snooze(let seconds):
            let until = now.addingTimeInterval(TimeInterval(seconds))
            // TRANSLATORS: nudge snooze; %1$s is the alert's id, %2$s when it comes back, %3$s its title.
            return format(tr("snoozed %1$s until %2$s: %3$s"), alert.shortID, InstantFormat.iso8601(until, in: zone), alert.title.escapingControls)
        }
    }
}

extension Answer {
    /// Answers given on other devices, as a sync read them from the reminders' calendars
    /// (RFC 9074 `ACKNOWLEDGED`, Thunderbird's `X-MOZ-LASTACK`): for each reminder, the
    /// instant. A pop-up of an occurrence due by then closes and its count goes to 0, and
    /// occurrences due by then are not shown here any more (``Scheduler/answeredElsewhere(_:at:now:)``).
    /// And snoozes given there (an RFC 9074 snooze alarm, `X-MOZ-SNOOZE-TIME`): until when;
    /// the reminder rings here again then (``Scheduler/snoozedElsewhere(_:until:now:)``).
    /// Through the daemon when it runs, else in the store, the pop-up closed all the same.
    public static func elsewhere(_ answers: [UUID: Date], snoozed: [UUID: Date] = [:], _ world: World, now: Date) throws(OperationError) {
        guard !answers.isEmpty || !snoozed.isEmpty else { return }
        let ids = answers.keys.sorted { $0.hex < $1.hex }, snoozedIDs = snoozed.keys.sorted { $0.hex < $1.hex }
        let usec = { (time: Date) in Int64((time.timeIntervalSince1970 * 1_000_000).rounded()) }
        if let daemon = world.daemon {
            // An alert removed meanwhile is nothing to answer.
            for id in ids { _ = try? daemon.call("AnsweredElsewhere", [.string(id.hex), .int64(usec(answers[id]!))]) }
            for id in snoozedIDs { _ = try? daemon.call("SnoozedElsewhere", [.string(id.hex), .int64(usec(snoozed[id]!))]) }
            return
        }
        let store = try world.store.forWriting()
        let states = try world.run { try store.states() }
        var unreadable = false
        let alerts = try StoreAccess.alerts(in: store, world, unreadable: &unreadable).filter { answers[$0.id] != nil || snoozed[$0.id] != nil }
        let scheduler = Scheduler(alerts: alerts, states: states, zone: world.zone, now: now, delivery: world.popupCloser)
        var records: [SchedulerRecord] = []
        for alert in alerts {
            if let at = answers[alert.id] { records += scheduler.answeredElsewhere(alert.id, at: at, now: now) }
            if let until = snoozed[alert.id] { records += scheduler.snoozedElsewhere(alert.id, until: until, now: now) }
        }
        let changed = scheduler.states.filter { id, _ in answers[id] != nil || snoozed[id] != nil }
        _ = try world.run { try store.save(states: changed, log: records.map { LogEntry($0, at: now, zone: world.zone) }) }
    }
}
