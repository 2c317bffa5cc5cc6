import Foundation
import GRDB
import NudgeCore

extension AppDatabase {
    /// Stores a new alert, or replaces the one with its id.
    public func save(_ alert: Alert) throws {
        try save([alert])
    }

    /// Stores alerts in one transaction.
    public func save(_ alerts: [Alert]) throws {
        try writer.write { db in
            for alert in alerts { try AlertRecord(alert).save(db) }
        }
    }

    /// Every alert.
    public func alerts() throws -> [Alert] {
        // Rows come off SQLite one by one; turning them into alerts (parsing schedules)
        // is spread over the CPUs.
        let records = try writer.read { db in try AlertRecord.fetchAll(db) }
        let chunks = Parallel.chunks(records.count) { range in Result { try records[range].map { try $0.alert() } } }
        return try chunks.flatMap { try $0.get() }
    }

    /// A number that changes whenever another process commits to the store
    /// (`PRAGMA data_version`); our own writes leave it alone.
    public func externalChanges() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Gives back SQLite's page cache and statement memory (`sqlite3_db_release_memory`):
    /// a long-lived process calls it after reading the whole store.
    public func releaseMemory() {
        writer.writeWithoutTransaction { db in db.releaseMemory() }
    }

    /// Copies the write-ahead log into the database file and empties it
    /// (`wal_checkpoint(TRUNCATE)`). A long-lived process calls it after writing: the file
    /// on its own is then the whole store, so a tool that copies it, or renames another
    /// store over it, never meets a log that belongs to another file. Best effort: with
    /// readers in the way it is left for the next time.
    public func checkpoint() {
        try? writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// How many alerts there are.
    public func alertCount() throws -> Int {
        try writer.read { db in try AlertRecord.fetchCount(db) }
    }

    /// The alert an id or a unique prefix of at least 4 hex digits names. An ambiguous
    /// prefix is an error listing the candidates' short ids.
    public func alert(matching prefix: String) throws -> Alert {
        let key = prefix.lowercased().filter { $0 != "-" }
        guard key.count >= 4, key.count <= 32, key.allSatisfy(\.isHexDigit) else {
            throw StoreError(.badID, "invalid id '\(prefix)': give at least 4 hex digits of an id from `nudge list`")
        }
        let rows = try writer.read { db in
            // Hex digits sort below "g", so this is a range scan of the primary key.
            try AlertRecord.filter(Column("id") >= key && Column("id") < key + "g").limit(6).fetchAll(db)
        }
        switch rows.count {
        case 0: throw StoreError(.notFound, "no alert with id '\(prefix)'")
        case 1: return try rows[0].alert()
        default:
            let candidates = rows.prefix(5).map { String($0.id.prefix(8)) }.joined(separator: ", ")
            throw StoreError(.ambiguous, "id '\(prefix)' is ambiguous: it matches \(candidates)\(rows.count > 5 ? ", …" : "")")
        }
    }

    /// Deletes alerts (their state goes with them; the log stays).
    public func delete(_ ids: [UUID]) throws {
        try writer.write { db in
            _ = try AlertRecord.deleteAll(db, keys: ids.map(\.hex))
        }
    }

    /// The runtime state of every alert that has one.
    public func states() throws -> [UUID: AlertState] {
        let rows = try writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM alertState") }
        var result: [UUID: AlertState] = [:]
        for row in rows {
            let key: String = row["alertId"]
            guard let id = UUID(hex: key) else { continue }
            var state = AlertState(checkedUntil: Date(timeIntervalSince1970: row["checkedUntil"]))
            state.lastFired = (row["lastFired"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.pendingCount = row["pendingCount"]
            state.shownID = row["shownID"]
            state.snoozedUntil = (row["snoozedUntil"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.doneForDay = (row["doneForDay"] as Int?).map(CivilDay.init(daysSinceEpoch:))
            result[id] = state
        }
        return result
    }

    /// Stores alerts' runtime state (states of alerts that are gone are dropped), log
    /// entries, and notification ids that came back for entries written before, in one
    /// transaction. Returns the new entries' row ids, in order.
    @discardableResult
    public func save(states: [UUID: AlertState], log entries: [LogEntry] = [],
                     notificationIDs: [Int64: UInt32] = [:]) throws -> [Int64] {
        try writer.write { db in
            for (id, s) in states {
                try db.execute(sql: """
                    INSERT INTO alertState (alertId, checkedUntil, lastFired, pendingCount, shownID, snoozedUntil, doneForDay)
                    SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM alert WHERE id = ?)
                    ON CONFLICT(alertId) DO UPDATE SET checkedUntil = excluded.checkedUntil, lastFired = excluded.lastFired,
                      pendingCount = excluded.pendingCount, shownID = excluded.shownID,
                      snoozedUntil = excluded.snoozedUntil, doneForDay = excluded.doneForDay
                    """, arguments: [id.hex, s.checkedUntil.timeIntervalSince1970,
                                     s.lastFired?.timeIntervalSince1970, s.pendingCount, s.shownID.map { Int64($0) },
                                     s.snoozedUntil?.timeIntervalSince1970, s.doneForDay?.daysSinceEpoch, id.hex])
            }
            for (row, id) in notificationIDs {
                try db.execute(sql: "UPDATE deliveryLog SET deliveryID = ? WHERE id = ?", arguments: [Int64(id), row])
            }
            return try Self.insert(entries, db)
        }
    }
}
