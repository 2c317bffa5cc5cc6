import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore
import Localization

/// The settings `add` and `edit` share. All are optional: `add` starts from Nudge's
/// defaults, `edit` from the stored alert.
struct AlertOptions: ParsableArguments {
    @Option(help: "The body text.")
    var body: String?

    @Option(help: ArgumentHelp("A sound-theme name or a sound file; 'none' for silence (default: the reminder sound).", valueName: "NAME|PATH"))
    var sound: String?

    @Option(help: "Urgency: low, normal (default) or critical.", completion: .list(["low", "normal", "critical"]))
    var urgency: String?

    @Option(help: "An icon name or file (default: Nudge's).")
    var icon: String?

    @Option(help: ArgumentHelp("Pin the alert to this zone (IANA name); by default, or with 'system', it follows the system's zone.", valueName: "ZONE"))
    var tz: String?

    @Option(name: .customLong("catch-up"), help: "Missed reminders: 'once' (default: one pop-up within the grace) or 'skip'.",
            completion: .list(["once", "skip"]))
    var catchUp: String?

    @Option(help: ArgumentHelp("How old a missed reminder may be and still be shown (default 12h).", valueName: "DURATION"))
    var grace: String?

    @Option(help: ArgumentHelp("How long Snooze postpones (default 10m).", valueName: "DURATION"))
    var snooze: String?

    @Option(help: ArgumentHelp("What it reminds of: 'water' (shows the day's water, offers the drink, rests once the goal is met) or 'reminder'.",
                               valueName: "KIND"), completion: .list(Alert.Kind.allCases.map(\.rawValue)))
    var kind: String?

    @Flag(help: "A water reminder: the same as --kind water.")
    var water = false

    @Option(name: .customLong("when-away"),
            help: ArgumentHelp("While the screen is locked or notifications are paused: 'hold' (one pop-up on return; the default for repeating reminders) or 'show' (the default for one-shots).",
                               valueName: "hold|show"),
            completion: .list(Alert.WhenAway.allCases.map(\.rawValue)))
    var whenAway: String?

    @Option(help: ArgumentHelp("Show an unanswered pop-up again every DURATION ('none' to stop), the last tries critical.",
                               valueName: "DURATION"))
    var nag: String?

    @Option(name: .customLong("nag-max"), help: ArgumentHelp("How many times --nag shows it again at most (1 to 100, default 6).", valueName: "N"))
    var nagMax: Int?

    @Flag(help: "Switch it off (it keeps its settings; `nudge on ID` switches it back).")
    var off = false

    /// The pinned zone given with --tz; `nil` for none or `system`.
    func zone() throws(CLIError) -> TimeZone? {
        guard let tz, tz.lowercased() != "system" else { return nil }
        do { return try ScheduleParser.zone(tz) } catch { throw CLIError(error) }
    }

    /// Parses a schedule; a one-shot must be in the future.
    static func schedule(_ flags: ScheduleFlags, now: Date, zone: TimeZone) throws(CLIError) -> Schedule {
        do throws(ScheduleError) {
            let parsed = try ScheduleParser.schedule(flags, now: now, zone: zone)
            if case .once(let instant) = parsed, instant <= now {
                throw ScheduleError(flags.on ?? flags.in ?? "", Phrase("invalid date"), detail: Phrase("it is in the past"),
                                    accepted: Phrase("give a future instant"))
            }
            return parsed
        } catch {
            throw CLIError(error)
        }
    }

    static func duration(_ text: String, for quantity: Limits.Quantity) throws(CLIError) -> Int {
        do { return try ScheduleParser.duration(text, for: quantity) } catch { throw CLIError(error) }
    }

    /// Checks every given value and applies it; on any error the alert is left as it was.
    func apply(to alert: inout Alert, title: String?) throws(CLIError) {
        var changed = alert
        for (field, value) in [(Limits.Field.title, title), (.body, body), (.icon, icon), (.sound, sound)] {
            guard let value else { continue }
            do { try Limits.check(field, value) } catch { throw CLIError(.usage, error.phrase.text(Catalog.shared.wording)) }
        }
        if let title, !title.isEmpty { changed.title = title }
        if let body { changed.body = body }
        if let icon { changed.icon = icon }
        if let urgency {
            guard let level = Urgency(name: urgency) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw CLIError(.usage, format(tr("invalid urgency %s: use low, normal or critical"), urgency.quotedForMessage()))
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
        default: throw CLIError(.usage, format(tr("invalid catch-up %s: use once or skip"), catchUp!.quotedForMessage()))
        }
        if wantsOnce {
            var seconds = 12 * 3600
            if case .once(let current) = alert.catchUp { seconds = current }
            if let grace { seconds = try Self.duration(grace, for: .grace) }
            changed.catchUp = .once(graceSeconds: seconds)
        } else {
            if grace != nil { throw CLIError(.usage, tr("--grace goes with --catch-up once")) }
            changed.catchUp = .skip
        }
        if let kind {
            guard let chosen = Alert.Kind(rawValue: kind.lowercased()) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw CLIError(.usage, format(tr("invalid kind %s: use water or reminder"), kind.quotedForMessage()))
            }
            if water && chosen != .water { throw CLIError(.usage, tr("--water and --kind reminder contradict each other")) }
            changed.kind = chosen
        }
        if water { changed.kind = .water }
        if let nag {
            if nag.lowercased() == "none" {
                if nagMax != nil { throw CLIError(.usage, tr("--nag-max goes with --nag DURATION")) }
                changed.nag = nil
            } else {
                changed.nag = Alert.Nag(seconds: try Self.duration(nag, for: .nag), times: alert.nag?.times ?? 6)
            }
        }
        if let nagMax {
            guard var current = changed.nag else { throw CLIError(.usage, tr("--nag-max goes with --nag DURATION")) }
            guard (1...Alert.Nag.maxTimes).contains(nagMax) else {
                // TRANSLATORS: %1$s is the value given, quoted; %2$d the most allowed.
                throw CLIError(.usage, format(tr("invalid --nag-max %1$s: use 1 to %2$d"), "\(nagMax)".quotedForMessage(), Alert.Nag.maxTimes))
            }
            current.times = nagMax
            changed.nag = current
        }
        if let whenAway {
            guard let policy = Alert.WhenAway(rawValue: whenAway.lowercased()) else {
                // TRANSLATORS: %s is the value given, quoted.
                throw CLIError(.usage, format(tr("invalid --when-away %s: use hold or show"), whenAway.quotedForMessage()))
            }
            changed.whenAway = policy
        }
        if off { changed.enabled = false }
        alert = changed
    }
}
