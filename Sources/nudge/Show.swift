import NudgeKit
import ArgumentParser
import Presentation
import TerminalFace
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

        let world = World.live
        let store = try world.store.forReading()
        let alert = try world.run { try store.alert(matching: id) }
        let now = Date()
        let state = try world.run { try store.state(of: alert.id) }
        let water = try AlertView.water(for: [alert], in: store, world, now: now)
        let showing = AlertView.next(alert, state: state, after: now, zone: world.zone, water: water)
        if json {
            var out: [UInt8] = []
            AlertView.writeJSON(alert, next: showing, zone: world.zone, to: &out)
            writeOut(out + [UInt8(ascii: "\n")])
            return
        }
        let zone = alert.zone(system: world.zone)
        let next = showing.instant
        let catchUp: String
        switch alert.catchUp {
        // TRANSLATORS: nudge show, catch-up: shown once after missed showings; %s is a duration (12 h).
        case .once(let grace): catchUp = format(tr("once, within %s"), Schedule.duration(grace, language: Catalog.shared.language))
        // TRANSLATORS: nudge show, catch-up: missed showings are skipped.
        case .skip: catchUp = tr("skip")
        }
        let language = Catalog.shared.language
        // TRANSLATORS: the labels of nudge show, one per line.
        let lines: [(String, String)] = [
            (tr("id"), alert.id.lowercased), (tr("title"), alert.title), (tr("body"), alert.body),
            // TRANSLATORS: nudge show: what the alert is; the value says a water reminder and the day's water.
            (tr("kind"), alert.kind == .water ? format(tr("water reminder (%s)"), water.map { Catalog.shared.language.waterProgress($0.intake, goal: $0.goal) } ?? "") : ""),
            (tr("state"), alert.enabled ? Labels.on : Labels.off), (tr("schedule"), alert.schedule.summary(in: zone, language: language)),
            (tr("next"), (next.map { InstantFormat.iso8601($0, in: zone) } ?? (alert.enabled ? Labels.noTime(alert.schedule, zone: zone) : nil) ?? "—")
                + (AlertView.reasonText(showing, zone: zone).map { " (\($0))" } ?? "")),
            // TRANSLATORS: nudge show, an alert without a zone of its own; %s is the system's zone.
            (tr("time zone"), alert.timeZone ?? format(tr("follows the system (%s)"), world.zone.identifier)),
            // TRANSLATORS: nudge show: no sound.
            (tr("sound"), alert.sound?.description ?? tr("none")), (tr("urgency"), Labels.urgency(alert.urgency)),
            // TRANSLATORS: nudge show: the icon is Nudge's own.
            (tr("icon"), alert.icon.isEmpty ? tr("Nudge's") : alert.icon), (tr("catch-up"), catchUp),
            // TRANSLATORS: nudge show: what happens while the person is away; the values say hold or show.
            (tr("when away"), alert.holdsWhileAway ? tr("hold (one pop-up on return)") : tr("show")),
            // TRANSLATORS: nudge show: following up an ignored pop-up; %1$s is a duration (5 min), %2$d how many times at most.
            (tr("nag"), alert.nag.map { format(tr("every %1$s, at most %2$d times"), Schedule.duration($0.seconds, language: language), $0.times) } ?? ""),
            // TRANSLATORS: nudge show: showings held while the person was away; %d is how many.
            (tr("held"), state.map { $0.heldCount > 0 ? format(trn("%d showing, for the return", "%d showings, for the return", Int($0.heldCount)), Int($0.heldCount)) : "" } ?? ""),
            (tr("snooze"), Schedule.duration(alert.snoozeSeconds, language: language)),
            (tr("created"), InstantFormat.iso8601(alert.created, in: zone)),
            (tr("last fired"), state?.lastFired.map { InstantFormat.iso8601($0, in: zone) } ?? ""),
            (tr("answered"), state?.lastAnswer.map { InstantFormat.iso8601($0, in: zone) } ?? ""),
            (tr("pending"), state.map { $0.pendingCount > 0 ? "\($0.pendingCount)" : "" } ?? ""),
            // TRANSLATORS: nudge show, snoozed; %s is a date and time.
            (tr("snoozed"), state?.snoozedUntil.map { format(tr("until %s"), InstantFormat.iso8601($0, in: zone)) } ?? ""),
            // TRANSLATORS: nudge show, done for a day; %s is the day (2026-11-23).
            (tr("done for"), state?.doneForDay.map { format(tr("%s (the rest of that day is skipped)"), "\($0)") } ?? ""),
        ]
        let width = lines.map { TextWidth.of($0.0) }.max() ?? 0
        for (label, value) in lines where !value.isEmpty {
            print(label + String(repeating: " ", count: max(10, width) - TextWidth.of(label)) + " " + value.escapingControls)
        }
    }
}
