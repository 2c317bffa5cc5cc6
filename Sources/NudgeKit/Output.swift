#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Writes to stderr with write(2): no shared `FILE*`, nothing buffered at exit. A stderr
/// that cannot be written has no one to tell.
public func writeError(_ text: String) {
    try? writeAll(2, Array(text.utf8))
}

/// Writes bytes to stdout, after whatever `print` buffered. A failure is kept for
/// ``stdoutFailure()``, which a command asks before it exits.
public func writeOut(_ bytes: [UInt8]) {
    fflush(nil)
    do {
        try writeAll(1, bytes)
    } catch {
        writeOutError = errno
    }
}

/// The errno of the first write to stdout that failed (print's buffer or ``writeOut``),
/// after flushing what is buffered; nil when all of it was written. A full disk or a
/// closed stdout is told, not lost: `nudge list --json >/dev/full` exited 0.
public func stdoutFailure() -> Int32? {
    if fflush(nil) != 0, writeOutError == nil { writeOutError = errno }
    return writeOutError
}

nonisolated(unsafe) private var writeOutError: Int32?
