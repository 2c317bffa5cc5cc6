import ArgumentParser
import Foundation
import NudgeCore
import NudgeKit
import Localization

/// The settings `add` and `edit` share. All are optional: `add` starts from Nudge's
/// defaults, `edit` from the stored alert.
struct AlertOptions: ParsableArguments {
    @Option(help: "The body text.")
    var body: String?

    @Option(help: ArgumentHelp("A sound-theme name or a sound file; 'none' for silence (default: the reminder sound).", valueName: "NAME|PATH"))
    var sound: SoundChoice?

    @Option(help: "Urgency: low, normal (default) or critical.")
    var urgency: Urgency?

    @Option(help: "An icon name or file (default: Nudge's).")
    var icon: String?

    @Option(help: ArgumentHelp("Pin the alert to this zone (IANA name); by default, or with 'system', it follows the system's zone.", valueName: "ZONE"))
    var tz: ZoneChoice?

    @Option(name: .customLong("catch-up"), help: "Missed reminders: 'once' (default: one pop-up within the grace) or 'skip'.")
    var catchUp: CatchUpChoice?

    @Option(help: ArgumentHelp("How old a missed reminder may be and still be shown (default 12h).", valueName: "DURATION"))
    var grace: GraceLength?

    @Option(help: ArgumentHelp("How long Snooze postpones (default 10m).", valueName: "DURATION"))
    var snooze: SnoozeLength?

    @Option(help: ArgumentHelp("What it reminds of: 'water' (shows the day's water, offers the drink, rests once the goal is met) or 'reminder'.",
                               valueName: "KIND"))
    var kind: Alert.Kind?

    @Flag(help: "A water reminder: the same as --kind water.")
    var water = false

    @Option(name: .customLong("when-away"),
            help: ArgumentHelp("While the screen is locked or notifications are paused: 'hold' (one pop-up on return; the default for repeating reminders) or 'show' (the default for one-shots).",
                               valueName: "hold|show"))
    var whenAway: Alert.WhenAway?

    @Option(help: ArgumentHelp("Show an unanswered pop-up again every DURATION ('none' to stop), the last tries critical.",
                               valueName: "DURATION"))
    var nag: NagInterval?

    @Option(name: .customLong("nag-max"), help: ArgumentHelp("How many times --nag shows it again at most (1 to 100, default 6).", valueName: "N"))
    var nagMax: NagTimes?

    @Flag(help: "Switch it off (it keeps its settings; `nudge on ID` switches it back).")
    var off = false

    /// The values given, for the operations every face shares.
    var settings: AlertSettings {
        AlertSettings(body: body, sound: sound, urgency: urgency, icon: icon, zone: tz, catchUp: catchUp, grace: grace, snooze: snooze,
                      kind: kind, water: water, whenAway: whenAway, nag: nag, nagMax: nagMax, off: off)
    }
}
