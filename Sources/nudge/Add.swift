import NudgeKit
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeStore

/// `nudge add`: store a new reminder.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a reminder; without a title it is the drink-water reminder.",
        discussion: """
        Prints the new alert's id and when it fires next.

        Examples:
          nudge add --every 30m --from 09:30 --until 21:30 --days weekdays
          nudge add --every 45m --after-done --from 09:30 --until 21:30 --days weekdays
          nudge add "Stand up" --at 15:00 --days mon-fri --sound bell
          nudge add "Tea" --in 4m
          nudge add "Dentist" --on "2026-12-01 09:00" --urgency critical
          nudge add "Backup" --cron "0 18 * * fri" --catch-up skip
        """
    )

    @Argument(help: "The title; leave it out for the drink-water reminder.")
    var title: String?

    @OptionGroup var schedule: ScheduleOptions
    @OptionGroup var options: AlertOptions

    func run() throws {
        let now = Date()
        let alert = try Operations.make(title: title, schedule: schedule.flags, settings: options.settings, now: now)
        let store = try StoreAccess.open()
        try StoreAccess.run { try store.save(alert) }
        DaemonLink.storeChanged()
        // TRANSLATORS: nudge add; %1$s is the new alert's id, %2$s its title, %3$s its schedule.
        AlertView.announce(tr("added %1$s: %2$s — %3$s"), alert, water: try AlertView.water(for: [alert], in: store, now: now), now: now)
    }
}
