#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Why ``writeFile(_:_:)`` wrote nothing: each case is a different sentence for a person.
public enum FileOutputError: Error, Equatable {
    /// A system call failed (a folder is missing, the file is read-only, the disk is full).
    case system(SystemError)
    /// The file replacing the old one cannot be made in this folder (it is not yours, it
    /// is on a read-only disk, it is not there): the folder and the reason.
    case folder(String, SystemError)
    /// The path is in one of the kernel's own file systems (`/proc`, `/sys`): its files are
    /// the kernel's settings and reports, never a place to save into. The file system's name.
    case kernelFile(String)
}

/// Writes what a person asked for into a file they named (`nudge export -o`, `nudge stats
/// --svg`). A regular file is replaced whole: a new file made in the same folder, flushed,
/// renamed over it, so it is never half-written, and on any failure the new file goes and
/// the old file stays. The replacement keeps the old file's permissions (and its owner and
/// group, where this process may give them); a file that was not there is made 0600, read
/// and written by its owner alone, as the store is (the umask may narrow it further). A
/// file this process may not write is refused, as a shell's `>` refuses it. A symbolic link
/// keeps its place: its target is replaced, and a link to nothing (yet) gets its target
/// made where it points, as `>` does. Anything that is not a regular file (a device, a
/// pipe: `/dev/stdout`) is written into, never replaced by a file; a folder is an error,
/// and so is anything in the kernel's own file systems (`/proc/self/status`).
public func writeFile(_ path: String, _ body: (Int32) throws(SystemError) -> Void) throws(FileOutputError) {
    guard !path.isEmpty else { throw .system(SystemError(call: "open()", code: ENOENT)) }
    var target = path
    var info = stat()
    var existing: stat?
    // stat follows links: what the path finally names.
    if stat(path, &info) == 0 {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
            existing = info
        case S_IFDIR:
            throw .system(SystemError(call: "open(\(path))", code: EISDIR))
        default:
            if let name = kernelFileSystem(path) { throw .kernelFile(name) }
            let fd: Int32
            do { fd = try systemCall("open(\(path))") { open(path, O_WRONLY | O_CLOEXEC) } } catch { throw .system(error) }
            defer { close(fd) }
            do { try body(fd) } catch { throw .system(error) }
            return
        }
    } else {
        let code = errno
        guard code == ENOENT else { throw .system(SystemError(call: "stat(\(path))", code: code)) }
        do { target = try danglingTarget(path) } catch { throw .system(error) }
    }
    let folder = target.lastIndex(of: "/").map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
    if let name = kernelFileSystem(existing != nil ? target : folder) { throw .kernelFile(name) }
    if existing != nil, faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 {
        throw .system(SystemError(call: "access(\(target))", code: errno))
    }
    // A name of its own in the target's folder (a rename never crosses file systems), short
    // whatever the target's name, and hidden; a leftover of a killed run is never reused.
    var temporary = ""
    var fd: Int32 = -1
    for _ in 0..<8 {
        temporary = (folder == "/" ? "" : folder) + "/.nudge-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
        do {
            // 0600 through the umask: a new file is its owner's alone.
            fd = try systemCall("open(\(temporary))") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            break
        } catch where error.code == EEXIST {
            continue
        } catch {
            throw .folder(folder, error)
        }
    }
    guard fd >= 0 else { throw .folder(folder, SystemError(call: "open(\(temporary))", code: EEXIST)) }
    do throws(SystemError) {
        do {
            defer { close(fd) }
            if let existing {
                // Owner first: a change of owner clears the mode's set-id bits.
                if existing.st_uid != geteuid() || existing.st_gid != getegid(), fchown(fd, existing.st_uid, existing.st_gid) != 0 {
                    _ = fchown(fd, uid_t.max, existing.st_gid)
                }
                try systemCall("fchmod(\(temporary))") { fchmod(fd, existing.st_mode & 0o777) }
            }
            try body(fd)
            try systemCall("fsync(\(temporary))") { fsync(fd) }
        }
        try systemCall("rename(\(temporary), \(target))") { rename(temporary, target) }
    } catch {
        unlink(temporary)
        throw .system(error)
    }
}

/// Where a path that names nothing gets its file: the path itself, or, for a symbolic link
/// to nothing (yet), the end of its chain of links, as the kernel resolves it when a shell's
/// `>` creates the file.
private func danglingTarget(_ path: String) throws(SystemError) -> String {
    var path = path
    // The kernel's own limit on links followed in one lookup.
    for _ in 0..<40 {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let n = try systemCall("readlink(\(path))") { buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) } }
        let link = String(decoding: buffer.prefix(n), as: UTF8.self)
        if link.hasPrefix("/") {
            path = link
        } else {
            // Relative to the folder holding the link ("a/../b" resolves as the kernel does:
            // the folder first, then "..").
            path = path.lastIndex(of: "/").map { String(path[...$0]) + link } ?? link
        }
    }
    throw SystemError(call: "open(\(path))", code: ELOOP)
}

/// The name of the kernel's file system a path is in (`proc`, `sysfs`…), or `nil` for any
/// other (by `statfs`'s magic numbers, from linux/magic.h).
func kernelFileSystem(_ path: String) -> String? {
    var info = statfs()
    guard statfs(path, &info) == 0 else { return nil }
    let names: [Int: String] = [
        0x9FA0: "proc", 0x6265_6572: "sysfs", 0x6462_6720: "debugfs", 0x7472_6163: "tracefs",
        0x7363_6673: "securityfs", 0x0027_E0EB: "cgroup", 0x6367_7270: "cgroup2", 0x6265_6570: "configfs",
        0xDE5E_81E4: "efivarfs", 0x6165_676C: "pstore", 0xCAFE_4A11: "bpf", 0xF97C_FF8C: "selinuxfs",
        0x4249_4E4D: "binfmt_misc", 0x6573_5543: "fusectl",
    ]
    return names[Int(info.f_type)]
}
