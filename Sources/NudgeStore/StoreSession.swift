import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NudgeCore
import Platform

/// The store as a long-lived face holds it (`nudge ui`; the daemon and the window alike):
/// open across many reads and writes, and following the path when another file is put in
/// its place — a backup restored, a sync tool's rename — or when the file is removed.
///
/// Two rules keep a file renamed over the open one intact. The log beside the path
/// (`-wal`, `-shm`) is kept empty while nothing is being written (``settle()``, and every
/// store opened for writing empties it when it goes), so the new file never meets pages of
/// the old one. And the old store is let go without a checkpoint *before* the new one is
/// opened (``AppDatabase/abandon()``): a checkpoint would copy the new file's pages into
/// the old one, and a second connection of this process would lose its locks when the
/// first closed the shared files.
public final class StoreSession {
    /// The store's path.
    public let path: String
    private var open: AppDatabase?
    private var openFile: FileIdentity?

    /// The open file, read for its first bytes at each use (see ``store()``): held while the
    /// path names that file and closed only once it names another, since closing any
    /// descriptor of a file drops the locks SQLite holds on it for this process.
    private var headerFD: Int32 = -1
    private var headerFile: FileIdentity?

    /// A session on the store at `path`; nothing is opened until asked for.
    public init(path: String) { self.path = path }

    deinit {
        release()
        if headerFD >= 0 { close(headerFD) }
    }

    /// Whether the file at the path still begins as an SQLite database does. Written over
    /// by something else (garbage, another program's file) it is damaged whatever the open
    /// connection holds in memory, and SQLite would not see it: in WAL mode it never reads
    /// the first page again while nobody else commits (the daemon looks the same way).
    private func headerIsSQLite(_ file: FileIdentity?) -> Bool {
        guard let file else { return true }
        if headerFile != file {
            if headerFD >= 0 { close(headerFD) }
            headerFD = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            headerFile = headerFD >= 0 ? FileIdentity(path: path) : nil
            // Replaced again between the two looks: asked next time.
            guard headerFile == file else { return true }
        }
        var header = [UInt8](repeating: 0, count: 16)
        let read = pread(headerFD, &header, 16, 0)
        // An empty file is one being made; anything else must begin so.
        return read <= 0 || header == Array("SQLite format 3\0".utf8)
    }

    /// Has `watcher` report writes to the store and its log, and files renamed over or
    /// removed from it: the folder is watched, not the file, so a file replaced by rename
    /// is seen too. Called again when the folder was made anew.
    /// The store counts when written, made, removed or renamed over; its log only when
    /// written: SQLite makes and removes the log as connections come and go, and a face that
    /// opens the store for each use would wake itself by doing so (`nudge ui` reread its
    /// store every 30 ms, forever). Closing either after writing counts for nothing either.
    /// The damage marker counts when made or written: whoever found the damage, every
    /// follower stops writing and says so at once (see ``StoreFile/damage()``).
    public static func watch(_ path: String, with watcher: FileWatcher) throws(SystemError) {
        let name = (path as NSString).lastPathComponent
        let marker = (StoreFile(path: path).markerPath as NSString).lastPathComponent
        try watcher.watch(folder: (path as NSString).deletingLastPathComponent,
                          events: [name: [.written, .replaced], name + "-wal": .written, marker: [.written, .replaced]])
    }

    /// Whether the path names no file now (the person removed the store).
    public var isRemoved: Bool { FileIdentity(path: path) == nil }

    /// The store the path names now, opened for writing (made when there is none). The
    /// one open is kept while the path still names it; otherwise it is let go first.
    /// A store that can be read but not written (the file, or its folder, made read-only)
    /// is opened for reading, and ``readOnly`` says why it could not be opened for writing:
    /// the person still sees their reminders, and a write to it is refused by SQLite. Once
    /// it can be written again, the next call opens it for writing (and one open for
    /// writing that can no longer be written is opened again for reading).
    public func store() throws(StoreError) -> AppDatabase {
        let file = FileIdentity(path: path)
        // Written over under an open store: marked as damaged, as the daemon does.
        if open != nil, file == openFile, !headerIsSQLite(file) {
            StoreFile(path: path).markDamaged("its first bytes are not an SQLite database's: overwritten")
        }
        // Damage seen by anyone (the marker beside the file): the store is let go without
        // a checkpoint into it, and nothing is written to that file again (issue 52).
        if file != nil, let damage = StoreFile(path: path).damage() {
            open?.abandon()
            (open, openFile, readOnly) = (nil, nil, nil)
            throw AppDatabase.damagedError(path, damage)
        }
        let unwritable = file != nil && !Self.canWrite(path)
        if let open, let openFile, file == openFile, (readOnly != nil) == unwritable { return open }
        release()
        let opened: AppDatabase
        do {
            opened = try AppDatabase.open(path: path)
        } catch where unwritable {
            opened = try AppDatabase.open(path: path, access: .readOnly)
            readOnly = Self.writeRefusal(path) ?? error
        }
        (open, openFile) = (opened, FileIdentity(path: path))
        return opened
    }

    /// Why the open store could not be opened for writing, while it is open only for
    /// reading (see ``store()``); `nil` otherwise.
    public private(set) var readOnly: StoreError?

    /// Whether this process may write the store at `path` now: the file, and its folder
    /// where SQLite must make the log beside it (`-wal`, `-shm`) that is not there.
    public static func canWrite(_ path: String) -> Bool { writeRefusal(path) == nil }

    /// Why this process may not write the store at `path` now, naming the file or the
    /// folder and the system's reason (SQLite says only "unable to open database file" of
    /// a folder where it cannot make the log); `nil` when it may.
    public static func writeRefusal(_ path: String) -> StoreError? {
        func refusal(_ name: String) -> StoreError? {
            guard faccessat(AT_FDCWD, name, W_OK, AT_EACCESS) != 0 else { return nil }
            let reason = String(cString: strerror(errno))
            // TRANSLATORS: %1$s is a path (the store's file or its folder), %2$s why it cannot be written.
            return StoreError(.io, Phrase("cannot write %1$s: %2$s", name, reason))
        }
        if let file = refusal(path) { return file }
        let companions = [path + "-wal", path + "-shm"]
        if companions.allSatisfy({ faccessat(AT_FDCWD, $0, W_OK, AT_EACCESS) == 0 }) { return nil }
        return refusal((path as NSString).deletingLastPathComponent)
    }

    /// The file the open store is (`nil` while none is open): a face that reads only what
    /// changed since its last read reads everything again when this is another file.
    public var identity: FileIdentity? { openFile }

    /// Whether a store is open and the path names another file or none: the next
    /// ``store()`` opens the new one.
    public var isStale: Bool {
        guard open != nil else { return false }
        return FileIdentity(path: path) != openFile
    }

    /// Lets the open store go: with its log emptied into it while the path still names it,
    /// untouched when the path names another file (see ``AppDatabase/abandon()``).
    public func release() {
        readOnly = nil
        guard let store = open else { return }
        if FileIdentity(path: path) != openFile { store.abandon() }
        open = nil
        openFile = nil
    }

    /// Empties the log into the file, without waiting (see ``AppDatabase/checkpoint()``):
    /// called once others' changes are read and after this face's own writes, so the file
    /// alone is the whole store while nothing is written.
    /// An empty log is left alone: emptying it again would touch the file, and a face that
    /// watches the folder would wake for its own checkpoint.
    @discardableResult
    public func settle() -> Bool {
        guard let open, !isStale else { return false }
        var info = stat()
        guard stat(path + "-wal", &info) == 0, info.st_size > 0 else { return true }
        return open.checkpoint()
    }
}
