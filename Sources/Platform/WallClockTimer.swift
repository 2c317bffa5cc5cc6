#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Platform
import Foundation

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
        } catch where error.code == ECANCELED {
            // Armed all the same; the clock change that cancelled it is read next.
        }
    }

    /// Reads the timer after poll(2) said it is readable.
    func read() -> Wake {
        var expirations: UInt64 = 0
        do {
            return try readAvailable(fd, into: &expirations, count: 8) == 8 ? .expired : .spurious
        } catch {
            return error.code == ECANCELED ? .clockChanged : .spurious
        }
    }
}
