#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Changes to named files in folders (inotify): the store's files, `/etc/localtime`.
public final class FileWatcher {
    public let fd: Int32
    /// Each watched folder, and the events that count for each of its names.
    private var folders: [Int32: (path: String, names: [String: Events])] = [:]

    /// What happening to a file counts as its change.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Written (IN_MODIFY).
        public static let written = Events(rawValue: UInt32(IN_MODIFY))
        /// Closed after being opened for writing (IN_CLOSE_WRITE), written or not.
        public static let closedAfterWriting = Events(rawValue: UInt32(IN_CLOSE_WRITE))
        /// Made, removed, renamed in or out, its attributes changed.
        public static let replaced = Events(rawValue: UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB))
        /// All of them.
        public static let all: Events = [.written, .closedAfterWriting, .replaced]
    }

    public init() throws(SystemError) {
        fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Watches a folder for writes, creations, renames and removals of the given names;
    /// watching the folder (not the file) sees files replaced by rename, as tools do with
    /// `/etc/localtime`.
    public func watch(folder: String, names: Set<String>) throws(SystemError) {
        try watch(folder: folder, events: Dictionary(uniqueKeysWithValues: names.map { ($0, Events.all) }))
    }

    /// The same, each name counting only the events given for it: a process that opens
    /// and closes a file itself (a store opened for each use) must not take its own
    /// opening, closing, or SQLite's making and removing of the log, for a change.
    public func watch(folder: String, events: [String: Events]) throws(SystemError) {
        let mask = events.values.reduce(Events()) { $0.union($1) }.rawValue
        let wd = try systemCall("inotify_add_watch(\(folder))") { inotify_add_watch(fd, folder, mask | UInt32(IN_MASK_ADD)) }
        folders[wd, default: (folder, [:])].names.merge(events) { $0.union($1) }
    }

    /// The watched paths that changed since the last read (each once).
    public func read() -> Set<String> {
        var changed: Set<String> = []
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            guard let n = try? readAvailable(fd, into: buffer, count: size), n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0, let folder = folders[event.wd] {
                    let name = String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
                    if let counted = folder.names[name], counted.rawValue & event.mask != 0 { changed.insert(folder.path + "/" + name) }
                }
                offset = nameStart + Int(event.len)
            }
        }
        return changed
    }
}
