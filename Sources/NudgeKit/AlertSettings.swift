import Foundation
import Localization
import NudgeCore

/// An alert's settings as a person gives them, in any face: `nudge add`'s options, the
/// form's fields. Each value was read and checked by its own type (``SettingValue``); all
/// are optional: adding starts from Nudge's defaults, editing from the stored alert.
/// ``apply(to:title:)`` checks how they go together, with the same messages everywhere.
public struct AlertSettings: Sendable, Equatable {
    /// The body text.
    public var body: String?
    /// A sound, or silence.
    public var sound: SoundChoice?
    /// The pop-up's urgency.
    public var urgency: Urgency?
    /// An icon name or file.
    public var icon: String?
    /// The zone the alert follows.
    public var zone: ZoneChoice?
    /// What happens to missed showings.
    public var catchUp: CatchUpChoice?
    /// How old a missed showing may be and still be shown (with catch-up `once`).
    public var grace: GraceLength?
    /// How long Snooze postpones.
    public var snooze: SnoozeLength?
    /// What it reminds of.
    public var kind: Alert.Kind?
    /// A water reminder (the same as `kind` water).
    public var water: Bool
    /// Whether it is held or shown while the person is away.
    public var whenAway: Alert.WhenAway?
    /// Show an unanswered pop-up again, or never.
    public var nag: NagInterval?
    /// How many times `nag` shows it again at most.
    public var nagMax: NagTimes?
    /// Switch it off.
    public var off: Bool

    /// Settings with the values given; the rest left as they are.
    public init(body: String? = nil, sound: SoundChoice? = nil, urgency: Urgency? = nil, icon: String? = nil, zone: ZoneChoice? = nil,
                catchUp: CatchUpChoice? = nil, grace: GraceLength? = nil, snooze: SnoozeLength? = nil, kind: Alert.Kind? = nil,
                water: Bool = false, whenAway: Alert.WhenAway? = nil, nag: NagInterval? = nil, nagMax: NagTimes? = nil, off: Bool = false) {
        (self.body, self.sound, self.urgency, self.icon, self.zone, self.catchUp, self.grace) = (body, sound, urgency, icon, zone, catchUp, grace)
        (self.snooze, self.kind, self.water, self.whenAway, self.nag, self.nagMax, self.off) = (snooze, kind, water, whenAway, nag, nagMax, off)
    }

    /// The pinned zone given; `nil` for none or the system's.
    public var pinnedZone: TimeZone? { zone?.pinned }

    /// A text setting within its limit, or the limit's message.
    static func check(_ field: Limits.Field, _ text: String) throws(OperationError) {
        do { try Limits.check(field, text) } catch { throw OperationError(.usage, error.phrase.text(Catalog.shared.language)) }
    }

    /// Parses a schedule; a one-shot must be in the future. A phrase naming a day without a
    /// time of day takes `defaultTime` (none unless given).
    public static func schedule(_ flags: ScheduleFlags, now: Date, zone: TimeZone, defaultTime: DefaultReminderTime = .known(nil)) throws(OperationError) -> Schedule {
        let parsed = try defaultTime.schedule(flags, now: now, zone: zone)
        do throws(ScheduleError) {
            if case .once(let instant) = parsed, instant <= now {
                throw ScheduleError(flags.on ?? flags.in ?? flags.phrase ?? "", Phrase("invalid date"), detail: Phrase("it is in the past"),
                                    accepted: Phrase("give a future instant"))
            }
            // A cron expression whose days never come (February 30) would be kept and
            // never shown.
            if case .cron(let cron) = parsed, parsed.occurrences(after: now, count: 1, in: zone).isEmpty {
                // TRANSLATORS: a cron expression no day matches (February 30).
                throw ScheduleError(cron.text, Phrase("invalid cron expression"), detail: Phrase("no day matches it, so it would never fire"),
                                    accepted: CronExpression.accepted)
            }
            return parsed
        } catch {
            throw OperationError(error)
        }
    }

    /// A duration (`90s`, `20m`, `1h30m`) in whole seconds, within what `quantity` allows;
    /// otherwise a usage error that names the range.
    public static func duration(_ text: String, for quantity: Limits.Quantity) throws(OperationError) -> Int {
        do { return try ScheduleParser.duration(text, for: quantity) } catch { throw OperationError(error) }
    }

    /// Checks how the given values go together and applies them; on any error the alert
    /// is left as it was.
    public func apply(to alert: inout Alert, title: String?) throws(OperationError) {
        var changed = alert
        for (field, value) in [(Limits.Field.title, title), (.body, body), (.icon, icon)] {
            if let value { try Self.check(field, value) }
        }
        // A title of spaces alone would be a row with no title (and an empty accessible
        // name); empty is the drink-water reminder's own title.
        // So would one of invisible marks alone (a right-to-left mark, a zero-width space).
        if let title, !title.isEmpty, title.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || [.format, .control].contains($0.properties.generalCategory) }) {
            // TRANSLATORS: a title is empty or only spaces.
            throw OperationError(.usage, tr("a reminder needs a title"))
        }
        if let title, !title.isEmpty { changed.title = title }
        if let body { changed.body = body }
        if let icon { changed.icon = icon }
        if let urgency { changed.urgency = urgency }
        if let zone { changed.timeZone = zone.pinned?.identifier }
        if let sound { changed.sound = sound.sound }
        if let snooze { changed.snoozeSeconds = snooze.seconds }
        let wantsOnce: Bool
        switch catchUp {
        case nil: if case .skip = alert.catchUp { wantsOnce = false } else { wantsOnce = true }
        case .once?: wantsOnce = true
        case .skip?: wantsOnce = false
        }
        if wantsOnce {
            var seconds = 12 * 3600
            if case .once(let current) = alert.catchUp { seconds = current }
            if let grace { seconds = grace.seconds }
            changed.catchUp = .once(graceSeconds: seconds)
        } else {
            if grace != nil { throw OperationError(.usage, tr("--grace goes with --catch-up once")) }
            changed.catchUp = .skip
        }
        if let kind {
            if water && kind != .water { throw OperationError(.usage, tr("--water and --kind reminder contradict each other")) }
            changed.kind = kind
        }
        if water { changed.kind = .water }
        switch nag {
        case nil: break
        case .never?:
            if nagMax != nil { throw OperationError(.usage, tr("--nag-max goes with --nag DURATION")) }
            changed.nag = nil
        case .every(let seconds)?:
            changed.nag = Alert.Nag(seconds: seconds, times: alert.nag?.times ?? 6)
        }
        if let nagMax {
            guard var current = changed.nag else { throw OperationError(.usage, tr("--nag-max goes with --nag DURATION")) }
            current.times = nagMax.count
            changed.nag = current
        }
        if let whenAway { changed.whenAway = whenAway }
        if off { changed.enabled = false }
        alert = changed
    }
}
