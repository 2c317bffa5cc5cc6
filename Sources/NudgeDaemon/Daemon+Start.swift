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
/// Start-up: the bus, the store's and the clock's watches, the scheduler over what the
/// store holds, presence, and the interface offered; every failure one `StartError`.
extension Daemon {
    /// A connection to the session bus the environment names.
    static func connect(_ environment: Environment) throws(StartError) -> Connection {
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
    static func logind(_ environment: Environment, loop: EventLoop, log: Logger) -> Logind? {
        guard let address = environment.systemBusAddress else { return nil }
        do {
            return try Logind(address: address, sessionID: environment.loginSession, loop: loop)
        } catch {
            log.info("not following logind: cannot reach the system bus at \(address) (\(error))")
            return nil
        }
    }

    /// Where the person is, when there is a system bus to reach: an absent one is no error
    /// (place reminders then wait, and `Status` says why).
    static func places(_ options: Options, loop: EventLoop, log: Logger) -> Places? {
        guard let address = options.environment.systemBusAddress else { return nil }
        do {
            return try Places(address: address, loop: loop, settle: options.leaveAfter) { log.info("places: \($0)") }
        } catch {
            log.info("not following places: cannot reach the system bus at \(address) (\(error))")
            return nil
        }
    }

    /// Arriving and leaving fire the place reminders they match, at once; a network come up
    /// syncs the calendars a few seconds later (what waited offline goes out).
    func followPlaces() {
        places?.onEvents = { [unowned self] events in
            let now = Date()
            for event in events { report(scheduler.place(event, now: now), at: now) }
            if let sync, events.contains(where: { if case .network = $0.spot { $0.edge == .arrive } else { false } }) {
                log.info("a network came up: calendars sync in a few seconds")
                sync.soon("a network came up")
            }
        }
    }

    /// The person going away and coming back: asked once now, the loop turning until every
    /// answer is in (half a second at most each) before anything fires, so what was held
    /// before a restart waits on; then followed. Back, what was held is due at once, and
    /// the loop's next turn shows it.
    func followPresence() {
        presence.onChange = { [unowned self] in
            if presence.away {
                log.info("away: \(presence.reason); reminders that hold wait for the return")
            } else {
                log.info("back: showing what was held")
            }
            scheduler.setAway(presence.away)
        }
        // Not once the bus is gone: the answers would never come. NetworkManager's first
        // answer is where the daemon starts, not a place it arrived at.
        followPlaces()
        while (presence.needsRefresh || presence.isAsking || places?.isAsking == true) && exit == nil {
            do { try loop.turn() } catch { break }
        }
        scheduler.setAway(presence.away)
    }

    /// What the daemon waits on besides the bus: the notification server, the wall-clock
    /// timer, and the store's files and /etc/localtime.
    static func watched(_ connection: Connection, _ options: Options) throws(StartError)
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
    func addSources() throws(StartError) {
        loop.add(bus: connection) { [unowned self] in
            log.critical("lost the session bus; stopping")
            exit = .unavailable
        }
        loop.add(descriptor: timer.fd) { [unowned self] _ in
            if timer.read() == .clockChanged {
                armed = nil
                log.info("the clock was set or the machine resumed; catching up")
                sync?.soon("the clock was set or the machine resumed")
            }
        }
        do {
            try loop.add(signals: [SIGTERM, SIGINT, SIGHUP]) { [unowned self] in handle(signal: $0) }
        } catch {
            throw StartError(exit: .unavailable, message: "cannot set up: \(error)")
        }
        loop.add(descriptor: files.fd) { [unowned self] _ in filesChanged(files.read()) }
        storeRecheck = loop.addTimer { [unowned self] in reload(force: false) }
        lastGoodCopy = loop.addTimer { [unowned self] in
            lastGoodCopy.deadline = nil
            if storage.copyLastGood() { giveBackMemory() }
        }
        delivery.later = { [unowned self] seconds, work in
            var timer: EventLoop.Source?
            timer = loop.addTimer(at: monotonicSeconds() + seconds) {
                timer?.remove()
                work()
            }
        }
        delivery.onPlayerStarted = { [unowned self] pid in
            // Reaped when it ends; never waited for.
            _ = try? loop.add(child: pid) { _ in }
        }
    }

    /// The scheduler over what the store holds, in the system's zone, and the reminders whose
    /// pop-up an earlier run left on screen, which this run shows again.
    static func scheduler(from storage: DaemonStore, delivery: FreedesktopDelivery, options: Options,
                                  log: Logger) throws(StartError) -> (Scheduler, leftover: [UUID]) {
        let alerts: [Alert]
        var states: [UUID: AlertState]
        do {
            (alerts, states) = try storage.whole()
        } catch {
            throw StartError(exit: .ioError, message: "cannot read the store \(options.storePath): \(StoreError(error, path: options.storePath).message)")
        }
        // An earlier run's pop-ups answer its connection, which is gone (and GNOME 48 and
        // later took them down with it): adopted, to be replaced by this run's, where the
        // server that gave their ids is the one there now; otherwise the id may be another
        // app's pop-up by now, and a new one is shown beside whatever is left.
        let sameServer = delivery.serverConnection.map { $0 == ServerNote.read(options.environment) } ?? false
        var leftover: [UUID] = []
        for (id, state) in states {
            guard let shown = state.shownID else { continue }
            states[id]?.shownID = sameServer ? delivery.adopt(serverID: shown) : nil
            leftover.append(id)
        }
        let zone = SystemZone.resolve(environment: options.environment, localtime: options.localtime)
        if let warning = zone.warning { log.warning("\(warning)") }
        let scheduler = Scheduler(alerts: alerts, states: states, zone: zone.zone, now: Date(), delivery: delivery,
                                  language: options.language)
        return (scheduler, leftover)
    }

    /// Shows again what an earlier run left waiting for an answer, once the earlier daemon's
    /// connection is gone: GNOME 48 and later take down every pop-up of an app when the
    /// connection that first sent one for it goes, the new ones included. Waits 5 s at most
    /// for a daemon that is slow to go.
    func showAgainWhatWaited(leftover: [UUID], previousOwner: String?) {
        guard !leftover.isEmpty else { return }
        log.info("showing again \(leftover.count) pop-up(s) an earlier run left waiting for an answer")
        let due = { [unowned self] in
            guard !redeliveredLeftover else { return }
            redeliveredLeftover = true
            let now = Date()
            report(scheduler.showAgain(leftover, now: now), at: now)
        }
        guard let previousOwner, (try? connection.nameHasOwner(previousOwner)) == true else { return due() }
        do {
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameOwnerChanged", arg0: previousOwner)) { message in
                guard let args = try? message.arguments(), args.count == 3, args[2].string == "" else { return }
                due()
            }
        } catch {
            return due()
        }
        if (try? connection.nameHasOwner(previousOwner)) != true { return due() }
        var fallback: EventLoop.Source?
        fallback = loop.addTimer(at: monotonicSeconds() + 5) {
            fallback?.remove()
            due()
        }
    }

    /// Answers, closings, the ids the server gives, and the server coming and going all go
    /// to the scheduler and from there to the store.
    func followDelivery() {
        redeliver = loop.addTimer { [unowned self] in
            let now = Date()
            report(scheduler.deliveryRestored(now: now), at: now)
        }
        delivery.onEvent = { [unowned self] event in
            // The pop-up that said a search added a reminder: its Undo and its click.
            if search.handle(event, activationToken: { delivery.takeActivationToken(for: event.id) }) { return }
            let now = Date()
            if case .failed(let handle, let error) = event {
                pending.failed(handle: handle)
                // Refused by a server that is there: tried again a little later, until it
                // takes it (1, 2, 4 … 60 s apart, then every minute). Unanswered: the reply
                // may still come (a busy server), and a pop-up sent again then shows twice,
                // so the first try again waits a minute for it.
                if error.kind != .noBus, delivery.serverPresent, redeliver.deadline == nil {
                    let delay = Self.retryDelay(after: redeliveries)
                    redeliver.deadline = monotonicSeconds() + (error.kind == .noReply ? max(delay, 60) : delay)
                    redeliveries += 1
                }
            }
            // A click on the body (`default`) is Done, and opens the window at the reminder,
            // with the token the server gave for that click.
            let clicked = event.isBodyClick ? scheduler.alert(shownAs: event.id) : nil
            let token = event.isBodyClick ? delivery.takeActivationToken(for: event.id) : nil
            let records = scheduler.handle(event, now: now)
            report(records, at: now)
            // Once per click: a server repeating the signal changed nothing the second time.
            if let clicked, !records.isEmpty { openWindow(at: clicked, activationToken: token) }
        }
        delivery.onShown = { [unowned self] handle in
            redeliveries = 0
            // The server's id is what the store keeps, for `nudge ack` when no daemon runs,
            // and what the log says (`dunstctl history` shows the same).
            if let id = scheduler.alert(shownAs: handle) { scheduler.markChanged(id) }
            pending.shown(handle: handle, serverID: delivery.serverID(of: handle))
        }
        delivery.onServerChange = { [unowned self] present in
            redeliveries = 0
            redeliver.deadline = nil
            if present {
                noteServer()
                log.info("a notification server appeared; delivering what waited")
                let now = Date()
                report(scheduler.deliveryRestored(now: now), at: now)
            } else {
                log.warning("the notification server went away; reminders wait for the next one")
            }
        }
    }

    /// Notes which server the pop-ups' ids now come from (``ServerNote``).
    func noteServer() {
        guard let server = delivery.serverConnection, server != notedServer else { return }
        ServerNote.write(server, options.environment)
        notedServer = server
    }

    /// Seconds before trying a refused pop-up again, after `attempts` tries: doubling from
    /// one second, never more than a minute apart.
    static func retryDelay(after attempts: Int) -> Double {
        min(Double(1 << min(attempts, 6)), 60)
    }

    /// The daemon's interface on the bus, and stopping when another daemon takes the name.
    func offerInterface() throws(StartError) {
        do {
            try connection.export(DaemonInterface.object(for: self))
            try connection.export(search.shellObject())
            try connection.export(search.runnerObject())
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameLost", arg0: NudgeService.busName)) { [unowned self] _ in
                log.info("another daemon took over \(NudgeService.busName); stopping")
                exit = .success
            }
        } catch {
            throw StartError(exit: .unavailable, message: "cannot offer \(NudgeService.objectPath): \(error)")
        }
    }

    /// Takes the bus name, or says who has it; returns the connection that had it (replaced).
    static func own(_ connection: Connection, replace: Bool) throws(StartError) -> String? {
        let previous = replace ? (try? connection.nameOwner(NudgeService.busName)).flatMap { $0 } : nil
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
            return previous
        case .exists, .inQueue:
            let pid = (try? connection.processID(of: NudgeService.busName)).flatMap { $0 }.map { "pid \($0)" } ?? "pid unknown"
            throw StartError(exit: .unavailable, message: "already running (\(pid)); use --replace to take over")
        }
    }
}

extension Daemon {
    /// Starts the window at a reminder (it hands the request to a window already open and
    /// ends). The notification server only knows who sent the pop-up, and that is the
    /// daemon, on every server: so the daemon opens the window, not the server.
    ///
    /// The server's activation token (spec 1.2) goes to the window as `XDG_ACTIVATION_TOKEN`
    /// (Wayland) and `DESKTOP_STARTUP_ID` (X11), as a launcher passes it: without it a
    /// compositor may open the window behind others.
    func openWindow(at id: UUID, activationToken: String? = nil) {
        openWindow(["--show", id.hex], activationToken: activationToken)
    }

    /// Starts the window with its search holding `text` (the desktop search's "more
    /// results" for what was typed there).
    func openWindow(searching text: String, activationToken: String? = nil) {
        openWindow(["--search", text], activationToken: activationToken)
    }

    private func openWindow(_ arguments: [String], activationToken: String?) {
        guard let program = options.windowProgram else { return }
        let variables = activationToken.map { ["XDG_ACTIVATION_TOKEN": $0, "DESKTOP_STARTUP_ID": $0] } ?? [:]
        do {
            let (pid, _) = try ChildProcess.spawn(program, arguments, group: true, adding: variables)
            try loop.add(child: pid) { [log] exit in
                if exit != .exited(0) { log.warning("\(program) \(arguments[0]) ended with \(exit)") }
            }
        } catch {
            log.warning("cannot open the window: \(error)")
        }
    }
}
