import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GRDB
import NudgeCore
import Platform

/// The files beside a store that keep it safe: the damage marker and the last good copy.
///
/// Once damage is found (by `nudge doctor`, the daemon's start-up check, or any command
/// that meets `SQLITE_CORRUPT`), a marker `nudge.sqlite.damaged` is written beside the
/// store, naming the damaged file by its inode. While it stands, nothing writes to that
/// file: the damage is never written over. Putting another file in its place (restoring
/// the last good copy, or by hand) makes the marker stale, and it goes.
public struct StoreFile: Sendable {
    /// The store's path.
    public let path: String

    /// Wraps a store's path.
    public init(path: String) { self.path = path }

    /// `nudge.sqlite.damaged`.
    public var markerPath: String { path + ".damaged" }
    /// `nudge.sqlite.last-good`: an online-backup copy that passed `quick_check`.
    public var lastGoodPath: String { path + ".last-good" }

    /// What the marker says.
    public struct Damage: Sendable, Hashable {
        /// When it was found.
        public var found: Date
        /// Who found it and what was wrong, in a few words.
        public var detail: String
    }

    /// The damage found in the file now at the path; `nil` when there is no marker or it
    /// names another file (the store was replaced since: the marker is removed).
    public func damage() -> Damage? {
        guard let text = try? String(contentsOfFile: markerPath, encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        // A marker that names no file is not judged (one written by hand, or cut short
        // by a full disk): it is not this file's damage, and it is not removed either.
        guard let named = fields["inode"] else { return nil }
        var info = stat()
        let inode = stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        guard let inode, named == String(inode) else {
            unlink(markerPath)
            return nil
        }
        return Damage(found: Date(timeIntervalSince1970: Double(fields["found"] ?? "") ?? 0), detail: fields["detail"] ?? "damaged")
    }

    /// Whether the file at the path begins as an SQLite database does (an empty or missing
    /// one is not judged): a file written over by something else does not, and is damaged
    /// before anyone has marked it (one open, one read of 16 bytes).
    public var beginsAsSQLite: Bool {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let read = pread(fd, &header, 16, 0)
        return read <= 0 || header == Array("SQLite format 3\0".utf8)
    }

    /// Writes the marker for the file now at the path (best effort: a full disk may refuse,
    /// and then the next command finds the damage again).
    /// A marker already there for this file is kept: its finding came first, and says
    /// best what happened (a command that met the damage later says less).
    public func markDamaged(_ detail: String, at now: Date = Date()) {
        var info = stat()
        guard stat(path, &info) == 0, damage() == nil else { return }
        let text = "inode=\(info.st_ino)\nfound=\(now.timeIntervalSince1970)\ndetail=\(detail.replacingOccurrences(of: "\n", with: " "))\n"
        // Whole or not at all, through a temporary file and a rename: every follower reads
        // the marker as soon as it appears, and one read before the text was in took an
        // empty marker for a stale one and removed it (a write let through to the damage).
        // Best effort: a marker that cannot be written leaves the damage to be found again.
        let temporary = markerPath + ".tmp-\(getpid())"
        guard let fd = try? systemCall("open(\(temporary))", { Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }) else { return }
        let written = (try? writeAll(fd, Array(text.utf8))) != nil && fsync(fd) == 0
        close(fd)
        guard written, rename(temporary, markerPath) == 0 else {
            unlink(temporary)
            return
        }
    }

    /// Removes the marker (the file it names was put right in its place); whether it went.
    @discardableResult
    public func removeMarker() -> Bool { unlink(markerPath) == 0 }

    /// The last good copy's time and size, if there is one.
    /// One stat(2): the daemon asks after every write, and FileManager's attributes
    /// would read the password and group files for the owner's names each time.
    public func lastGood() -> (modified: Date, bytes: Int)? {
        var info = stat()
        guard stat(lastGoodPath, &info) == 0 else { return nil }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        return (modified, Int(info.st_size))
    }

    /// The damage `PRAGMA quick_check` finds in a database file, opened read-only; empty
    /// when it is sound. A file that is not a database at all is damage too. Damage is
    /// marked with `mark`; what is not damage (a full disk) is thrown.
    public static func quickCheck(_ path: String, mark: Bool = true) throws(StoreError) -> [String] {
        do {
            return try AppDatabase.open(path: path, access: .readOnly).quickCheck(mark: mark)
        } catch where error.kind == .corrupt {
            // What was found, as the marker keeps it (the error's own sentence would say
            // "run `nudge doctor`" inside nudge doctor).
            return [StoreFile(path: path).damage()?.detail ?? "it cannot be opened as a database"]
        }
    }

    /// Copies the store into the last good copy with `VACUUM INTO` (a consistent online
    /// copy through the connection already open), if it passes `quick_check` first, through
    /// a temporary file and a rename so a crash never leaves half a copy. Returns the
    /// problems when it does not pass (then nothing is copied).
    ///
    /// Not SQLite's backup API through a second GRDB connection (it left a Dispatch timer
    /// waking the daemon every second), and never the file's bytes through a descriptor of
    /// our own: closing any descriptor of the file drops this process's POSIX locks on it,
    /// and another process then takes itself for the last one and deletes the WAL.
    @discardableResult
    public func saveLastGood(from writer: any DatabaseWriter, checked: Bool = false) -> [String] {
        do {
            if !checked {
                let problems = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" } }
                guard problems.isEmpty else { return problems }
            }
            let temporary = lastGoodPath + ".tmp"
            unlink(temporary)
            try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [temporary]) }
            chmod(temporary, 0o600)
            try syncFile(temporary)
            try systemCall("rename(\(temporary))") { rename(temporary, lastGoodPath) }
            return []
        } catch {
            unlink(lastGoodPath + ".tmp")
            return []
        }
    }

    /// Puts the last good copy in the store's place: the damaged file (with its WAL) is
    /// kept aside as `nudge.sqlite.damaged-<time>`, the copy is checked, copied in through
    /// a temporary file and renamed over the path, and the marker goes. A running daemon
    /// sees another file at the path and reopens it. Returns where the old file went.
    /// The reminders in the last good copy, read without writing beside it (what a restore
    /// would bring back, for a face to compare with what it showed).
    public func lastGoodAlerts() throws(StoreError) -> [Alert] {
        guard FileManager.default.fileExists(atPath: lastGoodPath) else {
            throw StoreError(.io, Phrase("there is no last good copy (%s): the daemon keeps one once it has run with a sound store", lastGoodPath))
        }
        // Read from a private copy, brought up to date as a restore would: the copy may be
        // older than this Nudge's schema, and nothing is written beside it.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-last-good-\(UUID().uuidString).sqlite").path
        defer { for file in [copy, copy + "-wal", copy + "-shm"] { unlink(file) } }
        do {
            try FileManager.default.copyItem(atPath: lastGoodPath, toPath: copy)
            chmod(copy, 0o600)
            return try AppDatabase(DatabaseQueue(path: copy)).alerts()
        } catch {
            throw StoreError(.corrupt, Phrase("the last good copy %1$s cannot be read (%2$s)", lastGoodPath, "\(error)"))
        }
    }

    /// Puts the last good copy in the store's place (see above); with `keeping`, the copy is
    /// first made to hold exactly those reminders (what a face showed before the trouble):
    /// the ones not in it added, the ones changed since put as they were shown, the ones
    /// deleted since deleted again, each as it would be counted from now.
    public func restoreLastGood(now: Date = Date(), keeping: [Alert]? = nil) throws(StoreError) -> String? {
        guard FileManager.default.fileExists(atPath: lastGoodPath) else {
            throw StoreError(.io, Phrase("there is no last good copy (%s): the daemon keeps one once it has run with a sound store", lastGoodPath))
        }
        let problems = try Self.quickCheck(lastGoodPath, mark: false)
        guard problems.isEmpty else {
            throw StoreError(.corrupt, Phrase("the last good copy %1$s is damaged too (%2$s)", lastGoodPath, problems.prefix(2).joined(separator: "; ")))
        }
        let temporary = path + ".restoring"
        unlink(temporary)
        do {
            try FileManager.default.copyItem(atPath: lastGoodPath, toPath: temporary)
        } catch {
            throw StoreError(.io, Phrase("cannot copy %1$s to %2$s: %3$s", lastGoodPath, temporary, error.localizedDescription))
        }
        chmod(temporary, 0o600)
        do {
            // Counted from now (``AppDatabase/countFromNow(_:)``), let go (its log emptied
            // into it) before it is renamed into place.
            let copy = try AppDatabase(DatabaseQueue(path: temporary), path: temporary)
            if let keeping {
                let kept = Set(keeping.map(\.id))
                let held = Dictionary(try copy.alerts().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                try copy.delete(held.keys.filter { !kept.contains($0) })
                try copy.save(keeping.filter { held[$0.id] != $0 })
            }
            try copy.countFromNow(now)
        } catch {
            unlink(temporary)
            for suffix in ["-wal", "-shm"] { unlink(temporary + suffix) }
            throw StoreError(.io, Phrase("cannot write %1$s: %2$s", temporary, "\(error)"))
        }
        do {
            try syncFile(temporary)
        } catch {
            unlink(temporary)
            throw StoreError(.io, Phrase("cannot write %1$s: %2$s", temporary, error.reason))
        }
        var aside: String?
        if FileManager.default.fileExists(atPath: path) {
            let stamp = ISO8601DateFormatter.string(from: now, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
            let target = path + ".damaged-" + stamp
            do {
                try systemCall("link(\(target))") { link(path, target) }
            } catch where error.code != EEXIST {
                unlink(temporary)
                throw StoreError(.io, Phrase("cannot keep the damaged store aside as %1$s: %2$s", target, error.reason))
            } catch {}
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                _ = rename(path + suffix, target + suffix)
            }
            aside = target
        }
        do {
            try systemCall("rename(\(temporary))") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw StoreError(.io, Phrase("cannot put the copy in place of %1$s: %2$s", path, error.reason))
        }
        unlink(markerPath)
        return aside
    }
}
