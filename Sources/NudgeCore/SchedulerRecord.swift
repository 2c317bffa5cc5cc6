import Foundation

/// An alert's runtime state: what the scheduler has done with it so far.
public struct AlertState: Sendable, Hashable {
    /// Occurrences up to this instant have been handled (fired or recorded as missed).
    public var checkedUntil: Date
    /// The scheduled instant of the last occurrence delivered.
    public var lastFired: Date?
    /// How many times it came up unanswered.
    public var pendingCount: Int32 = 0
    /// The id of its pop-up while one is shown.
    public var shownID: UInt32?
    /// A snooze in force: fire again then.
    public var snoozedUntil: Date?
    /// "Done for today": the local day whose remaining occurrences are skipped.
    public var doneForDay: CivilDay?

    /// A fresh state: nothing before `checkedUntil` is owed.
    public init(checkedUntil: Date) { self.checkedUntil = checkedUntil }
}

/// What the scheduler did, for the delivery log.
public enum SchedulerRecord: Sendable, Hashable {
    /// An occurrence was shown (`count` is the pop-up's count).
    case fired(alert: UUID, due: Date, deliveryID: UInt32, count: Int32)
    /// Missed occurrences were coalesced into one catch-up pop-up.
    case caughtUp(alert: UUID, missed: Int, since: Date, deliveryID: UInt32)
    /// Occurrences passed unseen and were only recorded (policy `skip`, or outside the grace period).
    case missed(alert: UUID, count: Int, since: Date)
    /// A snoozed alert came back.
    case snoozeFired(alert: UUID, deliveryID: UInt32)
    /// The person acknowledged it; the count went to 0.
    case acknowledged(alert: UUID)
    /// Snoozed until the instant.
    case snoozed(alert: UUID, until: Date)
    /// The rest of that local day is skipped.
    case doneForToday(alert: UUID, day: CivilDay)
    /// The pop-up expired; the count stays.
    case expired(alert: UUID)
    /// Delivery failed; the occurrence waits for ``Scheduler/deliveryRestored(now:)``.
    case deliveryFailed(alert: UUID, error: DeliveryError)
    /// A pop-up that had failed was shown again once a server was back.
    case redelivered(alert: UUID, deliveryID: UInt32, count: Int32)
    /// A pop-up reported as failed (no reply in time) turned out to be on screen.
    case shownLate(alert: UUID, deliveryID: UInt32)

    /// The alert the record is about.
    public var alertID: UUID {
        switch self {
        case .fired(let id, _, _, _), .caughtUp(let id, _, _, _), .missed(let id, _, _), .snoozeFired(let id, _),
             .acknowledged(let id), .snoozed(let id, _), .doneForToday(let id, _), .expired(let id),
             .deliveryFailed(let id, _), .redelivered(let id, _, _), .shownLate(let id, _):
            id
        }
    }
}
