import Foundation
import Localization
import NudgeCore

/// An alert's settings as a person gives them, in any face: the text of `nudge add`'s
/// options, the form's fields. All are optional: adding starts from Nudge's defaults,
/// editing from the stored alert. ``apply(to:title:)`` checks every one with the same
/// messages everywhere.
public struct AlertSettings: Sendable, Equatable {
    /// The body text.
    public var body: String?
    /// A sound-theme name or a sound file; `none` for silence.
    public var sound: String?
    /// `low`, `normal` or `critical`.
    public var urgency: String?
    /// An icon name or file.
    public var icon: String?
    /// A zone to pin the alert to (IANA name); `system` follows the system's.
    public var tz: String?
    /// Missed reminders: `once` or `skip`.
    public var catchUp: String?
    /// How old a missed reminder may be and still be shown (a duration).
    public var grace: String?
    /// How long Snooze postpones (a duration).
    public var snooze: String?
    /// `water` or `reminder`.
    public var kind: String?
    /// A water reminder (the same as `kind` water).
    public var water: Bool
    /// `hold` or `show`.
    public var whenAway: String?
    /// Show an unanswered pop-up again every duration; `none` to stop.
    public var nag: String?
    /// How many times `nag` shows it again at most.
    public var nagMax: Int?
    /// Switch it off.
    public var off: Bool

    /// Settings with the values given; the rest left as they are.
    public init(body: String? = nil, sound: String? = nil, urgency: String? = nil, icon: String? = nil, tz: String? = nil,
                catchUp: String? = nil, grace: String? = nil, snooze: String? = nil, kind: String? = nil, water: Bool = false,
                whenAway: String? = nil, nag: String? = nil, nagMax: Int? = nil, off: Bool = false) {
        (self.body, self.sound, self.urgency, self.icon, self.tz, self.catchUp, self.grace) = (body, sound, urgency, icon, tz, catchUp, grace)
        (self.snooze, self.kind, self.water, self.whenAway, self.nag, self.nagMax, self.off) = (snooze, kind, water, whenAway, nag, nagMax, off)
    }

    /// The pinned zone given with --tz; `nil` for none or `system`.
    public func zone() throws(OperationError) -> TimeZone? {
        guard let tz, tz.lowercased() != "system" else { return nil }
        do { return try ScheduleParser.zone(tz) } catch { throw OperationError(error) }
    }

    /// Parses a schedule; a one-shot must be in the future.
    public static func schedule(_ flags: ScheduleFlags, now: Date, zone: TimeZone) throws(OperationError) -> Schedule {
        do throws(ScheduleError) {
            let parsed = try ScheduleParser.schedule(flags, now: now, zone: zone)
            if case .once(let instant) = parsed, instant <= now {
                throw ScheduleError(flags.on ?? flags.in ?? "", Phrase("invalid date"), detail: Phrase("it is in the past"),
                                    accepted: Phrase("give a future instant"))
            }
            return parsed
        } catch {
            throw OperationError(error)
        }
    }

    public static func duration(_ text: String, for quantity: Limits.Quantity) throws(OperationError) -> Int {
        do { return try ScheduleParser.duration(text, for: quantity) } catch { throw OperationError(error) }
    }

    /// Checks every given value and applies it; on any error the alert is left as it was.
    public func apply(to alert: inout Alert, title: String?) throws(OperationError) {
        var changed = alert
        for (field, value) in [(Limits.Field.title, title), (.body, body), (.icon, icon), (.sound, sound)] {
            guard let value else { continue }
            do { try Limits.check(field, value) } catch { throw OperationError(.usage, error.phrase.text(Catalog.shared.language)) }
        }
        if let title, !title.isEmpty { changed.title = title }
        if let body { changed.body = body }
        if let icon { changed.icon = icon }
        if let urgency {
            guard let level = Urgency(name: urgency) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw OperationError(.usage, format(tr("invalid urgency %s: use low, normal or critical"), urgency.quotedForMessage()))
            }
            changed.urgency = level
        }
        if tz != nil { changed.timeZone = try zone()?.identifier }
        if let sound { changed.sound = sound.lowercased() == "none" ? nil : Sound(sound) }
        if let snooze { changed.snoozeSeconds = try Self.duration(snooze, for: .snooze) }
        let wantsOnce: Bool
        switch catchUp?.lowercased() {
        case nil: if case .skip = alert.catchUp { wantsOnce = false } else { wantsOnce = true }
        case "once": wantsOnce = true
        case "skip": wantsOnce = false
        // TRANSLATORS: %s is the value given, quoted.
        default: throw OperationError(.usage, format(tr("invalid catch-up %s: use once or skip"), catchUp!.quotedForMessage()))
        }
        if wantsOnce {
            var seconds = 12 * 3600
            if case .once(let current) = alert.catchUp { seconds = current }
            if let grace { seconds = try Self.duration(grace, for: .grace) }
            changed.catchUp = .once(graceSeconds: seconds)
        } else {
            if grace != nil { throw OperationError(.usage, tr("--grace goes with --catch-up once")) }
            changed.catchUp = .skip
        }
        if let kind {
            guard let chosen = Alert.Kind(rawValue: kind.lowercased()) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw OperationError(.usage, format(tr("invalid kind %s: use water or reminder"), kind.quotedForMessage()))
            }
            if water && chosen != .water { throw OperationError(.usage, tr("--water and --kind reminder contradict each other")) }
            changed.kind = chosen
        }
        if water { changed.kind = .water }
        if let nag {
            if nag.lowercased() == "none" {
                if nagMax != nil { throw OperationError(.usage, tr("--nag-max goes with --nag DURATION")) }
                changed.nag = nil
            } else {
                changed.nag = Alert.Nag(seconds: try Self.duration(nag, for: .nag), times: alert.nag?.times ?? 6)
            }
        }
        if let nagMax {
            guard var current = changed.nag else { throw OperationError(.usage, tr("--nag-max goes with --nag DURATION")) }
            guard (1...Alert.Nag.maxTimes).contains(nagMax) else {
                // TRANSLATORS: %1$s is the value given, quoted; %2$d the most allowed.
                throw OperationError(.usage, format(tr("invalid --nag-max %1$s: use 1 to %2$d"), "\(nagMax)".quotedForMessage(), Alert.Nag.maxTimes))
            }
            current.times = nagMax
            changed.nag = current
        }
        if let whenAway {
            guard let policy = Alert.WhenAway(rawValue: whenAway.lowercased()) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw OperationError(.usage, format(tr("invalid --when-away %s: use hold or show"), whenAway.quotedForMessage()))
            }
            changed.whenAway = policy
        }
        if off { changed.enabled = false }
        alert = changed
    }
}
