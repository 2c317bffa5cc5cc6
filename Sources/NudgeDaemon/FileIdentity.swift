#if canImport(Glibc)
import Glibc
#endif
import CLinux
import DBus
import Foundation
import FreedesktopDelivery
import Logging
import NudgeCore
import NudgeStore
import Platform

/// Which file a path names (device and inode), to tell a file replaced under the same name.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// `nil` when the path names no file.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
