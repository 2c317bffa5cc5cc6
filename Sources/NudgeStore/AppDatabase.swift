import CSQLite
import Foundation
import GRDB
import Platform
import NudgeCore

/// Nudge's store: one SQLite database (WAL, busy timeout) holding the alerts, their runtime
/// state and the delivery log. Owns the writer and the migrator. The file itself is shared:
/// the daemon and every command have connections of their own (`nudge ui` two, its session's
/// and the one a command's code opens), kept apart by SQLite's locks.
public final class AppDatabase: Sendable {
    /// The database connection. Internal: NudgeStore's files reach it (`StoreFile` is
    /// handed it for the last good copy), and so could tests through `@testable import`,
    /// though none does. It is not always this type's alone: ``init(_:path:)`` wraps a
    /// writer its caller made and may keep, as the migration tests do (they write old rows
    /// through their queue, hand it over, then read the migrated rows through it).
    let writer: any DatabaseWriter

    /// The file the path named when the store was opened for writing (`nil` for one read
    /// only or in memory): while the path still names it, letting the store go empties
    /// the log into it (see ``deinit``).
    private let openedFile: FileIdentity?

    /// Wraps a writer and brings its schema up to date.
    public init(_ writer: any DatabaseWriter, path: String? = nil) throws {
        self.writer = writer
        self.path = path
        openedFile = path.flatMap { writer.configuration.readonly ? nil : FileIdentity(path: $0) }
        try Self.migrator.migrate(writer)
    }

    /// Wraps a writer whose schema is known to be current.
    private init(settledWriter writer: any DatabaseWriter, path: String) {
        self.writer = writer
        self.path = path
        openedFile = writer.configuration.readonly ? nil : FileIdentity(path: path)
    }

    /// A store opened for writing leaves its log empty when it goes (a checkpoint that
    /// never waits), whoever else holds the file: SQLite's own checkpoint on close runs
    /// only for the last connection, and `nudge ui` or the daemon holding the store kept
    /// a command's pages in the log, where a backup renamed over the file would have met
    /// them. When the path names another file by now, the store is only let go (see
    /// ``abandon()``).
    deinit {
        guard let path, let openedFile else { return }
        guard FileIdentity(path: path) == openedFile else { return abandon() }
        // Found damaged meanwhile (by anyone): not a page more is written into it.
        guard StoreFile(path: path).damage() == nil else { return abandon() }
        // An empty log is left alone: emptying it again would write it, and whoever
        // watches the store would wake for nothing.
        var info = stat()
        if stat(path + "-wal", &info) == 0, info.st_size > 0 { checkpoint() }
    }

    /// Closes the connection without touching the log beside the path: for a store whose
    /// path names another file now (a backup restored, a sync tool's rename). That log
    /// may already be the new file's, so a checkpoint would copy the new file's pages into
    /// the old one and empty the log under it, and SQLite's close does just that. Close
    /// the old store this way before the new one is opened: a second connection of this
    /// process on the new file would lose its locks on the shared files when the old one
    /// closes them. The store is unusable afterwards.
    public func abandon() {
        writer.writeWithoutTransaction { db in
            if let connection = db.sqliteConnection { _ = nudge_sqlite_no_checkpoint_on_close(connection) }
        }
        try? writer.close()
    }

    /// An empty in-memory store, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    /// The refusal to write a store a newer Nudge wrote (`newer` says what shows it).
    public static func newerError(_ path: String, _ newer: String) -> StoreError {
        StoreError(.io, Phrase("%1$s was written by a newer Nudge (%2$s); this one only reads it: update Nudge", path, newer))
    }

    /// The refusal of a store its marker says is damaged.
    public static func damagedError(_ path: String, _ damage: StoreFile.Damage) -> StoreError {
        // TRANSLATORS: %1$s is the store's path, %2$s what was found.
        StoreError(.corrupt, Phrase("%1$s was found damaged (%2$s); nothing is written to it until it is restored: run `nudge doctor`", path, damage.detail))
    }

    /// `$XDG_DATA_HOME/nudge/nudge.sqlite`, by default `~/.local/share/nudge/nudge.sqlite`.
    public static func defaultPath(environment: Environment) -> String {
        environment.dataHome + "/nudge/nudge.sqlite"
    }

    /// How a command uses the store.
    public enum Access: Sendable {
        /// It writes: the store is created and migrated as needed, and refused when damage
        /// was found in it or a newer Nudge wrote it.
        case readWrite
        /// It only reads: nothing is created, migrated or written, and no write access is
        /// needed. A missing store reads as an empty one.
        case readOnly
    }

    /// The store's path (`nil` for one in memory).
    public let path: String?

    /// Opens the store at `path`. For writing (the default) it is created if needed
    /// (folder 0700, file 0600), put in WAL mode and migrated, with the last good copy
    /// refreshed before a migration; a busy timeout lets the CLI and the daemon write at
    /// once. A damaged file is never overwritten or "repaired": the error names it, a
    /// marker beside it keeps every writer away until it is restored, and `nudge doctor`
    /// says how. A store written by a newer Nudge is read, never written.
    public static func open(path: String, access: Access = .readWrite) throws(StoreError) -> AppDatabase {
        let file = StoreFile(path: path)
        if access == .readOnly { return try openForReading(path) }
        if let damage = file.damage() { throw damagedError(path, damage) }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            // Parents may be missing too (a fresh XDG_DATA_HOME).
            try makeFolders(folder, mode: 0o700)
        } catch {
            throw StoreError(.io, Phrase("cannot create %1$s: %2$s", folder, error.reason))
        }
        do {
            // Created here when missing (0600). An existing file is only checked, never
            // opened: closing any descriptor of it would drop the locks SQLite holds on it
            // for another connection of this process (`nudge ui` keeps one open while the
            // CLI's code opens the store again), and another process would then delete the
            // WAL that connection still writes to.
            if Glibc.access(path, F_OK) != 0 {
                do throws(SystemError) {
                    close(try systemCall("open(\(path))") { Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) })
                } catch where error.code == EEXIST {
                    // Another process made it just now.
                }
            } else {
                try systemCall("access(\(path))") { faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS) }
            }
        } catch {
            if error.code == ENOSPC { throw StoreError(.io, Phrase("disk full: cannot create %s", path)) }
            throw StoreError(.io, Phrase("cannot open %1$s for reading and writing: %2$s", path, error.reason))
        }
        let companions = [path + "-shm", path + "-wal"].filter { !FileManager.default.fileExists(atPath: $0) }
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
            let lock = try? systemCall("open(\(folder))") { Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            defer { if let lock { close(lock) } }
            if let lock { _ = try? systemCall("flock(\(folder))") { flock(lock, LOCK_EX) } }
            let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
            let (settled, newer, hasData) = try queue.read { db in
                let schema = try Self.schemaState(db)
                return (try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" && schema.settled, schema.newer, try db.tableExists("alert"))
            }
            if let newer { throw newerError(path, newer) }
            if settled { return AppDatabase(settledWriter: queue, path: path) }
            // Before a migration changes the file, keep a copy that can be restored.
            if hasData {
                let problems = file.saveLastGood(from: queue)
                if !problems.isEmpty { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: problems.prefix(2).joined(separator: "; ")) }
            }
            try queue.writeWithoutTransaction { db in
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
            }
            return try AppDatabase(queue, path: path)
        } catch {
            // On a full disk a failed open leaves nothing behind that was not there (an
            // -shm it could not fill). Only then: otherwise another process may have just
            // made them, and they are its.
            if StoreError.diskFull(path) { for file in companions { unlink(file) } }
            throw StoreError(error, path: path)
        }
    }

    private static func openForReading(_ path: String) throws(StoreError) -> AppDatabase {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            do { return try AppDatabase.inMemory() } catch { throw StoreError(error, path: path) }
        }
        // One diagnosis everywhere (SQLite would call it a disk I/O error).
        if isFolder.boolValue { throw StoreError(.io, Phrase("cannot open %1$s: %2$s", path, "Is a directory")) }
        do {
            var queue: DatabaseQueue
            let companions = [path + "-shm", path + "-wal"].filter { !FileManager.default.fileExists(atPath: $0) }
            do {
                let plain = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
                try plain.read { db in _ = try Int.fetchOne(db, sql: "PRAGMA schema_version") }
                queue = plain
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY
                || (error.resultCode == .SQLITE_IOERR && StoreError.diskFull(path)) {
                // What the failed attempt created on a full disk (an -shm it could not fill)
                // goes again; a folder nobody may write got nothing new.
                if StoreError.diskFull(path) { for file in companions { unlink(file) } }
                // WAL wants its -shm beside the file, and in a folder this process may not
                // write, with none there, SQLite cannot open it even to read: CANTOPEN on a
                // read-only disk, READONLY_DIRECTORY in a folder that is another's,
                // READONLY_CANTINIT with an -shm left by a writer that stopped. No one is
                // writing such a file, so a private copy reads the same.
                queue = try readPrivateCopy(of: path)
            }
            let (settled, newer) = try queue.read { db in try Self.schemaState(db) }
            // A newer Nudge's store is read while the tables this one knows are there.
            if settled || newer != nil { return AppDatabase(settledWriter: queue, path: path) }
        } catch {
            throw StoreError(error, path: path)
        }
        // An older schema is brought up to date first, which takes a write.
        return try open(path: path, access: .readWrite)
    }

    /// A copy of the store in the temporary folder, opened read-only: the file, and its WAL
    /// when a writer that stopped left one with transactions in it (they are part of the
    /// store; SQLite replays them into a new -shm beside the copy). Without a WAL the copy is
    /// marked for rollback journaling (header bytes 18-19) and needs nothing beside it. The
    /// copies are unlinked once open and vanish when the command ends.
    private static func readPrivateCopy(of path: String) throws -> DatabaseQueue {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A WAL is a 32-byte header, then frames; one with no frame holds nothing.
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))).flatMap { $0.count > 32 ? $0 : nil }
        if wal == nil, bytes.count > 19 { bytes[18] = 1; bytes[19] = 1 }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-read-\(UUID().uuidString).sqlite").path
        defer { for file in [copy, copy + "-wal", copy + "-shm"] { unlink(file) } }
        for (file, contents) in [(copy, bytes), (copy + "-wal", wal)] {
            guard let contents else { continue }
            guard FileManager.default.createFile(atPath: file, contents: contents, attributes: [.posixPermissions: 0o600]) else {
                throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot read \(path) from a folder that cannot be written")
            }
        }
        let queue = try DatabaseQueue(path: copy, configuration: configuration(readonly: true))
        try queue.read { db in _ = try Int.fetchOne(db, sql: "PRAGMA schema_version") }
        return queue
    }

    private static func configuration(readonly: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readonly
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        if !readonly { config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") } }
        return config
    }

    /// How long a command waits for another process's write to end, in seconds.
    static let busyTimeout: TimeInterval = 10

    /// The user version this Nudge writes; a higher one is a newer Nudge's.
    static let userVersion = 0

    /// What says a newer Nudge wrote the store: a migration this one does not know, or a
    /// higher `user_version`; `nil` when none does.
    static func newerWriter(_ db: Database) throws -> String? {
        try schemaState(db).newer
    }

    /// The migrations this Nudge knows, by name: read once (they are named alike in every
    /// zone), not registered again at each opening of the store.
    static let knownMigrations: Set<String> = Set(migrator(logDaysIn: TimeZone(identifier: "UTC")!).migrations)

    /// Whether every migration this Nudge knows ran, and what says a newer Nudge wrote the
    /// store (``newerWriter(_:)``), from one read of the migrations table: each face's key
    /// that opens the store pays for it, and it built the whole migrator twice.
    static func schemaState(_ db: Database) throws -> (settled: Bool, newer: String?) {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard try db.tableExists("grdb_migrations") else {
            return (false, version > userVersion ? "user_version \(version)" : nil)
        }
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        let settled = knownMigrations.isSubset(of: applied)
        if version > userVersion { return (settled, "user_version \(version)") }
        return (settled, applied.first { !knownMigrations.contains($0) }.map { "migration '\($0)'" })
    }

    /// What says a newer Nudge wrote this store (it is then read, never written); `nil`
    /// when none does or it cannot be read.
    public func newerWriter() -> String? {
        (try? readNewerWriter()) ?? nil
    }

    /// ``newerWriter()``, or the error that kept it from being read (another program's
    /// checkpoint as it closed the store, say): no answer, not "no newer Nudge".
    public func readNewerWriter() throws -> String? {
        try writer.read { db in try Self.newerWriter(db) }
    }

    /// What `nudge doctor` says about a store: it is opened read-only (nothing is created
    /// or migrated) and checked with `PRAGMA quick_check`; damage found is marked.
    public struct Health: Sendable {
        /// How many alerts it holds.
        public var alerts: Int
        /// The file's size in bytes (the main file, without the WAL).
        public var bytes: Int
        /// What the check found, or the marker from an earlier finding; empty when sound.
        public var problems: [String]
        /// When the damage was found, if it was found before.
        public var damageFound: Date?
        /// A newer Nudge wrote it: what says so.
        public var newer: String?
        /// Rows that cannot be read, one line each naming the alert and the fix.
        public var unreadable: [String]
        /// The last good copy: when it was made and its size.
        public var lastGood: (modified: Date, bytes: Int)?
        /// Found damaged then (the marker stood), whole now: put right in its place, and
        /// written again from now on (the marker is gone).
        public var putRight: Date?
    }

    /// `PRAGMA integrity_check` of the file at `path`, opened read-only: empty when whole.
    static func integrityProblems(_ path: String) throws -> [String] {
        try openForReading(path).writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" } }
    }

    /// Checks the store at `path` without changing it (but for a marker of damage that no
    /// longer stands); `nil` when there is none yet.
    public static func health(path: String) throws(StoreError) -> Health? {
        var info = stat()
        do {
            try systemCall("stat(\(path))") { stat(path, &info) }
        } catch {
            if error.code == ENOENT { return nil }
            throw StoreError(.io, Phrase("cannot read %1$s: %2$s", path, error.reason))
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw StoreError(.io, Phrase("cannot open %1$s: %2$s", path, "Is a directory")) }
        let file = StoreFile(path: path)
        var health = Health(alerts: 0, bytes: Int(info.st_size), problems: [], damageFound: nil, newer: nil, unreadable: [],
                            lastGood: file.lastGood(), putRight: nil)
        if let damage = file.damage() {
            health.problems = [damage.detail]
            health.damageFound = damage.found
        }
        let problems = try StoreFile.quickCheck(path, mark: health.damageFound == nil)
        if !problems.isEmpty {
            health.problems = problems
            return health
        }
        // Marked damaged and whole now: the file was put right in its place (a good copy
        // copied over it keeps its inode, which the marker names, and nothing would write to
        // it again). Checked in full first: what was found may be what quick_check does not
        // look at (an index that disagrees with its table). Then the marker goes.
        if let found = health.damageFound, file.beginsAsSQLite, (try? integrityProblems(path))?.isEmpty == true, file.removeMarker() {
            (health.problems, health.damageFound, health.putRight) = ([], nil, found)
        }
        guard health.problems.isEmpty else { return health }
        do {
            let store = try openForReading(path)
            var unreadable: [StoreError] = []
            health.alerts = try store.alerts(unreadable: &unreadable).count + unreadable.count
            health.unreadable = unreadable.map(\.message)
            health.newer = try store.writer.read { db in try newerWriter(db) }
        } catch {
            throw StoreError(error, path: path)
        }
        return health
    }
}
