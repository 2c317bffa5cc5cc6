import Foundation
import Logging
import Platform

/// When the daemon has calendars synced (`nudge sync`): nudge-sync run as a child process
/// a few seconds after the daemon starts, every 15 minutes (± 10 %, so many machines never
/// ask a server at the same second), a few seconds after a change here, and on resume; after
/// a failure, again in 1, 2, 4… minutes up to the usual 15, or later when the server said so
/// (`Retry-After`, up to 6 hours); when a network comes up (NetworkManager, as places follow
/// it), a few seconds later. The sync is a process of its own:
/// nothing that fires a reminder waits on the network, and libcurl is never in the daemon.
/// With no account, nothing runs and no timer wakes the daemon.
final class SyncSchedule {
    /// The usual gap between two syncs (seconds).
    static let interval: Double = 15 * 60
    /// How long after a change here, a start or a resume a sync waits (seconds): a person
    /// editing several reminders makes one sync.
    static let settle: Double = 5
    /// The longest a server's `Retry-After` is followed (seconds).
    static let longestRetryAfter: Double = 6 * 3600

    private let program: String
    private let loop: EventLoop
    private let log: Logger
    private let hasAccounts: () -> Bool
    private let changedSinceSync: () -> Bool
    /// A change came while a sync ran: whether it saw it is asked when it ends.
    private var changedWhileRunning = false
    private var timer: EventLoop.Source!
    private var running: pid_t?
    /// What the running sync writes on stdout (`retry-after SECONDS`).
    private var output: Int32?
    /// No sync before this (monotonic seconds): the server asked to be left alone.
    private var notBefore: Double = 0
    private var failures = 0
    /// Runs finished, for the log and the tests.
    private(set) var runs = 0

    init(program: String, loop: EventLoop, log: Logger, hasAccounts: @escaping () -> Bool, changedSinceSync: @escaping () -> Bool) {
        self.program = program
        self.loop = loop
        self.log = log
        self.hasAccounts = hasAccounts
        self.changedSinceSync = changedSinceSync
        timer = loop.addTimer { [unowned self] in start() }
    }

    /// Syncs in `seconds`, unless one is due sooner or runs now.
    func soon(_ why: String, in seconds: Double = SyncSchedule.settle) {
        guard running == nil, hasAccounts() else { return }
        let at = max(monotonicSeconds() + seconds, notBefore)
        if let deadline = timer.deadline, deadline <= at { return }
        log.debug("sync in \(Int(seconds)) s: \(why)")
        timer.deadline = at
    }

    /// A change in the store: a sync soon if a reminder changed after the last sync read
    /// them (the store's change count against the one the sync noted), so a sync's own
    /// writes start none; while one runs, asked again when it ends.
    func storeChanged() {
        guard running == nil else {
            changedWhileRunning = true
            return
        }
        if changedSinceSync() { soon("a change here") }
    }

    private func start() {
        timer.deadline = nil
        guard running == nil else { return }
        guard hasAccounts() else { return }
        do {
            let (pid, fd) = try ChildProcess.spawn(program, ["now", "--background"], readOutput: true, group: true)
            running = pid
            output = fd
            try loop.add(child: pid) { [unowned self] exit in finished(exit) }
        } catch {
            log.warning("cannot start \(program): \(error)")
            running = nil
            failures += 1
            timer.deadline = monotonicSeconds() + retryDelay()
        }
    }

    private func finished(_ exit: EventLoop.ChildExit) {
        running = nil
        runs += 1
        let asked = output.flatMap(Self.retryAfter)
        if let fd = output { close(fd) }
        output = nil
        var delay: Double
        if exit == .exited(0) {
            failures = 0
            delay = Self.interval
        } else {
            failures += 1
            delay = retryDelay()
            if let asked, asked > delay {
                delay = min(asked, Self.longestRetryAfter)
                notBefore = monotonicSeconds() + delay
                log.info("sync ended with \(exit); again in \(Int(delay)) s, as the server asked (Retry-After)")
            } else {
                log.info("sync ended with \(exit); again in \(Int(delay)) s (nudge sync status says why)")
            }
        }
        guard hasAccounts() else { return }
        // Jitter only ever later than a server's Retry-After.
        timer.deadline = max(monotonicSeconds() + delay * Double.random(in: 0.9...1.1), notBefore)
        if changedWhileRunning, exit == .exited(0), changedSinceSync() { soon("a change while the last sync ran") }
        changedWhileRunning = false
    }

    /// The seconds in a sync's `retry-after SECONDS` line, read from its stdout once it ended.
    static func retryAfter(_ fd: Int32) -> Double? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("retry-after ") {
            if let seconds = Double(line.dropFirst(12)), seconds >= 0 { return seconds }
        }
        return nil
    }

    /// 1, 2, 4, 8 minutes… after failures in a row, then the usual interval.
    private func retryDelay() -> Double { min(60 * pow(2, Double(max(failures - 1, 0))), Self.interval) }
}
