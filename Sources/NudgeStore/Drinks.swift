import Foundation
import GRDB
import NudgeCore

/// One drink of water: when, and how much.
public struct Drink: Sendable, Hashable {
    /// Its row, in the order drinks were logged.
    public var id: Int64
    /// When it was drunk.
    public var at: Date
    /// How much, in millilitres.
    public var millilitres: Int
}

extension AppDatabase {
    /// Logs a drink.
    @discardableResult
    public func logDrink(_ millilitres: Int, at: Date) throws(StoreError) -> Drink {
        guard (1...Water.maxDrink).contains(millilitres) else {
            throw StoreError(.badID, Phrase("invalid amount %1$s: it must be from 1 ml to %2$d ml", "\(millilitres)ml", Water.maxDrink))
        }
        do {
            let id = try writer.write { db -> Int64 in
                try db.execute(sql: "INSERT INTO drink (at, ml) VALUES (?, ?)", arguments: [at.timeIntervalSince1970, millilitres])
                return db.lastInsertedRowID
            }
            return Drink(id: id, at: at, millilitres: millilitres)
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Removes the drink logged last (the last one written, whatever its time); `nil`
    /// when there is none.
    public func undoLastDrink() throws(StoreError) -> Drink? {
        do {
            return try writer.write { db -> Drink? in
                guard let row = try Row.fetchOne(db, sql: "SELECT id, at, ml FROM drink ORDER BY id DESC LIMIT 1") else { return nil }
                let drink = Drink(id: row["id"], at: Date(timeIntervalSince1970: row["at"]), millilitres: row["ml"])
                try db.execute(sql: "DELETE FROM drink WHERE id = ?", arguments: [drink.id])
                return drink
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// The millilitres drunk from `start` up to, not including, `end`.
    public func intake(from start: Date, to end: Date) throws(StoreError) -> Int {
        do {
            return try writer.read { db in try Self.intake(db, from: start, to: end) }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    static func intake(_ db: Database, from start: Date, to end: Date) throws -> Int {
        // A store an older Nudge wrote, opened to read, has no drinks yet.
        guard try db.tableExists("drink") else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(ml), 0) FROM drink WHERE at >= ? AND at < ?",
                                arguments: [start.timeIntervalSince1970, end.timeIntervalSince1970]) ?? 0
    }

    /// The drinks from `start` (or the first) up to, not including, `end`, oldest first.
    public func drinks(from start: Date?, to end: Date) throws(StoreError) -> [(at: Date, millilitres: Int)] {
        do {
            return try writer.read { db in
                guard try db.tableExists("drink") else { return [] }
                var drinks: [(at: Date, millilitres: Int)] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT at, ml FROM drink WHERE at >= ? AND at < ? ORDER BY at",
                                               arguments: [start?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude, end.timeIntervalSince1970])
                while let row = try rows.next() {
                    drinks.append((Date(timeIntervalSince1970: row[0]), row[1]))
                }
                return drinks
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }
}

extension AppDatabase {
    /// The water of the drink day holding `now` in `zone`: the settings, that day's
    /// total and the last drink, read in one go.
    public func waterProgress(now: Date, zone: TimeZone) throws(StoreError) -> WaterProgress {
        do {
            return try writer.read { db in
                let settings = try Self.settings(db)
                let value = { (setting: Setting) in settings[setting] ?? setting.defaultValue }
                var progress = WaterProgress(goal: value(.goal), cup: value(.cup), dayStart: value(.dayStart) * 60, intake: 0,
                                             lastDrink: nil, now: now, zone: zone)
                guard try db.tableExists("drink") else { return progress }
                progress.intake = try Self.intake(db, from: progress.start, to: progress.end)
                progress.lastDrink = try Double.fetchOne(db, sql: "SELECT MAX(at) FROM drink").map(Date.init(timeIntervalSince1970:))
                return progress
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }
}
