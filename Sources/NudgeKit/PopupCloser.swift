import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// Closes pop-ups the daemon left on screen when the daemon is not there to do it
/// (CloseNotification on the session bus; the server does not check who asks). Best
/// effort: with no bus or no server there is nothing on screen to close.
public final class PopupCloser: Delivery {
    /// Never called: nothing it shows can be answered (``Delivery`` asks for it).
    public var onEvent: ((DeliveryEvent) -> Void)?
    private let busAddress: String?
    private let channel: DaemonChannel?
    private lazy var delivery: FreedesktopDelivery? = busAddress
        .flatMap { try? Connection.bus(address: $0) }
        .flatMap { try? FreedesktopDelivery(connection: $0) }

    /// Closes pop-ups on the session bus at `busAddress` (none with `nil`), or on a face's
    /// channel without waiting for the server.
    public init(busAddress: String?, channel: DaemonChannel? = nil) {
        self.busAddress = busAddress
        self.channel = channel
    }

    /// The CLI never shows reminders; only the daemon does.
    public func deliver(_ notification: NudgeCore.Notification) throws(DeliveryError) -> UInt32 {
        throw DeliveryError(.rejected, "the command line does not show reminders")
    }

    /// Closes pop-up `id` (CloseNotification); nothing without a bus or a server. Throws
    /// when the server refuses the call.
    public func withdraw(_ id: UInt32) throws(DeliveryError) {
        if let channel {
            // A face does not wait on the server: a stalled one must not stall a key.
            guard let message = try? Message.methodCall(destination: FreedesktopDelivery.busName, path: FreedesktopDelivery.objectPath,
                                                        interface: FreedesktopDelivery.interface, member: "CloseNotification") else { return }
            message.autoStart = false
            message.noReply = true
            try? message.append(contentsOf: [.uint32(id)])
            _ = try? channel.connection.send(message)
            return
        }
        try delivery?.withdraw(id)
    }
}
