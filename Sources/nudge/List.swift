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
        for (alert, next) in rows {
            let z = alert.zone(system: zone)
            let nextText = next.map { InstantFormat.iso8601($0, in: z) } ?? "—"
            print("\(alert.shortID)  \(alert.enabled ? "on " : "off")  \(nextText.padding(toLength: 25, withPad: " ", startingAt: 0))  \(alert.schedule.summary(in: z)) · \(alert.title)")
        }
    }
}

extension Alert {
    /// A one-shot whose instant has passed.
    func isFinished(after now: Date) -> Bool {
        if case .once(let instant) = schedule { return instant <= now }
        return false
    }
}
