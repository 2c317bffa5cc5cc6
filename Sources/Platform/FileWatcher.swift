#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Changes to named files in folders (inotify): the store's files, `/etc/localtime`.
public final class FileWatcher {
    public let fd: Int32
    private var folders: [Int32: (path: String, names: Set<String>)] = [:]

    public init() throws(SystemError) {
        fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Watches a folder for writes, creations, renames and removals of the given names;
    /// watching the folder (not the file) sees files replaced by rename, as tools do with
    /// `/etc/localtime`.
    public func watch(folder: String, names: Set<String>) throws(SystemError) {
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB)
        let wd = try systemCall("inotify_add_watch(\(folder))") { inotify_add_watch(fd, folder, mask) }
        folders[wd, default: (folder, [])].names.formUnion(names)
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
                    if folder.names.contains(name) { changed.insert(folder.path + "/" + name) }
                }
                offset = nameStart + Int(event.len)
            }
        }
        return changed
    }
}
