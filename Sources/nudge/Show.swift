import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore
import Localization

/// `nudge show`: one alert in full.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one reminder in full.", discussion: "Examples:\n  nudge show 3f25\n  nudge show 3f25 --json")

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    @Flag(help: "Print one JSON document (the same object as in `nudge list --json`).")
    var json = false

    func run() throws {
        let store = try StoreAccess.read()
        let alert = try StoreAccess.run { try store.alert(matching: id) }
        let now = Date()
        let state = try StoreAccess.run { try store.state(of: alert.id) }
        let showing = AlertView.next(alert, state: state, after: now, zone: LocalZone.current)
        if json {
            var out: [UInt8] = []
            AlertView.writeJSON(alert, next: showing, zone: LocalZone.current, to: &out)
            writeOut(out + [UInt8(ascii: "\n")])
            return
        }
        let zone = alert.zone(system: LocalZone.current)
        let next = showing.instant
        let catchUp: String
        switch alert.catchUp {
        case .once(let grace): catchUp = "once, within \(Schedule.duration(grace))"
        case .skip: catchUp = "skip"
        }
        let lines: [(String, String)] = [
            ("id", alert.id.lowercased), ("title", alert.title), ("body", alert.body),
            ("state", alert.enabled ? "on" : "off"), ("schedule", alert.schedule.summary(in: zone, words: Catalog.shared.wording)),
            ("next", (next.map { InstantFormat.iso8601($0, in: zone) } ?? "—")
                + (AlertView.reasonText(showing, zone: zone).map { " (\($0))" } ?? "")),
            ("time zone", alert.timeZone ?? "follows the system (\(LocalZone.current.identifier))"),
            ("sound", alert.sound?.description ?? "none"), ("urgency", alert.urgency.description),
            ("icon", alert.icon.isEmpty ? "Nudge's" : alert.icon), ("catch-up", catchUp),
            ("snooze", Schedule.duration(alert.snoozeSeconds)),
            ("created", InstantFormat.iso8601(alert.created, in: zone)),
            ("last fired", state?.lastFired.map { InstantFormat.iso8601($0, in: zone) } ?? ""),
            ("pending", state.map { $0.pendingCount > 0 ? "\($0.pendingCount)" : "" } ?? ""),
            ("snoozed", state?.snoozedUntil.map { "until " + InstantFormat.iso8601($0, in: zone) } ?? ""),
            ("done for", state?.doneForDay.map { "\($0) (the rest of that day is skipped)" } ?? ""),
        ]
        for (label, value) in lines where !value.isEmpty {
            print("\(label.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value.escapingControls)")
        }
    }
}
