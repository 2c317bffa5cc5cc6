import Foundation
import NudgeCore
import NudgeStore
import Platform
import Localization

/// Reading the person's alerts for a command, with failures mapped to sysexits.
public enum StoreAccess {
    /// Every alert that can be read; each one that cannot is named on stderr, and
    /// `unreadable` says there were some (the command then ends with 65).
    public static func alerts(in store: AppDatabase, _ world: World, unreadable: inout Bool) throws(OperationError) -> [Alert] {
        var parsed: [String: Schedule]? = nil
        return try alerts(in: store, world, unreadable: &unreadable, parsed: &parsed)
    }

    /// `parsed`: see ``AppDatabase/alerts(unreadable:parsed:)``.
    public static func alerts(in store: AppDatabase, _ world: World, unreadable: inout Bool, parsed: inout [String: Schedule]?) throws(OperationError) -> [Alert] {
        var bad: [StoreError] = []
        let alerts = try world.run { try store.alerts(unreadable: &bad, parsed: &parsed) }
        for error in bad { writeError("nudge: \(error.phrase.text(world.language))\n") }
        if !bad.isEmpty { unreadable = true }
        return alerts
    }
}

extension OperationError {
    /// Unknown or ambiguous ids are usage errors; an unreadable row is bad data; a damaged
    /// or unusable store is I/O.
    public init(_ error: StoreError) {
        let text = error.phrase.text(Catalog.shared.language)
        switch error.kind {
        case .notFound, .ambiguous, .badID: self.init(.usage, text)
        case .badRow: self.init(.dataError, text)
        case .corrupt, .io: self.init(.ioError, text)
        }
    }
}

/// How alerts are shown in text and JSON.
public enum AlertView {
    /// When the alert shows next in its state, as the daemon will do it; `water` is the
    /// day's water, which water reminders follow.
    public static func next(_ alert: Alert, state: AlertState?, after now: Date, zone: TimeZone, water: WaterProgress?) -> NextShowing {
        NextShowing.of(alert, state: state, system: zone, now: now, water: water)
    }

    /// The next `count` showings, as the daemon will show them: the first with the state in
    /// it (snoozed, done for today, off…), then the schedule from there, in `zone`.
    public static func upcoming(_ alert: Alert, state: AlertState?, water: WaterProgress?, after now: Date, count: Int,
                         system: TimeZone, zone: TimeZone) -> [Date] {
        guard count > 0, let first = NextShowing.of(alert, state: state, system: system, now: now, water: water).instant else { return [] }
        return [first] + alert.schedule.occurrences(after: first, count: count - 1, in: zone)
    }

    /// The day's water, read when one of `alerts` is a water reminder (else `nil`).
    public static func water(for alerts: [Alert], in store: AppDatabase, _ world: World, now: Date) throws(OperationError) -> WaterProgress? {
        guard alerts.contains(where: { $0.kind == .water }) else { return nil }
        return try world.run { try store.waterProgress(now: now, zone: world.zone) }
    }

    /// The state column: `on`, `off`, `snoozed`, `done today`, with `×N` when unanswered.
    public static func stateWord(_ alert: Alert, _ next: NextShowing) -> String {
        var word: String
        switch next.reason {
        case .off?: word = Labels.off
        case .snoozed?: word = Labels.snoozed
        case .doneForDay?: word = Labels.doneToday
        case .goalMet?: word = Labels.goalMet
        // TRANSLATORS: list's STATE column: it came up while Nudge's service was stopped and waits to be shown.
        case .due?: word = tr("due")
        case nil: word = alert.enabled ? Labels.on : Labels.off
        }
        if next.pending > 0 { word += " ×\(next.pending)" }
        return word
    }

    /// Why the next showing moved, in words a person reads at a glance.
    public static func reasonText(_ next: NextShowing, zone: TimeZone) -> String? {
        switch next.reason {
        case .off?: Labels.off
        // TRANSLATORS: why the next showing moved: snoozed; %s is a time of day.
        case .snoozed(let until)?: format(tr("snoozed until %s"), Scheduler.clockText(until, zone))
        // TRANSLATORS: why the next showing moved: done for today; %s is the day (2026-11-23).
        case .doneForDay(let day)?: format(tr("done for today (%s)"), "\(day)")
        // TRANSLATORS: why a water reminder's next showing moved: the day's goal is met; %s is when the next drink day starts (a date and time).
        case .goalMet(let until)?: format(tr("the day's water goal is met; back at %s"), InstantFormat.iso8601(until, in: zone))
        // TRANSLATORS: why a reminder shows at once: it came up while Nudge's service was stopped; %s is when (a date and time).
        case .due(let since)?: format(tr("due since %s: shown when Nudge's service runs"), InstantFormat.iso8601(since, in: zone))
        case nil: nil
        }
    }
}
