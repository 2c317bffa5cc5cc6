import DaemonAPI
import DBus
import Foundation
import NudgeCore
import NudgeStore

/// The daemon's object on the bus: `/io/github/nudge/Nudge`, interface
/// `io.github.nudge.Nudge1`. Bad arguments get an error reply, never a crash.
enum DaemonInterface {
    /// The interface's error for an id that names no alert.
    static let unknownAlert = BusError.Name(rawValue: NudgeService.interface + ".Error.UnknownAlert")
    /// The interface's error for an answer the alert cannot take (it is off).
    static let alertOff = BusError.Name(rawValue: NudgeService.interface + ".Error.AlertOff")

    static func object(for daemon: Daemon) -> ExportedObject {
        typealias A = ExportedObject.Argument
        let methods: [ExportedObject.Method] = [
            .init("Reload") { [unowned daemon] _, _ in
                daemon.reload(force: false)
                return []
            },
            .init("Status", outputs: [A("status", "a{sv}")]) { [unowned daemon] _, _ in
                [status(daemon)]
            },
            .init("Next", inputs: [A("id", "s")], outputs: [A("usec", "x")]) { [unowned daemon] args, _ throws(BusError) in
                // When this alert shows next, as the daemon will do it: microseconds since
                // the epoch, -1 for never.
                let id = try alert(args[0], in: daemon)
                let next = daemon.core.nextShowing(id)?.instant
                return [.int64(next.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } ?? -1)]
            },
            .init("Ack", inputs: [A("id", "s")]) { [unowned daemon] args, _ throws(BusError) in
                let id = try alert(args[0], in: daemon)
                let now = Date()
                daemon.report(daemon.core.acknowledge(id, now: now), at: now)
                return []
            },
            .init("Done", inputs: [A("id", "s")]) { [unowned daemon] args, _ throws(BusError) in
                let id = try alert(args[0], in: daemon)
                let now = Date()
                daemon.report(daemon.core.doneForToday(id, now: now), at: now)
                return []
            },
            .init("Snooze", inputs: [A("id", "s"), A("seconds", "u")]) { [unowned daemon] args, _ throws(BusError) in
                let id = try alert(args[0], in: daemon)
                guard let seconds = args[1].uint32.map(Int.init), Limits.Quantity.snooze.range.contains(seconds) else {
                    let range = Limits.Quantity.snooze.range
                    throw BusError(.invalidArgs, "seconds must be between \(range.lowerBound) and \(range.upperBound) (\(Limits.Quantity.snooze.rangeText))")
                }
                guard daemon.core.alert(id)?.enabled == true else {
                    throw BusError(alertOff, "alert \(id.shortHex) is off: switch it on first")
                }
                let now = Date()
                daemon.report(daemon.core.snooze(id, now: now, seconds: Int(seconds)), at: now)
                return []
            },
            .init("AnsweredElsewhere", inputs: [A("id", "s"), A("usec", "x")]) { [unowned daemon] args, _ throws(BusError) in
                // The alarm was answered on another device at this instant (microseconds since
                // the epoch), as its calendar says: a pop-up for an occurrence due by then closes.
                let id = try alert(args[0], in: daemon)
                guard let usec = args[1].int64, usec > 0 else { throw BusError(.invalidArgs, "usec must be a positive count of microseconds since 1970") }
                let now = Date()
                daemon.report(daemon.core.answeredElsewhere(id, at: Date(timeIntervalSince1970: Double(usec) / 1_000_000), now: now), at: now)
                return []
            },
            .init("SnoozedElsewhere", inputs: [A("id", "s"), A("usec", "x")]) { [unowned daemon] args, _ throws(BusError) in
                // The alarm was snoozed on another device until this instant (microseconds
                // since the epoch): a pop-up here goes, and the alert comes back then.
                let id = try alert(args[0], in: daemon)
                guard let usec = args[1].int64, usec > 0 else { throw BusError(.invalidArgs, "usec must be a positive count of microseconds since 1970") }
                let now = Date()
                daemon.report(daemon.core.snoozedElsewhere(id, until: Date(timeIntervalSince1970: Double(usec) / 1_000_000), now: now), at: now)
                return []
            },
            .init("Drink", inputs: [A("millilitres", "u")], outputs: [A("today", "u")]) { [unowned daemon] args, _ throws(BusError) in
                // A drink of water: kept in the store, and water reminders follow at once.
                // Returns the drink day's total.
                guard let millilitres = args[0].uint32.map(Int.init), (1...Water.maxDrink).contains(millilitres) else {
                    throw BusError(.invalidArgs, "millilitres must be between 1 and \(Water.maxDrink)")
                }
                do throws(StoreError) {
                    return [.uint32(UInt32(clamping: try daemon.drink(millilitres, now: Date())))]
                } catch {
                    throw BusError(.failed, "cannot keep the drink: \(error.message)")
                }
            },
        ]
        return ExportedObject(path: NudgeService.objectPath, interfaces: [
            .init(NudgeService.interface, methods: methods,
                  signals: [.init("Fired", arguments: [A("id", "s"), A("count", "u")]),
                            .init("Water", arguments: [A("today", "u"), A("goal", "u")])]),
        ])
    }

    /// The alert an id names: 32 hex digits, with or without dashes. An alert the CLI has
    /// just added may not be loaded yet, so an unknown id first looks at the store again.
    private static func alert(_ value: Value, in daemon: Daemon) throws(BusError) -> UUID {
        let text = value.string ?? ""
        guard let id = UUID(hex: text.lowercased().filter { $0 != "-" }) else {
            throw BusError(.invalidArgs, "\(text.quotedForMessage()) is not an alert id (32 hex digits)")
        }
        if daemon.core.alert(id) == nil { daemon.reload(force: false) }
        guard daemon.core.alert(id) != nil else { throw BusError(unknownAlert, "no alert with id \(text)") }
        return id
    }

    private static func status(_ daemon: Daemon) -> Value {
        let core = daemon.core
        let water = core.water.map { (UInt32(clamping: $0.intake(at: Date()) ?? 0), UInt32(clamping: $0.goal)) }
        let status = DaemonStatus(version: daemon.options.version, pid: UInt32(getpid()), alerts: UInt32(core.alertCount),
                                  pending: UInt32(core.totalPending), server: daemon.serverPresent, zone: core.systemZone.identifier,
                                  awayReason: daemon.awayState.away ? daemon.awayState.reason : "", awaySources: daemon.awayState.sources,
                                  places: daemon.places?.here ?? [], placeSources: daemon.places?.sources ?? ["no system bus"],
                                  water: water, nextDue: core.nextWake,
                                  extra: Dictionary(daemon.bookkeeping.map { ($0.0, UInt32(clamping: $0.1)) }) { $1 })
        return status.fields(in: core.systemZone)
    }
}
