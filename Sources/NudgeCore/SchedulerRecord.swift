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
    /// The last answer that counts as done (Done, or a drink from the pop-up): what an
    /// after-answer schedule counts from.
    public var lastAnswer: Date?
    /// When its pop-up first came up unanswered (a pop-up replaced in place keeps it):
    /// what the time to answer is measured from.
    public var shownAt: Date?
    /// A water reminder whose day's goal is met: occurrences before this instant (the
    /// drink day's end) are skipped, never shown and never missed.
    public var goalMetUntil: Date?
    /// Showings held while the person was away, still to be shown on their return.
    public var heldCount: Int32 = 0
    /// When the first of them was due.
    public var heldSince: Date?
    /// A nagging alert's next try at an unanswered pop-up, and how many were made.
    public var nagAt: Date?
    public var nagCount: Int32 = 0

    /// A fresh state: nothing before `checkedUntil` is owed.
    public init(checkedUntil: Date) { self.checkedUntil = checkedUntil }
}

/// What the scheduler did, for the delivery log. An answer carries how long after its
/// pop-up came up it was given (`nil` when no pop-up was up).
public enum SchedulerRecord: Sendable, Hashable {
    /// An occurrence was shown (`count` is the pop-up's count).
    case fired(alert: UUID, due: Date, deliveryID: UInt32, count: Int32)
    /// Missed occurrences were coalesced into one catch-up pop-up.
    case caughtUp(alert: UUID, missed: Int, since: Date, deliveryID: UInt32)
    /// Occurrences passed unseen and were only recorded (policy `skip`, or outside the grace period).
    case missed(alert: UUID, count: Int, since: Date)
    /// A snoozed alert came back.
    case snoozeFired(alert: UUID, deliveryID: UInt32)
    /// The person acknowledged it (Done); the count went to 0.
    case acknowledged(alert: UUID, delay: TimeInterval? = nil)
    /// The person closed its pop-up without choosing; the count went to 0.
    case dismissed(alert: UUID, delay: TimeInterval? = nil)
    /// Its alarm was answered on another device at `at` (read from its calendar); the
    /// count went to 0 and the pop-up closed.
    case answeredElsewhere(alert: UUID, at: Date)
    /// Snoozed until the instant.
    case snoozed(alert: UUID, until: Date, delay: TimeInterval? = nil)
    /// Acknowledged, and the rest of that local day is skipped.
    case doneForToday(alert: UUID, day: CivilDay, delay: TimeInterval? = nil)
    /// "Drank" chosen on a water reminder's pop-up: a drink of that many millilitres, and
    /// the pop-up answered.
    case drank(alert: UUID, millilitres: Int, delay: TimeInterval? = nil)
    /// A water reminder's day goal is met: the rest of that drink day is skipped.
    case goalMet(alert: UUID, day: CivilDay)
    /// Showings came due while the person was away and were held, not shown.
    case held(alert: UUID, count: Int, since: Date)
    /// The person is back: what was held (and what passed meanwhile) is one pop-up.
    case shownOnReturn(alert: UUID, held: Int, since: Date, deliveryID: UInt32)
    /// An unanswered pop-up shown again (`attempt` of the alert's most), the count unchanged.
    case nagged(alert: UUID, attempt: Int, deliveryID: UInt32)
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
             .acknowledged(let id, _), .dismissed(let id, _), .answeredElsewhere(let id, _), .snoozed(let id, _, _), .doneForToday(let id, _, _),
             .drank(let id, _, _), .goalMet(let id, _), .held(let id, _, _), .shownOnReturn(let id, _, _, _), .nagged(let id, _, _),
             .expired(let id),
             .deliveryFailed(let id, _), .redelivered(let id, _, _), .shownLate(let id, _):
            id
        }
    }

    /// How long after its pop-up came up an answer was given; `nil` for what is not an
    /// answer, or when no pop-up was up.
    public var answerDelay: TimeInterval? {
        switch self {
        case .acknowledged(_, let delay), .dismissed(_, let delay), .snoozed(_, _, let delay),
             .doneForToday(_, _, let delay), .drank(_, _, let delay):
            delay
        default:
            nil
        }
    }
}
