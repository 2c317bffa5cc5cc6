/// Something that shows notifications and reports what the person did with them.
///
/// The scheduler talks to the desktop only through this: `FreedesktopDelivery` for real,
/// `InMemoryDelivery` (the `MemoryDelivery` target) for the scheduler's tests and benches.
public protocol Delivery: AnyObject {
    /// Shows a notification (or replaces the one named by `replacesID`) and returns the id
    /// that stands for it from then on, in events, `withdraw`, `release` and a later
    /// `replacesID`: the server's id, or, where the delivery does not wait for the server
    /// (FreedesktopDelivery's queue mode), a handle of its own that is matched to the
    /// server's id when the reply comes.
    func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32
    /// Takes a shown notification away.
    func withdraw(_ id: UInt32) throws(DeliveryError)
    /// Lets an id go: nothing more is wanted of that pop-up, so what is kept to match its
    /// events to it can go, and events for it are no longer reported. Until then an id stays
    /// matched after its pop-up closed, because some servers send a click's ActionInvoked
    /// after its NotificationClosed; the client, which knows when an answer is complete
    /// (the scheduler's ledger), says when. Releasing an id twice, or one never given, does
    /// nothing; a short-lived client may leave it to its exit.
    func release(_ id: UInt32)
    /// Called for each answer: an action chosen, a pop-up closed.
    var onEvent: ((DeliveryEvent) -> Void)? { get set }
}

extension Delivery {
    /// Keeps nothing per pop-up, so there is nothing to let go.
    public func release(_ id: UInt32) {}
}

/// What came back from a shown notification.
public enum DeliveryEvent: Sendable, Hashable {
    /// The person chose an action (`default` is a click on the pop-up).
    case action(id: UInt32, key: ActionKey)
    /// The pop-up went away, for the reason given.
    case closed(id: UInt32, reason: CloseReason)
    /// A delivery that had returned its id failed later (a queued `Notify` got an error or
    /// no reply): the pop-up may never have appeared.
    case failed(id: UInt32, error: DeliveryError)
    /// A delivery reported as failed for want of a reply came through after all: the
    /// server's late reply says the pop-up is on screen.
    case appeared(id: UInt32)

    /// Whether it is a click on the pop-up's body (the `default` action).
    public var isBodyClick: Bool {
        if case .action(_, .default) = self { return true }
        return false
    }

    /// The notification the event is about.
    public var id: UInt32 {
        switch self {
        case .action(let id, _), .closed(let id, _), .failed(let id, _), .appeared(let id): id
        }
    }
}

/// Why a pop-up closed: the freedesktop close reasons, an open set.
public struct CloseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The reason code on the wire.
    public var rawValue: UInt32
    /// Wraps a reason code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// 1: it timed out.
    public static let expired = CloseReason(rawValue: 1)
    /// 2: the person dismissed it.
    public static let dismissed = CloseReason(rawValue: 2)
    /// 3: a `CloseNotification` call closed it.
    public static let closedByCall = CloseReason(rawValue: 3)
    /// 4: undefined or reserved.
    public static let undefined = CloseReason(rawValue: 4)

    /// `expired`, `dismissed`, `closed`, or `reason N`.
    public var description: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closed"
        case .undefined: "undefined"
        default: "reason \(rawValue)"
        }
    }
}

/// Why a delivery failed, in terms of what the person can do about it.
public struct DeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public var kind: Kind
    /// One line saying what went wrong, in any language.
    public var phrase: Phrase
    /// The line in English.
    public var message: String { phrase.description }

    /// Makes an error that a person reads in their language.
    public init(_ kind: Kind, _ phrase: Phrase) {
        self.kind = kind
        self.phrase = phrase
    }

    /// Makes an error whose text is shown as it is (another program's words).
    public init(_ kind: Kind, _ message: String) {
        self.init(kind, .verbatim(message))
    }

    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// There is no session bus to talk to.
        case noBus
        /// Nobody serves notifications now.
        case noServer
        /// The server did not answer in time.
        case noReply
        /// The server or the bus refused the request.
        case rejected
    }

    /// The message.
    public var description: String { message }
}
