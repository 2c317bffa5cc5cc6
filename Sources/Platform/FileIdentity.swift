#if canImport(Glibc)
import Glibc
#endif

/// Which file a path names (device and inode), to tell a file replaced under the same name
/// (a sync or backup tool renames a new copy over it) from the one a process has open.
public struct FileIdentity: Equatable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// `nil` when the path names no file.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
