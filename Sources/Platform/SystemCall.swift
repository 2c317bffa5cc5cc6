#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which one, and the errno it left, read once right after it.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// The call, as messages name it (`open(/path)`, `poll`).
    public var call: String
    /// Its errno.
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The C library's words for the error (`strerror`).
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call): \(reason)" }
}

/// Runs a system call the one way Nudge calls the kernel: a result of -1 becomes a
/// ``SystemError`` holding errno as it was right after the call, and EINTR is retried
/// here and nowhere else.
@discardableResult
public func systemCall<T: BinaryInteger>(_ name: @autoclosure () -> String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw SystemError(call: name(), code: code) }
    }
}

/// Runs a call that returns its error number instead of setting errno (`posix_spawn`,
/// `pthread_*`): non-zero becomes a ``SystemError``.
public func systemCall(returningError name: @autoclosure () -> String, _ body: () -> Int32) throws(SystemError) {
    let code = body()
    if code != 0 { throw SystemError(call: name(), code: code) }
}

/// Reads what a descriptor has now: the number of bytes read, 0 at its end, `nil` when a
/// non-blocking descriptor has nothing yet (EAGAIN).
public func readAvailable(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int? {
    do {
        return try systemCall("read") { read(fd, buffer, count) }
    } catch where error.code == EAGAIN || error.code == EWOULDBLOCK {
        return nil
    }
}

/// Writes all of `bytes` to a descriptor (short writes continue where they stopped).
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
        let start = offset
        let n = try systemCall("write") { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + start, $0.count - start) } }
        if n == 0 { throw SystemError(call: "write", code: EIO) }
        offset += n
    }
}

/// Creates a folder and its missing parents with `mode` (`mkdir -p`); a folder already
/// there is fine.
public func makeFolders(_ path: String, mode: mode_t) throws(SystemError) {
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
        try makeFolders(String(path[..<slash]), mode: mode)
    }
    do {
        try systemCall("mkdir(\(path))") { mkdir(path, mode) }
    } catch where error.code == EEXIST {
        // Made meanwhile by someone else.
    }
}

/// Flushes a file's data to the disk (open, fsync, close); errors are thrown, not dropped.
public func syncFile(_ path: String) throws(SystemError) {
    let fd = try systemCall("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    try systemCall("fsync(\(path))") { fsync(fd) }
}

/// Seconds on the monotonic clock (`CLOCK_MONOTONIC`): for deadlines that wall-clock
/// changes must not move.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A regular file's bytes, at most `limit` of them (`nil` when it cannot be opened, is
/// not a regular file, or is longer). Opened without blocking, so a FIFO put in its place
/// cannot hang the caller. Foundation's `FileManager.contents(atPath:)` leaks a buffer
/// on some files (found by the `tz` fuzz target), and reads whatever is there.
public func readRegularFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while count < bytes.count {
        let start = count
        guard let n = try? systemCall("read", { bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + start, $0.count - start) } }) else { return nil }
        if n == 0 { break }
        count += n
    }
    // One byte more than fstat said was room to see the file grow; past the limit is refused.
    guard count <= limit else { return nil }
    return Array(bytes.prefix(count))
}

/// Whether this process may run the file at `path` (`access(X_OK)`).
public func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

/// Whether this process may read the file at `path` (`access(R_OK)`).
public func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

/// Stops this process as Ctrl-Z does (`SIGSTOP` to itself); it goes on where it stopped
/// when the shell sends `SIGCONT` (`fg`).
public func stopSelf() { kill(getpid(), SIGSTOP) }

/// What the process writes to stderr, caught in a pipe instead (a full-screen program
/// shows it on its message line rather than over the screen), until ``restore()``.
public final class StderrCapture {
    /// The pipe's read end: non-blocking, readable when something was written.
    public let fd: Int32
    private let saved: Int32
    private var restored = false

    /// Moves stderr (descriptor 2) into a new pipe; the real one is kept to give back.
    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe") { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        do {
            saved = try systemCall("dup") { fcntl(2, F_DUPFD_CLOEXEC, 0) }
            try systemCall("dup2") { dup2(ends[1], 2) }
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        fd = ends[0]
    }

    /// The real stderr, as a descriptor to write to after a crash (see the caller's handler).
    public var original: Int32 { saved }

    /// stderr back where it was (once; later calls do nothing).
    public func restore() {
        guard !restored else { return }
        restored = true
        dup2(saved, 2)
    }

    /// What was written since the last read, as text (nothing when nothing waits).
    public func readAll() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var text: [UInt8] = []
        while let n = try? readAvailable(fd, into: &buffer, count: buffer.count), n > 0 { text += buffer[..<n] }
        return String(decoding: text, as: UTF8.self)
    }

    deinit {
        restore()
        close(fd)
        close(saved)
    }
}
