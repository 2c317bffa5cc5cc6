import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// `nudge ack`: the pop-up's "Done", from the command line.
struct Ack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledge reminders: the count goes to 0 and the pop-up closes.",
        discussion: """
        Examples:
          nudge ack 3f25
          nudge ack --all
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String?

    @Flag(help: "Every alert with a count, a pop-up or a snooze.")
    var all = false

    func validate() throws {
        if (id == nil) == !all { throw ValidationError("give an id or --all") }
    }

    func run() throws {
        try Answer.acknowledge.apply(to: id.map { [$0] }, now: Date())
    }
}

/// `nudge done`: acknowledge and skip the rest of today.
struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Acknowledge a reminder and skip the rest of today (its local day).",
        discussion: "Example:\n  nudge done 3f25"
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    func run() throws {
        try Answer.doneForToday.apply(to: [id], now: Date())
    }
}

/// `nudge snooze`: come back once after a while.
struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Close a reminder's pop-up and show it again once after DURATION.",
        discussion: """
        Examples:
          nudge snooze 3f25 10m
          nudge snooze 3f25 1h30m
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    @Argument(help: ArgumentHelp("How long: 10m, 1h, 90s.", valueName: "DURATION"))
    var duration: String

    func run() throws {
        let seconds = try AlertOptions.duration(duration, for: .snooze)
        try Answer.snooze(seconds: seconds).apply(to: [id], now: Date())
    }
}

/// An answer given from the command line. With the daemon running it goes through the
/// daemon (which owns the pop-ups and the state); otherwise it is applied to the store by
/// the same scheduler code, and a pop-up still shown is closed.
enum Answer {
    case acknowledge
    case doneForToday
    case snooze(seconds: Int)

    /// Applies the answer to the alerts the ids name, or with `nil` to every alert that has
    /// something to acknowledge. Every id is resolved before anything changes.
    func apply(to ids: [String]?, now: Date) throws(CLIError) {
        let store = try StoreAccess.open()
        let states = try StoreAccess.run { try store.states() }
        let alerts: [Alert]
        if let ids {
            alerts = try AlertIDs.resolve(ids, in: store)
        } else {
            let owing = Set(states.filter { $0.value.pendingCount > 0 || $0.value.shownID != nil || $0.value.snoozedUntil != nil }.keys)
            var unreadable = false
            alerts = try StoreAccess.alerts(in: store, unreadable: &unreadable).filter { owing.contains($0.id) }
            if alerts.isEmpty {
                print("nothing to acknowledge")
                return
            }
        }
        if case .snooze = self, let off = alerts.first(where: { !$0.enabled }) {
            throw CLIError(.usage, "alert \(off.shortID) is off: switch it on first (nudge on \(off.shortID))")
        }
        if let daemon = DaemonLink.running() {
            for alert in alerts {
                _ = try daemon.call(member, [.string(alert.id.hex)] + (seconds.map { [.uint32(UInt32(clamping: $0))] } ?? []))
                report(alert, now: now)
            }
            return
        }
        let closer = PopupCloser()
        let scheduler = Scheduler(alerts: alerts, states: states, zone: LocalZone.current, now: now, delivery: closer)
        var records: [SchedulerRecord] = []
        for alert in alerts {
            switch self {
            case .acknowledge: records += scheduler.acknowledge(alert.id)
            case .doneForToday: records += scheduler.doneForToday(alert.id, now: now)
            case .snooze(let seconds): records += scheduler.snooze(alert.id, now: now, seconds: seconds)
            }
        }
        let changed = scheduler.states.filter { id, _ in alerts.contains { $0.id == id } }
        _ = try StoreAccess.run { try store.save(states: changed, log: records.map { LogEntry($0, at: now) }) }
        for alert in alerts { report(alert, now: now) }
    }

    /// The daemon's method for this answer.
    var member: String {
        switch self {
        case .acknowledge: "Ack"
        case .doneForToday: "Done"
        case .snooze: "Snooze"
        }
    }

    var seconds: Int? {
        if case .snooze(let seconds) = self { return seconds }
        return nil
    }

    private func report(_ alert: Alert, now: Date) {
        let zone = alert.zone(system: LocalZone.current)
        switch self {
        case .acknowledge:
            print("acknowledged \(alert.shortID): \(alert.title.escapingControls)")
        case .doneForToday:
            print("done for today \(alert.shortID): \(alert.title.escapingControls)")
        case .snooze(let seconds):
            let until = now.addingTimeInterval(TimeInterval(seconds))
            print("snoozed \(alert.shortID) until \(InstantFormat.iso8601(until, in: zone)): \(alert.title.escapingControls)")
        }
    }
}

/// Closes pop-ups the daemon left on screen when the daemon is not there to do it
/// (CloseNotification on the session bus; the server does not check who asks). Best
/// effort: with no bus or no server there is nothing on screen to close.
final class PopupCloser: Delivery {
    var onEvent: ((DeliveryEvent) -> Void)?
    private lazy var delivery: FreedesktopDelivery? = Environment.current.sessionBusAddress
        .flatMap { try? Connection.bus(address: $0) }
        .flatMap { try? FreedesktopDelivery(connection: $0) }

    /// The CLI never shows reminders; only the daemon does.
    func deliver(_ notification: NudgeCore.Notification) throws(DeliveryError) -> UInt32 {
        throw DeliveryError(.rejected, "the command line does not show reminders")
    }

    func withdraw(_ id: UInt32) throws(DeliveryError) {
        try delivery?.withdraw(id)
    }
}
