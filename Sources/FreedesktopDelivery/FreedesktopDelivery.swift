#if canImport(Glibc)
import Glibc
#endif
import DBus
import NudgeCore

/// ``Delivery`` through the freedesktop notification service on the session bus
/// (`org.freedesktop.Notifications`): Notify, CloseNotification, and the ActionInvoked /
/// NotificationClosed signals as events.
///
/// Calls never auto-start a server, so "nobody there" is an answer in milliseconds instead
/// of a bus trying to spawn a daemon that cannot run. Events for ids this instance did not
/// issue are ignored: servers that broadcast would otherwise hand us everyone's clicks.
public final class FreedesktopDelivery: Delivery {
    /// The service's bus name.
    public static let busName = "org.freedesktop.Notifications"
    /// The service's object path.
    public static let objectPath = "/org/freedesktop/Notifications"
    /// The service's interface.
    public static let interface = "org.freedesktop.Notifications"

    /// The connection the notifications go through; it must stay open for answers to arrive.
    public let connection: Connection
    /// Called for each answer to a notification this instance showed.
    public var onEvent: ((DeliveryEvent) -> Void)?
    /// How long to wait for the server's reply.
    public var timeout: Duration = Connection.defaultTimeout
    private let environment: [String: String]
    private var issued: Set<UInt32> = []
    private var cachedCapabilities: Set<Capability>?
    private var cachedServer: ServerInformation?

    /// Uses a connection and listens for the service's signals on it.
    public init(connection: Connection, environment: [String: String] = ProcessEnvironment.current) throws(DeliveryError) {
        self.connection = connection
        self.environment = environment
        do {
            try connection.subscribe(MatchRule(interface: Self.interface, path: Self.objectPath), confirmed: false) { [weak self] message in
                self?.received(message)
            }
        } catch {
            throw Self.translate(error)
        }
    }

    /// Connects to the session bus and uses that connection.
    public static func session(environment: [String: String] = ProcessEnvironment.current) throws(DeliveryError) -> FreedesktopDelivery {
        let connection: Connection
        do {
            connection = try Connection.session()
        } catch {
            throw DeliveryError(.noBus, "cannot reach the session bus (\(error.message.isEmpty ? error.name.rawValue : error.message))")
        }
        return try FreedesktopDelivery(connection: connection, environment: environment)
    }

    private func call(_ member: String, _ arguments: [Value] = []) throws(DeliveryError) -> [Value] {
        do {
            return try connection.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                       member: member, arguments: arguments, timeout: timeout, autoStart: false)
        } catch {
            throw Self.translate(error)
        }
    }

    static func translate(_ error: BusError) -> DeliveryError {
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner:
            DeliveryError(.noServer, "no notification server: nothing owns \(busName) on the session bus")
        case .noReply, .timeout:
            DeliveryError(.noReply, "the notification server (\(busName)) did not answer in time")
        case .disconnected, .noServer, .ioError:
            DeliveryError(.noBus, "lost the session bus (\(error))")
        default:
            DeliveryError(.rejected, "\(busName) refused: \(error)")
        }
    }

    /// The server's capabilities, asked once and then remembered.
    public func capabilities() throws(DeliveryError) -> Set<Capability> {
        if let cachedCapabilities { return cachedCapabilities }
        let names = try call("GetCapabilities").first?.strings ?? []
        let caps = Set(names.map(Capability.init(rawValue:)))
        cachedCapabilities = caps
        return caps
    }

    /// Who the server is, asked once and then remembered.
    public func serverInformation() throws(DeliveryError) -> ServerInformation {
        if let cachedServer { return cachedServer }
        let values = try call("GetServerInformation").compactMap(\.string)
        guard values.count == 4 else {
            throw DeliveryError(.rejected, "\(Self.busName) answered GetServerInformation with \(values.count) strings, not 4")
        }
        let info = ServerInformation(name: values[0], vendor: values[1], version: values[2], specVersion: values[3])
        cachedServer = info
        return info
    }

    /// Who plays sounds: the server, a local player, or nobody.
    public func soundPlayback() throws(DeliveryError) -> SoundPlayback {
        if try capabilities().contains(.sound) { return .server }
        if let player = SoundPlayer.find(environment: environment) { return .local(player) }
        return .none
    }

    /// Shows the notification (`Notify`) and plays its sound here when the server cannot.
    ///
    /// The capabilities are asked only when they change what is sent or done (text that
    /// needs escaping, a sound), so a plain pop-up costs a single round trip.
    public func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32 {
        let needsCapabilities = notification.sound != nil || WireFormat.needsEscaping(notification.body)
        let caps = needsCapabilities || cachedCapabilities != nil ? try capabilities() : []
        let arguments = WireFormat.notifyArguments(notification, markup: caps.contains(.bodyMarkup))
        guard let id = try call("Notify", arguments).first?.uint32 else {
            throw DeliveryError(.rejected, "\(Self.busName) answered Notify without an id")
        }
        issued.insert(id)
        if let sound = notification.sound, !notification.suppressSound, !caps.contains(.sound),
           let player = SoundPlayer.find(environment: environment) {
            player.play(sound, environment: environment)
        }
        return id
    }

    /// Takes the pop-up away (`CloseNotification`).
    public func withdraw(_ id: UInt32) throws(DeliveryError) {
        _ = try call("CloseNotification", [.uint32(id)])
    }

    /// Waits up to `timeout` (forever for `nil`) for bus traffic and handles it; returns
    /// `false` once the bus is gone.
    @discardableResult
    public func process(timeout: Duration?) -> Bool {
        connection.process(timeout: timeout)
    }

    private func received(_ message: Message) {
        guard let arguments = try? message.arguments(), let id = arguments.first?.uint32, issued.contains(id) else {
            return
        }
        switch message.member {
        case "ActionInvoked":
            guard message.signature == "us", let key = arguments[1].string else { return }
            onEvent?(.action(id: id, key: key))
        case "NotificationClosed":
            guard message.signature == "uu", let reason = arguments[1].uint32 else { return }
            // The id is invalid from now on; the server may hand it out again.
            issued.remove(id)
            onEvent?(.closed(id: id, reason: CloseReason(rawValue: reason)))
        default:
            return
        }
    }
}

/// Who makes a reminder's sound heard.
public enum SoundPlayback: Sendable, Hashable, CustomStringConvertible {
    /// The notification server plays it (it has the `sound` capability).
    case server
    /// Nudge runs this player.
    case local(SoundPlayer)
    /// Nobody: the server cannot, and no player was found.
    case none

    /// `server`, the player's path, or `nobody`.
    public var description: String {
        switch self {
        case .server: "the notification server"
        case .local(let player): player.program
        case .none: "nobody (no sound capability, no player found)"
        }
    }
}

/// The process environment as a dictionary, read from `environ` without Foundation.
public enum ProcessEnvironment {
    /// The current environment.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}
