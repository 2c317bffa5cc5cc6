import Foundation
import GRDB
import NudgeCore

/// The person's settings, kept in the store (`setting` table): how long the delivery log
/// is kept. Each has a default, a range, and one line saying what it is for.
public enum Setting: String, Sendable, CaseIterable {
    /// Log entries older than this many days are removed as new ones are written.
    case logDays = "log-days"
    /// At most this many log entries are kept; the oldest go first.
    case logRows = "log-rows"

    /// The value when none is set.
    public var defaultValue: Int {
        switch self {
        case .logDays: 90
        case .logRows: 100_000
        }
    }

    /// The values allowed.
    public var range: ClosedRange<Int> {
        switch self {
        case .logDays: 1...3650
        case .logRows: 100...10_000_000
        }
    }

    /// What it is for, for `nudge config`.
    public var summary: String {
        switch self {
        case .logDays: "days the delivery log keeps an entry"
        case .logRows: "entries the delivery log keeps at most"
        }
    }
}

extension AppDatabase {
    /// Every setting's value (the default where none is set).
    public func settings() throws -> [Setting: Int] {
        try writer.read { db in try Self.settings(db) }
    }

    static func settings(_ db: Database) throws -> [Setting: Int] {
        var values = Dictionary(uniqueKeysWithValues: Setting.allCases.map { ($0, $0.defaultValue) })
        guard try db.tableExists("setting") else { return values }
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
            if let key = Setting(rawValue: row["key"]), let value = Int(row["value"] as String), key.range.contains(value) {
                values[key] = value
            }
        }
        return values
    }

    /// Sets a value (checked against its range), pruning the log to it at once.
    public func set(_ setting: Setting, to value: Int) throws(StoreError) {
        guard setting.range.contains(value) else {
            // TRANSLATORS: %1$s is a setting's name, %2$d the value given, %3$d and %4$d its range.
            throw StoreError(.badID, Phrase("invalid %1$s %2$d: it must be between %3$d and %4$d", setting.rawValue, value,
                                            setting.range.lowerBound, setting.range.upperBound))
        }
        do {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [setting.rawValue, String(value)])
                try Self.pruneLog(db, now: Date())
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Keeps the log within its retention: called in the transaction that writes to it.
    static func pruneLog(_ db: Database, now: Date) throws {
        let settings = try settings(db)
        let days = settings[.logDays] ?? Setting.logDays.defaultValue
        let rows = settings[.logRows] ?? Setting.logRows.defaultValue
        try db.execute(sql: "DELETE FROM deliveryLog WHERE at < ?", arguments: [now.timeIntervalSince1970 - Double(days) * 86400])
        try db.execute(sql: "DELETE FROM deliveryLog WHERE id <= (SELECT MAX(id) FROM deliveryLog) - ?", arguments: [rows])
    }
}
