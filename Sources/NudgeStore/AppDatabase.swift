import Foundation
import GRDB
import NudgeCore

/// Nudge's store: one SQLite database (WAL, busy timeout) holding the alerts, their runtime
/// state and the delivery log. Owns the writer and the migrator; nothing else opens the file.
public final class AppDatabase: Sendable {
    /// The database connection.
    public let writer: any DatabaseWriter

    /// Wraps a writer and brings its schema up to date.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Wraps a writer whose schema is known to be current.
    private init(settledWriter writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// An empty in-memory store, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    /// `$XDG_DATA_HOME/nudge/nudge.sqlite`, by default `~/.local/share/nudge/nudge.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/nudge/nudge.sqlite"
    }

    /// Opens (creating if needed) the store at `path`: folder 0700, file 0600, WAL, and a
    /// busy timeout so the CLI and the daemon can write at once. A damaged file is never
    /// overwritten or "repaired": the error names it and says what to do.
    public static func open(path: String) throws(StoreError) -> AppDatabase {
        let folder = (path as NSString).deletingLastPathComponent
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            // Parents may be missing too (a fresh XDG_DATA_HOME).
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.io, "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        }
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            throw StoreError(.io, "cannot open \(path) for reading and writing: \(reason)")
        }
        close(fd)
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            // A queue, and WAL set by hand: GRDB's own WAL set-up makes sure of the WAL file
            // with a schema change on every open, and a command that only reads (or refuses
            // bad input) must leave the file byte-for-byte as it was. WAL mode persists in
            // the file, so only the first open writes it. SQLite's locks and the busy
            // timeout keep processes that write at once apart.
            // GRDB's migrator reads which migrations ran before it starts a transaction, so
            // two processes creating the store at once would both create the tables. A lock
            // on the folder puts opens in line until the schema is settled; the later ones
            // find the work done. (The folder, not the file: closing any descriptor of the
            // file would drop SQLite's own locks on it.)
            let lock = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if lock >= 0 { close(lock) } }
            if lock >= 0 { _ = flock(lock, LOCK_EX) }
            let queue = try DatabaseQueue(path: path, configuration: config)
            let settled = try queue.read { db in
                try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal"
                    && Self.migrator.hasCompletedMigrations(db)
            }
            if settled { return AppDatabase(settledWriter: queue) }
            try queue.writeWithoutTransaction { db in
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
            }
            return try AppDatabase(queue)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw StoreError(.corrupt, "\(path) is damaged or not a Nudge database (\(error.resultCode)); nothing was changed: move it aside to start afresh, or restore a backup")
        } catch let error as DatabaseError {
            throw StoreError(.io, "cannot use \(path): \(error.message ?? "\(error.resultCode)")")
        } catch {
            throw StoreError(.io, "cannot use \(path): \(error)")
        }
    }

    /// What `nudge doctor` says about a store: it is opened read-only (nothing is created
    /// or migrated) and checked with `PRAGMA integrity_check`.
    public struct Health: Sendable {
        /// How many alerts it holds.
        public var alerts: Int
        /// The file's size in bytes (the main file, without the WAL).
        public var bytes: Int
        /// What the integrity check found; empty when it is sound.
        public var problems: [String]
    }

    /// Checks the store at `path` without changing it; `nil` when there is none yet.
    public static func health(path: String) throws(StoreError) -> Health? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            return try queue.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let alerts = try db.tableExists("alert") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM alert") ?? 0 : 0
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                return Health(alerts: alerts, bytes: size, problems: problems)
            }
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            return Health(alerts: 0, bytes: 0, problems: ["\(error.resultCode): the file is damaged or not a Nudge database"])
        } catch let error as DatabaseError {
            throw StoreError(.io, "cannot read \(path): \(error.message ?? "\(error.resultCode)")")
        } catch {
            throw StoreError(.io, "cannot read \(path): \(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "alert") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("schedule", .text).notNull()
                t.column("enabled", .boolean).notNull()
                t.column("sound", .text)
                t.column("urgency", .integer).notNull()
                t.column("icon", .text).notNull()
                t.column("timeZone", .text)
                t.column("graceSeconds", .integer)
                t.column("snoozeSeconds", .integer).notNull()
                t.column("created", .double).notNull()
            }
            try db.create(table: "alertState") { t in
                t.primaryKey("alertId", .text).references("alert", onDelete: .cascade)
                t.column("checkedUntil", .double).notNull()
                t.column("lastFired", .double)
                t.column("pendingCount", .integer).notNull()
                t.column("shownID", .integer)
                t.column("snoozedUntil", .double)
                t.column("doneForDay", .integer)
            }
            try db.create(table: "deliveryLog") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("alertId", .text).notNull().indexed()
                t.column("event", .text).notNull()
                t.column("at", .double).notNull().indexed()
                t.column("deliveryID", .integer)
                t.column("count", .integer)
                t.column("detail", .text)
            }
        }
        migrator.registerMigration("v2: schedules as compact text") { db in
            // v1 stored schedules as JSON; decoding 100,000 of those took seconds.
            let rows = try Row.fetchAll(db, sql: "SELECT id, schedule FROM alert")
            for row in rows {
                let json: String = row["schedule"]
                let schedule = try JSONDecoder().decode(Schedule.self, from: Data(json.utf8))
                try db.execute(sql: "UPDATE alert SET schedule = ? WHERE id = ?", arguments: [schedule.storageText, row["id"] as String])
            }
        }
        return migrator
    }
}
