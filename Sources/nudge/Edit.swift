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

        The new schedule may be said in words after the id, as for `nudge add`.

        Examples:
          nudge edit 3f25 "평일 오후 3시"
          nudge edit 3f25 "every 2 hours from 9 to 18" --dry-run
          nudge edit 3f25 --every 45m --from 10:00 --until 18:00
          nudge edit 3f25 --title "Stretch" --body "Two minutes, away from the screen"
          nudge edit 3f25 --tz Asia/Seoul          # pin to a zone; --tz system follows the system again
          nudge edit 3f25 --sound none --urgency low
          nudge edit 3f25 --water                  # a water reminder: progress, "Drank", the goal
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    @Argument(help: ArgumentHelp("A new schedule in words instead of the schedule flags: 'every weekday at 9:30', '매일 오전 9시'.", valueName: "when"))
    var when: String?

    @Option(help: "A new title.")
    var title: String?

    @OptionGroup var schedule: ScheduleOptions
    @OptionGroup var options: AlertOptions

    @Flag(help: "Say what the new schedule is read as and when it fires, and store nothing.")
    var dryRun = false

    func run() throws {
        let world = World.live, now = world.now
        let store = try world.store.forWriting()
        var flags = schedule.flags
        flags.phrase = when
        let defaultTime = DefaultReminderTime.stored(in: store, world)
        let alert = try Operations.change(id, in: store, title: title, schedule: flags, settings: options.settings, world, now: now, defaultTime: defaultTime)
        if let when {
            PhraseEcho.lines(when, schedule: alert.schedule, zone: alert.zone(system: world.zone), now: now, defaultTime: defaultTime).forEach { print($0) }
        }
        if dryRun {
            if when == nil {
                print(format(tr("read as: %s"), alert.schedule.summary(in: alert.zone(system: world.zone), timeStyle: TimeStyle.person(),
                                                                    language: Catalog.shared.language)))
            }
            return
        }
        try Operations.save(alert, in: store, world)
        Self.sayFollowed(alert.id, in: store)
        // TRANSLATORS: nudge edit; %1$s is the alert's id, %2$s its title, %3$s its schedule.
        AlertView.announce(tr("edited %1$s: %2$s — %3$s"), alert, world, state: try world.run { try store.state(of: alert.id) },
                           water: try AlertView.water(for: [alert], in: store, world, now: now), now: now)
    }

    /// A reminder from a followed calendar: a change here is this computer's alone, and one
    /// made there later replaces it (a hostile pass found such edits gone without a word).
    static func sayFollowed(_ id: UUID, in store: AppDatabase) {
        guard let calendar = (try? store.syncOrigins())?[id.hex] else { return }
        // TRANSLATORS: nudge edit or rm of a reminder from a followed calendar; %s is the calendar's name.
        FileHandle.standardError.write(Data((format(tr("note: it comes from the calendar %s, which Nudge follows and does not write: this change stays on this computer, and a change made there replaces it"),
                                                    calendar.escapingControls) + "\n").utf8))
    }
}
