#if canImport(Glibc)
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

        /// Options from the environment.
        public init(environment: Environment, version: String) {
            self.environment = environment
            self.storePath = AppDatabase.defaultPath(environment: environment)
            self.version = version
        }
    }

    let options: Options
    let log: Logger
    private let loop = EventLoop()
    private let connection: Connection
    private let delivery: FreedesktopDelivery
    private let badge: LauncherBadge
    /// The store, and which file it is: a store deleted, or replaced by rename (sync and
    /// backup tools), is noticed by its inode and reopened. `nil` while the path names no file.
    private var store: AppDatabase?
    private var storeFile: FileIdentity?
    private let scheduler: Scheduler
    /// Whether the person is away (screen locked, do not disturb).
    private let presence: Presence
    private let timer: WallClockTimer
    private let files: FileWatcher
    private var storeVersion: Int
    /// The log, drinks and server ids not written yet.
    private let pending = PendingLog()
    /// Something was written or read in since the last checkpoint.
    private var walDirty = false
    /// The store's files changed but no commit was visible yet: look once more when this
    /// timer fires. A writer's last WAL write comes before it publishes the commit in the
    /// -shm (which inotify cannot see, being written through a mapping).
    private var storeRecheck: EventLoop.Source!
    private var shownBadge: Int?
    private var exit: ExitStatus?
    private var armed: Date??

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
    private static func setUpProcess() {
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
        let opened = try Self.openStore(options.storePath)
        storeVersion = (try? opened.externalChanges()) ?? 0
        try Self.own(connection, replace: options.replace)
        store = opened
        storeFile = FileIdentity(path: options.storePath)
        let watched = try Self.watched(connection, options)
        (delivery, timer, files) = (watched.delivery, watched.timer, watched.files)
        badge = LauncherBadge(connection: connection, path: NudgeService.objectPath)
        scheduler = try Self.scheduler(from: opened, delivery: watched.delivery, options: options, log: log)
        do {
            let minutes = (try? opened.settings())?[.idleMinutes] ?? Setting.idleMinutes.defaultValue
            presence = try Presence(connection: connection, logind: Self.logind(options.environment, loop: loop, log: log),
                                    loop: loop, environment: options.environment, idleThreshold: minutes * 60)
        } catch {
            throw StartError(exit: .unavailable, message: "cannot set up: \(error)")
        }
        try addSources()
        refreshWater(now: Date())
        followDelivery()
        // Offered before presence is asked: the loop turns for those answers, and a call
        // that started the daemon (D-Bus activation) is waiting to be answered.
        try offerInterface()
        followPresence()
        let server = delivery.serverPresent ? "a notification server is there" : "no notification server yet"
        giveBackMemory()
        log.info("started (pid \(getpid())): \(Self.count(scheduler.alertCount)), zone \(scheduler.systemZone.identifier), \(server)")
    }

    /// A connection to the session bus the environment names.
    private static func connect(_ environment: Environment) throws(StartError) -> Connection {
        guard let address = environment.sessionBusAddress else {
            throw StartError(exit: .unavailable, message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
        }
        do {
            return try Connection.bus(address: address)
        } catch {
            throw StartError(exit: .unavailable, message: "cannot reach the session bus at \(address) (\(error))")
        }
    }

    /// logind on the system bus, when there is one to reach: an absent system bus is no error.
    private static func logind(_ environment: Environment, loop: EventLoop, log: Logger) -> Logind? {
        guard let address = environment.systemBusAddress else { return nil }
        do {
            return try Logind(address: address, sessionID: environment.loginSession, loop: loop)
        } catch {
            log.info("not following logind: cannot reach the system bus at \(address) (\(error))")
            return nil
        }
    }

    /// The person going away and coming back: asked once now, the loop turning until every
    /// answer is in (half a second at most each) before anything fires, so what was held
    /// before a restart waits on; then followed. Back, what was held is due at once, and
    /// the loop's next turn shows it.
    private func followPresence() {
        presence.onChange = { [unowned self] in
            if presence.away {
                log.info("away: \(presence.reason); reminders that hold wait for the return")
            } else {
                log.info("back: showing what was held")
            }
            scheduler.setAway(presence.away)
        }
        // Not once the bus is gone: the answers would never come.
        while (presence.needsRefresh || presence.isAsking) && exit == nil {
            do { try loop.turn() } catch { break }
        }
        scheduler.setAway(presence.away)
    }

    /// Whether the person is away, why, and who could say so, for `Status`.
    var awayState: (away: Bool, reason: String, sources: [String]) { (presence.away, presence.reason, presence.followed) }

    /// What the daemon waits on besides the bus: the notification server, the wall-clock
    /// timer, and the store's files and /etc/localtime.
    private static func watched(_ connection: Connection, _ options: Options) throws(StartError)
        -> (delivery: FreedesktopDelivery, timer: WallClockTimer, files: FileWatcher) {
        let watched: (FreedesktopDelivery, WallClockTimer, FileWatcher)
        do {
            watched = (try FreedesktopDelivery(connection: connection, replyMode: .queue, environment: options.environment),
                       try WallClockTimer(), try FileWatcher())
            try StoreSession.watch(options.storePath, with: watched.2)
        } catch {
            throw StartError(exit: .unavailable, message: "cannot set up: \(error)")
        }
        let localtime = options.localtime as NSString
        // No /etc/localtime (containers) is fine: the zone is then UTC or TZ, and nothing moves it.
        try? watched.2.watch(folder: localtime.deletingLastPathComponent, names: [localtime.lastPathComponent])
        return watched
    }

    /// Everything on the loop: the bus, the timer, signals, files, the store's second look,
    /// sound players to reap, and the turn that fires what is due before every wait.
    private func addSources() throws(StartError) {
        loop.add(bus: connection) { [unowned self] in
            log.critical("lost the session bus; stopping")
            exit = .unavailable
        }
        loop.add(descriptor: timer.fd) { [unowned self] _ in
            if timer.read() == .clockChanged {
                armed = nil
                log.info("the clock was set or the machine resumed; catching up")
            }
        }
        do {
            try loop.add(signals: [SIGTERM, SIGINT, SIGHUP]) { [unowned self] in handle(signal: $0) }
        } catch {
            throw StartError(exit: .unavailable, message: "cannot set up: \(error)")
        }
        loop.add(descriptor: files.fd) { [unowned self] _ in filesChanged(files.read()) }
        storeRecheck = loop.addTimer { [unowned self] in reload(force: false) }
        delivery.onPlayerStarted = { [unowned self] pid in
            // Reaped when it ends; never waited for.
            _ = try? loop.add(child: pid) { _ in }
        }
    }

    /// The scheduler over what the store holds, in the system's zone; pop-ups an earlier
    /// run left on screen stay ours to replace and close.
    private static func scheduler(from store: AppDatabase, delivery: FreedesktopDelivery, options: Options,
                                  log: Logger) throws(StartError) -> Scheduler {
        let alerts: [Alert]
        var states: [UUID: AlertState]
        do {
            alerts = try readAlerts(store, log: log)
            states = try store.states()
        } catch {
            throw StartError(exit: .ioError, message: "cannot read the store \(options.storePath): \(StoreError(error, path: options.storePath).message)")
        }
        for (id, state) in states {
            if let shown = state.shownID { states[id]?.shownID = delivery.adopt(serverID: shown) }
        }
        let zone = SystemZone.resolve(environment: options.environment, localtime: options.localtime)
        if let warning = zone.warning { log.warning("\(warning)") }
        return Scheduler(alerts: alerts, states: states, zone: zone.zone, now: Date(), delivery: delivery,
                         language: options.language)
    }

    /// Answers, closings, the ids the server gives, and the server coming and going all go
    /// to the scheduler and from there to the store.
    private func followDelivery() {
        delivery.onEvent = { [unowned self] event in
            let now = Date()
            if case .failed(let handle, _) = event { pending.failed(handle: handle) }
            report(scheduler.handle(event, now: now), at: now)
        }
        delivery.onShown = { [unowned self] handle in
            // The server's id is what the store keeps, for `nudge ack` when no daemon runs,
            // and what the log says (`dunstctl history` shows the same).
            if let id = scheduler.alert(shownAs: handle) { scheduler.markChanged(id) }
            pending.shown(handle: handle, serverID: delivery.serverID(of: handle))
        }
        delivery.onServerChange = { [unowned self] present in
            if present {
                log.info("a notification server appeared; delivering what waited")
                let now = Date()
                report(scheduler.deliveryRestored(now: now), at: now)
            } else {
                log.warning("the notification server went away; reminders wait for the next one")
            }
        }
    }

    /// The daemon's interface on the bus, and stopping when another daemon takes the name.
    private func offerInterface() throws(StartError) {
        do {
            try connection.export(DaemonInterface.object(for: self))
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameLost", arg0: NudgeService.busName)) { [unowned self] _ in
                log.info("another daemon took over \(NudgeService.busName); stopping")
                exit = .success
            }
        } catch {
            throw StartError(exit: .unavailable, message: "cannot offer \(NudgeService.objectPath): \(error)")
        }
    }

    /// Opens the store and checks it (`quick_check`); a damaged one is marked and refused
    /// with what to do. A sound one refreshes its last good copy when it is a day old (the
    /// loop does that later, once a day).
    private static func openStore(_ path: String) throws(StartError) -> AppDatabase {
        let opened: AppDatabase
        do {
            opened = try AppDatabase.open(path: path)
        } catch {
            throw StartError(exit: .ioError, message: "cannot open the store \(path): \(error.message)")
        }
        let problems: [String]
        do {
            problems = try opened.quickCheck()
        } catch {
            throw StartError(exit: .ioError, message: "cannot check the store \(path): \(error.message)")
        }
        guard problems.isEmpty else {
            throw StartError(exit: .ioError, message: "the store \(path) is damaged (\(problems.prefix(2).joined(separator: "; "))); nothing was changed: run `nudge doctor` to restore it")
        }
        // Checked just now: the copy, when due, needs no second pass over the store.
        opened.refreshLastGood(olderThan: lastGoodAge, checked: true)
        return opened
    }

    /// How old the last good copy may grow before the daemon makes a new one.
    static let lastGoodAge: TimeInterval = 86400

    /// Takes the bus name, or says who has it.
    private static func own(_ connection: Connection, replace: Bool) throws(StartError) {
        var flags: Connection.NameFlags = [.allowReplacement, .doNotQueue]
        if replace { flags.insert(.replaceExisting) }
        let reply: Connection.RequestNameReply
        do {
            reply = try connection.requestName(NudgeService.busName, flags: flags)
        } catch {
            throw StartError(exit: .unavailable, message: "cannot own \(NudgeService.busName): \(error)")
        }
        switch reply {
        case .primaryOwner, .alreadyOwner:
            return
        case .exists, .inQueue:
            let pid = (try? connection.processID(of: NudgeService.busName)).flatMap { $0 }.map { "pid \($0)" } ?? "pid unknown"
            throw StartError(exit: .unavailable, message: "already running (\(pid)); use --replace to take over")
        }
    }

    // MARK: The loop

    /// Runs the loop until a signal, a replacement or the loss of the bus; returns the
    /// exit status.
    private func run() -> ExitStatus {
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
    private func turn() {
        if exit != nil { return loop.exit() }
        let now = Date()
        // One alert at a time, each recorded before the next Notify leaves: a crash
        // repeats at most the one pop-up in flight.
        // A new drink day: its total starts again (read once, when awake anyway).
        if let water = scheduler.water, now >= water.end { refreshWater(now: now) }
        var turns = scheduler.alertCount + 1
        repeat {
            report(scheduler.run(now: now, limit: 1), at: now)
            save()
            turns -= 1
        } while scheduler.isDue(now) && turns > 0 && exit == nil
        showBadge()
        if walDirty, store?.checkpoint() != false {
            walDirty = false
            // Once a day (and on the first turn when none is fresh), when the loop is awake
            // anyway: never a wake-up of its own.
            if let store, let problems = store.refreshLastGood(olderThan: Self.lastGoodAge) {
                if problems.isEmpty {
                    giveBackMemory()
                } else {
                    log.critical("the store \(options.storePath) failed its daily check (\(problems.prefix(2).joined(separator: "; "))); writing stopped: run `nudge doctor`")
                    self.store = nil
                }
            }
        }
        if exit != nil { return loop.exit() }
        arm()
    }

    private func arm() {
        let next = scheduler.nextWake
        guard armed != .some(next) else { return }
        do {
            try timer.arm(at: next)
            armed = .some(next)
            log.debug("sleeping until \(next.map { InstantFormat.iso8601($0, in: scheduler.systemZone) } ?? "something changes")")
        } catch {
            log.error("cannot arm the timer: \(error)")
        }
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGHUP:
            log.info("SIGHUP: reloading the store")
            reload(force: true)
        default:
            log.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping")
            exit = .success
        }
    }

    private func filesChanged(_ paths: Set<String>) {
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

    /// Re-reads the alerts when another process changed the store (or always, when forced);
    /// first reopens it when the path names another file than the one open.
    /// Returns whether it re-read anything.
    @discardableResult
    func reload(force: Bool) -> Bool {
        if FileIdentity(path: options.storePath) != storeFile {
            reopen()
            return true
        }
        guard let store else { return true }
        do {
            let version = try store.externalChanges()
            guard force || version != storeVersion else { return false }
            storeVersion = version
            // The day's water first: a drink takes effect at once, before a big store's
            // alerts are read again. The idle threshold may have changed too.
            refreshWater(now: Date())
            if let minutes = try? store.settings()[.idleMinutes] { presence.setIdleThreshold(minutes * 60) }
            let alerts = try Self.readAlerts(store, log: log)
            scheduler.sync(alerts, now: Date())
            giveBackMemory()
            walDirty = true
            log.info("reloaded the store: \(Self.count(alerts.count))")
        } catch {
            storeFailed(error, doing: "read")
        }
        return true
    }



    /// A store error at run time. Damage stops every write (the marker says so to every
    /// other command too) until another file is put in its place; reminders keep firing
    /// from memory meanwhile. Anything else is retried with the next write.
    private func storeFailed(_ error: any Error, doing what: String) {
        let failure = StoreError(error, path: options.storePath)
        guard failure.kind == .corrupt else {
            log.error("cannot \(what) the store \(options.storePath): \(failure.message); will retry")
            return
        }
        log.critical("\(failure.message); writing stopped, reminders go on from memory")
        store = nil
    }

    /// The store's path names another file, or none: what the daemon has open is not what
    /// every other command sees. With no file, nothing is left to fire (the person removed
    /// the store); a new file is opened once it is there, and the alerts follow it. The
    /// runtime state (counts, pop-ups on screen) carries over for alerts the new file has.
    private func reopen() {
        let identity = FileIdentity(path: options.storePath)
        guard identity != nil else {
            if store != nil {
                log.warning("the store \(options.storePath) was removed; no reminders until a new one is there")
                store = nil
                storeFile = nil
                scheduler.sync([], now: Date())
            }
            return
        }
        // The old store goes before the new one opens, without a checkpoint (see
        // StoreSession): what the log beside the path holds may be the new file's by now.
        store?.abandon()
        store = nil
        do {
            let opened = try AppDatabase.open(path: options.storePath)
            let problems = try opened.quickCheck()
            guard problems.isEmpty else {
                log.critical("the store \(options.storePath) that replaced the old one is damaged (\(problems.prefix(2).joined(separator: "; "))); not using it")
                storeFile = identity
                store = nil
                return
            }
            let alerts = try Self.readAlerts(opened, log: log)
            let version = try opened.externalChanges()
            store = opened
            storeFile = FileIdentity(path: options.storePath)
            storeVersion = version
            // A folder made anew needs watching anew.
            try? StoreSession.watch(options.storePath, with: files)
            scheduler.sync(alerts, now: Date())
            refreshWater(now: Date())
            for alert in alerts { scheduler.markChanged(alert.id) }
            giveBackMemory()
            log.info("the store \(options.storePath) is another file now; reopened it: \(Self.count(alerts.count))")
        } catch {
            // Perhaps caught half-made (another process is creating it): the next change
            // to the folder tries again.
            log.error("cannot open the store \(options.storePath) that replaced the old one: \(StoreError(error, path: options.storePath).message); will try again when it changes")
            storeFile = nil
            store = nil
        }
    }

    /// Every alert the store holds that can be read; each row that cannot is logged.
    private static func readAlerts(_ store: AppDatabase, log: Logger) throws -> [Alert] {
        var unreadable: [StoreError] = []
        let alerts = try store.alerts(unreadable: &unreadable)
        for error in unreadable { log.error("\(error.message)") }
        return alerts
    }

    /// After reading the whole store (starting, reloading): SQLite's cache, the heap the rows
    /// were freed to, and the clean pages touched only while loading go back, instead of the
    /// peak staying resident for the rest of the session.
    private func giveBackMemory() {
        store?.releaseMemory()
        malloc_trim(0)
        let released = ResidentPages.dropClean()
        log.debug("gave back \(released / 1024) KiB of pages touched while loading")
    }

    private static func count(_ alerts: Int) -> String { "\(alerts) alert\(alerts == 1 ? "" : "s")" }

    private func stop(_ exit: ExitStatus) -> ExitStatus {
        save()
        showBadge()
        try? connection.releaseName(NudgeService.busName)
        connection.flush()
        log.info("stopped")
        return exit
    }

    // MARK: What happened

    /// Reports what the scheduler did, three ways, each in its own place: into the delivery
    /// log (queued, written with the next save; a drink chosen on a pop-up is written at
    /// once with its answer, and the day's water read back), onto the bus (`Fired` for a
    /// pop-up shown) and into the daemon's own log (a line).
    func report(_ records: [SchedulerRecord], at now: Date) {
        var drank = false
        for record in records {
            let entry = LogEntry(record, at: now, zone: scheduler.systemZone)
            pending.add(entry)
            if case .drank(_, let millilitres, _) = record {
                pending.addDrink(millilitres, at: now)
                drank = true
            }
            guard let alert = scheduler.alert(record.alertID) else { continue }
            if record.showsPopup { announce(alert) }
            logLine(record, entry, alert)
        }
        if drank {
            save()
            refreshWater(now: now)
        }
    }

    /// The daemon's log line for what happened to `alert`.
    private func logLine(_ record: SchedulerRecord, _ entry: LogEntry, _ alert: Alert) {
        let name = "\(alert.shortID) \u{201C}\(alert.title.escapingControls)\u{201D}"
        switch record {
        case .fired(_, let due, _, let count):
            let late = entry.at.timeIntervalSince(due) * 1000
            log.info("fired \(name) count \(count) (\(String(format: "%.2f", late)) ms after its time)")
        case .caughtUp(_, let missed, let since, _):
            log.info("caught up \(name): missed \(missed) since \(InstantFormat.iso8601(since, in: scheduler.systemZone))")
        case .snoozeFired, .redelivered: log.info("fired \(name) again (\(entry.event))")
        case .shownOnReturn(_, let held, _, _): log.info("shown on return \(name): \(held) held while away")
        case .nagged(_, let attempt, _): log.info("shown again \(name): try \(attempt), unanswered")
        case .held(_, let count, _): log.info("held \(name): \(count) while away")
        case .drank(_, let millilitres, _): log.info("drank \(millilitres) ml from \(name)")
        case .goalMet: log.info("the day's water goal is met: \(name) rests until the next drink day")
        case .missed(_, let count, let since):
            log.info("missed \(name): \(count) since \(InstantFormat.iso8601(since, in: scheduler.systemZone)), only logged")
        case .deliveryFailed(_, let error): log.warning("could not show \(name): \(error.message)")
        default: log.info("\(entry.event) \(name)")
        }
    }

    /// Reads the day's water from the store and gives it to the scheduler, whose water
    /// reminders follow it; says `Water(u today, u goal)` on the bus when it moved.
    func refreshWater(now: Date) {
        guard let store else { return }
        do {
            let progress = try store.waterProgress(now: now, zone: scheduler.systemZone)
            let moved = progress != scheduler.water
            report(scheduler.setWater(progress, now: now), at: now)
            guard moved else { return }
            try? connection.emit(path: NudgeService.objectPath, interface: NudgeService.interface, member: "Water",
                                 arguments: [.uint32(UInt32(clamping: progress.intake)), .uint32(UInt32(clamping: progress.goal))])
        } catch {
            storeFailed(error, doing: "read the water from")
        }
    }

    /// A drink logged through the bus: kept in the store; returns the day's total.
    func drink(_ millilitres: Int, now: Date) throws(StoreError) -> Int {
        guard let store else { throw StoreError(.io, Phrase("the store cannot be written")) }
        try store.logDrink(millilitres, at: now)
        refreshWater(now: now)
        return scheduler.water?.intake(at: now) ?? millilitres
    }

    /// `Fired(s id, u count)`, with the count the pop-up shows.
    private func announce(_ alert: Alert) {
        let count = scheduler.state(alert.id)?.pendingCount ?? 0
        try? connection.emit(path: NudgeService.objectPath, interface: NudgeService.interface, member: "Fired",
                             arguments: [.string(alert.id.hex), .uint32(UInt32(max(count, 0)))])
    }

    /// Writes changed states and the log in one transaction. The log names pop-ups by the
    /// server's id; one whose id has not come back yet gets it written when it does.
    private func save() {
        let changed = scheduler.takeChanged()
        guard !changed.isEmpty || !pending.isEmpty else { return }
        guard let store else {
            // No store file: nothing to keep it in.
            return pending.discard()
        }
        var states: [UUID: AlertState] = [:]
        for id in changed {
            guard var state = scheduler.state(id) else { continue }
            state.shownID = state.shownID.flatMap(delivery.serverID(of:))
            states[id] = state
        }
        do {
            try pending.write(to: store, states: states, serverID: delivery.serverID(of:))
            walDirty = true
        } catch {
            storeFailed(error, doing: "write")
            for id in changed { scheduler.markChanged(id) }
        }
    }

    /// Shows the total on the launcher when it moved.
    private func showBadge() {
        let total = scheduler.totalPending
        if shownBadge != total {
            try? badge.show(total)
            shownBadge = total
        }
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

private extension SchedulerRecord {
    /// Whether it put a pop-up on screen (announced on the bus as `Fired`).
    var showsPopup: Bool {
        switch self {
        case .fired, .caughtUp, .snoozeFired, .redelivered, .shownOnReturn, .nagged: true
        default: false
        }
    }
}
