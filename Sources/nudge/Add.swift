import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore

/// `nudge add`: store a new reminder.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a reminder; without a title it is the drink-water reminder.",
        discussion: """
        Prints the new alert's id and when it fires next.

        Examples:
          nudge add --every 30m --from 09:30 --until 21:30 --days weekdays
          nudge add "Stand up" --at 15:00 --days mon-fri --sound bell
          nudge add "Tea" --in 4m
          nudge add "Dentist" --on "2026-12-01 09:00" --urgency critical
          nudge add "Backup" --cron "0 18 * * fri" --catch-up skip
        """
    )

    @Argument(help: "The title; leave it out for the drink-water reminder.")
    var title: String?

    @Option(help: "The body text.")
    var body: String?

    @OptionGroup var schedule: ScheduleOptions

    @Option(help: ArgumentHelp("A sound-theme name or a sound file; 'none' for silence.", valueName: "NAME|PATH"))
    var sound: String?

    @Option(help: "Urgency: low, normal or critical.")
    var urgency: String = "normal"

    @Option(help: "An icon name or file.")
    var icon: String = ""

    @Option(help: ArgumentHelp("Pin the alert to this zone (IANA name); by default it follows the system's zone.", valueName: "ZONE"))
    var tz: String?

    @Option(name: .customLong("catch-up"), help: "Missed reminders: 'once' (one pop-up within the grace) or 'skip'.")
    var catchUp: String = "once"

    @Option(help: ArgumentHelp("How old a missed reminder may be and still be shown (with --catch-up once).", valueName: "DURATION"))
    var grace: String = "12h"

    @Option(help: ArgumentHelp("How long Snooze postpones.", valueName: "DURATION"))
    var snooze: String = "10m"

    @Flag(help: "Store it switched off.")
    var off = false

    /// Builds the alert from the flags, or names what is wrong; nothing is stored before.
    static func alert(title: String?, body: String?, schedule flags: ScheduleFlags, sound: String?, urgency: String,
                      icon: String, tz: String?, catchUp: String, grace: String, snooze: String, enabled: Bool,
                      id: UUID = UUID(), created: Date, now: Date) throws(CLIError) -> Alert {
        for (name, text, limit) in [("title", title ?? "", 500), ("body", body ?? "", 4000), ("icon", icon, 4096)] {
            if text.utf8.count > limit { throw CLIError(.usage, "invalid \(name): \(text.utf8.count) bytes, at most \(limit)") }
            if text.unicodeScalars.contains("\u{FFFD}") || text.utf8.contains(0) {
                throw CLIError(.usage, "invalid \(name): it is not valid UTF-8 text")
            }
        }
        guard let level = Urgency(name: urgency) else {
            throw CLIError(.usage, "invalid urgency '\(urgency)': use low, normal or critical")
        }
        let catchUpIsOnce: Bool
        switch catchUp.lowercased() {
        case "once": catchUpIsOnce = true
        case "skip": catchUpIsOnce = false
        default: throw CLIError(.usage, "invalid catch-up '\(catchUp)': use once or skip")
        }
        do throws(ScheduleError) {
            let zone = try tz.map { (name) throws(ScheduleError) in try ScheduleParser.zone(name) } ?? TimeZone.current
            let parsed = try ScheduleParser.schedule(flags, now: now, zone: zone)
            if case .once(let instant) = parsed, instant <= now {
                throw ScheduleError(flags.on ?? flags.in ?? "", "invalid date", detail: "it is in the past",
                                    accepted: "give a future instant")
            }
            let policy: Alert.CatchUp = catchUpIsOnce ? .once(graceSeconds: try ScheduleParser.duration(grace)) : .skip
            let snoozeSeconds = try ScheduleParser.duration(snooze)
            let chosenSound: Sound? = sound.map { $0.lowercased() == "none" ? nil : Sound($0) } ?? .reminder
            return Alert(id: id, title: title, body: body, schedule: parsed, enabled: enabled, sound: chosenSound,
                         urgency: level, icon: icon, timeZone: tz, catchUp: policy, snoozeSeconds: snoozeSeconds,
                         created: created)
        } catch {
            throw CLIError(error)
        }
    }

    func run() throws {
        let now = Date()
        let alert = try Self.alert(title: title, body: body, schedule: schedule.flags, sound: sound, urgency: urgency,
                                   icon: icon, tz: tz, catchUp: catchUp, grace: grace, snooze: snooze, enabled: !off,
                                   created: now, now: now)
        let store = try StoreAccess.open()
        try StoreAccess.run { try store.save(alert) }
        let zone = alert.zone(system: .current)
        let next = AlertView.next(alert, after: now, zone: .current)
        print("added \(alert.shortID): \(alert.title) — \(alert.schedule.summary(in: zone))")
        print(next.map { "next: \(InstantFormat.iso8601($0, in: zone))" } ?? (alert.enabled ? "next: never" : "switched off"))
    }
}
