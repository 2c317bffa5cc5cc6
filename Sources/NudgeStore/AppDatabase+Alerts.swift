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

    /// Stores what `merge` makes of the alerts with these ids as they are stored (an id not
    /// stored, or whose row cannot be read, is absent), all in one write transaction: two
    /// processes merging the same ids at once take turns, so each decides on what the other
    /// wrote (two imports of one calendar each said "imported" when both read first).
    public func merge<Result>(ids: [UUID], _ merge: ([UUID: Alert]) throws -> (save: [Alert], result: Result)) throws -> Result {
        try writer.write { db in
            var stored: [UUID: Alert] = [:]
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                let records = try AlertRecord.filter(keys: chunk.map(\.hex)).fetchAll(db)
                for record in records { if let alert = try? record.alert() { stored[alert.id] = alert } }
            }
            let (save, result) = try merge(stored)
            for alert in save { try AlertRecord(alert).save(db) }
            return result
        }
    }

    /// Every alert; the first row that cannot be read is an error (see
    /// ``alerts(unreadable:)`` to go on past it).
    public func alerts() throws -> [Alert] {
        var unreadable: [StoreError] = []
        let alerts = try self.alerts(unreadable: &unreadable)
        if let first = unreadable.first { throw first }
        return alerts
    }

    /// Every alert that can be read; the rows that cannot (a schedule from a newer Nudge, a
    /// value changed by hand) are collected in `unreadable`, one error each naming the row.
    public func alerts(unreadable: inout [StoreError]) throws -> [Alert] {
        var parsed: [String: Schedule]? = nil
        return try alerts(unreadable: &unreadable, parsed: &parsed)
    }

    /// The same for a process that reads the whole store again and again (`nudge ui`):
    /// `parsed` holds the last read's schedules by their stored text, so only the ones that
    /// changed are parsed again; it is left holding this read's (`nil` keeps none).
    public func alerts(unreadable: inout [StoreError], parsed: inout [String: Schedule]?) throws -> [Alert] {
        // Rows come off SQLite one by one; turning them into alerts (parsing schedules)
        // is spread over the CPUs.
        let records = try writer.read { db in try AlertRecord.fetchAll(db) }
        let known = parsed, keep = parsed != nil
        let chunks = Parallel.chunks(records.count) { range in
            var alerts: [Alert] = [], bad: [StoreError] = [], texts: [(String, Schedule)] = []
            alerts.reserveCapacity(range.count)
            var reader = RowReader(known: known)
            for record in records[range] {
                do {
                    let alert = try reader.alert(record)
                    alerts.append(alert)
                    if keep { texts.append((record.schedule, alert.schedule)) }
                } catch {
                    bad.append(StoreError(error, path: path))
                }
            }
            return (alerts, bad, texts)
        }
        unreadable += chunks.flatMap(\.1)
        if keep { parsed = Dictionary(chunks.flatMap(\.2), uniquingKeysWith: { first, _ in first }) }
        return chunks.flatMap(\.0)
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
    /// store over it, never meets a log that belongs to another file. It never waits:
    /// with a reader or writer in the way it copies what it can and returns `false`, to be
    /// tried again later (the daemon's loop must not stall behind a long `list`).
    @discardableResult
    public func checkpoint() -> Bool {
        (try? writer.writeWithoutTransaction { db -> Bool in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            do {
                _ = try db.checkpoint(.truncate)
                return true
            } catch {
                _ = try? db.checkpoint(.passive)
                return false
            }
        }) ?? false
    }

    /// Checks the store (`PRAGMA quick_check`) and returns the damage found, also marked
    /// beside the file (with `mark`) so nothing writes over it. A failure that is not damage
    /// (a full disk, an unreadable file) is thrown, and marks nothing.
    public func quickCheck(mark: Bool = true) throws(StoreError) -> [String] {
        let problems: [String]
        do {
            problems = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" } }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            problems = ["\(error.resultCode): \(error.message ?? "damaged")"]
        } catch {
            throw StoreError(error, path: path)
        }
        if mark, !problems.isEmpty, let path { StoreFile(path: path).markDamaged("quick_check: " + problems.prefix(2).joined(separator: "; ")) }
        return problems
    }

    /// Refreshes the last good copy beside the store when it is older than `age` (or
    /// missing), after a `quick_check` (`checked`: the caller has just run one). Returns
    /// `nil` when no copy was due, else the problems the check found (then no copy is made
    /// and the damage is marked), empty when the copy was made.
    @discardableResult
    public func refreshLastGood(olderThan age: TimeInterval, checked: Bool = false, now: Date = Date()) -> [String]? {
        guard let path else { return nil }
        let file = StoreFile(path: path)
        if let last = file.lastGood(), now.timeIntervalSince(last.modified) < age { return nil }
        let problems = file.saveLastGood(from: writer, checked: checked)
        if !problems.isEmpty { file.markDamaged("quick_check: " + problems.prefix(2).joined(separator: "; ")) }
        return problems
    }

    /// Makes every alert owe nothing before `now`: for a last good copy put back in the
    /// store's place, whose states are as old as the copy. A restored reminder counts from
    /// the restore, whether or not the daemon runs then: nothing that came due between the
    /// copy and now is caught up, and a snooze that ended meanwhile is over.
    public func countFromNow(_ now: Date) throws {
        let at = now.timeIntervalSince1970
        try writer.write { db in
            try db.execute(sql: """
                UPDATE alertState SET checkedUntil = max(checkedUntil, :at),
                    snoozedUntil = CASE WHEN snoozedUntil < :at THEN NULL ELSE snoozedUntil END
                """, arguments: ["at": at])
            try db.execute(sql: """
                INSERT INTO alertState (alertId, checkedUntil, pendingCount)
                SELECT id, :at, 0 FROM alert WHERE id NOT IN (SELECT alertId FROM alertState)
                """, arguments: ["at": at])
        }
    }

    /// How many alerts there are.
    public func alertCount() throws -> Int {
        try writer.read { db in try AlertRecord.fetchCount(db) }
    }

    /// The alert an id or a unique prefix of at least 4 hex digits names. An ambiguous
    /// prefix is an error listing the candidates' short ids. A row whose schedule cannot be
    /// read takes `schedule` instead when one is given (an edit that replaces it).
    public func alert(matching prefix: String, schedule: Schedule? = nil) throws -> Alert {
        let record = try record(matching: prefix)
        if let schedule, Schedule(storageText: record.schedule) == nil {
            var fixed = record
            fixed.schedule = schedule.storageText
            return try fixed.alert()
        }
        return try record.alert()
    }

    /// The id and title of the alert a prefix names, without reading the rest of its row:
    /// an alert that cannot be read can still be removed.
    public func alertID(matching prefix: String) throws -> (id: UUID, title: String) {
        let record = try record(matching: prefix)
        guard let id = UUID(hex: record.id) else { throw StoreError(.badRow, Phrase("alert id %s is not 32 hex digits", record.id.quotedForMessage())) }
        return (id, record.title)
    }

    private func record(matching prefix: String) throws -> AlertRecord {
        let key = prefix.lowercased().filter { $0 != "-" }
        guard key.count >= 4, key.count <= 32, key.allSatisfy(\.isHexDigit) else {
            // TRANSLATORS: %s is the id as typed, quoted.
            throw StoreError(.badID, Phrase("invalid id %s: give at least 4 hex digits of an id from `nudge list`", prefix.quotedForMessage()))
        }
        let rows = try writer.read { db in
            // Hex digits sort below "g", so this is a range scan of the primary key.
            try AlertRecord.filter(Column("id") >= key && Column("id") < key + "g").limit(6).fetchAll(db)
        }
        switch rows.count {
        case 0: throw StoreError(.notFound, Phrase("no alert with id %s", prefix.quotedForMessage()))
        case 1: return rows[0]
        default:
            let candidates = rows.prefix(5).map { String($0.id.prefix(8)) }.joined(separator: ", ")
            // TRANSLATORS: %1$s is the id as typed, quoted; %2$s the ids it matches.
            throw StoreError(.ambiguous, Phrase("id %1$s is ambiguous: it matches %2$s", prefix.quotedForMessage(), candidates + (rows.count > 5 ? ", …" : "")))
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
        try states(where: nil)
    }

    /// The runtime state of one alert, if it has one.
    public func state(of id: UUID) throws -> AlertState? {
        try states(where: id)[id]
    }

    private func states(where id: UUID?) throws -> [UUID: AlertState] {
        let rows = try writer.read { db in
            if let id { return try Row.fetchAll(db, sql: "SELECT * FROM alertState WHERE alertId = ?", arguments: [id.hex]) }
            return try Row.fetchAll(db, sql: "SELECT * FROM alertState")
        }
        return Self.states(rows)
    }

    /// States from rows of `alertState` (rows whose id is not 32 hex digits are left out).
    static func states(_ rows: [Row]) -> [UUID: AlertState] {
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
            state.lastAnswer = (row["lastAnswer"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.shownAt = (row["shownAt"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.goalMetUntil = (row["goalMetUntil"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.heldCount = row["heldCount"]
            state.heldSince = (row["heldSince"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.nagAt = (row["nagAt"] as Double?).map(Date.init(timeIntervalSince1970:))
            state.nagCount = row["nagCount"]
            result[id] = state
        }
        return result
    }

    /// Stores alerts' runtime state (states of alerts that are gone are dropped), log
    /// entries, notification ids that came back for entries written before, and drinks
    /// chosen on pop-ups, in one transaction: an answer and its drink are kept together
    /// or not at all. Returns the new entries' row ids, in order.
    @discardableResult
    public func save(states: [UUID: AlertState], log entries: [LogEntry] = [],
                     notificationIDs: [Int64: UInt32] = [:], drinks: [(millilitres: Int, at: Date)] = []) throws -> [Int64] {
        try writer.write { db in
            for drink in drinks {
                try db.execute(sql: "INSERT INTO drink (at, ml) VALUES (?, ?)", arguments: [drink.at.timeIntervalSince1970, drink.millilitres])
            }
            for (id, s) in states {
                try db.execute(sql: """
                    INSERT INTO alertState (alertId, checkedUntil, lastFired, pendingCount, shownID, snoozedUntil, doneForDay,
                                            lastAnswer, shownAt, goalMetUntil, heldCount, heldSince, nagAt, nagCount)
                    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM alert WHERE id = ?)
                    ON CONFLICT(alertId) DO UPDATE SET checkedUntil = excluded.checkedUntil, lastFired = excluded.lastFired,
                      pendingCount = excluded.pendingCount, shownID = excluded.shownID,
                      snoozedUntil = excluded.snoozedUntil, doneForDay = excluded.doneForDay,
                      lastAnswer = excluded.lastAnswer, shownAt = excluded.shownAt, goalMetUntil = excluded.goalMetUntil,
                      heldCount = excluded.heldCount, heldSince = excluded.heldSince,
                      nagAt = excluded.nagAt, nagCount = excluded.nagCount
                    """, arguments: [id.hex, s.checkedUntil.timeIntervalSince1970,
                                     s.lastFired?.timeIntervalSince1970, s.pendingCount, s.shownID.map { Int64($0) },
                                     s.snoozedUntil?.timeIntervalSince1970, s.doneForDay?.daysSinceEpoch,
                                     s.lastAnswer?.timeIntervalSince1970, s.shownAt?.timeIntervalSince1970,
                                     s.goalMetUntil?.timeIntervalSince1970, s.heldCount, s.heldSince?.timeIntervalSince1970,
                                     s.nagAt?.timeIntervalSince1970, s.nagCount, id.hex])
            }
            for (row, id) in notificationIDs {
                try db.execute(sql: "UPDATE deliveryLog SET deliveryID = ? WHERE id = ?", arguments: [Int64(id), row])
            }
            return try Self.insert(entries, db)
        }
    }
}
