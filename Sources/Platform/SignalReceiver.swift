#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Signals as a descriptor (signalfd): blocked for normal delivery and
/// read in the loop, so a signal never interrupts a half-written store.
public final class SignalReceiver {
    public let fd: Int32

    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        try systemCall("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try systemCall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The signals that arrived since the last read.
    public func read() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while (try? readAvailable(fd, into: &info, count: size)) == size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}

/// Ends the process by `signal` as its default action would, once a program that caught it
/// has put things back (the terminal): the parent sees the signal, as a shell's `$?` of
/// 128 + its number, not a clean exit.
public func endBy(signal: Int32) -> Never {
    Glibc.signal(signal, SIG_DFL)
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, signal)
    sigprocmask(SIG_UNBLOCK, &mask, nil)
    raise(signal)
    _exit(128 + signal)
}
