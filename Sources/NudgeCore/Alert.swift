import Foundation

/// A reminder: what it says, when it fires, and how it behaves when answered or missed.
public struct Alert: Sendable, Hashable, Identifiable {
    // Declared in this order so the fields pack with little padding: the daemon holds
    // every alert, 100,000 of them in its benchmark (the byte-sized fields fill the end
    // of the schedule's payload).
    /// The alert's identity; shown to people as its first 8 hex digits.
    public var id: UUID
    /// The pop-up's title.
    public var title: String
    /// The pop-up's body.
    public var body: String
    /// Its pop-ups' icon: a theme name or a file; empty for the app's icon.
    public var icon: String
    /// A pinned IANA zone, or `nil` to follow the system's zone as it changes (travel).
    public var timeZone: String?
    /// When it was created.
    public var created: Date
    /// How long `snooze` postpones, in seconds.
    public var snoozeSeconds: Int
    /// When it fires.
    public var schedule: Schedule
    /// The on/off switch.
    public var enabled: Bool
    /// How urgent its pop-ups are.
    public var urgency: Urgency
    /// What it reminds of: a water reminder knows the day's drinks.
    public var kind: Kind
    /// What happens to its showings while the person is away (screen locked, do not
    /// disturb); `nil` for the default: hold a repeating reminder, show a one-shot.
    public var whenAway: WhenAway?
    /// The sound played with it; `nil` for none.
    public var sound: Sound?
    /// What happens to occurrences that passed unseen (daemon off, machine asleep).
    public var catchUp: CatchUp

    /// What happens to an alert's showings while the person is away.
    public enum WhenAway: String, Sendable, Hashable, CaseIterable {
        /// Not shown: counted, logged as held, and shown as one pop-up on return.
        case hold
        /// Shown as usual.
        case show
    }

    /// Following up an ignored pop-up: shown again every `seconds`, at most `times` times.
    public var nag: Nag?

    /// How an unanswered pop-up is followed up.
    public struct Nag: Sendable, Hashable {
        /// How long after the pop-up (or the last try) it is shown again.
        public var seconds: Int
        /// How many times at most.
        public var times: Int

        /// The most tries `--nag-max` allows.
        public static let maxTimes = 100

        public init(seconds: Int, times: Int) {
            (self.seconds, self.times) = (seconds, times)
        }
    }

    /// Whether its showings wait while the person is away.
    public var holdsWhileAway: Bool {
        if let whenAway { return whenAway == .hold }
        if case .once = schedule { return false }
        return true
    }

    /// What an alert reminds of.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Any reminder.
        case reminder
        /// A water reminder: its pop-up shows the day's progress and offers the drink,
        /// and once the day's goal is met the rest of that drink day is skipped.
        case water
    }

    /// An alert with Nudge's defaults: with no title it is the drink-water reminder (in
    /// the words given, of kind `water` unless a kind is given); catch-up `once` within 12
    /// hours; snooze 10 minutes; the reminder sound.
    public init(id: UUID = UUID(), title: String? = nil, body: String? = nil, schedule: Schedule,
                enabled: Bool = true, sound: Sound? = .reminder, urgency: Urgency = .normal, icon: String = "",
                timeZone: String? = nil, catchUp: CatchUp = .once(graceSeconds: 12 * 3600),
                snoozeSeconds: Int = 600, created: Date, kind: Kind? = nil, whenAway: WhenAway? = nil, nag: Nag? = nil,
                language: Language = .english) {
        let isWater = title?.isEmpty ?? true
        self.kind = kind ?? (isWater ? .water : .reminder)
        self.whenAway = whenAway
        self.nag = nag
        self.id = id
        self.title = isWater ? language.waterTitle : title!
        self.body = body ?? (isWater ? language.waterBody : "")
        self.schedule = schedule
        self.enabled = enabled
        self.sound = sound
        self.urgency = urgency
        self.icon = icon
        self.timeZone = timeZone
        self.catchUp = catchUp
        self.snoozeSeconds = snoozeSeconds
        self.created = created
    }

    /// The zone its schedule runs in: the pinned one, else the system's zone passed in.
    public func zone(system: TimeZone) -> TimeZone {
        timeZone.flatMap(ZoneCache.shared.zone) ?? system
    }

    /// The id as people see it: 8 lowercase hex digits.
    public var shortID: String {
        id.shortHex
    }

    /// The pop-up for this alert, having come up `count` times unanswered.
    public func notification(count: Int32, actions: [Notification.Action] = []) -> Notification {
        Notification(summary: title, body: body, icon: icon.isEmpty ? Notification.appID : icon, urgency: urgency, actions: actions,
                     category: "x-nudge.reminder", sound: sound, count: count)
    }

    /// What to do with occurrences that passed while nobody could be told.
    public enum CatchUp: Sendable, Hashable {
        /// One pop-up, "Missed N reminders since HH:MM", when the latest missed one is
        /// within the grace period; otherwise they are only recorded as missed.
        case once(graceSeconds: Int)
        /// Only record them as missed.
        case skip
    }
}

/// Time zones by IANA name, looked up once: a big store asks for the same few zones
/// 100,000 times.
final class ZoneCache: @unchecked Sendable {
    static let shared = ZoneCache()
    private let lock = NSLock()
    private var zones: [String: TimeZone?] = [:]

    func zone(_ identifier: String) -> TimeZone? {
        lock.withLock {
            if let known = zones[identifier] { return known }
            let zone = TimeZone(identifier: identifier)
            zones[identifier] = zone
            return zone
        }
    }
}
