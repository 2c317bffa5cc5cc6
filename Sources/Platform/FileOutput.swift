#if canImport(Glibc)
import Glibc
#endif

/// Writes what a person asked for into a file they named (`nudge export -o`, `nudge stats
/// --svg`). A regular file is replaced whole: a temporary file beside it, flushed, renamed
/// over it, so it is never half-written, and on any failure the temporary file goes and
/// the old file stays. A symbolic link keeps its place (its target is replaced). Anything
/// that is not a regular file (a device, a pipe: `/dev/stdout`) is written into, never
/// replaced by a file; a folder is an error.
public func writeFile(_ path: String, mode: mode_t = 0o644, _ body: (Int32) throws(SystemError) -> Void) throws(SystemError) {
    var path = path
    var info = stat()
    // stat follows links: what the path finally names.
    if stat(path, &info) == 0 {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let resolved = realpath(path, nil) {
                path = String(cString: resolved)
                free(resolved)
            }
        case S_IFDIR:
            throw SystemError(call: "open(\(path))", code: EISDIR)
        default:
            let fd = try systemCall("open(\(path))") { open(path, O_WRONLY | O_CLOEXEC) }
            defer { close(fd) }
            try body(fd)
            return
        }
    }
    let temporary = path + ".nudge-\(getpid()).tmp"
    do {
        let fd = try systemCall("open(\(temporary))") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        do {
            defer { close(fd) }
            try body(fd)
            try systemCall("fsync(\(temporary))") { fsync(fd) }
        }
        try systemCall("rename(\(temporary), \(path))") { rename(temporary, path) }
    } catch {
        unlink(temporary)
        throw error
    }
}
