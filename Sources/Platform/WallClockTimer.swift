#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A timer on the wall clock: a CLOCK_REALTIME timerfd armed at an absolute instant with
/// TFD_TIMER_CANCEL_ON_SET, so it also wakes when the clock is set or the machine resumes
/// (the kernel cancels such timers when realtime jumps against monotonic). What waits for a
/// time of day waits on one of these: a monotonic timer is late by the time a machine slept,
/// and never sees the clock set.
public final class WallClockTimer {
    /// The timerfd, for poll(2).
    public let fd: Int32
    /// The loop's registration, when the timer was made by ``EventLoop/addWallClockTimer(_:)``.
    public fileprivate(set) weak var source: EventLoop.Source?

    /// What a wake-up of the timer means.
    public enum Wake: Sendable { case expired, clockChanged, spurious }

    /// A disarmed timer (`timerfd_create`).
    public init() throws(SystemError) {
        fd = try systemCall("timerfd_create") { timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Arms the timer at `seconds` since the epoch (`timerfd_settime`); `nil` disarms it.
    public func arm(atEpochSeconds seconds: Double?) throws(SystemError) {
        var spec = itimerspec()
        if let seconds {
            // 0 would disarm: an instant at or before the epoch fires as soon as possible.
            let whole = max(seconds.rounded(.down), 0)
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
    public func read() -> Wake {
        var expirations: UInt64 = 0
        do {
            return try readAvailable(fd, into: &expirations, count: 8) == 8 ? .expired : .spurious
        } catch {
            return error.code == ECANCELED ? .clockChanged : .spurious
        }
    }

    /// Ends the loop's registration, if any; the descriptor closes with the timer.
    public func remove() { source?.remove() }
}

extension EventLoop {
    /// A timer on the wall clock (``WallClockTimer``), disarmed until armed: `handler` gets
    /// its expiry, and a clock set or a resume (``WallClockTimer/Wake/clockChanged``), after
    /// which the timer is to be armed again (the times it was armed for may have moved).
    public func addWallClockTimer(_ handler: @escaping (WallClockTimer.Wake) -> Void) throws(SystemError) -> WallClockTimer {
        let timer = try WallClockTimer()
        let source = add(descriptor: timer.fd) { [unowned timer] _ in
            let wake = timer.read()
            if wake != .spurious { handler(wake) }
        }
        source.owned = timer
        timer.source = source
        return timer
    }
}
