import NudgeCore

/// A ``Delivery`` that keeps everything in memory: for scheduler tests and benches, never
/// for live ones. Pure code, so the core's tests and the benches can both use it.
public final class InMemoryDelivery: Delivery {
    /// Every notification delivered, in order, with the id it got.
    public private(set) var delivered: [(id: UInt32, notification: Notification)] = []
    /// The ids shown now.
    public private(set) var shown: Set<UInt32> = []
    /// Ids withdrawn, in order.
    public private(set) var withdrawn: [UInt32] = []
    /// Ids released, in order (an id released twice shows twice).
    public private(set) var released: [UInt32] = []
    /// The ids given and not released: what a real delivery keeps to match events.
    public private(set) var kept: Set<UInt32> = []
    /// When set, the next deliveries fail with it.
    public var failure: DeliveryError?
    /// Gives every delivery a new id, a replacement too, as FreedesktopDelivery's queue mode
    /// gives handles; otherwise a replacement keeps the id, as servers do.
    public var newIDEachTime = false
    /// Answers reported back.
    public var onEvent: ((DeliveryEvent) -> Void)?
    private var lastID: UInt32 = 0

    /// An empty delivery.
    public init() {}

    /// Records the notification; replacing keeps the id (unless ``newIDEachTime``).
    public func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32 {
        if let failure { throw failure }
        let id: UInt32
        if let replaced = notification.replacesID, replaced != 0, !newIDEachTime {
            id = replaced
        } else {
            lastID += 1
            id = lastID
        }
        if let replaced = notification.replacesID { shown.remove(replaced) }
        delivered.append((id, notification))
        shown.insert(id)
        kept.insert(id)
        return id
    }

    /// Records the withdrawal and reports it closed by call.
    public func withdraw(_ id: UInt32) throws(DeliveryError) {
        if let failure { throw failure }
        withdrawn.append(id)
        if shown.remove(id) != nil { onEvent?(.closed(id: id, reason: .closedByCall)) }
    }

    /// Records the release; the id is no longer kept.
    public func release(_ id: UInt32) {
        released.append(id)
        kept.remove(id)
    }
}
