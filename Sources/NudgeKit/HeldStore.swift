import NudgeStore
import Platform

/// The store the operations act on, held by the ``World`` that carries it, so that no
/// operation opens one itself: the command line's is opened at its first use and kept for
/// the command (opened again only when another file was put at the path), and a face's is
/// the session its feed follows the file with (``AlertFeed/world``), so a change made in
/// the window or `nudge ui` goes through the one connection the face reads with. A test
/// gives its own path, or a store of its own (``init(_:)``).
///
/// Used on one thread: the command's, or the face's loop (as ``DaemonChannel``).
public final class HeldStore: @unchecked Sendable {
    /// The store's file.
    public let path: String
    private let source: Source

    private enum Source {
        /// Opened here when first asked for: for writing, and for reading apart (a command
        /// that only reads creates nothing and needs no write access).
        case path
        /// A face's: its feed's session (``AlertFeed/store()``), which lets it go after use.
        case face(() throws(OperationError) -> AppDatabase)
        /// One given, and kept (a test's).
        case given(AppDatabase)
    }

    private var writing: (store: AppDatabase, file: FileIdentity?)?
    private var reading: (store: AppDatabase, file: FileIdentity?)?

    /// The store at `path`, opened when first asked for.
    public init(path: String) {
        self.path = path
        source = .path
    }

    /// A face's store, reached through `open` (its feed's session).
    public init(path: String, face open: @escaping () throws(OperationError) -> AppDatabase) {
        self.path = path
        source = .face(open)
    }

    /// A store already open, for every use (a test's, in memory or on disk).
    public init(_ store: AppDatabase, path: String) {
        self.path = path
        source = .given(store)
    }

    /// The store, for an operation that writes: made when there is none.
    public func forWriting() throws(OperationError) -> AppDatabase {
        switch source {
        case .given(let store): return store
        case .face(let open):
            // Held open, so checked as an opening would check it: written by a newer Nudge
            // since the face opened it, it is read, never written. (Damage is the
            // session's own check.)
            let store = try open()
            if let newer = store.newerWriter() { throw OperationError(AppDatabase.newerError(path, newer)) }
            return store
        case .path:
            let file = FileIdentity(path: path)
            if let writing, file != nil, writing.file == file { return writing.store }
            let store: AppDatabase
            do { store = try AppDatabase.open(path: path) } catch { throw OperationError(error) }
            writing = (store, FileIdentity(path: path))
            return store
        }
    }

    /// The store, for an operation that only reads: nothing is created, and no write
    /// access is needed (a face reads through its session, which it holds already).
    public func forReading() throws(OperationError) -> AppDatabase {
        switch source {
        case .given(let store): return store
        case .face(let open):
            // A face whose store was removed reads nothing rather than making an empty one.
            guard FileIdentity(path: path) != nil else { return try Self.openForReading(path) }
            return try open()
        case .path:
            let file = FileIdentity(path: path)
            if let writing, file != nil, writing.file == file { return writing.store }
            if let reading, file != nil, reading.file == file { return reading.store }
            let store = try Self.openForReading(path)
            reading = (store, file)
            return store
        }
    }

    private static func openForReading(_ path: String) throws(OperationError) -> AppDatabase {
        do { return try AppDatabase.open(path: path, access: .readOnly) } catch { throw OperationError(error) }
    }
}
