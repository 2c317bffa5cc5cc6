import NudgeKit
import ArgumentParser
import Foundation
import NudgeCore
import Localization

/// The schedule flags shared by `next` (and, with the store, `add` and `edit`).
struct ScheduleOptions: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp("Every day at this time (repeatable): 09:30, 9:30am.", valueName: "HH:MM"))
    var at: [String] = []

    @Option(help: ArgumentHelp("Only on these days: mon-fri, sat,sun, weekdays, weekends, daily.", valueName: "DAYS"),
            completion: .list(["weekdays", "weekends", "daily", "mon-fri", "sat,sun", "mon", "tue", "wed", "thu", "fri", "sat", "sun"]))
    var days: String?

    @Option(help: ArgumentHelp("Every DURATION (1 minute or more): 45m, 1h30m.", valueName: "DURATION"))
    var every: String?

    @Option(help: ArgumentHelp("Start of the --every window (or of a place reminder's hours).", valueName: "HH:MM"))
    var from: String?

    @Option(help: ArgumentHelp("End of the --every window (inclusive).", valueName: "HH:MM"))
    var until: String?

    @Flag(name: .customLong("after-done"),
          help: "Count --every from the last Done (or drink, for a water reminder) or pop-up, instead of the clock.")
    var afterDone = false

    @Option(name: .customLong("in"), help: ArgumentHelp("Once, after DURATION: 20m, 90s, 1h.", valueName: "DURATION"))
    var inDuration: String?

    @Option(help: ArgumentHelp("Once, at DATE [TIME] (midnight without a time): '2026-12-01 09:00' or 2026-12-01T09:00:05+01:00; years up to 9999.", valueName: "DATE"))
    var on: String?

    @Option(help: ArgumentHelp("A cron expression 'm h dom mon dow', or @hourly, @daily, @weekly, @monthly.", valueName: "EXPR"))
    var cron: String?

    @Option(help: ArgumentHelp("On arriving at PLACE: a network's name as 'nudge places' lists it, or LAT,LON,RADIUS (37.5665,126.978,300m) where GeoClue gives a position. With --from/--until and --days, only then.", valueName: "PLACE"))
    var arrive: String?

    @Option(help: ArgumentHelp("On leaving PLACE (gone for 2 minutes): as --arrive.", valueName: "PLACE"))
    var leave: String?

    @Option(name: .customLong("once-per"), help: ArgumentHelp("With --arrive or --leave: at most once in DURATION (4h: arriving twice in a morning is one reminder).", valueName: "DURATION"))
    var oncePer: String?

    var flags: ScheduleFlags {
        ScheduleFlags(at: at, days: days, every: every, from: from, until: until, in: inDuration, on: on, cron: cron,
                      afterAnswer: afterDone, arrive: arrive, leave: leave, oncePer: oncePer)
    }
}
