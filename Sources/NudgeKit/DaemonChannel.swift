import DBus
import NudgeCore
import Localization

/// A face's way to the daemon: the session-bus connection its ``AlertFeed`` already follows
/// on the face's loop. Nothing on it waits for the daemon: `Reload` goes without asking for a
/// reply, a method's answer comes back during a later turn of the loop, and whether the
/// daemon runs is what the bus last said of its name (`NameOwnerChanged`), never asked while
/// a key waits. A stalled daemon (SIGSTOP) leaves the face answering keys.
///
/// Used on the thread of the loop that dispatches ``connection`` only (a face's main
/// thread); it is in the ``World`` a face passes to the operations.
public final class DaemonChannel: @unchecked Sendable {
    /// The face's own connection, dispatched by its loop.
    public let connection: Connection
    /// Whether the daemon's name has an owner, as the bus last said; `nil` until it answered.
    public private(set) var isRunning: Bool?
    /// How long a method call waits for the daemon before it is said to be slow (its
    /// answer still counts when it comes).
    static let callTimeout = Duration.seconds(2)

    /// Follows the daemon's name on `connection` (which a loop dispatches: ``AlertFeed``).
    public init(connection: Connection) {
        self.connection = connection
        try? connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                            member: "NameOwnerChanged", arg0: NudgeService.busName), confirmed: false) { [weak self] message in
            guard let args = try? message.arguments(), args.count == 3, let owner = args[2].string else { return }
            self?.isRunning = !owner.isEmpty
        }
        connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        member: "NameHasOwner", arguments: [.string(NudgeService.busName)], autoStart: false) { [weak self] result in
            // A NameOwnerChanged that came first is newer than this answer.
            guard let self, isRunning == nil else { return }
            isRunning = (try? result.get())?.first?.bool ?? false
        }
    }

    /// Tells the daemon the store changed (`Reload`, no reply asked, never starting it).
    public func reload() {
        guard let message = try? Message.methodCall(destination: NudgeService.busName, path: NudgeService.objectPath,
                                                    interface: NudgeService.interface, member: "Reload") else { return }
        message.autoStart = false
        message.noReply = true
        _ = try? connection.send(message)
    }

    /// Calls a method of the daemon's interface without waiting: `reply` runs during a later
    /// turn with the values, or the error as ``DaemonLink/call(_:_:)`` words it. `notThere`
    /// runs instead when the daemon turned out not to run (its name had no owner). A daemon
    /// that has not answered within ``callTimeout`` is said to be slow (the call reached
    /// it: a stopped daemon takes it when it goes on), and its answer, when it comes after
    /// all, runs `reply` again: the face says what was done in place of the wait.
    public func call(_ member: String, _ arguments: [Value] = [], notThere: @escaping () -> Void,
                     reply: @escaping (Result<[Value], OperationError>) -> Void) {
        let message: Message
        do throws(BusError) {
            message = try Message.methodCall(destination: NudgeService.busName, path: NudgeService.objectPath,
                                             interface: NudgeService.interface, member: member)
            message.autoStart = false
            try message.append(contentsOf: arguments)
        } catch {
            return reply(.failure(DaemonLink.operationError(error, member: member)))
        }
        let answered: (Result<Message, BusError>) -> Void = { [weak self] result in
            switch result.flatMap({ message -> Result<[Value], BusError> in
                do throws(BusError) { return .success(try message.arguments()) } catch { return .failure(error) }
            }) {
            case .success(let values):
                reply(.success(values))
            // Not there, or gone with the call unanswered (killed while stopped): applied to the
            // store, as without a daemon (an answer given twice is given once).
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner
                || (error.name == .noReply && error.message.contains("disconnected")):
                self?.isRunning = false
                notThere()
            case .failure(let error):
                reply(.failure(DaemonLink.operationError(error, member: member)))
            }
        }
        connection.send(message, timeout: Self.callTimeout, reply: answered, late: answered)
    }
}
