/// A ``Delivery`` that writes each notification as a line of text: for headless use
/// (a server without a desktop, `--console`). It never reports answers.
public final class ConsoleDelivery: Delivery {
    private let write: (String) -> Void
    private var lastID: UInt32 = 0
    /// Never called: a console cannot answer.
    public var onEvent: ((DeliveryEvent) -> Void)?

    /// Writes through `write`, one line per notification.
    public init(write: @escaping (String) -> Void) { self.write = write }

    /// Writes `[urgency] summary — body`.
    public func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32 {
        lastID += 1
        let body = notification.body.isEmpty ? "" : " — " + notification.body
        write("[\(notification.urgency)] \(notification.displayedSummary)\(body)")
        return notification.replacesID ?? lastID
    }

    /// Nothing to take away from a console.
    public func withdraw(_ id: UInt32) throws(DeliveryError) {}
}
