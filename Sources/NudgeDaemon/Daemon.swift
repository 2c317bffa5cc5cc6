#if canImport(Glibc)
import DaemonAPI
import Glibc
#endif
import CLinux
import DBus
import Foundation
import FreedesktopDelivery
import Logging
import NudgeCore
import NudgeStore
import Platform

/// `nudge daemon`: one per session. It owns `io.github.nudge.Nudge`, fires reminders through
/// the notification server, takes the answers back and keeps the store current.
///
/// One thread, one ``EventLoop`` over: a CLOCK_REALTIME timerfd armed at the next due
/// instant (it also wakes on clock jumps and resume), the session bus, inotify on the
/// store and on `/etc/localtime`, a signalfd, sound players and `gsettings` as children,
/// and what ``Presence`` follows (the system bus; on KDE, `GetSessionIdleTime` every half
/// second while the person is idle, the one service with no signal for it). Nothing on it
/// waits for a peer: idle, with none of those, costs nothing.
public final class Daemon {
    /// What the daemon is started with.
    public struct Options: Sendable {
        /// Take the bus name over from a running daemon.
        public var replace = false
        /// The process environment (bus address, data folder, TZ).
        public var environment: Environment
        /// The store's path.
        public var storePath: String
        /// The file that names the system's zone.
        public var localtime = "/etc/localtime"
        /// The words of the session's language for the pop-ups' buttons and catch-up lines.
        public var language: Language = .english
        /// Reported by `Status`.
        public var version: String
        /// How long a place must stay gone before it counts as left (`--leave-after`).
        public var leaveAfter: TimeInterval = 120
        /// The window (`nudge-window`), started at a reminder when its pop-up's body is
        /// clicked; `nil` where it is not installed (the daemon runs without GTK).
        public var windowProgram: String?
        /// nudge-sync, run in the background for the calendars synced (``SyncSchedule``);
        /// `nil` where it is not installed.
        public var syncProgram: String?

        /// Options from the environment.
        public init(environment: Environment, version: String) {
            self.environment = environment
            self.storePath = AppDatabase.defaultPath(environment: environment)
            self.version = version
        }
    }

    let options: Options
    let log: Logger
    let loop = EventLoop()
    let connection: Connection
    let delivery: FreedesktopDelivery
    let badge: LauncherBadge
    /// The store, followed to another file put at its path.
    let storage: DaemonStore
    let scheduler: Scheduler
    /// Whether the person is away (screen locked, do not disturb).
    let presence: Presence
    /// Where the person is (NetworkManager, GeoClue); `nil` without a system bus.
    let places: Places?
    let timer: WallClockTimer
    let files: FileWatcher
    /// The log, drinks and server ids not written yet.
    let pending = PendingLog()
    /// The store's files changed but no commit was visible yet: look once more when this
    /// timer fires. A writer's last WAL write comes before it publishes the commit in the
    /// -shm (which inotify cannot see, being written through a mapping).
    var storeRecheck: EventLoop.Source!
    /// Makes the last good copy again once the person's changes have settled (see
    /// ``DaemonStore/copyDeadline``).
    var lastGoodCopy: EventLoop.Source!
    var shownBadge: LauncherBadge.State?
    /// Sends again what a present server refused (GNOME's helper up before its shell): armed
    /// after a refusal, at 1, 2, 4, 8 and 16 s, then left to the next server that appears.
    var redeliver: EventLoop.Source!
    var redeliveries = 0
    /// Whether what an earlier run left waiting was shown again (once).
    var redeliveredLeftover = false
    /// The notification server last noted in ``ServerNote``.
    var notedServer: String?
    var exit: ExitStatus?
    var armed: Date??
    /// The desktop's search (GNOME's overview, KRunner), answered here.
    lazy var search = DesktopSearch(daemon: self)
    /// Background syncs of the calendars (`nudge sync`), where nudge-sync is installed.
    var sync: SyncSchedule?

    /// Sets everything up and runs until a signal, a replacement or the loss of the bus;
    /// returns the exit status. A failure to start is thrown, for one line on stderr.
    public static func run(_ options: Options, log: Logger) throws(StartError) -> ExitStatus {
        setUpProcess()
        return try Daemon(options, log: log).run()
    }

    /// What the whole process is set to, once, before anything else: one malloc arena
    /// (the store is parsed on several threads, and what stays, the alerts, would
    /// otherwise pin each thread's arena, so freed pages could not go back), and children
    /// (sound players, `gsettings`) reaped by the loop, SIGCHLD at its default.
    static func setUpProcess() {
        mallopt(M_ARENA_MAX, 1)
        signal(SIGCHLD, SIG_DFL)
    }

    /// Why the daemon could not start.
    public struct StartError: Error, Sendable {
        /// The exit status it calls for.
        public var exit: ExitStatus
        /// One line saying what is wrong.
        public var message: String
    }

    private init(_ options: Options, log: Logger) throws(StartError) {
        self.options = options
        self.log = log
        connection = try Self.connect(options.environment)
        // The store first: a daemon that cannot use it never takes the name, so whoever
        // started it (D-Bus activation, systemd) is told it failed, not left without a reply.
        do {
            storage = try DaemonStore(path: options.storePath, log: log)
        } catch {
            throw StartError(exit: .ioError, message: error.message(options.storePath))
        }
        let previousOwner = try Self.own(connection, replace: options.replace)
        let watched = try Self.watched(connection, options)
        (delivery, timer, files) = (watched.delivery, watched.timer, watched.files)
        badge = LauncherBadge(connection: connection, path: NudgeService.objectPath)
        let leftover: [UUID]
        (scheduler, leftover) = try Self.scheduler(from: storage, delivery: watched.delivery, options: options, log: log)
        do {
            let minutes = (try? storage.store?.settings())?[.idleMinutes] ?? Setting.idleMinutes.defaultValue
            presence = try Presence(connection: connection, logind: Self.logind(options.environment, loop: loop, log: log),
                                    loop: loop, environment: options.environment, idleThreshold: minutes * 60)
        } catch {
            throw StartError(exit: .unavailable, message: "cannot set up: \(error)")
        }
        places = Self.places(options, loop: loop, log: log)
        try addSources()
        refreshWater(now: Date())
        followDelivery()
        noteServer()
        showAgainWhatWaited(leftover: leftover, previousOwner: previousOwner)
        // Offered before presence is asked: the loop turns for those answers, and a call
        // that started the daemon (D-Bus activation) is waiting to be answered.
        try offerInterface()
        followPresence()
        if let program = options.syncProgram {
            let storage = storage
            sync = SyncSchedule(program: program, loop: loop, log: log, hasAccounts: { (try? storage.store?.hasSyncAccounts()) ?? false },
                                changedSinceSync: { (try? storage.store?.changedSinceSync()) ?? false },
                                // NUDGE_SYNC_LONGEST_SECONDS: the tests' hanging sync is given less than 15 minutes.
                                longestSync: options.environment["NUDGE_SYNC_LONGEST_SECONDS"].flatMap(Double.init) ?? SyncSchedule.longestSync)
            sync?.soon("the daemon started")
        }
        let server = delivery.serverPresent ? "a notification server is there" : "no notification server yet"
        giveBackMemory()
        log.info("started (pid \(getpid())): \(Self.count(scheduler.alertCount)), zone \(scheduler.systemZone.identifier), \(server)")
    }

    /// Whether the person is away, why, and who could say so, for `Status`.
    var awayState: (away: Bool, reason: String, sources: [String]) { (presence.away, presence.reason, presence.followed) }

    // MARK: The loop

    /// Runs the loop until a signal, a replacement or the loss of the bus; returns the
    /// exit status.
    func run() -> ExitStatus {
        loop.addBeforeWait { [unowned self] in turn() }
        do {
            try loop.run()
        } catch {
            log.critical("\(error)")
            exit = .unavailable
        }
        return stop(exit ?? .success)
    }

    /// Before every wait: what is due is fired, the log saved, the badge shown, the store's
    /// log emptied, and the timer armed at the next due instant.
    func turn() {
        if exit != nil { return loop.exit() }
        let now = Date()
        // A new drink day: its total starts again (read once, when awake anyway).
        if let water = scheduler.water, now >= water.end { refreshWater(now: now) }
        // One alert at a time, each recorded before the next Notify leaves, and none while
        // the server has as many to answer as it may (the rest fire as its answers come,
        // each a turn): a crash repeats at most the pop-ups in flight.
        var turns = scheduler.alertCount + 1
        while scheduler.isDue(now), !delivery.isBusy, turns > 0, exit == nil {
            report(scheduler.run(now: now, limit: 1), at: now)
            save()
            turns -= 1
        }
        save()
        showBadge(now: now)
        places?.follow(areas: scheduler.placesWatched.areas)
        // The log emptied once written, and the daily check and copy when due; not while
        // a pop-up's id is on its way: its row is written when it comes (or fails), a turn
        // or two later, and one checkpoint then serves both writes (a checkpoint is three
        // fsyncs, most of what a fire costs).
        if pending.awaitingIDs == 0, storage.settle() { giveBackMemory() }
        if exit != nil { return loop.exit() }
        arm()
    }

    func arm() {
        // Due but waiting for the server's answers: those wake the loop, not the timer.
        let next = delivery.isBusy && scheduler.isDue(Date()) ? nil : scheduler.nextWake
        guard armed != .some(next) else { return }
        do {
            try timer.arm(atEpochSeconds: next?.timeIntervalSince1970)
            armed = .some(next)
            log.debug("sleeping until \(next.map { InstantFormat.iso8601($0, in: scheduler.systemZone) } ?? "something changes")")
        } catch {
            log.error("cannot arm the timer: \(error)")
        }
    }

    func handle(signal: Int32) {
        switch signal {
        case SIGHUP:
            log.info("SIGHUP: reloading the store")
            reload(force: true)
        default:
            log.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
            exit = .success
        }
    }

    func filesChanged(_ paths: Set<String>) {
        log.debug("changed: \(paths.sorted().joined(separator: ", "))")
        if paths.contains(options.localtime) {
            let zone = SystemZone.resolve(environment: options.environment, localtime: options.localtime).zone
            if zone != scheduler.systemZone {
                log.info("the system's time zone is now \(zone.identifier)")
                scheduler.setSystemZone(zone)
                refreshWater(now: Date())
            }
        }
        if paths.contains(where: { $0 != options.localtime }), !reload(force: false) {
            storeRecheck.deadline = monotonicSeconds() + 0.05
        }
    }

    /// Re-reads the alerts when another process changed the store (or always, when forced),
    /// following it to another file put at its path. Returns whether it looked at anything
    /// new (otherwise the store's files changed before the commit showed: look once more).
    @discardableResult
    func reload(force: Bool) -> Bool {
        let now = Date()
        switch storage.look(force: force, holds: { scheduler.alert($0) != nil }, heldCount: scheduler.count, held: { scheduler.ids }) {
        case .unchanged:
            return false
        case .waiting:
            break
        case .gone:
            search.storeChanged()
            scheduler.sync([], now: now)
        case .changed(let changes, let removed):
            search.storeChanged()
            sync?.storeChanged()
            copyLater()
            // The day's water first: a drink takes effect at once. The idle threshold may
            // have changed too.
            refreshWater(now: now)
            if let minutes = try? storage.store?.settings()[.idleMinutes] { presence.setIdleThreshold(minutes * 60) }
            if changes.isWhole {
                scheduler.sync(changes.alerts, now: now)
                giveBackMemory()
                log.info("reloaded the store: \(Self.count(changes.alerts.count))")
            } else {
                // Only what changed was read: the rows of the alerts changed since the last read.
                scheduler.update(changes.alerts, removing: removed, now: now)
                log.info("reloaded the store: \(Self.count(changes.alerts.count)) changed, \(removed.count) removed")
            }
        case .replaced(let alerts):
            search.storeChanged()
            copyLater()
            // A folder made anew needs watching anew.
            try? StoreSession.watch(options.storePath, with: files)
            let held = Set(scheduler.ids)
            scheduler.sync(alerts, now: now)
            // An alert the daemon did not hold keeps a snooze the file has that is still ahead
            // (it was written over with none, and a once alert snoozed never came back).
            if let states = try? storage.store?.states() {
                for alert in alerts where !held.contains(alert.id) {
                    if let until = states[alert.id]?.snoozedUntil { scheduler.keepSnooze(alert.id, until: until, now: now) }
                }
            }
            refreshWater(now: now)
            // The runtime state (counts, pop-ups on screen) carries over for alerts the
            // new file has; their rows are written anew.
            for alert in alerts { scheduler.markChanged(alert.id) }
            giveBackMemory()
        }
        return true
    }

    /// The person's data changed: the last good copy follows once the changes settle.
    func copyLater() {
        storage.changedElsewhere()
        lastGoodCopy.deadline = storage.copyDeadline
    }

    /// After reading the whole store (starting, reloading): SQLite's cache, the heap the rows
    /// were freed to, and the clean pages touched only while loading go back, instead of the
    /// peak staying resident for the rest of the session.
    func giveBackMemory() {
        storage.store?.releaseMemory()
        malloc_trim(0)
        let released = ResidentPages.dropClean()
        log.debug("gave back \(released / 1024) KiB of pages touched while loading")
    }

    static func count(_ alerts: Int) -> String { "\(alerts) alert\(alerts == 1 ? "" : "s")" }

    func stop(_ exit: ExitStatus) -> ExitStatus {
        save()
        showBadge()
        try? connection.releaseName(NudgeService.busName)
        connection.flush()
        log.info("stopped")
        return exit
    }

    // MARK: For the bus interface

    /// The scheduler, for the bus interface.
    var core: Scheduler { scheduler }

    /// Whether a notification server is there.
    var serverPresent: Bool { delivery.serverPresent }

    /// What the daemon keeps per pop-up, by where: for `Status` and the soak benchmark.
    var bookkeeping: [(String, Int)] {
        let tracked = scheduler.trackedPopups
        return [("popups-shown", tracked.shown), ("popups-unsettled", tracked.unsettled),
                ("delivery-tracked", delivery.trackedCount), ("log-rows-awaiting-id", pending.awaitingIDs)]
    }
}
