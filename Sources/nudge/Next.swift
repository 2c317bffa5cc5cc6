import NudgeKit
import ArgumentParser
import Foundation
import NudgeCore
import Localization

/// `nudge next`: preview when a schedule fires, without storing anything.
struct Next: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Show when a schedule would fire, without storing it.",
        discussion: """
        Like `systemd-analyze calendar --iterations`, for Nudge's schedules. DST: a time \
        that does not exist that day fires when the gap ends; a time that happens twice \
        fires once, the first time.

        Examples:
          nudge next --at 9:30 --days mon-fri
          nudge next "every 2 hours from 9 to 18"
          nudge next "평일 오전 9시 30분부터 오후 9시 30분까지 30분마다"
          nudge next --every 30m --from 09:30 --until 21:30 --days weekdays --count 10
          nudge next --at 02:30 --tz Europe/Berlin --after 2026-03-28T12:00:00Z
          nudge next --cron "0 9 1 * mon" --json
          nudge next 3f25 --count 10        # a stored alert, by id prefix
          nudge next --every 45m --after-done --from 09:30 --until 21:30   # as if answered now
        """
    )

    @Argument(help: ArgumentHelp("A stored alert's id or unique prefix, or a schedule in words ('every weekday at 9:30', '매일 오전 9시'), instead of schedule flags.",
                                 valueName: "id-or-when"))
    var id: String?

    @OptionGroup var schedule: ScheduleOptions

    @Option(help: ArgumentHelp("Start after this instant (ISO-8601, or 'YYYY-MM-DD HH:MM' in --tz; years 1970 to 9999); default now.", valueName: "INSTANT"))
    var after: String?

    @Option(help: "How many instants to show.")
    var count: Int = 5

    @Option(help: ArgumentHelp("The time zone (IANA name); default the system's.", valueName: "ZONE"))
    var tz: String?

    @Flag(help: "Print one JSON document: [{\"local\": ..., \"utc\": ...}].")
    var json = false

    @Flag(help: "With an id: the bare schedule, leaving out its state (snooze, done for today, off).")
    var schedulePreview = false

    func run() throws {

        let world = World.live
        guard (1...10_000).contains(count) else { throw OperationError(.usage, format(tr("invalid count %s: use 1 to 10000"), "\(count)".quotedForMessage())) }
        let zone: TimeZone
        let instants: [Date]
        do {
            var chosen = try tz.map { (name) throws(ScheduleError) in try ScheduleParser.zone(name) } ?? world.zone
            let start = try after.map { (text) throws(ScheduleError) in try ScheduleParser.instant(text, zone: chosen) } ?? Date()
            let parsed: Schedule
            // An id is hex digits (and the dashes of a whole one); anything else is a schedule in words.
            if let phrase = id, !phrase.isEmpty, !phrase.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                var flags = schedule.flags
                flags.phrase = phrase
                // The store is read for the default time only when the words name a day without a time.
                let defaultTime = DefaultReminderTime.stored(world)
                parsed = try defaultTime.schedule(flags, now: start, zone: chosen)
                let lines = PhraseEcho.lines(phrase, schedule: parsed, zone: chosen, now: start, showings: false, defaultTime: defaultTime)
                // With --json, stdout is the JSON alone: the reading goes to stderr.
                if json { lines.forEach { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } } else { lines.forEach { print($0) } }
            } else if let id {
                guard schedule.flags == ScheduleFlags() else {
                    throw OperationError(.usage, tr("give an id or schedule flags, not both"))
                }
                let store = try world.store.forReading()
                let alert = try world.run { try store.alert(matching: id) }
                parsed = alert.schedule
                if noTime(parsed, zone: alert.zone(system: chosen)) { return }
                let system = chosen
                if tz == nil { chosen = alert.zone(system: chosen) }
                if !schedulePreview {
                    // An after-answer schedule counts from the last answer (`show` says when).
                    let state = try world.run { try store.state(of: alert.id) }
                    let water = try AlertView.water(for: [alert], in: store, world, now: start)
                    zone = chosen
                    instants = AlertView.upcoming(alert, state: state, water: water, after: start, count: count, system: system, zone: zone)
                    return try output(instants, zone: zone)
                }
            } else {
                parsed = try ScheduleParser.schedule(schedule.flags, now: start, zone: chosen)
            }
            zone = chosen
            if noTime(parsed, zone: zone) { return }
            instants = parsed.occurrences(after: start, count: count, in: zone)
        } catch let error as ScheduleError {
            throw OperationError(error)
        }
        try output(instants, zone: zone)
    }

    /// A place reminder has no time: said (on stderr with --json, whose output is `[]`).
    private func noTime(_ schedule: Schedule, zone: TimeZone) -> Bool {
        guard let line = Labels.noTime(schedule, zone: zone) else { return false }
        if json {
            FileHandle.standardError.write(Data((line + "\n").utf8))
            print("[]")
        } else {
            print(line)
        }
        return true
    }

    private func output(_ instants: [Date], zone: TimeZone) throws {
        if json {
            let items = instants.map { JSON.object([("local", .string(InstantFormat.iso8601($0, in: zone))),
                                                    ("utc", .string(InstantFormat.iso8601($0, in: TimeZone(identifier: "UTC")!)))]) }
            print(JSON.array(items).text)
            return
        }
        if instants.isEmpty {
            // TRANSLATORS: nudge next for a schedule that never fires after the given instant.
            print(tr("never: the schedule has no instant after that"))
            return
        }
        let clock = CivilZone(zone)
        for instant in instants {
            print("\(clock.local(instant).day.weekday.shortName(Catalog.shared.language)) \(InstantFormat.iso8601(instant, in: zone))")
        }
    }
}
