import Foundation
import Logging
import Platform

/// When the daemon has calendars synced (`nudge sync`): nudge-sync run as a child process
/// a few seconds after the daemon starts, every 15 minutes (± 10 %, so many machines never
/// ask a server at the same second), a few seconds after a change here, and on resume; after
/// a failure, again in 1, 2, 4… minutes up to the usual 15. The sync is a process of its own:
/// nothing that fires a reminder waits on the network, and libcurl is never in the daemon.
/// With no account, nothing runs and no timer wakes the daemon.
final class SyncSchedule {
    /// The usual gap between two syncs (seconds).
    static let interval: Double = 15 * 60
    /// How long after a change here, a start or a resume a sync waits (seconds): a person
    /// editing several reminders makes one sync.
    static let settle: Double = 5

    private let program: String
    private let loop: EventLoop
    private let log: Logger
    private let hasAccounts: () -> Bool
    private let changedSinceSync: () -> Bool
    /// A change came while a sync ran: whether it saw it is asked when it ends.
    private var changedWhileRunning = false
    private var timer: EventLoop.Source!
    private var running: pid_t?
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
        let at = monotonicSeconds() + seconds
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
            let (pid, _) = try ChildProcess.spawn(program, ["now", "--background"], group: true)
            running = pid
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
        let delay: Double
        if exit == .exited(0) {
            failures = 0
            delay = Self.interval
        } else {
            failures += 1
            delay = retryDelay()
            log.info("sync ended with \(exit); again in \(Int(delay)) s (nudge sync status says why)")
        }
        guard hasAccounts() else { return }
        timer.deadline = monotonicSeconds() + delay * Double.random(in: 0.9...1.1)
        if changedWhileRunning, exit == .exited(0), changedSinceSync() { soon("a change while the last sync ran") }
        changedWhileRunning = false
    }

    /// 1, 2, 4, 8 minutes… after failures in a row, then the usual interval.
    private func retryDelay() -> Double { min(60 * pow(2, Double(max(failures - 1, 0))), Self.interval) }
}
