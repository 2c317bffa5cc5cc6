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

        The schedule may be said in words, English or Korean, after the title; what it \
        was read as is said back before it is stored (--dry-run stores nothing). See \
        "Schedules in words" in the guide (docs/guide.md) for what is understood.

        Examples:
          nudge add "물 마시기" "매일 오전 9시"
          nudge add "Stand up" "every weekday at 15:00"
          nudge add "Water" "every 30 minutes from 9:30 to 21:30 on weekdays" --dry-run
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

    @Argument(help: ArgumentHelp("When, in words instead of the schedule flags: 'every weekday at 9:30', '매일 오전 9시'.", valueName: "when"))
    var when: String?

    @OptionGroup var schedule: ScheduleOptions
    @OptionGroup var options: AlertOptions

    @Flag(help: "Say what the schedule is read as and when it fires, and store nothing.")
    var dryRun = false

    func run() throws {
        let world = World.live, now = world.now
        var flags = schedule.flags
        flags.phrase = when
        // Read from the store only when the words name a day without a time, and once.
        let defaultTime = DefaultReminderTime.stored(world)
        let alert = try Operations.make(title: title, schedule: flags, settings: options.settings, world, now: now, defaultTime: defaultTime)
        if let when {
            PhraseEcho.lines(when, schedule: alert.schedule, zone: alert.zone(system: world.zone), now: now, defaultTime: defaultTime).forEach { print($0) }
        } else if dryRun {
            // TRANSLATORS: nudge add --dry-run with flags: %s is the schedule in words.
            print(format(tr("read as: %s"), alert.schedule.summary(in: alert.zone(system: world.zone), timeStyle: TimeStyle.person(),
                                                                language: Catalog.shared.language)))
        }
        if dryRun { return }
        let store = try world.store.forWriting()
        try Operations.save(alert, in: store, world)
        // TRANSLATORS: nudge add; %1$s is the new alert's id, %2$s its title, %3$s its schedule.
        AlertView.announce(tr("added %1$s: %2$s — %3$s"), alert, world, water: try AlertView.water(for: [alert], in: store, world, now: now), now: now)
    }
}
