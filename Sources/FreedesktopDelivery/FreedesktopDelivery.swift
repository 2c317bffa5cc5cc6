#if canImport(Glibc)
import Glibc
#endif
import DBus
import NudgeCore
import Platform

/// ``Delivery`` through the freedesktop notification service on the session bus
/// (`org.freedesktop.Notifications`): Notify, CloseNotification, and the ActionInvoked /
/// NotificationClosed signals as events.
///
/// Calls never auto-start a server, so "nobody there" is an answer in milliseconds instead
/// of a bus trying to spawn a daemon that cannot run. Events for ids this instance did not
/// issue (or has released) are ignored: servers that broadcast would otherwise hand us
/// everyone's clicks.
///
/// It reports signals in the order they come and gives them no meaning: an ActionInvoked
/// after the NotificationClosed of the same click reaches `onEvent` like any other, because
/// a closed pop-up's id stays matched until its client releases it. Making one answer of
/// the two is the client's work (the scheduler's `PopupLedger`), not this layer's.
public final class FreedesktopDelivery: Delivery {
    /// The service's bus name.
    public static let busName = "org.freedesktop.Notifications"
    /// The service's object path.
    public static let objectPath = "/org/freedesktop/Notifications"
    /// The service's interface.
    public static let interface = "org.freedesktop.Notifications"

    /// How `deliver` deals with the server's reply.
    public enum ReplyMode: Sendable {
        /// Wait for the server's id and return it (the command line).
        case wait
        /// Send and return at once with a handle of our own; the server's id is matched to
        /// it when the reply comes, during ``Connection/dispatch()`` (the daemon, whose loop
        /// must never stall on a hung server). Failures arrive as ``DeliveryEvent/failed(id:error:)``.
        case queue
    }

    /// The connection the notifications go through; it must stay open for answers to arrive.
    public let connection: Connection
    /// How `deliver` deals with replies.
    public let replyMode: ReplyMode
    /// Called for each answer to a notification this instance showed.
    public var onEvent: ((DeliveryEvent) -> Void)?
    /// Called with a handle when the server's id for it came back (also for a pop-up
    /// withdrawn meanwhile, which is then closed); queue mode only.
    public var onShown: ((UInt32) -> Void)?
    /// Called when a server takes the name (`true`) or leaves it (`false`); queue mode only.
    public var onServerChange: ((Bool) -> Void)?
    /// Called with the pid of each sound player started here (the server could not play
    /// the sound), for a long-lived process to reap it when it ends.
    public var onPlayerStarted: ((pid_t) -> Void)?
    /// Runs work after some seconds, on the caller's loop (queue mode). With it a `Notify`
    /// the server refuses for now (Plasma's ExcessNotificationGeneration) is sent again, and
    /// a pop-up the server closes by itself after an action is not closed a second time.
    public var later: ((Double, @escaping () -> Void) -> Void)?
    /// How long to wait for the server's reply.
    public var timeout: Duration = Connection.defaultTimeout
    /// Whether a server owns the name (queue mode tracks it through NameOwnerChanged).
    public private(set) var serverPresent = true
    private let environment: Environment
    /// Whether the server's signals reach this delivery (see init).
    private let listening: Bool
    /// Our handle → the server's id, and back, for every pop-up not released yet. In wait
    /// mode the two are the same.
    private var serverIDs: [UInt32: UInt32] = [:]
    private var handles: [UInt32: UInt32] = [:]
    /// Handles whose pop-up closed: the server's id is no longer theirs to close or replace
    /// (the server may hand it out again), but its signals still reach them until released.
    private var closed: Set<UInt32> = []
    private var lastHandle: UInt32 = 0
    /// Handles withdrawn before the server's id for them came back.
    private var withdrawnEarly: Set<UInt32> = []
    private var cachedCapabilities: Set<Capability>?
    /// When the search for a local sound player last found none (``monotonicSeconds()``).
    private var noPlayerSince: Double?
    private var askingCapabilities = false
    private var cachedServer: ServerInformation?
    /// Handles whose pop-up got an action: the server closes such a pop-up by itself, so a
    /// withdrawal waits a moment for that instead of closing it twice (Plasma reports a
    /// second close), and closes it only if the server did not.
    private var answered: Set<UInt32> = []
    /// Server ids of answered pop-ups withdrawn, to close unless the server does first.
    private var closingSoon: [UInt32: UInt32] = [:]
    /// What was sent for each open pop-up, in sending order, where the server leaves a pop-up
    /// queued behind an answered one unseen (``ServerFit/stallsAfterAnswer``): sent again then.
    private var sent: [UInt32: (order: UInt64, notification: Notification, markup: Bool)] = [:]
    private var sentCount: UInt64 = 0

    /// Uses a connection and listens for the service's signals on it, unless `listening` is
    /// false (a pop-up sent and left: `nudge send` without -w, -A or --check-shown, whose
    /// pace is notify-send's).
    public init(connection: Connection, replyMode: ReplyMode = .wait, listening: Bool = true,
                environment: Environment = .current) throws(DeliveryError) {
        self.connection = connection
        self.replyMode = replyMode
        self.environment = environment
        self.listening = listening || replyMode == .queue
        do {
            // Only the server's own signals: the bus filters by the name's owner, and
            // received(_:) checks the sender too (a signal sent straight to us passes
            // every rule).
            if self.listening {
                try connection.subscribe(MatchRule(sender: Self.busName, interface: Self.interface, path: Self.objectPath),
                                         confirmed: false) { [weak self] message in
                    self?.received(message)
                }
            }
            if replyMode == .queue {
                try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                   member: "NameOwnerChanged", arg0: Self.busName)) { [weak self] message in
                    guard let args = try? message.arguments(), args.count == 3, let owner = args[2].string else { return }
                    self?.serverChanged(present: !owner.isEmpty)
                }
                serverPresent = try connection.nameHasOwner(Self.busName)
                // What is sent depends on them (markup escaping, who plays the sound), and a
                // daemon may deliver catch-up pop-ups right after starting: ask now, briefly.
                if serverPresent, (try? capabilities(timeout: .milliseconds(500))) == nil
                    || (try? serverInformation(timeout: .milliseconds(500))) == nil { askCapabilities() }
            }
        } catch {
            throw Self.translate(error)
        }
    }

    /// Connects to the session bus the environment names (never autolaunching one) and
    /// uses that connection.
    public static func session(listening: Bool = true, environment: Environment = .current) throws(DeliveryError) -> FreedesktopDelivery {
        guard let address = environment.sessionBusAddress else {
            throw DeliveryError(.noBus, Phrase("no session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist"))
        }
        let connection: Connection
        do {
            connection = try Connection.bus(address: address)
        } catch {
            // TRANSLATORS: %1$s is the bus's address, %2$s the error (libdbus's words).
            throw DeliveryError(.noBus, Phrase("cannot reach the session bus at %1$s (%2$s)", address, error.message.isEmpty ? error.name.rawValue : error.message))
        }
        return try FreedesktopDelivery(connection: connection, listening: listening, environment: environment)
    }

    private func message(_ member: String, _ arguments: [Value]) throws(BusError) -> Message {
        let message = try Message.methodCall(destination: Self.busName, path: Self.objectPath,
                                             interface: Self.interface, member: member)
        // A server the bus starts on demand (dunst or mako on i3 and sway) is started by a
        // send, as notify-send starts it. The daemon waits for one to appear instead: it
        // follows the name's owner and delivers when a server is there.
        message.autoStart = replyMode != .queue
        try message.append(contentsOf: arguments)
        return message
    }

    private func call(_ member: String, _ arguments: [Value] = [], timeout: Duration? = nil) throws(DeliveryError) -> [Value] {
        do {
            return try connection.call(message(member, arguments), timeout: timeout ?? self.timeout).arguments()
        } catch {
            throw Self.translate(error)
        }
    }

    /// Sends without waiting; `reply` gets the values or the error during a later dispatch,
    /// and `late` a reply that came after the timeout.
    private func send(_ member: String, _ arguments: [Value], reply: @escaping (Result<[Value], DeliveryError>) -> Void,
                      late: ((Result<[Value], DeliveryError>) -> Void)? = nil) {
        do throws(BusError) {
            connection.send(try message(member, arguments), timeout: timeout, reply: { reply(Self.values($0)) },
                            late: late.map { late in { late(Self.values($0)) } })
        } catch {
            reply(.failure(Self.translate(error)))
        }
    }

    private static func values(_ result: Result<Message, BusError>) -> Result<[Value], DeliveryError> {
        switch result {
        case .success(let message):
            do throws(BusError) { return .success(try message.arguments()) } catch { return .failure(Self.translate(error)) }
        case .failure(let error):
            return .failure(Self.translate(error))
        }
    }

    static func translate(_ error: BusError) -> DeliveryError {
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner:
            // TRANSLATORS: %s is the notification service's bus name.
            DeliveryError(.noServer, Phrase("no notification server: nothing owns %s on the session bus", busName))
        case .noReply, .timeout:
            DeliveryError(.noReply, Phrase("the notification server (%s) did not answer in time", busName))
        case .disconnected, .noServer, .ioError:
            // TRANSLATORS: %s is the error (libdbus's words).
            DeliveryError(.noBus, Phrase("lost the session bus (%s)", "\(error)"))
        default:
            // TRANSLATORS: %1$s is the notification service's bus name, %2$s its error.
            DeliveryError(.rejected, Phrase("%1$s refused: %2$s", busName, "\(error)"))
        }
    }

    /// The server's capabilities, asked once (waiting up to `timeout`, by default the
    /// delivery's) and then remembered.
    public func capabilities(timeout: Duration? = nil) throws(DeliveryError) -> Set<Capability> {
        if let cachedCapabilities { return cachedCapabilities }
        let names = try call("GetCapabilities", timeout: timeout).first?.strings ?? []
        let caps = Set(names.map(Capability.init(rawValue:)))
        cachedCapabilities = caps
        return caps
    }

    /// Asks the capabilities and who the server is, without waiting; `done` runs once both
    /// answered (or failed).
    private func askCapabilities(then done: (() -> Void)? = nil) {
        guard !askingCapabilities else {
            done?()
            return
        }
        askingCapabilities = true
        send("GetCapabilities", []) { [weak self] result in
            guard let self else { return }
            if case .success(let values) = result {
                cachedCapabilities = Set((values.first?.strings ?? []).map(Capability.init(rawValue:)))
            }
            send("GetServerInformation", []) { [weak self] result in
                guard let self else { return }
                askingCapabilities = false
                if case .success(let values) = result { cachedServer = Self.serverInformation(values) }
                done?()
            }
        }
    }

    /// Who the server is, asked once (waiting up to `timeout`, by default the delivery's)
    /// and then remembered.
    public func serverInformation(timeout: Duration? = nil) throws(DeliveryError) -> ServerInformation {
        if let cachedServer { return cachedServer }
        let values = try call("GetServerInformation", timeout: timeout)
        guard let info = Self.serverInformation(values) else {
            throw DeliveryError(.rejected, "\(Self.busName) answered GetServerInformation with \(values.count) values, not 4 strings")
        }
        cachedServer = info
        return info
    }

    private static func serverInformation(_ values: [Value]) -> ServerInformation? {
        let strings = values.compactMap(\.string)
        guard strings.count == 4, values.count == 4 else { return nil }
        return ServerInformation(name: strings[0], vendor: strings[1], version: strings[2], specVersion: strings[3])
    }

    /// How pop-ups are sent to this server (``ServerFit``): known once the server said who
    /// it is, the spec's way until then.
    public var fit: ServerFit { cachedServer.map(ServerFit.init) ?? .standard }

    /// Who plays sounds: the server, a local player, or nobody.
    public func soundPlayback() throws(DeliveryError) -> SoundPlayback {
        if try capabilities().contains(.sound) { return .server }
        if let player = localPlayer() { return .local(player) }
        return .none
    }

    /// Shows the notification (`Notify`) and plays its sound here when the server cannot.
    ///
    /// In wait mode the capabilities are asked only when they change what is sent or done
    /// (text that needs escaping, a sound), so a plain pop-up costs a single round trip. In
    /// queue mode the ones known are used (they are asked as soon as a server appears), a
    /// missing server is an error at once, and the returned handle stands for the pop-up.
    public func deliver(_ notification: Notification) throws(DeliveryError) -> UInt32 {
        var notification = notification
        let caps: Set<Capability>
        switch replyMode {
        case .wait:
            let needsCapabilities = notification.sound != nil
                || (notification.bodyIsPlainText && WireFormat.needsEscaping(notification.body))
            caps = needsCapabilities || cachedCapabilities != nil ? try capabilities() : []
            if !notification.actions.isEmpty { _ = try? serverInformation() }
            notification.actions = fit.fit(notification.actions)
        case .queue:
            guard serverPresent else { throw Self.translate(BusError(.serviceUnknown)) }
            // Asked again while either is unknown (a server slow to answer at start).
            if cachedCapabilities == nil || cachedServer == nil { askCapabilities() }
            caps = cachedCapabilities ?? []
            if let known = cachedCapabilities, !known.contains(.actions) { notification.actions = [] }
            notification.actions = fit.fit(notification.actions)
        }
        let handle: UInt32
        switch replyMode {
        case .wait:
            guard let id = try notifyWaiting(WireFormat.notifyArguments(notification, markup: caps.contains(.bodyMarkup))) else {
                throw Self.noID
            }
            handle = id
            // Kept only for the signals that will name it.
            if listening { register(handle: handle, serverID: handle) }
        case .queue:
            handle = newHandle()
            awaitingID.insert(handle)
            if let replaced = notification.replacesID, awaitingID.contains(replaced) {
                // The pop-up it replaces has no id from the server yet (a busy server answers
                // late): sent without one, it would be a second pop-up beside the first.
                replacementsWaiting[replaced, default: []].append((handle, notification, caps.contains(.bodyMarkup)))
            } else {
                sendQueued(handle, notification, markup: caps.contains(.bodyMarkup))
            }
        }
        if let sound = notification.sound, !notification.suppressSound, !caps.contains(.sound),
           let player = localPlayer(), let pid = player.play(sound, environment: environment) {
            onPlayerStarted?(pid)
        }
        return handle
    }

    /// Sends a pop-up in queue mode, replacing the one it names if that is still open.
    private func sendQueued(_ handle: UInt32, _ notification: Notification, markup: Bool) {
        var notification = notification
        let replacedHandle = notification.replacesID
        /// The pop-up this one takes the place of, where the server cannot replace it in place.
        var retired: UInt32?
        notification.replacesID = replacedHandle.flatMap { openServerID($0) }
        if !fit.replacesInPlace, let old = notification.replacesID {
            notification.replacesID = nil
            retired = old
        }
        if fit.stallsAfterAnswer {
            // Replaced in place, it keeps its place in the server's queue.
            let kept = replacedHandle.flatMap { retired == nil ? sent.removeValue(forKey: $0)?.order : nil }
            if kept == nil { sentCount += 1 }
            sent[handle] = (kept ?? sentCount, notification, markup)
        }
        notify(handle, WireFormat.notifyArguments(notification, markup: markup))
        if let retired { retire(serverID: retired) }
    }

    /// Handles whose `Notify` has not been answered yet (queue mode), and the replacements
    /// of each, sent once the answer gives the id to replace (or says there is none).
    private var awaitingID: Set<UInt32> = []
    private var replacementsWaiting: [UInt32: [(handle: UInt32, notification: Notification, markup: Bool)]] = [:]

    /// The answer to a handle's `Notify` came, or will not: its replacements go. Where it
    /// timed out they go without an id to replace, as pop-ups of their own; the one they
    /// stand in for may still show when its reply comes late, and is closed then.
    private func answered(_ handle: UInt32, replyMayCome: Bool = false) {
        awaitingID.remove(handle)
        guard let waiting = replacementsWaiting.removeValue(forKey: handle) else { return }
        if replyMayCome, !waiting.isEmpty { withdrawnEarly.insert(handle) }
        for entry in waiting { sendQueued(entry.handle, entry.notification, markup: entry.markup) }
    }

    static let noID = DeliveryError(.rejected, "\(busName) answered Notify without an id")

    /// Plasma's answer to a pop-up identical to the one before it within a second.
    static let refusedForNow = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"
    /// How often, and how far apart, a `Notify` refused for now is sent again.
    static let notifyAttempts = 3
    static let notifyRetrySeconds = 1.1
    /// How long a withdrawal waits for the server to close an answered pop-up by itself.
    static let closeAfterActionSeconds = 1.0

    /// `Notify`, waiting for the id; one refused for now is sent again a moment later.
    private func notifyWaiting(_ arguments: [Value]) throws(DeliveryError) -> UInt32? {
        var attempt = 1
        while true {
            do throws(BusError) {
                let reply = try connection.call(message("Notify", arguments), timeout: timeout)
                return try reply.arguments().first?.uint32
            } catch where error.name.rawValue == Self.refusedForNow && attempt < Self.notifyAttempts {
                attempt += 1
                var pause = timespec(tv_sec: 1, tv_nsec: 100_000_000)
                nanosleep(&pause, nil)
            } catch {
                throw Self.translate(error)
            }
        }
    }

    /// How many `Notify` calls may wait for their reply at once (queue mode). A server takes
    /// pop-ups one at a time: hundreds sent together (a catch-up after a long sleep, a
    /// restart's leftovers) would each wait behind all the others, and on a loaded machine
    /// the last would pass their timeout, be tried again and come twice; the bus refuses
    /// more than its `max_replies_per_connection` anyway.
    public static let notifyWindow = 8
    /// `Notify` calls sent and not answered yet, and those waiting for a place among them.
    private var notifiesInFlight = 0
    private var notifiesWaiting: [(handle: UInt32, arguments: [Value], attempt: Int)] = []
    private var notifiesWaitingStart = 0
    private var handingOnPlaces = false

    /// Whether as many `Notify` calls wait for their reply as may (``notifyWindow``): a
    /// pop-up shown now would wait for a place. The daemon fires nothing new meanwhile, so
    /// what it records as shown has left, and a crash repeats no more than those in flight.
    public var isBusy: Bool { notifiesInFlight >= Self.notifyWindow }

    /// `Notify` for a handle, without waiting: the reply is matched to it during a later
    /// dispatch. One refused for now is sent again a moment later, unless withdrawn meanwhile.
    /// Beyond ``notifyWindow`` calls awaiting a reply it waits for a place, in order.
    private func notify(_ handle: UInt32, _ arguments: [Value], attempt: Int = 1) {
        guard notifiesInFlight < Self.notifyWindow else {
            notifiesWaiting.append((handle, arguments, attempt))
            return
        }
        notifiesInFlight += 1
        do throws(BusError) {
            connection.send(try message("Notify", arguments), timeout: timeout, reply: { [weak self] result in
                guard let self else { return }
                notifyAnswered()
                if case .failure(let error) = result, error.name.rawValue == Self.refusedForNow,
                   attempt < Self.notifyAttempts, let later {
                    later(Self.notifyRetrySeconds) { [weak self] in
                        guard let self else { return }
                        if withdrawnEarly.remove(handle) != nil { return }
                        notify(handle, arguments, attempt: attempt + 1)
                    }
                    return
                }
                notified(handle, Self.values(result))
            }, late: { [weak self] result in self?.notifiedLate(handle, Self.values(result)) })
        } catch {
            notifyAnswered()
            notified(handle, .failure(Self.translate(error)))
        }
    }

    /// A `Notify` was answered (or could not be sent): its place goes to the next waiting.
    /// A send that fails at once answers inside this loop, which goes on (no recursion).
    private func notifyAnswered() {
        notifiesInFlight -= 1
        guard !handingOnPlaces else { return }
        handingOnPlaces = true
        defer { handingOnPlaces = false }
        while notifiesInFlight < Self.notifyWindow, notifiesWaitingStart < notifiesWaiting.count {
            let next = notifiesWaiting[notifiesWaitingStart]
            notifiesWaitingStart += 1
            if notifiesWaitingStart == notifiesWaiting.count {
                notifiesWaiting.removeAll(keepingCapacity: false)
                notifiesWaitingStart = 0
            }
            notify(next.handle, next.arguments, attempt: next.attempt)
        }
    }

    /// Closes a pop-up another one took the place of, and forgets it at once: its close,
    /// and any signal for it, is no answer to anything.
    private func retire(serverID: UInt32) {
        if let old = handles.removeValue(forKey: serverID) {
            serverIDs[old] = nil
            closed.remove(old)
            answered.remove(old)
            sent[old] = nil
        }
        send("CloseNotification", [.uint32(serverID)]) { _ in }
    }

    /// A pop-up was answered (a button, or a click on it) where the server leaves the ones
    /// queued behind it unseen: each open pop-up sent after it is closed and sent again,
    /// silently (its sound played when it first came), under the same handle.
    private func sendAgain(after place: UInt64) {
        let behind = sent.filter { $0.value.order > place && !closed.contains($0.key) && !answered.contains($0.key) }
        for (handle, entry) in behind.sorted(by: { $0.value.order < $1.value.order }) {
            guard let old = serverIDs[handle] else { continue }  // not shown yet: it arrives after the answer anyway
            serverIDs[handle] = nil
            handles[old] = nil
            // Closed first: the queued copy goes without a banner, and the new one is the
            // arrival that makes the shell show what is queued.
            send("CloseNotification", [.uint32(old)]) { _ in }
            var notification = entry.notification
            notification.replacesID = nil
            notification.suppressSound = true
            sentCount += 1
            sent[handle] = (sentCount, notification, entry.markup)
            notify(handle, WireFormat.notifyArguments(notification, markup: entry.markup))
        }
    }

    /// The player for sounds the server does not play. Without one, PATH is searched again
    /// at most once a minute (one may be installed meanwhile), not on every pop-up.
    private func localPlayer() -> SoundPlayer? {
        let now = monotonicSeconds()
        if let since = noPlayerSince, now - since < 60 { return nil }
        let player = SoundPlayer.find(environment: environment)
        noPlayerSince = player == nil ? now : nil
        return player
    }

    private func notified(_ handle: UInt32, _ result: Result<[Value], DeliveryError>) {
        var replyMayCome = false
        defer { answered(handle, replyMayCome: replyMayCome) }
        switch result {
        case .success(let values):
            guard let id = values.first?.uint32 else {
                onEvent?(.failed(id: handle, error: Self.noID))
                return
            }
            register(handle: handle, serverID: id)
            onShown?(handle)
            if withdrawnEarly.remove(handle) != nil { try? withdraw(handle) }
        case .failure(let error):
            // Without a reply the pop-up may still come: a withdrawal waits for that too.
            if error.kind != .noReply { withdrawnEarly.remove(handle) } else { replyMayCome = true }
            onEvent?(.failed(id: handle, error: error))
        }
    }

    /// The server answered a `Notify` after its timeout: the pop-up is there after all.
    private func notifiedLate(_ handle: UInt32, _ result: Result<[Value], DeliveryError>) {
        guard case .success(let values) = result, let id = values.first?.uint32 else {
            withdrawnEarly.remove(handle)
            return
        }
        register(handle: handle, serverID: id)
        if withdrawnEarly.remove(handle) != nil { try? withdraw(handle) } else { onEvent?(.appeared(id: handle)) }
    }

    private func register(handle: UInt32, serverID: UInt32) {
        // A replacement keeps the server's id, and a server may hand a closed one out again:
        // either way the handle that had it is done with.
        if let previous = handles[serverID], previous != handle {
            serverIDs[previous] = nil
            closed.remove(previous)
            answered.remove(previous)
        }
        closed.remove(handle)
        closingSoon[serverID] = nil
        serverIDs[handle] = serverID
        handles[serverID] = handle
    }

    /// The server's id for a handle whose pop-up is still open.
    private func openServerID(_ handle: UInt32) -> UInt32? {
        closed.contains(handle) ? nil : serverIDs[handle]
    }

    /// Takes over a pop-up shown before (by an earlier run): returns the handle that now
    /// stands for the server's id, so it can be replaced and closed.
    public func adopt(serverID: UInt32) -> UInt32 {
        if let handle = handles[serverID], !closed.contains(handle) { return handle }
        let handle = replyMode == .wait ? serverID : newHandle()
        register(handle: handle, serverID: serverID)
        return handle
    }

    /// The next handle of our own (never 0, which means "no pop-up" on the wire).
    private func newHandle() -> UInt32 {
        lastHandle = lastHandle == .max ? 1 : lastHandle + 1
        return lastHandle
    }

    /// How many pop-ups it keeps track of (ids not released, open or closed; withdrawn early;
    /// calls that may still get a late reply): for the soak benchmark, which checks it stays flat.
    public var trackedCount: Int {
        serverIDs.count + withdrawnEarly.count + closingSoon.count + connection.lateReplies.count + sent.count
            + notifiesWaiting.count - notifiesWaitingStart
    }

    /// The server's id for a handle, once known and while its pop-up is open.
    public func serverID(of handle: UInt32) -> UInt32? { openServerID(handle) }

    /// Forgets a handle: its signals are no longer reported. A pop-up withdrawn before its id
    /// came back is still closed when it does.
    public func release(_ handle: UInt32) {
        sent[handle] = nil
        guard let id = serverIDs.removeValue(forKey: handle) else { return }
        if handles[id] == handle { handles[id] = nil }
        closed.remove(handle)
        answered.remove(handle)
    }

    /// Takes the pop-up away (`CloseNotification`). In queue mode this does not wait, and a
    /// pop-up whose id has not come back yet is closed when it does.
    public func withdraw(_ handle: UInt32) throws(DeliveryError) {
        switch replyMode {
        case .wait:
            _ = try call("CloseNotification", [.uint32(openServerID(handle) ?? handle)])
        case .queue:
            // Withdrawn: never sent again, whatever its close signal is still on its way.
            sent[handle] = nil
            // Closed already: the id may be someone else's now.
            if closed.contains(handle) { return }
            guard let id = serverIDs[handle] else {
                if handle <= lastHandle { withdrawnEarly.insert(handle) }
                return
            }
            if answered.contains(handle), fit.closesAnswered, let later {
                // The server closes an answered pop-up itself; closed only if it did not.
                closingSoon[id] = handle
                later(Self.closeAfterActionSeconds) { [weak self] in
                    guard let self, closingSoon[id] == handle else { return }
                    closingSoon[id] = nil
                    send("CloseNotification", [.uint32(id)]) { _ in }
                }
                return
            }
            send("CloseNotification", [.uint32(id)]) { _ in }
        }
    }

    /// Waits up to `timeout` (forever for `nil`) for bus traffic and handles it; returns
    /// `false` once the bus is gone.
    @discardableResult
    public func process(timeout: Duration?) -> Bool {
        connection.process(timeout: timeout)
    }

    /// The token the server gave with the latest action (spec 1.2), for the pop-up's handle.
    private var activationToken: (handle: UInt32, token: String)?

    /// The activation token the server sent with the action just reported for `handle`, if
    /// any (taken: asked once). A window started for that action passes it on as
    /// `XDG_ACTIVATION_TOKEN`, so a Wayland compositor lets it come to the front.
    public func takeActivationToken(for handle: UInt32) -> String? {
        defer { activationToken = nil }
        guard let activationToken, activationToken.handle == handle, !activationToken.token.isEmpty else { return nil }
        return activationToken.token
    }

    /// The unique name of the server's connection, once asked; forgotten when it changes.
    private var serverOwner: String?

    /// The unique bus name of the server there now (asked once, forgotten when it changes):
    /// the ids a server hands out are its own and mean nothing to the next one.
    public var serverConnection: String? {
        if serverOwner == nil { serverOwner = (try? connection.nameOwner(Self.busName)).flatMap { $0 } }
        return serverOwner
    }

    private func isFromServer(_ message: Message) -> Bool {
        guard let sender = message.sender else { return false }
        return sender == serverConnection
    }

    private func serverChanged(present: Bool) {
        serverOwner = nil
        // Whatever the old server showed is gone with it: say so for each pop-up, so the
        // counts stay and nothing waits for answers that cannot come.
        let gone = handles.values.filter { !closed.contains($0) }
        handles.removeAll()
        serverIDs.removeAll()
        closed.removeAll()
        answered.removeAll()
        closingSoon.removeAll()
        withdrawnEarly.removeAll()
        sent.removeAll()
        connection.forgetLateReplies()
        cachedCapabilities = nil
        cachedServer = nil
        serverPresent = present
        for handle in gone { onEvent?(.closed(id: handle, reason: .undefined)) }
        // A new server is announced once its capabilities are known (or it failed to say),
        // so what waited for it is sent the way it can show it.
        if present {
            askCapabilities { [weak self] in
                guard let self, serverPresent else { return }
                onServerChange?(true)
            }
        } else {
            onServerChange?(false)
        }
    }

    private func received(_ message: Message) {
        guard isFromServer(message), let arguments = try? message.arguments(), let id = arguments.first?.uint32 else { return }
        switch message.member {
        case "ActivationToken":
            // Spec 1.2: sent just before the ActionInvoked it goes with.
            guard message.signature == "us", let token = arguments[1].string, let handle = handles[id] else { return }
            activationToken = (handle, token)
        case "ActionInvoked":
            // Open or closed: some servers send a click's action after its close.
            guard message.signature == "us", let key = arguments[1].string, let handle = handles[id] else { return }
            // Its place in the queue, taken before the answer withdraws it.
            let place = answered.insert(handle).inserted && fit.stallsAfterAnswer ? sent.removeValue(forKey: handle)?.order : nil
            onEvent?(.action(id: handle, key: ActionKey(rawValue: key)))
            if let place { sendAgain(after: place) }
        case "NotificationClosed":
            // Closed by the server: not ours to close any more, whoever the id was.
            if message.signature == "uu" { closingSoon[id] = nil }
            guard message.signature == "uu", let reason = arguments[1].uint32, let handle = handles[id],
                  closed.insert(handle).inserted else { return }
            // The id is invalid from now on (the server may hand it out again); the handle
            // stays matched to it until released, for an action that comes after the close.
            onEvent?(.closed(id: handle, reason: CloseReason(rawValue: reason)))
            // Only a button or a click starts sending again: a dismissal may be one of many
            // (Clear all), whose closes of the others are on their way.
            sent[handle] = nil
        default:
            return
        }
    }
}

/// Who makes a reminder's sound heard.
public enum SoundPlayback: Sendable, Hashable, CustomStringConvertible {
    /// The notification server plays it (it has the `sound` capability).
    case server
    /// Nudge runs this player.
    case local(SoundPlayer)
    /// Nobody: the server cannot, and no player was found.
    case none

    /// `server`, the player's path, or `nobody`.
    public var description: String { phrase.description }

    /// Who plays it, in any language.
    public var phrase: Phrase {
        switch self {
        // TRANSLATORS: who plays a reminder's sound.
        case .server: Phrase("the notification server")
        case .local(let player): .verbatim(player.program)
        // TRANSLATORS: nobody plays a reminder's sound.
        case .none: Phrase("nobody (no sound capability, no player found)")
        }
    }
}
