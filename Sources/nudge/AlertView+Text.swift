import Foundation
import Localization
import NudgeCore
import NudgeKit

/// How the command line prints alerts: the lines of `add` and `edit`, and `list --json`.
extension AlertView {
    /// "added 1a2b3c4d: Title — every 30 min, …" and when it fires next, for add and edit.
    static func announce(_ line: String, _ alert: Alert, _ world: World, state: AlertState? = nil, water: WaterProgress? = nil, now: Date) {
        let zone = alert.zone(system: world.zone)
        print(format(line, alert.shortID, alert.title.escapingControls, alert.schedule.summary(in: zone, language: Catalog.shared.language)))
        let next = Self.next(alert, state: state, after: now, zone: world.zone, water: water).instant
        // TRANSLATORS: after nudge add or edit; %s is when the alert fires next (an ISO date and time).
        print(next.map { format(tr("next: %s"), InstantFormat.iso8601($0, in: zone)) }
              // TRANSLATORS: after nudge add or edit, for a schedule that never fires again.
              ?? (alert.enabled ? Labels.noTime(alert.schedule, zone: zone) ?? tr("next: never") : tr("switched off")))
    }

    /// Writes the alert as a JSON object, with its next fire (from
    /// ``next(_:after:zone:)``), straight into bytes: `list --json` writes 100,000 of them.
    /// Schedules in words, each alike schedule in the same zone put in words once (a run of
    /// `list --json`).
    struct Summaries {
        private struct Key: Hashable { let schedule: Schedule, zone: String? }
        let zone: TimeZone
        private var said: [Key: String] = [:]
        init(zone: TimeZone) { self.zone = zone }

        mutating func summary(_ alert: Alert) -> String {
            let key = Key(schedule: alert.schedule, zone: alert.timeZone)
            if let words = said[key] { return words }
            let words = alert.schedule.summary(in: alert.zone(system: zone))
            if said.count < 4_096 { said[key] = words }
            return words
        }
    }

    static func writeJSON(_ alert: Alert, next showing: NextShowing, zone: TimeZone, to out: inout [UInt8]) {
        var summaries = Summaries(zone: zone)
        writeJSON(alert, next: showing, zone: zone, summaries: &summaries, to: &out)
    }

    static func writeJSON(_ alert: Alert, next showing: NextShowing, zone: TimeZone, summaries: inout Summaries,
                          calendar: String? = nil, to out: inout [UInt8]) {
        let next = showing.instant
        let z = alert.zone(system: zone)
        var object = JSON.ObjectWriter()
        object.field("id", .string(alert.id.lowercased), to: &out)
        object.field("shortId", .string(alert.shortID), to: &out)
        object.field("enabled", .bool(alert.enabled), to: &out)
        object.field("kind", .string(alert.kind.rawValue), to: &out)
        object.field("whenAway", .string(alert.holdsWhileAway ? "hold" : "show"), to: &out)
        object.field("title", .string(alert.title), to: &out)
        object.field("body", .string(alert.body), to: &out)
        object.field("schedule", .string(summaries.summary(alert)), to: &out)
        object.field("next", next.map { .string(InstantFormat.iso8601($0, in: z)) } ?? .null, to: &out)
        object.field("timeZone", alert.timeZone.map(JSON.string) ?? .null, to: &out)
        object.field("sound", alert.sound.map { .string($0.description) } ?? .null, to: &out)
        object.field("urgency", .string(alert.urgency.description), to: &out)
        let reason: JSON
        switch showing.reason {
        case .off?: reason = .string("off")
        case .snoozed?: reason = .string("snoozed")
        case .doneForDay?: reason = .string("done-for-today")
        case .goalMet?: reason = .string("goal-met")
        case .due?: reason = .string("due")
        case nil: reason = .null
        }
        object.field("nextReason", reason, to: &out)
        if case .snoozed(let until)? = showing.reason {
            object.field("snoozedUntil", .string(InstantFormat.iso8601(until, in: z)), to: &out)
        } else {
            object.field("snoozedUntil", .null, to: &out)
        }
        if case .doneForDay(let day)? = showing.reason {
            object.field("doneForDay", .string(day.description), to: &out)
        } else {
            object.field("doneForDay", .null, to: &out)
        }
        object.field("pending", .integer(Int64(showing.pending)), to: &out)
        // Only for a reminder from a calendar Nudge follows (nudge sync): the calendar's name.
        if let calendar { object.field("calendar", .string(calendar), to: &out) }
        object.end(to: &out)
    }
}
