import NudgeKit
import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore
import Localization

/// `nudge edit`: change a stored reminder; what is not given stays as it was.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a reminder: only the flags given change.",
        discussion: """
        Any schedule flag replaces the whole schedule. The alert keeps its id; occurrences \
        before the edit are not owed.

        Examples:
          nudge edit 3f25 --every 45m --from 10:00 --until 18:00
          nudge edit 3f25 --title "Stretch" --body "Two minutes, away from the screen"
          nudge edit 3f25 --tz Asia/Seoul          # pin to a zone; --tz system follows the system again
          nudge edit 3f25 --sound none --urgency low
          nudge edit 3f25 --water                  # a water reminder: progress, "Drank", the goal
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    @Option(help: "A new title.")
    var title: String?

    @OptionGroup var schedule: ScheduleOptions
    @OptionGroup var options: AlertOptions

    func run() throws {
        let now = Date()
        let store = try StoreAccess.open()
        let alert = try Operations.change(id, in: store, title: title, schedule: schedule.flags, settings: options.settings, now: now)
        try StoreAccess.run { try store.save(alert) }
        DaemonLink.storeChanged()
        // TRANSLATORS: nudge edit; %1$s is the alert's id, %2$s its title, %3$s its schedule.
        AlertView.announce(tr("edited %1$s: %2$s — %3$s"), alert, state: try StoreAccess.run { try store.state(of: alert.id) },
                           water: try AlertView.water(for: [alert], in: store, now: now), now: now)
    }
}
