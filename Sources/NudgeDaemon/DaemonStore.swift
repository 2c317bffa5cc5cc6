import Foundation
import Logging
import NudgeCore
import NudgeStore
import Platform

/// The store as the daemon holds it, for the whole session: opened and checked
/// (`quick_check`) in one place, read whole, its log emptied once written, checked again
/// once a day, and followed when another file is put at its path (a backup restored, a
/// sync tool's rename) or the file is removed. What to do with the alerts read is the
/// daemon's business; this says what happened to the file.
final class DaemonStore {
    /// Why a store could not be taken into use.
    enum OpenFailure: Error {
        /// It could not be opened.
        case open(StoreError)
        /// It could not be checked.
        case check(StoreError)
        /// `quick_check` found damage (its first lines).
        case damaged([String])
    }

    /// What a look at the store's path found.
    enum Change {
        /// The same file, with no commit of another process since the last look.
        case unchanged
        /// The same file, changed by another process: what changed since the last read (the
        /// whole store when that could not be told: ``AlertChanges/isWhole``), and the ids of
        /// the alerts held that are gone from it or cannot be read any more.
        case changed(AlertChanges, removed: Set<UUID>)
        /// Another file at the path, opened and read: every alert it holds.
        case replaced([Alert])
        /// No file at the path any more (the person removed the store): nothing to fire.
        case gone
        /// Nothing new to use (no file yet, a damaged one, one half made): what was read
        /// goes on; the next change to the folder looks again.
        case waiting
    }

    let path: String
    private let log: Logger
    /// The open store; `nil` while the path names no file or a damaged one, or after damage
    /// was found: nothing is written until another file is put in its place.
    private var opened: AppDatabase? {
        didSet {
            // The header is read through a descriptor held as long as the store is: closing
            // a descriptor of the file drops every POSIX lock this process holds on it,
            // SQLite's included, and another process would then take itself for the last
            // one and delete the log. Closed only once SQLite has let the file go too.
            guard opened !== oldValue else { return }
            if headerFD >= 0 { close(headerFD) }
            headerFD = opened == nil ? -1 : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        }
    }
    private var headerFD: Int32 = -1

    /// The open store; `nil` while the path names no file or a damaged one, or once damage
    /// was seen, by this daemon or by anyone: the marker another process wrote (a face, a
    /// command, `nudge doctor`) is looked for at each use, and nothing is written to that
    /// file again until another is put in its place. The daemon wrote on into a store
    /// overwritten with garbage while the window said nothing was saved to it (issue 52).
    var store: AppDatabase? {
        guard let opened else { return nil }
        if let damage = StoreFile(path: path).damage() {
            stopWriting("the store \(path) was found damaged (\(damage.detail))")
            return nil
        }
        return opened
    }

    /// Damage seen: the store is let go (without touching the file: no checkpoint into
    /// it) and reminders go on from memory.
    private func stopWriting(_ why: String) {
        log.critical("\(why); writing stopped, reminders go on from memory: run `nudge doctor`")
        opened?.abandon()
        opened = nil
    }

    /// Whether the open file still begins as an SQLite database does: written over by
    /// something else (garbage, another program's file) it is damaged, whatever the
    /// daemon's connection still holds in memory, and SQLite would not see it: in WAL mode
    /// it never reads the file's first page again while nobody else commits, and its
    /// checkpoints write into it blindly. Sixteen bytes, read at each look.
    private func headerIsSQLite() -> Bool {
        guard headerFD >= 0 else { return true }
        var header = [UInt8](repeating: 0, count: 16)
        let read = pread(headerFD, &header, 16, 0)
        // An empty file is one being made; anything else must begin so.
        return read == 0 || header == Array("SQLite format 3\0".utf8)
    }
    private var file: FileIdentity?
    private var version: Int
    /// Something was written or read in since the log was last emptied.
    private var written = false
    /// What the last read left (the change count, the file, the schedules parsed), as each
    /// face's feed has one: a change elsewhere is read as the rows it changed.
    private let follower = StoreFollower(keepsSchedules: false)
    /// Rows that could not be read at the last read, by their stored id: they count among
    /// the rows known (see ``AppDatabase/alertChanges(since:known:knownCount:parsed:)``).
    private var unreadable: Set<String> = []

    /// How old the last good copy may grow before the daemon makes a new one.
    static let lastGoodAge: TimeInterval = 86400

    /// The last good copy follows the person's changes (a face's, a command's, another
    /// file's), not only the day: restoring a copy a day old lost what was added since and
    /// brought back what was removed (issue 52). A change is copied this long after the
    /// last of a burst (an import of a hundred is one copy).
    static let copyAfterChange: Double = 1
    /// And never sooner after the last copy than this many times what that copy took: a
    /// copy of a few hundred reminders takes milliseconds and follows within a second; one
    /// of 100,000 takes about a second and is made at most every 100 s, so copying never
    /// takes more than 1 % of the daemon's time.
    static let copyBudget: Double = 100
    /// A stream of changes is copied at the latest this long after its first.
    static let copyAtLatest: Double = 10
    /// When the first and the last of the changes not yet in the last good copy were seen
    /// (monotonic seconds); `nil` when the copy holds them all.
    private var uncopied: (first: Double, last: Double)?
    private var lastCopy = (ended: -Double.infinity, took: 0.0)

    /// Another process changed the store (or another file is there now): the last good
    /// copy is made again (``copyDeadline``).
    func changedElsewhere(now: Double = monotonicSeconds()) {
        uncopied = (uncopied?.first ?? now, now)
    }

    /// When the last good copy is to be made again (monotonic seconds), `nil` when it holds
    /// every change.
    var copyDeadline: Double? {
        guard let uncopied, store != nil else { return nil }
        let settled = min(uncopied.last + Self.copyAfterChange, uncopied.first + Self.copyAtLatest)
        return max(settled, lastCopy.ended + lastCopy.took * Self.copyBudget)
    }

    /// Makes the last good copy now, after `quick_check`; damage found stops writing, as
    /// the daily check's does. Returns whether a copy was made.
    @discardableResult
    func copyLastGood() -> Bool {
        guard let store else { return false }
        let start = monotonicSeconds()
        guard let problems = store.refreshLastGood(olderThan: 0) else { return false }
        let end = monotonicSeconds()
        lastCopy = (end, end - start)
        uncopied = nil
        if problems.isEmpty {
            log.info("made the last good copy in \(String(format: "%.1f", lastCopy.took * 1000)) ms")
            return true
        }
        log.critical("the store \(path) failed its check (\(problems.prefix(2).joined(separator: "; "))); writing stopped: run `nudge doctor`")
        opened = nil
        return false
    }

    /// Opens and checks the store at `path`.
    init(path: String, log: Logger) throws(OpenFailure) {
        (self.path, self.log) = (path, log)
        let opened = try Self.open(path)
        // Checked just now: the copy, when due, needs no second pass over the store.
        opened.refreshLastGood(olderThan: Self.lastGoodAge, checked: true)
        self.opened = opened
        // (An initializer's own assignment runs no observer.)
        headerFD = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        file = FileIdentity(path: path)
        version = (try? opened.externalChanges()) ?? 0
    }

    /// The store at `path`, opened and found sound.
    private static func open(_ path: String) throws(OpenFailure) -> AppDatabase {
        let opened: AppDatabase
        do { opened = try AppDatabase.open(path: path) } catch { throw .open(error) }
        let problems: [String]
        do { problems = try opened.quickCheck() } catch { throw .check(error) }
        guard problems.isEmpty else { throw .damaged(Array(problems.prefix(2))) }
        return opened
    }

    /// Every alert the store holds that can be read, and their states, in one read; each
    /// row that cannot be read is logged.
    func whole() throws -> (alerts: [Alert], states: [UUID: AlertState]) {
        guard let store else { return ([], [:]) }
        follower.forget()
        let changes = try read(store, known: { _ in false }, knownCount: 0)
        return (changes.alerts, changes.states)
    }

    /// Every alert the store holds that can be read; each row that cannot is logged.
    func alerts() throws -> [Alert] { try whole().alerts }

    /// Reads what changed since the last read and takes it in; logs the rows that cannot
    /// be read.
    private func read(_ store: AppDatabase, known: (String) -> Bool, knownCount: Int) throws -> AlertChanges {
        let identity = FileIdentity(path: path)
        let changes = try follower.changes(in: store, file: identity, known: { unreadable.contains($0) || known($0) },
                                           knownCount: knownCount + unreadable.count)
        follower.took(changes, of: identity)
        if changes.isWhole { unreadable = [] }
        for (id, error) in changes.unreadable {
            unreadable.insert(id)
            log.error("\(error.message)")
        }
        if !unreadable.isEmpty { for alert in changes.alerts { unreadable.remove(alert.id.hex) } }
        if let ids = changes.ids { unreadable.formIntersection(ids) }
        written = true
        return changes
    }

    /// Looks at the path: the same file changed by another process (always read when
    /// `force`), another file, or none. `held` are the ids of the alerts the daemon holds:
    /// what changed is read against them. Errors reading are handled here
    /// (``failed(_:doing:)``).
    func look(force: Bool, holds: (UUID) -> Bool, heldCount: Int, held: () -> [UUID]) -> Change {
        if FileIdentity(path: path) != file { return reopen() }
        if opened != nil, !headerIsSQLite() {
            let detail = "its first bytes are not an SQLite database's: overwritten"
            StoreFile(path: path).markDamaged(detail)
            stopWriting("the store \(path) is damaged (\(detail))")
            return .waiting
        }
        guard let store else { return .waiting }
        do {
            let now = try store.externalChanges()
            guard force || now != version else { return .unchanged }
            version = now
            // Asked of the changed rows alone: nothing is done for each of 100,000 held.
            let changes = try read(store, known: { UUID(hex: $0).map(holds) ?? false }, knownCount: heldCount)
            guard !changes.isWhole else { return .changed(changes, removed: []) }
            // Gone from the store, or changed into a row that cannot be read.
            var removed = Set(changes.unreadable.compactMap { UUID(hex: $0.id) })
            if let stored = changes.ids { removed.formUnion(held().filter { !stored.contains($0.hex) }) }
            return .changed(changes, removed: removed)
        } catch {
            failed(error, doing: "read")
            return .waiting
        }
    }

    /// The path names another file, or none. The old store goes before the new one opens,
    /// without a checkpoint (see `StoreSession`): what the log beside the path holds may be
    /// the new file's by now.
    private func reopen() -> Change {
        let identity = FileIdentity(path: path)
        guard identity != nil else {
            guard opened != nil || file != nil else { return .waiting }
            log.warning("the store \(path) was removed; no reminders until a new one is there")
            self.opened?.abandon()
            (self.opened, file) = (nil, nil)
            return .gone
        }
        self.opened?.abandon()
        self.opened = nil
        let opened: AppDatabase
        do {
            opened = try Self.open(path)
        } catch .damaged(let problems) {
            // Reminders go on from memory; another file put in its place is looked at.
            log.critical("the store \(path) that replaced the old one is damaged (\(problems.joined(separator: "; "))); not using it")
            file = identity
            return .waiting
        } catch {
            return cannotOpen(error.reason)
        }
        self.opened = opened
        do {
            let alerts = try self.alerts()
            version = try opened.externalChanges()
            file = FileIdentity(path: path)
            log.info("the store \(path) is another file now; reopened it: \(alerts.count) alert\(alerts.count == 1 ? "" : "s")")
            return .replaced(alerts)
        } catch {
            return cannotOpen(StoreError(error, path: path).message)
        }
    }

    /// Perhaps caught half-made (another process is creating it): the next change to the
    /// folder tries again.
    private func cannotOpen(_ reason: String) -> Change {
        log.error("cannot open the store \(path) that replaced the old one: \(reason); will try again when it changes")
        (opened, file) = (nil, nil)
        return .waiting
    }

    /// A store error at run time. Damage stops every write (the marker says so to every
    /// other command too) until another file is put in its place; reminders keep firing
    /// from memory meanwhile. Anything else is retried with the next write.
    func failed(_ error: any Error, doing what: String) {
        let failure = StoreError(error, path: path)
        guard failure.kind == .corrupt else {
            log.error("cannot \(what) the store \(path): \(failure.message); will retry")
            return
        }
        log.critical("\(failure.message); writing stopped, reminders go on from memory")
        opened = nil
    }

    /// Something was written: the log is emptied on the loop's next turn.
    func wrote() { written = true }

    /// On the loop's turn, after writing: the log emptied into the file, and, once a day,
    /// the store checked and its last good copy made. Returns whether that copy was made
    /// (the pages it read can go back).
    func settle() -> Bool {
        guard written, let store, store.checkpoint() else { return false }
        written = false
        // When the loop is awake anyway: never a wake-up of its own.
        guard let problems = store.refreshLastGood(olderThan: Self.lastGoodAge) else { return false }
        if problems.isEmpty { return true }
        log.critical("the store \(path) failed its daily check (\(problems.prefix(2).joined(separator: "; "))); writing stopped: run `nudge doctor`")
        opened = nil
        return false
    }
}

extension DaemonStore.OpenFailure {
    /// Why, in a few words.
    var reason: String {
        switch self {
        case .open(let error), .check(let error): error.message
        case .damaged(let problems): "damaged (\(problems.joined(separator: "; ")))"
        }
    }

    /// One line for a daemon that cannot start with the store at `path`.
    func message(_ path: String) -> String {
        switch self {
        case .open(let error): "cannot open the store \(path): \(error.message)"
        case .check(let error): "cannot check the store \(path): \(error.message)"
        case .damaged(let problems):
            "the store \(path) is damaged (\(problems.joined(separator: "; "))); nothing was changed: run `nudge doctor` to restore it"
        }
    }
}
