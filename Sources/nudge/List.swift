import TerminalFace
import NudgeKit
import Platform
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NudgeCore
import NudgeStore
import Localization

/// `nudge list`: the alerts, soonest first.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the reminders, the next to fire first.",
        discussion: """
        Switched-off alerts and finished one-shots come last; one-shots that are over are \
        shown with --all. Times follow LC_ALL, LC_TIME or LANG; colour only on a terminal \
        and never with NO_COLOR.

        Examples:
          nudge list
          nudge list --all --json
        """
    )

    @Flag(help: "Also show one-shots that are over.")
    var all = false

    @Flag(help: "Print one JSON document: an array of alerts.")
    var json = false

    func run() throws {

        let world = World.live
        let store = try world.store.forReading()
        var unreadable = false
        let alerts = try StoreAccess.alerts(in: store, world, unreadable: &unreadable)
        // What could be read is shown; a row that could not is named, and the status says so.
        defer { if unreadable { Glibc.exit(ExitStatus.dataError.rawValue) } }
        let now = Date()
        let zone = world.zone
        let (showings, order) = try Operations.order(alerts, in: store, world, now: now, all: all)
        let next = showings.map(\.instant)
        // The calendars followed reminders come from (nudge sync); none without an account.
        let origins = (try? store.syncOrigins()) ?? [:]
        if json {
            // Each CPU writes a run of the objects; the runs are joined in order.
            let parts = Parallel.chunks(order.count) { range in
                var out: [UInt8] = []
                out.reserveCapacity(range.count * 400)
                var summaries = AlertView.Summaries(zone: zone)
                for (i, index) in order[range].enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    AlertView.writeJSON(alerts[index], next: showings[index], zone: zone, summaries: &summaries,
                                        calendar: origins.isEmpty ? nil : origins[alerts[index].id.hex], to: &out)
                }
                return out
            }
            // Written run by run: joining them first went through a generic sequence byte by
            // byte, a tenth of the command's time at 100,000 alerts.
            writeOut([UInt8(ascii: "[")])
            for (i, part) in parts.filter({ !$0.isEmpty }).enumerated() {
                if i > 0 { writeOut([UInt8(ascii: ",")]) }
                writeOut(part)
            }
            writeOut(Array("]\n".utf8))
            return
        }
        if order.isEmpty {
            let finished = alerts.count
            print(finished == 0
                // TRANSLATORS: nudge list with no alerts at all; keep the command as it is.
                ? tr("No reminders yet. Add one: nudge add --every 30m --from 09:30 --until 21:30 --days weekdays")
                // TRANSLATORS: nudge list when every alert is a one-shot that has fired; %d is how many.
                : format(trn("Nothing upcoming: %d one-shot is over (nudge list --all shows it).",
                             "Nothing upcoming: %d one-shots are over (nudge list --all shows them).", finished), finished))
            return
        }
        let terminal = Terminal()
        var cells = [Labels.listHeaders]
        var paints: [[String?]] = [Array(repeating: "1", count: 5)]
        for index in order {
            let alert = alerts[index], z = alert.zone(system: zone)
            cells.append([alert.shortID, AlertView.stateWord(alert, showings[index]), next[index].map { terminal.timeStyle.instant($0, z) } ?? (alert.enabled ? Labels.placeNext(alert.schedule) : nil) ?? "—",
                          alert.schedule.summary(in: z, timeStyle: terminal.timeStyle, language: Catalog.shared.language),
                          origins[alert.id.hex].map { alert.title + " · " + $0 } ?? alert.title])
            paints.append(["33", showings[index].reason == nil ? "32" : "2", nil, nil, nil])
        }
        print(terminal.table(cells, paints: paints))
    }
}
