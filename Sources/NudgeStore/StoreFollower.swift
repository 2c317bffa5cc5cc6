import Foundation
import NudgeCore
import Platform

/// What a long-lived process knows of the store it follows, between reads: the store's
/// change count and the file it last read at, and the schedules it parsed by their stored
/// text. The daemon and the faces follow the store through one of these each, so both read
/// only the alerts changed since their last read (migration v9's change count), and both
/// read everything again when the path names another file (a backup restored, a rename).
public final class StoreFollower {
    private var count: Int?
    private var file: FileIdentity?
    /// nil: keeps none.
    private var parsed: [String: Schedule]?

    /// A follower that has read nothing: its first read is whole. `keepsSchedules`: the
    /// schedules parsed are kept by their text, so a whole read again parses only new ones
    /// (a face, which reads its whole store again when it is replaced); the daemon, which
    /// holds 100,000 alerts in the least memory it can, keeps none.
    public init(keepsSchedules: Bool = true) { parsed = keepsSchedules ? [:] : nil }

    /// What changed in `store` (the file `file`) since the last read taken in
    /// (``took(_:of:)``): everything, when that read was of another file or there was none.
    /// `known` says whether a stored id was there at the last read, `knownCount` how many
    /// there were (see ``AppDatabase/alertChanges(since:known:knownCount:parsed:)``).
    /// Nothing is taken in yet: a caller whose own reading fails after this reads the same
    /// changes again next time.
    public func changes(in store: AppDatabase, file: FileIdentity?, known: (String) -> Bool, knownCount: Int) throws -> AlertChanges {
        let since = file == self.file ? count : nil
        return try store.alertChanges(since: since, known: known, knownCount: knownCount, parsed: &parsed)
    }

    /// The changes read from `file` are taken in: the next read starts after them.
    public func took(_ changes: AlertChanges, of file: FileIdentity?) {
        (count, self.file) = (changes.count, file)
    }

    /// Forgets the last read: the next is whole.
    public func forget() {
        (count, file) = (nil, nil)
    }
}
