import Foundation
import GRDB

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
        var info = stat()
        let inode = stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        guard let inode, fields["inode"] == String(inode) else {
            unlink(markerPath)
            return nil
        }
        return Damage(found: Date(timeIntervalSince1970: Double(fields["found"] ?? "") ?? 0), detail: fields["detail"] ?? "damaged")
    }

    /// Writes the marker for the file now at the path (best effort: a full disk may refuse,
    /// and then the next command finds the damage again).
    public func markDamaged(_ detail: String, at now: Date = Date()) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let text = "inode=\(info.st_ino)\nfound=\(now.timeIntervalSince1970)\ndetail=\(detail.replacingOccurrences(of: "\n", with: " "))\n"
        let fd = Glibc.open(markerPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = text.withCString { write(fd, $0, strlen($0)) }
        fsync(fd)
        close(fd)
    }

    /// The last good copy's time and size, if there is one.
    public func lastGood() -> (modified: Date, bytes: Int)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: lastGoodPath),
              let modified = attributes[.modificationDate] as? Date else { return nil }
        return (modified, (attributes[.size] as? Int) ?? 0)
    }

    /// The damage `PRAGMA quick_check` finds in a database file, opened read-only; empty
    /// when it is sound. A file that is not a database at all is damage too. Damage is
    /// marked with `mark`; what is not damage (a full disk) is thrown.
    public static func quickCheck(_ path: String, mark: Bool = true) throws(StoreError) -> [String] {
        do {
            return try AppDatabase.open(path: path, access: .readOnly).quickCheck(mark: mark)
        } catch where error.kind == .corrupt {
            return [error.message]
        }
    }

    /// Copies the store into the last good copy, if it passes `quick_check` first (through a
    /// temporary file and a rename, so a crash never leaves half a copy). Returns the
    /// problems when it does not pass (then nothing is copied).
    ///
    /// The copy is the file's bytes, read inside a read transaction that began with the WAL
    /// empty: no checkpoint can then write to the file, so it is one consistent state. (A
    /// second connection for SQLite's backup API left a Dispatch timer waking the daemon
    /// every second; `VACUUM INTO` cost it 10 MB of heap.) With the WAL not empty (a reader
    /// in the way of the checkpoint) nothing is copied, and the next call tries again.
    @discardableResult
    public func saveLastGood(from writer: any DatabaseWriter) -> [String] {
        do {
            let problems = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" } }
            guard problems.isEmpty else { return problems }
            writer.writeWithoutTransaction { db in _ = try? db.checkpoint(.truncate) }
            let temporary = lastGoodPath + ".tmp"
            let copied = try writer.read { db -> Bool in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
                var wal = stat()
                guard stat(path + "-wal", &wal) != 0 || wal.st_size == 0 else { return false }
                unlink(temporary)
                return Self.copyFile(path, to: temporary)
            }
            guard copied else { return [] }
            guard rename(temporary, lastGoodPath) == 0 else {
                unlink(temporary)
                return []
            }
            return []
        } catch {
            return []
        }
    }

    /// Copies a file's bytes into a new file (0600) and syncs it; `false` on any failure.
    private static func copyFile(_ source: String, to target: String) -> Bool {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = Glibc.open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var ok = true
        while ok {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 { if errno == EINTR { continue }; ok = false; break }
            var written = 0
            while written < n {
                let m = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
                if m < 0 { if errno == EINTR { continue }; ok = false; break }
                written += m
            }
        }
        ok = ok && fsync(output) == 0
        close(output)
        if !ok { unlink(target) }
        return ok
    }

    /// Puts the last good copy in the store's place: the damaged file (with its WAL) is
    /// kept aside as `nudge.sqlite.damaged-<time>`, the copy is checked, copied in through
    /// a temporary file and renamed over the path, and the marker goes. A running daemon
    /// sees another file at the path and reopens it. Returns where the old file went.
    public func restoreLastGood(now: Date = Date()) throws(StoreError) -> String? {
        guard FileManager.default.fileExists(atPath: lastGoodPath) else {
            throw StoreError(.io, "there is no last good copy (\(lastGoodPath)): the daemon keeps one once it has run with a sound store")
        }
        let problems = try Self.quickCheck(lastGoodPath, mark: false)
        guard problems.isEmpty else {
            throw StoreError(.corrupt, "the last good copy \(lastGoodPath) is damaged too (\(problems.prefix(2).joined(separator: "; ")))")
        }
        let temporary = path + ".restoring"
        unlink(temporary)
        do {
            try FileManager.default.copyItem(atPath: lastGoodPath, toPath: temporary)
        } catch {
            throw StoreError(.io, "cannot copy \(lastGoodPath) to \(temporary): \(error.localizedDescription)")
        }
        chmod(temporary, 0o600)
        let fd = Glibc.open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        var aside: String?
        if FileManager.default.fileExists(atPath: path) {
            let stamp = ISO8601DateFormatter.string(from: now, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
            let target = path + ".damaged-" + stamp
            guard link(path, target) == 0 || errno == EEXIST else {
                unlink(temporary)
                throw StoreError(.io, "cannot keep the damaged store aside as \(target): \(String(cString: strerror(errno)))")
            }
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                _ = rename(path + suffix, target + suffix)
            }
            aside = target
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StoreError(.io, "cannot put the copy in place of \(path): \(reason)")
        }
        unlink(markerPath)
        return aside
    }
}
