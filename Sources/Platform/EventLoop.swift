#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// One thread's event loop, in sd-event's shape: sources registered with a callback each
/// — a descriptor, a timer, signals, a child process, a set of descriptors another library
/// manages (the D-Bus connection) — and one poll(2) over all of them. It wakes only for
/// what a source asks: with nothing armed it sleeps until a descriptor is ready.
///
/// A source removed during dispatch is never called again, even when it was ready in the
/// same turn. Nothing a callback does may block: a slow peer is a pending call, a program
/// is a child source.
public final class EventLoop {
    /// A registration; ``remove()`` ends it.
    public final class Source {
        fileprivate enum Kind {
            case descriptor(fd: Int32, events: Int16, handler: (Int16) -> Void)
            case timer(handler: () -> Void)
            case set(prepare: () -> (descriptors: [pollfd], timeout: Int32?), dispatch: ([pollfd]) -> Void)
            case child(pid: pid_t, pidfd: Int32, handler: (ChildExit) -> Void)
            case beforeWait(handler: () -> Void)
        }
        fileprivate let kind: Kind
        fileprivate weak var loop: EventLoop?
        /// What keeps the source's own descriptor alive (a signalfd).
        var owned: AnyObject?
        /// Whether it was removed: it is not called again.
        public private(set) var isRemoved = false
        /// A timer's deadline, in ``monotonicSeconds()``; `nil` when disarmed. It fires
        /// once at or after the deadline and is then disarmed (a callback arms it again).
        public var deadline: Double?

        fileprivate init(_ kind: Kind, loop: EventLoop) {
            self.kind = kind
            self.loop = loop
        }

        /// Ends the registration (a child's descriptor is closed; the child is not waited for).
        public func remove() {
            guard !isRemoved else { return }
            isRemoved = true
            if case .child(_, let pidfd, _) = kind { close(pidfd) }
            owned = nil
            loop?.sources.removeAll { $0 === self }
        }
    }

    /// How a child ended.
    public enum ChildExit: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(Int32)
    }

    fileprivate var sources: [Source] = []
    private var exitRequested = false

    /// An empty loop.
    public init() {}

    deinit {
        for source in sources { source.remove() }
    }

    // MARK: Sources

    /// Calls `handler` with the events poll(2) reports whenever `fd` is ready for `events`
    /// (or has an error or hang-up). The descriptor stays the caller's.
    @discardableResult
    public func add(descriptor fd: Int32, events: Int16 = Int16(POLLIN), _ handler: @escaping (Int16) -> Void) -> Source {
        register(.descriptor(fd: fd, events: events, handler: handler))
    }

    /// A timer on the monotonic clock, disarmed until its ``Source/deadline`` is set.
    @discardableResult
    public func addTimer(at deadline: Double? = nil, _ handler: @escaping () -> Void) -> Source {
        let source = register(.timer(handler: handler))
        source.deadline = deadline
        return source
    }

    /// Takes `signals` from normal delivery (blocked, read through a signalfd) and calls
    /// `handler` with each that arrives.
    @discardableResult
    public func add(signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(SystemError) -> Source {
        let receiver = try SignalReceiver(signals)
        let source = register(.descriptor(fd: receiver.fd, events: Int16(POLLIN)) { _ in
            for signal in receiver.read() { handler(signal) }
        })
        source.owned = receiver
        return source
    }

    /// Calls `handler` once when the child `pid` (of this process) ends, and reaps it. The
    /// source is removed after the call.
    @discardableResult
    public func add(child pid: pid_t, _ handler: @escaping (ChildExit) -> Void) throws(SystemError) -> Source {
        let pidfd = try systemCall("pidfd_open") { pidfd_open(pid, 0) }
        _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC)
        return register(.child(pid: pid, pidfd: pidfd, handler: handler))
    }

    /// Descriptors another library manages (libdbus' watches and timeouts): before each
    /// wait `prepare` says which to poll and how long at most to wait (milliseconds); after
    /// it `dispatch` gets them back with what poll(2) said, on every turn.
    @discardableResult
    public func add(set prepare: @escaping () -> (descriptors: [pollfd], timeout: Int32?),
                    dispatch: @escaping ([pollfd]) -> Void) -> Source {
        register(.set(prepare: prepare, dispatch: dispatch))
    }

    /// Calls `handler` before every wait, in the order added: the work of a turn that
    /// follows what the callbacks changed (fire what is due, draw the screen).
    @discardableResult
    public func addBeforeWait(_ handler: @escaping () -> Void) -> Source {
        register(.beforeWait(handler: handler))
    }

    private func register(_ kind: Source.Kind) -> Source {
        let source = Source(kind, loop: self)
        sources.append(source)
        return source
    }

    // MARK: Running

    /// Runs turns until ``exit()`` is called.
    public func run() throws(SystemError) {
        exitRequested = false
        while !exitRequested { try turn() }
    }

    /// Ends ``run()`` once the current turn is done.
    public func exit() { exitRequested = true }

    /// One turn: the before-wait callbacks, one poll(2) (at most `maxWait` milliseconds,
    /// `nil` for as long as the sources allow), and the callbacks of what is ready.
    public func turn(maxWait: Int32? = nil) throws(SystemError) {
        guard var wait = prepare(maxWait: maxWait) else { return }
        try systemCall("poll") { poll(&wait.descriptors, nfds_t(wait.descriptors.count), wait.timeout) }
        dispatch(wait)
    }

    /// What one turn waits for: the descriptors to poll and for how long (milliseconds, -1
    /// for as long as it takes). Another loop that hosts this one (GLib's, under a window)
    /// polls them itself and hands them back, with what poll said, to ``dispatch(_:)``.
    public struct Wait {
        public var descriptors: [pollfd]
        public var timeout: Int32
        /// The sources taken at the start of the turn, and their slices of `descriptors`.
        fileprivate let sources: [Source]
        fileprivate let slices: [ObjectIdentifier: Range<Int>]
    }

    /// The first half of a turn: the before-wait callbacks, then what to wait for; `nil`
    /// when a callback asked the loop to exit.
    public func prepare(maxWait: Int32? = nil) -> Wait? {
        for source in sources {
            guard !source.isRemoved, case .beforeWait(let handler) = source.kind else { continue }
            handler()
            if exitRequested { return nil }
        }
        // Taken once: sources added by callbacks wait for the next turn.
        let current = sources
        var descriptors: [pollfd] = []
        var slices: [ObjectIdentifier: Range<Int>] = [:]
        var timeout = maxWait.map(Int64.init) ?? -1
        func wait(_ milliseconds: Int64) { timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds) }
        let now = monotonicSeconds()
        for source in current {
            let start = descriptors.count
            switch source.kind {
            case .descriptor(let fd, let events, _): descriptors.append(pollfd(fd: fd, events: events, revents: 0))
            case .child(_, let pidfd, _): descriptors.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0))
            case .set(let prepare, _):
                let (more, wanted) = prepare()
                descriptors += more
                if let wanted { wait(Int64(max(wanted, 0))) }
            case .timer:
                if let deadline = source.deadline { wait(Int64(max(0, ((deadline - now) * 1000).rounded(.up)))) }
            case .beforeWait: break
            }
            slices[ObjectIdentifier(source)] = start..<descriptors.count
        }
        return Wait(descriptors: descriptors, timeout: Int32(clamping: timeout), sources: current, slices: slices)
    }

    /// The second half: the callbacks of what is ready, given what poll said of
    /// `wait.descriptors` (in their order) and the timers now due.
    public func dispatch(_ wait: Wait) {
        let after = monotonicSeconds()
        for source in wait.sources where !source.isRemoved {
            let results = wait.slices[ObjectIdentifier(source)].map { Array(wait.descriptors[$0]) } ?? []
            switch source.kind {
            case .descriptor(_, _, let handler):
                if let revents = results.first?.revents, revents != 0 { handler(revents) }
            case .set(_, let dispatch):
                dispatch(results)
            case .timer(let handler):
                if let deadline = source.deadline, after >= deadline {
                    source.deadline = nil
                    handler()
                }
            case .child(let pid, _, let handler):
                guard let revents = results.first?.revents, revents != 0 else { continue }
                var status: Int32 = 0
                guard (try? systemCall("waitpid", { waitpid(pid, &status, WNOHANG) })) == pid else { continue }
                source.remove()
                handler(status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .killed(status & 0x7f))
            case .beforeWait: break
            }
        }
    }
}
