#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Foundation

/// A failed system call: which one and its errno.
struct SystemError: Error, CustomStringConvertible {
    var call: String
    var errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// Runs a system call, retrying on EINTR; -1 becomes a ``SystemError``. Every call the
/// daemon makes to the kernel goes through here.
@discardableResult
func systemCall<T: BinaryInteger>(_ name: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        if errno != EINTR { throw SystemError(call: name, errno: errno) }
    }
}

/// The wall-clock timer the loop sleeps on: a CLOCK_REALTIME timerfd armed at an absolute
/// instant with TFD_TIMER_CANCEL_ON_SET, so it also wakes when the clock is set or the
/// machine resumes (the kernel cancels such timers when realtime jumps against monotonic).
final class WallClockTimer {
    let fd: Int32

    /// What a wake-up of the timer means.
    enum Wake { case expired, clockChanged, spurious }

    init() throws(SystemError) {
        fd = try systemCall("timerfd_create") { timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Arms the timer at `instant`; `nil` disarms it (nothing is ever due).
    func arm(at instant: Date?) throws(SystemError) {
        var spec = itimerspec()
        if let instant {
            let seconds = instant.timeIntervalSince1970
            // 0 would disarm: an instant at or before the epoch fires as soon as possible.
            let whole = max(floor(seconds), 0)
            spec.it_value.tv_sec = Int(whole)
            spec.it_value.tv_nsec = whole == 0 && seconds <= 0 ? 1 : Int((seconds - whole) * 1e9)
        }
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        do {
            try systemCall("timerfd_settime") { timerfd_settime(fd, flags, &spec, nil) }
        } catch where error.errno == ECANCELED {
            // Armed all the same; the clock change that cancelled it is read next.
        }
    }

    /// Reads the timer after poll(2) said it is readable.
    func read() -> Wake {
        var expirations: UInt64 = 0
        let n = Glibc.read(fd, &expirations, 8)
        if n == 8 { return .expired }
        return n < 0 && errno == ECANCELED ? .clockChanged : .spurious
    }
}

/// SIGTERM, SIGINT and SIGHUP as a descriptor (signalfd): blocked for normal delivery and
/// read in the loop, so a signal never interrupts a half-written store.
final class SignalReceiver {
    let fd: Int32

    init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        try systemCall("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try systemCall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The signals that arrived since the last read.
    func read() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}

/// Changes to named files in folders (inotify): the store's files, `/etc/localtime`.
final class FileWatcher {
    let fd: Int32
    private var folders: [Int32: (path: String, names: Set<String>)] = [:]

    init() throws(SystemError) {
        fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Watches a folder for writes, creations, renames and removals of the given names;
    /// watching the folder (not the file) sees files replaced by rename, as tools do with
    /// `/etc/localtime`.
    func watch(folder: String, names: Set<String>) throws(SystemError) {
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB)
        let wd = try systemCall("inotify_add_watch(\(folder))") { inotify_add_watch(fd, folder, mask) }
        folders[wd, default: (folder, [])].names.formUnion(names)
    }

    /// The watched paths that changed since the last read (each once).
    func read() -> Set<String> {
        var changed: Set<String> = []
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer, size)
            if n <= 0 { break }
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
