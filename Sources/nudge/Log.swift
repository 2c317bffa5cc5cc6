import TerminalFace
import NudgeKit
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeStore

/// `nudge log`: what happened to the reminders.
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the delivery log: fired, shown, acknowledged, snoozed, dismissed, expired, missed.",
        discussion: """
        Examples:
          nudge log                 # the last 24 hours
          nudge log --since 7d
          nudge log --since 1h --json
        """
    )

    @Option(help: ArgumentHelp("How far back: 30m, 12h, 7d.", valueName: "DURATION"))
    var since: String = "24h"

    @Flag(help: "Print one JSON document: an array of log entries, oldest first.")
    var json = false

    func run() throws {

        let world = World.live
        let now = Date()
        let start = now.addingTimeInterval(-TimeInterval(try AlertSettings.duration(since, for: .since)))
        let store = try world.store.forReading()
        var unreadable = false
        let titles = Dictionary(uniqueKeysWithValues: try StoreAccess.alerts(in: store, world, unreadable: &unreadable).map { ($0.id, $0.title) })
        let entries = try world.run { try store.log(since: start) }
        if json {
            let utc = TimeZone(identifier: "UTC")!
            print(JSON.array(entries.map { entry in
                .object([
                    ("at", .string(InstantFormat.iso8601(entry.at, in: utc))), ("id", .string(entry.alertID.lowercased)),
                    ("shortId", .string(entry.alertID.shortHex)), ("event", .string(entry.event)),
                    ("title", titles[entry.alertID].map(JSON.string) ?? .null),
                    ("notificationId", entry.deliveryID.map { .integer(Int64($0)) } ?? .null),
                    ("count", entry.count.map { .integer(Int64($0)) } ?? .null),
                    ("detail", entry.detail.map(JSON.string) ?? .null),
                    ("answerSeconds", entry.delay.map { .integer(Int64($0.rounded())) } ?? .null),
                ])
            }).text)
            return
        }
        if entries.isEmpty {
            // TRANSLATORS: nudge log with nothing to show; %s is a date and time.
            print(format(tr("nothing in the log since %s"), InstantFormat.iso8601(start, in: world.zone)))
            return
        }
        let terminal = Terminal()
        let rows = entries.map { entry -> [String] in
            var what = Labels.event(entry.event)
            if let count = entry.count {
                switch entry.event {
                case "fired": what += " ×\(count)"
                case "drank": what += " " + Water.text(count)
                default: what += " \(count)"
                }
            }
            if let detail = entry.detail { what += " (\(Labels.detail(detail)))" }
            // TRANSLATORS: nudge log: an answer given so long after its pop-up came up (%s: 40 s, 2 min).
            if let delay = entry.delay { what += " " + format(tr("after %s"), Stats.answerTime(delay)) }
            return [terminal.timeStyle.instant(entry.at, world.zone), entry.alertID.shortHex, what,
                    // TRANSLATORS: nudge log, in place of the title of an alert that was removed.
                    titles[entry.alertID] ?? tr("(removed)")]
        }
        print(terminal.table(rows, paints: rows.map { _ in [nil, "33", nil, nil] }))
    }
}
