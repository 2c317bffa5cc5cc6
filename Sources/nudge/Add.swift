import NudgeKit
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeStore
import Platform

/// `nudge add`: store a new reminder.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a reminder; without a title it is the drink-water reminder.",
        discussion: """
        Prints the new alert's id and when it fires next.

        The schedule may be said in words, English or Korean, after the title, or in one \
        line with it ("call mum tomorrow at 6pm"): the title and when are told apart as the \
        desktop's search tells them, and what was read is said back before it is stored \
        (--dry-run stores nothing). A line that reads two ways is refused, saying both. \
        See "Schedules in words" in the guide (docs/guide.md) for what is understood.

        Examples:
          nudge add "call mum tomorrow at 6pm"
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

    @Argument(help: "The title, or a title and when in one line; leave it out for the drink-water reminder.")
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
        var title = self.title, when = self.when
        if when == nil, let line = title, flags == ScheduleFlags(), let reading = try oneLine(line, world: world, now: now, defaultTime: defaultTime) {
            (title, when) = (reading.title, reading.when)
            flags.phrase = reading.when
            // TRANSLATORS: nudge add with one line: %1$s the title found in it, %2$s the words of when.
            print(format(tr("title: %1$s · when: %2$s"), reading.title.escapingControls, reading.when.escapingControls))
        }
        // One line that holds its own when, with schedule flags too ("call mum tomorrow at
        // 9am" --at 10:00): which is meant? Refused, as two words of when are.
        if self.when == nil, let line = title, flags != ScheduleFlags(),
           let reading = RemindMe.readings(line, now: now, zone: options.settings.pinnedZone ?? world.zone).first {
            // TRANSLATORS: nudge add with one line that says when and schedule flags too: %1$s the line, %2$s the words of when in it.
            Nudge.fail(format(tr("%1$s says when (%2$s) and the flags say it too: give one"), line.quotedForMessage(), reading.when.quotedForMessage()),
                       code: ExitStatus.usage.rawValue)
        }
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

    /// The title and when of one line ("call mum tomorrow at 6pm"), told apart as the
    /// desktop's search tells them (``RemindMe``); `nil` when it holds no schedule. A day said
    /// without a time takes the default reminder time, looked up only then. A line that
    /// reads two ways is refused, saying both.
    private func oneLine(_ line: String, world: World, now: Date, defaultTime: DefaultReminderTime) throws -> RemindMe.Reading? {
        let zone = options.settings.pinnedZone ?? world.zone
        var readings = RemindMe.readings(line, now: now, zone: zone, dateOrder: defaultTime.dateOrder)
        if readings.isEmpty, let time = try? defaultTime.time() {
            readings = RemindMe.readings(line, now: now, zone: zone, defaultTime: time, dateOrder: defaultTime.dateOrder)
        }
        if readings.isEmpty, line.utf8.count <= SchedulePhrase.maxLength {
            // Words refused whole for what they say ("31/11 at 9am": no such date) are said as
            // the phrase's refusal; a line with no schedule in it is refused as before.
            do throws(ScheduleError) {
                let when = RemindMe.request(line)
                _ = try SchedulePhrase.read(when, now: now, zone: zone, dateOrder: defaultTime.dateOrder)
                // TRANSLATORS: nudge add with one line that is all when: %1$s the line, without the asking words.
                Nudge.fail(format(tr("%1$s says when but no title: give the title first, e.g. nudge add 'Tea' %1$s"), when.quotedForMessage()),
                           code: ExitStatus.usage.rawValue)
            } catch {
                if error.problem.template != "words not understood", !error.wantsTimeOfDay { throw OperationError(error) }
            }
        }
        if readings.isEmpty, line.count > RemindMe.maxLength {
            // TRANSLATORS: nudge add with one line longer than a title and when together: %1$d its characters, %2$d the most.
            Nudge.fail(format(tr("invalid line: %1$d characters, at most %2$d for a title and when together"), line.count, RemindMe.maxLength),
                       code: ExitStatus.usage.rawValue)
        }
        if readings.isEmpty, RemindMe.saysWhen(line, now: now, zone: zone, dateOrder: defaultTime.dateOrder) {
            // TRANSLATORS: nudge add with one line whose title and when could not be told apart: %1$s the line.
            Nudge.fail(format(tr("%1$s: the title and when could not be told apart; give them apart, e.g. nudge add 'Tea' 'tomorrow at 9am'"),
                              line.quotedForMessage()), code: ExitStatus.usage.rawValue)
        }
        guard readings.count > 1 else { return readings.first }
        let style = TimeStyle.person()
        let said = readings.map { reading in
            let first = reading.phrase.schedule.occurrences(after: now, count: 1, in: zone).first.map { style.instant($0, zone) } ?? tr("never")
            return "\(reading.when.escapingControls) (\(first))"
        }
        // TRANSLATORS: nudge add with one line read two ways: %1$s the line, %2$s one reading, %3$s the other, %4$s and %5$s the second reading's title and words.
        Nudge.fail(format(tr("%1$s reads two ways: %2$s or %3$s; give the title and when apart, e.g. nudge add %4$s %5$s"),
                          line.quotedForMessage(), said[0], said[1], readings[1].title.quotedForMessage(), readings[1].when.quotedForMessage()),
                   code: ExitStatus.usage.rawValue)
    }
}
