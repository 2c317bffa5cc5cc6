import Foundation
import Logging
import Platform

/// When the daemon has calendars synced (`nudge sync`): a sync a few seconds after the
/// daemon starts, every 15 minutes (± 10 %, so many machines never ask a server at the same
/// second), a few seconds after a change here, and on resume; after a failure, again in 1,
/// 2, 4… minutes up to the usual 15, or later when the server said so (`Retry-After`, up to
/// 6 hours); when a network comes up (NetworkManager, as places follow it), a few seconds
/// later. With no account, nothing runs and no timer wakes the daemon.
///
/// The syncs are done by `nudge-sync serve`, a child process started at the first and kept
/// (see there), asked over a socket: nothing that fires a reminder waits on the network,
/// libcurl is never in the daemon, and a sync does not pay a process's start. The child
/// goes when the last account does, and is started again when it ended meanwhile.
final class SyncSchedule {
    /// The usual gap between two syncs (seconds).
    static let interval: Double = 15 * 60
    /// How long after a change here, a start or a resume a sync waits (seconds): a person
    /// editing several reminders makes one sync.
    static let settle: Double = 5
    /// The longest a server's `Retry-After` is followed (seconds).
    static let longestRetryAfter: Double = 6 * 3600
    /// The longest a sync may take before its process is killed (seconds), by default: a
    /// server is given up after 30 s of silence, so only a process that hangs (a keyring
    /// that never answers) reaches it.
    static let longestSync: Double = 15 * 60

    /// The child that syncs: its process and the socket it is asked on.
    private final class Worker {
        let pid: pid_t
        let socket: Int32
        var reader: EventLoop.Source?
        var exit: EventLoop.Source?
        /// What it wrote that is not a whole line yet.
        var pending: [UInt8] = []

        init(pid: pid_t, socket: Int32) {
            self.pid = pid
            self.socket = socket
        }
    }

    private let program: String
    private let loop: EventLoop
    private let log: Logger
    private let hasAccounts: () -> Bool
    private let changedSinceSync: () -> Bool
    private let longestSync: Double
    /// A change came while a sync ran: whether it saw it is asked when it ends.
    private var changedWhileRunning = false
    private var timer: EventLoop.Source!
    /// Armed while a sync runs (`longestSync`).
    private var watchdog: EventLoop.Source!
    private var worker: Worker?
    /// A sync was asked and is not answered yet.
    private(set) var running = false
    /// No sync before this (monotonic seconds): the server asked to be left alone.
    private var notBefore: Double = 0
    private var failures = 0
    /// Syncs finished, for the log and the tests.
    private(set) var runs = 0
    /// The CPU the last sync took in the child (microseconds), for the log.
    private(set) var lastCPU: Int?

    init(program: String, loop: EventLoop, log: Logger, hasAccounts: @escaping () -> Bool, changedSinceSync: @escaping () -> Bool,
         longestSync: Double = SyncSchedule.longestSync) {
        self.program = program
        self.longestSync = longestSync
        self.loop = loop
        self.log = log
        self.hasAccounts = hasAccounts
        self.changedSinceSync = changedSinceSync
        timer = loop.addTimer { [unowned self] in start() }
        watchdog = loop.addTimer { [unowned self] in
            watchdog.deadline = nil
            guard running, let worker else { return }
            log.warning("the sync process \(worker.pid) did not answer in \(Int(longestSync)) s; killed")
            kill(-worker.pid, SIGKILL)
        }
    }

    deinit {
        timer.remove()
        watchdog.remove()
        stopWorker()
    }

    /// Syncs in `seconds`, unless one is due sooner or runs now.
    func soon(_ why: String, in seconds: Double = SyncSchedule.settle) {
        guard !running, hasAccounts() else { return }
        let at = max(monotonicSeconds() + seconds, notBefore)
        if let deadline = timer.deadline, deadline <= at { return }
        log.debug("sync in \(Int(seconds)) s: \(why)")
        timer.deadline = at
    }

    /// A change in the store: a sync soon if a reminder changed after the last sync read
    /// them (the store's change count against the one the sync noted), so a sync's own
    /// writes start none; while one runs, asked again when it ends.
    func storeChanged() {
        guard !running else {
            changedWhileRunning = true
            return
        }
        // The last account removed: its sync process goes too.
        guard hasAccounts() else { return stopWorker() }
        if changedSinceSync() { soon("a change here") }
    }

    private func start() {
        timer.deadline = nil
        guard !running else { return }
        guard hasAccounts() else { return stopWorker() }
        // A child that ended since (killed, or replaced on disk) is started again; one whose
        // socket will not take the question too.
        for _ in 0..<2 {
            do {
                let worker = try self.worker ?? startWorker()
                guard send(worker.socket, "sync\n", 5, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) == 5 else {
                    log.info("the sync process did not take the question: \(String(cString: strerror(errno))); starting it again")
                    stopWorker()
                    continue
                }
                running = true
                watchdog.deadline = monotonicSeconds() + longestSync
                return
            } catch {
                log.warning("cannot start \(program): \(error)")
                break
            }
        }
        failures += 1
        timer.deadline = monotonicSeconds() + retryDelay()
    }

    private func startWorker() throws(SystemError) -> Worker {
        var ends: [Int32] = [-1, -1]
        try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        defer { close(ends[1]) }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(program, ["serve"], input: ends[1], output: ends[1], group: true).pid
        } catch {
            close(ends[0])
            throw error
        }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let worker = Worker(pid: pid, socket: ends[0])
        // The reader goes with the worker (``stopWorker()``); the exit source holds it until
        // the child is reaped, which may be after the worker was let go.
        worker.reader = loop.add(descriptor: ends[0]) { [unowned self, unowned worker] _ in read(worker) }
        worker.exit = try? loop.add(child: pid) { [weak self] exit in
            worker.exit = nil
            self?.ended(worker, exit)
        }
        self.worker = worker
        log.debug("sync process \(pid) started")
        return worker
    }

    /// The child's answers, a line each.
    private func read(_ worker: Worker) {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = recv(worker.socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            guard count > 0 else {
                // Its end closed: it ended, or is ending.
                worker.reader?.remove()
                worker.reader = nil
                if self.worker === worker, running { finished(status: nil, retryAfter: nil) }
                return
            }
            worker.pending += buffer[..<count]
            if worker.pending.count > 65_536 { worker.pending.removeAll() }
            while let end = worker.pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: worker.pending[..<end], as: UTF8.self)
                worker.pending.removeSubrange(...end)
                guard running, self.worker === worker, let answer = Self.answer(line) else {
                    log.debug("sync process said, unasked: \(line)")
                    continue
                }
                lastCPU = answer.cpu
                finished(status: answer.status, retryAfter: answer.retryAfter)
            }
        }
    }

    /// The child ended: reaped; the next sync starts another.
    private func ended(_ worker: Worker, _ exit: EventLoop.ChildExit) {
        log.debug("sync process \(worker.pid) ended: \(exit)")
        guard self.worker === worker else { return }
        stopWorker()
        if running { finished(status: nil, retryAfter: nil) }
    }

    /// Lets the child go: its socket closed, it ends at once when idle, after the sync it is
    /// doing otherwise.
    private func stopWorker() {
        guard let worker else { return }
        self.worker = nil
        worker.reader?.remove()
        worker.reader = nil
        close(worker.socket)
        // Reaped when it ends, through its exit source, which stays until then.
    }

    /// An answer line: `exit STATUS [retry-after SECONDS] cpu-us MICROSECONDS`.
    static func answer(_ line: String) -> (status: Int32, retryAfter: Double?, cpu: Int?)? {
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "exit", let status = Int32(words[1]) else { return nil }
        var retryAfter: Double?, cpu: Int?
        var index = 2
        while index + 1 < words.count {
            switch words[index] {
            case "retry-after": retryAfter = Double(words[index + 1]).flatMap { $0 >= 0 ? $0 : nil }
            case "cpu-us": cpu = Int(words[index + 1])
            default: break
            }
            index += 2
        }
        return (status, retryAfter, cpu)
    }

    /// A sync ended with `status` (`nil`: the child ended before it answered).
    private func finished(status: Int32?, retryAfter asked: Double?) {
        running = false
        watchdog.deadline = nil
        runs += 1
        var delay: Double
        if status == 0 {
            failures = 0
            delay = Self.interval
            log.debug("sync done\(lastCPU.map { " (\($0) µs of CPU)" } ?? "")")
        } else {
            failures += 1
            delay = retryDelay()
            let how = status.map { "status \($0)" } ?? "the sync process ending first"
            if let asked, asked > delay {
                delay = min(asked, Self.longestRetryAfter)
                notBefore = monotonicSeconds() + delay
                log.info("sync ended with \(how); again in \(Int(delay)) s, as the server asked (Retry-After)")
            } else {
                log.info("sync ended with \(how); again in \(Int(delay)) s (nudge sync status says why)")
            }
        }
        guard hasAccounts() else { return stopWorker() }
        // Jitter only ever later than a server's Retry-After.
        timer.deadline = max(monotonicSeconds() + delay * Double.random(in: 0.9...1.1), notBefore)
        if changedWhileRunning, status == 0, changedSinceSync() { soon("a change while the last sync ran") }
        changedWhileRunning = false
    }

    /// 1, 2, 4, 8 minutes… after failures in a row, then the usual interval.
    private func retryDelay() -> Double { min(60 * pow(2, Double(max(failures - 1, 0))), Self.interval) }
}
