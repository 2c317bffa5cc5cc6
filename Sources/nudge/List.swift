import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore

/// `nudge list`: the alerts, soonest first.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the reminders, the next to fire first.",
        discussion: "Switched-off alerts and finished one-shots come last; one-shots that are over are shown with --all."
    )

    @Flag(help: "Also show one-shots that are over.")
    var all = false

    @Flag(help: "Print one JSON document: an array of alerts.")
    var json = false

    func run() throws {
        let store = try StoreAccess.open()
        let alerts = try StoreAccess.run { try store.alerts() }
        let now = Date()
        let zone = TimeZone.current
        let rows = alerts.map { ($0, AlertView.next($0, after: now, zone: zone)) }
            .filter { all || $0.1 != nil || !$0.0.isFinished(after: now) }
            .sorted { ($0.1 ?? .distantFuture, $0.0.created) < ($1.1 ?? .distantFuture, $1.0.created) }
        if json {
            print(JSON.array(rows.map { AlertView.json($0.0, now: now, zone: zone) }).text)
            return
        }
        if rows.isEmpty {
            print("No reminders yet. Add one: nudge add --every 30m --from 09:30 --until 21:30 --days weekdays")
            return
        }
        let terminal = Terminal()
        var cells = [["ID", "STATE", "NEXT", "SCHEDULE", "TITLE"]]
        var paints: [[String?]] = [Array(repeating: "1", count: 5)]
        for (alert, next) in rows {
            let z = alert.zone(system: zone)
            cells.append([alert.shortID, alert.enabled ? "on" : "off", next.map { terminal.wording.instant($0, z) } ?? "—",
                          alert.schedule.summary(in: z, wording: terminal.wording), alert.title])
            paints.append(["33", alert.enabled ? "32" : "2", nil, nil, nil])
        }
        print(terminal.table(cells, paints: paints))
    }
}

extension Alert {
    /// A one-shot whose instant has passed.
    func isFinished(after now: Date) -> Bool {
        if case .once(let instant) = schedule { return instant <= now }
        return false
    }
}
