#if canImport(Glibc)
import Glibc
#endif
import Platform

/// Writes to stderr with write(2): no shared `FILE*`, nothing buffered at exit. A stderr
/// that cannot be written has no one to tell.
public func writeError(_ text: String) {
    try? writeAll(2, Array(text.utf8))
}

/// Writes bytes to stdout, after whatever `print` buffered.
public func writeOut(_ bytes: [UInt8]) {
    fflush(nil)
    try? writeAll(1, bytes)
}
