import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform
import Localization

/// Opening the person's store for a command, with failures mapped to sysexits.
enum StoreAccess {
    /// `$XDG_DATA_HOME/nudge/nudge.sqlite`.
    static var path: String { AppDatabase.defaultPath(environment: .current) }

    /// The store, for a command that writes.
    static func open() throws(CLIError) -> AppDatabase {
        do { return try AppDatabase.open(path: path) } catch { throw CLIError(error) }
    }

    /// The store, for a command that only reads: no write access needed, nothing created.
    static func read() throws(CLIError) -> AppDatabase {
        do { return try AppDatabase.open(path: path, access: .readOnly) } catch { throw CLIError(error) }
    }

    /// Runs a store operation, mapping its failures (and marking a damaged store).
    static func run<T>(_ body: () throws -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            throw CLIError(StoreError(error, path: path))
        }
    }

    /// Every alert that can be read; each one that cannot is named on stderr, and
    /// `unreadable` says there were some (the command then ends with 65).
    static func alerts(in store: AppDatabase, unreadable: inout Bool) throws(CLIError) -> [Alert] {
        var parsed: [String: Schedule]? = nil
        return try alerts(in: store, unreadable: &unreadable, parsed: &parsed)
    }

    /// `parsed`: see ``AppDatabase/alerts(unreadable:parsed:)``.
    static func alerts(in store: AppDatabase, unreadable: inout Bool, parsed: inout [String: Schedule]?) throws(CLIError) -> [Alert] {
        var bad: [StoreError] = []
        let alerts = try run { try store.alerts(unreadable: &bad, parsed: &parsed) }
        for error in bad { writeError("nudge: \(error.phrase.text(Catalog.shared.wording))\n") }
        if !bad.isEmpty { unreadable = true }
        return alerts
    }
}

extension CLIError {
    /// Unknown or ambiguous ids are usage errors; an unreadable row is bad data; a damaged
    /// or unusable store is I/O.
    init(_ error: StoreError) {
        let text = error.phrase.text(Catalog.shared.wording)
        switch error.kind {
        case .notFound, .ambiguous, .badID: self.init(.usage, text)
        case .badRow: self.init(.dataError, text)
        case .corrupt, .io: self.init(.ioError, text)
        }
    }
}

/// How alerts are shown in text and JSON.
enum AlertView {
    /// When the alert shows next in its state, as the daemon will do it; `water` is the
    /// day's water, which water reminders follow.
    static func next(_ alert: Alert, state: AlertState?, after now: Date, zone: TimeZone, water: WaterProgress?) -> NextShowing {
        NextShowing.of(alert, state: state, system: zone, now: now, water: water)
    }

    /// The next `count` showings, as the daemon will show them: the first with the state in
    /// it (snoozed, done for today, off…), then the schedule from there, in `zone`.
    static func upcoming(_ alert: Alert, state: AlertState?, water: WaterProgress?, after now: Date, count: Int,
                         system: TimeZone, zone: TimeZone) -> [Date] {
        guard count > 0, let first = NextShowing.of(alert, state: state, system: system, now: now, water: water).instant else { return [] }
        return [first] + alert.schedule.occurrences(after: first, count: count - 1, in: zone)
    }

    /// The day's water, read when one of `alerts` is a water reminder (else `nil`).
    static func water(for alerts: [Alert], in store: AppDatabase, now: Date) throws(CLIError) -> WaterProgress? {
        guard alerts.contains(where: { $0.kind == .water }) else { return nil }
        return try StoreAccess.run { try store.waterProgress(now: now, zone: LocalZone.current) }
    }

    /// The state column: `on`, `off`, `snoozed`, `done today`, with `×N` when unanswered.
    static func stateWord(_ alert: Alert, _ next: NextShowing) -> String {
        var word: String
        switch next.reason {
        case .off?: word = Words.off
        case .snoozed?: word = Words.snoozed
        case .doneForDay?: word = Words.doneToday
        case .goalMet?: word = Words.goalMet
        case nil: word = alert.enabled ? Words.on : Words.off
        }
        if next.pending > 0 { word += " ×\(next.pending)" }
        return word
    }

    /// Why the next showing moved, in words a person reads at a glance.
    static func reasonText(_ next: NextShowing, zone: TimeZone) -> String? {
        switch next.reason {
        case .off?: Words.off
        // TRANSLATORS: why the next showing moved: snoozed; %s is a time of day.
        case .snoozed(let until)?: format(tr("snoozed until %s"), Scheduler.clockText(until, zone))
        // TRANSLATORS: why the next showing moved: done for today; %s is the day (2026-11-23).
        case .doneForDay(let day)?: format(tr("done for today (%s)"), "\(day)")
        // TRANSLATORS: why a water reminder's next showing moved: the day's goal is met; %s is when the next drink day starts (a date and time).
        case .goalMet(let until)?: format(tr("the day's water goal is met; back at %s"), InstantFormat.iso8601(until, in: zone))
        case nil: nil
        }
    }

    /// "added 1a2b3c4d: Title — every 30 min, …" and when it fires next, for add and edit.
    static func announce(_ line: String, _ alert: Alert, state: AlertState? = nil, water: WaterProgress? = nil, now: Date) {
        let zone = alert.zone(system: LocalZone.current)
        print(format(line, alert.shortID, alert.title.escapingControls, alert.schedule.summary(in: zone, words: Catalog.shared.wording)))
        let next = Self.next(alert, state: state, after: now, zone: LocalZone.current, water: water).instant
        // TRANSLATORS: after nudge add or edit; %s is when the alert fires next (an ISO date and time).
        print(next.map { format(tr("next: %s"), InstantFormat.iso8601($0, in: zone)) }
              // TRANSLATORS: after nudge add or edit, for a schedule that never fires again.
              ?? (alert.enabled ? tr("next: never") : tr("switched off")))
    }

    /// Writes the alert as a JSON object, with its next fire (from
    /// ``next(_:after:zone:)``), straight into bytes: `list --json` writes 100,000 of them.
    static func writeJSON(_ alert: Alert, next showing: NextShowing, zone: TimeZone, to out: inout [UInt8]) {
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
        object.field("schedule", .string(alert.schedule.summary(in: z)), to: &out)
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
        object.end(to: &out)
    }
}
