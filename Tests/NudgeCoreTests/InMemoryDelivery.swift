import NudgeCore

/// A ``Delivery`` that keeps everything in memory: for scheduler tests, never for live ones.
final class InMemoryDelivery: Delivery {
    /// Every notification delivered, in order, with the id it got.
    private(set) var delivered: [(id: UInt32, notification: Notification)] = []
    /// The ids shown now.
    private(set) var shown: Set<UInt32> = []
    /// Ids withdrawn, in order.
    private(set) var withdrawn: [UInt32] = []
    /// When set, the next deliveries fail with it.
    var failure: DeliveryError?
    /// Answers reported back.
    var onEvent: ((DeliveryEvent) -> Void)?
    private var lastID: UInt32 = 0

    /// An empty delivery.
    init() {}

    /// Records the notification; replacing keeps the id, as servers do.
    func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32 {
        if let failure { throw failure }
        let id: UInt32
        if let replaced = notification.replacesID, replaced != 0 {
            id = replaced
        } else {
            lastID += 1
            id = lastID
        }
        delivered.append((id, notification))
        shown.insert(id)
        return id
    }

    /// Records the withdrawal and reports it closed by call.
    func withdraw(_ id: UInt32) throws(DeliveryError) {
        if let failure { throw failure }
        withdrawn.append(id)
        if shown.remove(id) != nil { onEvent?(.closed(id: id, reason: .closedByCall)) }
    }
}
