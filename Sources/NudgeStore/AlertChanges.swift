import Foundation
import GRDB
import NudgeCore

/// What changed in the alerts since a face last read them, read in one transaction: the
/// alerts (and their states) changed or added since a change count, and, when some were
/// removed, every id there is. A face that stays open reads this instead of the whole store
/// (10,000 alerts: a one-row change costs a row, not 10,000).
public struct AlertChanges: Sendable {
    /// The store's change count at this read: the next read asks for what came after it.
    public var count: Int
    /// Whether this read holds every alert (asked with no count, or one the store cannot
    /// answer from: a count ahead of the store's, as another file's would be).
    public var isWhole: Bool
    /// The alerts changed (or added), as they are now.
    public var alerts: [Alert] = []
    /// The rows changed that cannot be read, by their stored id, with why.
    public var unreadable: [(id: String, error: StoreError)] = []
    /// The states of ``alerts`` (an alert absent here has none).
    public var states: [UUID: AlertState] = [:]
    /// Every id stored, when the count of rows says some were removed (else `nil`).
    public var ids: Set<String>?
}

extension AppDatabase {
    /// The alerts changed since the change count `since` (`nil`: all of them), in one read.
    /// `known` says whether an id was there at the last read and `knownCount` how many
    /// there were (readable or not): a count of rows below the known ones plus the new
    /// ones means some are gone, and then every id is read to say which. `parsed`: see
    /// ``alerts(unreadable:parsed:)``: a whole read leaves it holding its own schedules, a
    /// read of changes adds the new ones; nil keeps none.
    public func alertChanges(since: Int?, known: (String) -> Bool, knownCount: Int,
                             parsed: inout [String: Schedule]?) throws -> AlertChanges {
        let (count, records, stateRows, ids, whole) = try writer.read { db -> (Int, [AlertRecord], [Row], Set<String>?, Bool) in
            let count = try Int.fetchOne(db, sql: "SELECT count FROM storeChange") ?? 0
            guard let since, since <= count else {
                return (count, try AlertRecord.fetchAll(db), try Row.fetchAll(db, sql: "SELECT * FROM alertState"), nil, true)
            }
            let changed = "IN (SELECT alertId FROM alertStamp WHERE stamp > \(since))"
            let records = try AlertRecord.filter(sql: "id " + changed).fetchAll(db)
            let states = try Row.fetchAll(db, sql: "SELECT * FROM alertState WHERE alertId " + changed)
            let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM alert") ?? 0
            let added = records.reduce(0) { $0 + (known($1.id) ? 0 : 1) }
            let ids = stored == knownCount + added ? nil : Set(try String.fetchAll(db, sql: "SELECT id FROM alert"))
            return (count, records, states, ids, false)
        }
        var changes = AlertChanges(count: count, isWhole: whole, ids: ids)
        // Schedules are parsed over the CPUs when there are many (a whole read).
        let known = parsed, keeps = parsed != nil
        let chunks = Parallel.chunks(records.count) { range in
            var alerts: [Alert] = [], bad: [(String, StoreError)] = [], texts: [String] = []
            alerts.reserveCapacity(range.count)
            var reader = RowReader(known: known)
            for record in records[range] {
                do {
                    let alert = try reader.alert(record)
                    alerts.append(alert)
                    if keeps { texts.append(record.schedule) }
                } catch {
                    bad.append((record.id, StoreError(error, path: path)))
                }
            }
            return (alerts, bad, texts)
        }
        changes.alerts = chunks.flatMap(\.0)
        changes.unreadable = chunks.flatMap(\.1)
        // A whole read keeps only its own schedules; a read of changes adds to them.
        if keeps {
            if whole { parsed = [:] }
            for (text, alert) in zip(chunks.flatMap(\.2), changes.alerts) where parsed?[text] == nil { parsed?[text] = alert.schedule }
        }
        changes.states = Self.states(stateRows)
        return changes
    }
}
