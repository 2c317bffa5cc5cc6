import DaemonAPI
import DBus
import Foundation
import NudgeCore
import Platform
import Localization

/// The CLI's link to a running `nudge daemon`. The daemon is never started from here: with
/// no owner of its bus name (or no session bus at all) every command works on the store
/// alone, and the daemon reads the store when it starts.
public final class DaemonLink {
    /// The session-bus connection the daemon was found on; its methods are called over it.
    public let connection: Connection

    private init(_ connection: Connection) { self.connection = connection }

    /// The link when the daemon runs now, else `nil`. Only a bus that exists is used: no
    /// autolaunch of a new session bus.
    public static func running(environment: Environment = .current) -> DaemonLink? {
        environment.sessionBusAddress.flatMap(running(address:))
    }

    /// The link over the bus at `address` when the daemon runs there now, else `nil`.
    public static func running(address: String) -> DaemonLink? {
        guard let connection = try? Connection.bus(address: address),
              (try? connection.nameHasOwner(NudgeService.busName)) == true else { return nil }
        return DaemonLink(connection)
    }

    /// Calls a method of the daemon's interface.
    public func call(_ member: String, _ arguments: [Value] = []) throws(OperationError) -> [Value] {
        do {
            return try connection.call(destination: NudgeService.busName, path: NudgeService.objectPath,
                                       interface: NudgeService.interface, member: member, arguments: arguments,
                                       autoStart: false)
        } catch {
            throw Self.operationError(error, member: member)
        }
    }

    /// A bus error from the daemon's method `member`, in the operations' words: the daemon's
    /// own refusals are usage errors, anything else means it did not answer.
    static func operationError(_ error: BusError, member: String) -> OperationError {
        if error.name.rawValue.hasPrefix(NudgeService.interface + ".") || error.name == .invalidArgs {
            var refused = OperationError(.usage, error.message)
            refused.refusal = OperationError.DaemonRefusal(rawValue: String(error.name.rawValue.dropFirst(NudgeService.interface.count + ".Error.".count)))
            return refused
        }
        // A call that timed out was delivered: a daemon that is stopped or busy takes it when it
        // goes on. Said so, not as a failure (it may well happen after all).
        if error.name == .noReply, !error.message.contains("disconnected") {
            // TRANSLATORS: %s is the daemon's method (Done, Snooze…); `nudge list` is a command.
            var waiting = OperationError(.unavailable, format(tr("the daemon has not answered %s yet: it may be stopped or busy, and takes it when it goes on (nudge list shows whether it did)"), member))
            waiting.notAnsweredYet = true
            return waiting
        }
        // TRANSLATORS: %1$s is the daemon's method, %2$s the bus's error.
        return OperationError(.unavailable, format(tr("the daemon did not answer %1$s (%2$s)"), member, "\(error)"))
    }

    /// Tells a running daemon that the store changed, without waiting for it: re-reading a
    /// big store takes the daemon a moment the command need not spend, and the daemon also
    /// watches the store. Returns whether it runs.
    @discardableResult
    public static func storeChanged(address: String) -> Bool {
        guard let link = running(address: address) else { return false }
        do throws(BusError) {
            let message = try Message.methodCall(destination: NudgeService.busName, path: NudgeService.objectPath,
                                                 interface: NudgeService.interface, member: "Reload")
            message.autoStart = false
            message.noReply = true
            try link.connection.send(message)
            link.connection.flush()
        } catch {
            // TRANSLATORS: %s is the bus's error.
            writeError("nudge: " + format(tr("warning: %s"), format(tr("cannot tell the daemon (%s); it will see the change by itself"), "\(error)")) + "\n")
        }
        return true
    }
}

/// The running daemon's `Status`, asked without starting it.
extension DaemonStatus {
    /// Asks the daemon on the session bus, waiting for the answer; `nil` when there is no
    /// bus, no daemon or no answer.
    public static func query() -> DaemonStatus? { DaemonLink.running().flatMap(query) }

    /// Asks the daemon `link` reaches, waiting for the answer; `nil` when it does not answer.
    public static func query(_ link: DaemonLink) -> DaemonStatus? {
        guard let fields = (try? link.call("Status").first)?.vardict else { return nil }
        return DaemonStatus(fields: fields)
    }

    /// Asked on a connection already open, without waiting (a stalled daemon must not
    /// stall a screen): `reply` runs during a later dispatch, with `nil` when the daemon
    /// does not run or did not answer within `timeout`.
    public static func query(on connection: Connection, timeout: Duration, reply: @escaping (DaemonStatus?) -> Void) {
        connection.call(destination: NudgeService.busName, path: NudgeService.objectPath, interface: NudgeService.interface,
                        member: "Status", timeout: timeout, autoStart: false) { result in
            reply((try? result.get())?.first?.vardict.map { DaemonStatus(fields: $0) })
        }
    }
}

extension DaemonLink {
    /// Starts `program daemon` (the `nudge` beside the caller) in a process group of its
    /// own, so it keeps running when the face that started it ends. Its end is reaped on
    /// `loop`, and `ended` is told whether it failed (a daemon that keeps running never
    /// ends, so a call means it stopped).
    public static func start(_ program: String, on loop: EventLoop, ended: @escaping (_ failed: Bool) -> Void) throws(OperationError) {
        do {
            let (pid, _) = try ChildProcess.spawn(program, ["daemon"], group: true)
            try loop.add(child: pid) { exit in ended(exit != .exited(0)) }
        } catch {
            throw OperationError(.unavailable, "\(error)")
        }
    }
}

/// The loop a face runs on (see ``AlertFeed``).
public typealias EventLoop = Platform.EventLoop
