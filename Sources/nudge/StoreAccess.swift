import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore

/// Opening the person's store for a command, with failures mapped to sysexits.
enum StoreAccess {
    /// `$XDG_DATA_HOME/nudge/nudge.sqlite`.
    static var path: String { AppDatabase.defaultPath(environment: ProcessEnvironment.current) }

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
        var bad: [StoreError] = []
        let alerts = try run { try store.alerts(unreadable: &bad) }
        for error in bad { writeError("nudge: \(error.message)\n") }
        if !bad.isEmpty { unreadable = true }
        return alerts
    }
}

extension CLIError {
    /// Unknown or ambiguous ids are usage errors; an unreadable row is bad data; a damaged
    /// or unusable store is I/O.
    init(_ error: StoreError) {
        switch error.kind {
        case .notFound, .ambiguous, .badID: self.init(.usage, error.message)
        case .badRow: self.init(.dataError, error.message)
        case .corrupt, .io: self.init(.ioError, error.message)
        }
    }
}

/// How alerts are shown in text and JSON.
enum AlertView {
    static func next(_ alert: Alert, after now: Date, zone: TimeZone) -> Date? {
        guard alert.enabled else { return nil }
        return alert.schedule.occurrences(after: now, count: 1, in: alert.zone(system: zone)).first
    }

    /// "added 1a2b3c4d: Title — every 30 min, …" and when it fires next, for add and edit.
    static func announce(_ verb: String, _ alert: Alert, now: Date) {
        let zone = alert.zone(system: LocalZone.current)
        print("\(verb) \(alert.shortID): \(alert.title.escapingControls) — \(alert.schedule.summary(in: zone))")
        let next = Self.next(alert, after: now, zone: LocalZone.current)
        print(next.map { "next: \(InstantFormat.iso8601($0, in: zone))" } ?? (alert.enabled ? "next: never" : "switched off"))
    }

    /// Writes the alert as a JSON object, with its next fire (from
    /// ``next(_:after:zone:)``), straight into bytes: `list --json` writes 100,000 of them.
    static func writeJSON(_ alert: Alert, next: Date?, zone: TimeZone, to out: inout [UInt8]) {
        let z = alert.zone(system: zone)
        var object = JSON.ObjectWriter()
        object.field("id", .string(alert.id.lowercased), to: &out)
        object.field("shortId", .string(alert.shortID), to: &out)
        object.field("enabled", .bool(alert.enabled), to: &out)
        object.field("title", .string(alert.title), to: &out)
        object.field("body", .string(alert.body), to: &out)
        object.field("schedule", .string(alert.schedule.summary(in: z)), to: &out)
        object.field("next", next.map { .string(InstantFormat.iso8601($0, in: z)) } ?? .null, to: &out)
        object.field("timeZone", alert.timeZone.map(JSON.string) ?? .null, to: &out)
        object.field("sound", alert.sound.map { .string($0.description) } ?? .null, to: &out)
        object.field("urgency", .string(alert.urgency.description), to: &out)
        object.end(to: &out)
    }
}
