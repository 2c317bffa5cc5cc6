import Foundation
import GRDB
import NudgeCore
import Platform

/// A store failure in terms of what the person can do about it.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// No alert has that id or prefix.
        case notFound
        /// The prefix matches several alerts.
        case ambiguous
        /// The prefix is too short or not hex.
        case badID
        /// The database file is damaged or not a database.
        case corrupt
        /// One row holds a value this Nudge cannot read (the rest of the store is fine).
        case badRow
        /// The file or its folder cannot be read or written.
        case io
    }

    /// The kind of failure.
    public var kind: Kind
    /// One line saying what is wrong and, where it helps, what to do, in any language.
    public var phrase: Phrase
    /// The line in English (logs, the bus).
    public var message: String { phrase.description }

    /// Makes an error.
    public init(_ kind: Kind, _ phrase: Phrase) {
        self.kind = kind
        self.phrase = phrase
    }

    /// The message.
    public var description: String { message }
}

extension StoreError {
    /// A failure from SQLite or the file system while using the store at `path`, in words a
    /// person can act on. Damage (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) also leaves the marker
    /// beside the store, so nothing writes over it until it is restored.
    public init(_ error: any Error, path: String?) {
        let name = path ?? "the store"
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            // TRANSLATORS: the store could not be used; %1$s is its path, %2$s why.
            self.init(.io, Phrase("cannot use %1$s: %2$s", name, "\(error)"))
            return
        }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            if let path, error.resultCode == .SQLITE_CORRUPT || FileManager.default.fileExists(atPath: path) {
                StoreFile(path: path).markDamaged(error.message ?? "\(error.resultCode)")
            }
            // TRANSLATORS: %1$s is the store's path, %2$s SQLite's code.
            self.init(.corrupt, Phrase("%1$s is damaged or not a Nudge database (%2$s); nothing was changed and nothing will be written to it: run `nudge doctor`",
                                       name, "\(error.resultCode)"))
        case .SQLITE_FULL:
            // TRANSLATORS: %s is the store's path.
            self.init(.io, Phrase("disk full: cannot write %s", name))
        case .SQLITE_READONLY:
            self.init(.io, Phrase("cannot write %s: it is read-only", name))
        case .SQLITE_CANTOPEN:
            // TRANSLATORS: %1$s is the store's path, %2$s why (the system's words).
            self.init(.io, Phrase("cannot open %1$s: %2$s", name, Self.reason(path) ?? error.message ?? "unable to open"))
        default:
            if error.resultCode == .SQLITE_IOERR, let path, Self.diskFull(path) {
                self.init(.io, Phrase("disk full: cannot write %s", name))
            } else {
                self.init(.io, Phrase("cannot use %1$s: %2$s", name, error.message ?? "\(error.resultCode)"))
            }
        }
    }

    /// Why a path cannot be opened, from the file system (a folder, no permission).
    private static func reason(_ path: String?) -> String? {
        guard let path else { return nil }
        var info = stat()
        do {
            try systemCall("stat") { stat(path, &info) }
        } catch {
            return error.reason
        }
        if info.st_mode & S_IFMT == S_IFDIR { return "Is a directory" }
        if access(path, R_OK) != 0 { return "Permission denied" }
        return nil
    }

    /// Whether the file system holding `path` has no room left (SQLite reports a write that
    /// ran out of space, or a `-shm` it could not grow, as a plain I/O error).
    static func diskFull(_ path: String) -> Bool {
        var info = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(folder, &info) == 0 else { return false }
        return info.f_bavail * UInt(info.f_frsize) < 64 * 1024
    }
}
