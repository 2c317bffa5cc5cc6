import DaemonAPI
import DBus
import Foundation
import Localization
import NudgeCore
import NudgeStore
import Platform

/// The alerts as they are now, followed live for a face that stays open (`nudge ui`, the
/// window): one object on the face's ``EventLoop`` owns the store session, the watch on the
/// store's folder, the wait for a writer to finish, the session bus (the daemon coming,
/// going and firing) and the daemon's `Status()`, and hands out a ``Snapshot`` with what
/// changed since the last one. It never polls: it reads the store when the folder says it
/// changed (30 ms after the last write, 200 ms at most), when the daemon fires, and at the
/// next showing.
///
/// Between reads the store is let go (``init(world:loop:bus:weekChart:statusEvery:letsStoreGo:)``):
/// a face left open for hours must not hold the file. While any process holds it, SQLite's
/// shared index beside it (-shm) stays, and a backup renamed in meanwhile would be read
/// through the old file's index, as damaged. The window keeps it instead: letting a store
/// go disposes GRDB's dispatch queue, which starts libdispatch's worker pool, whose monitor
/// then wakes the process once a second for as long as it runs.
public final class AlertFeed {
    /// The daemon, while it runs and answers.
    public struct Service: Sendable, Equatable {
        /// Pop-ups waiting for an answer.
        public var pending: Int
        /// Why it holds reminders now ("screen locked"); empty when it does not.
        public var awayReason: String
        /// False while it runs (its bus name has an owner) but did not answer in time:
        /// stopped (SIGSTOP) or busy. Nothing to start then; `nudge doctor` says the same.
        public var answering = true

        public init(pending: Int, awayReason: String, answering: Bool = true) {
            self.pending = pending
            self.awayReason = awayReason
            self.answering = answering
        }
    }

    /// What a face shows.
    public struct Snapshot {
        /// When it was read (the feed's clock).
        public var now = Date(timeIntervalSince1970: 0)
        /// Every alert that could be read.
        public var alerts: [Alert] = []
        /// Each alert's next showing, by the index in ``alerts``.
        public var showings: [NextShowing] = []
        /// Indices into ``alerts``, in the order every face lists them (see
        /// ``Operations/order(_:in:_:now:all:)``), with the ones opened at (``AlertFeed/alsoListed``) first.
        public var order: [Int] = []
        /// The day's water; `nil` when it could not be read.
        public var water: WaterProgress?
        /// The last seven drink days, when the feed was asked for them.
        public var week: WaterChart?
        /// The daemon; `nil` while it does not run (or does not answer within 300 ms).
        public var service: Service?
        /// Why the store could not be read, in the person's words; `nil` when it could.
        public var trouble: String?
        /// The store's file is gone (removed, not made anew just by looking).
        public var removed = false
        /// The store was found damaged (its marker stands): what was wrong. Nothing writes
        /// to it until the last good copy is put back.
        public var damage: String?
        /// A newer Nudge wrote the store: what says so. It is read, never written.
        public var newer: String?
        /// The store can be read but not written (the file or its folder is read-only):
        /// why, in the person's words. It is read; changes are refused.
        public var readOnly: String?
        /// When the last good copy (what `nudge doctor --restore` puts back) was made.
        public var lastGood: Date?
        /// The calendar each followed reminder comes from (`nudge sync`), by its id (hex);
        /// empty without an account.
        public var origins: [String: String] = [:]

        /// The alert that shows next, and when: not one already due (``NextShowing/Reason/due(since:)``),
        /// which waits for the daemon, not for a time.
        public var next: (alert: Alert, instant: Date)? {
            for index in order {
                guard let instant = showings[index].instant else { return nil }
                if case .due? = showings[index].reason { continue }
                return (alerts[index], instant)
            }
            return nil
        }

        /// The reminders waiting for an answer, as the list shows them (a reminder shown four
        /// times unanswered is one; a store that cannot be read has none to show).
        public var unanswered: Int { showings.reduce(0) { $0 + ($1.pending > 0 ? 1 : 0) } }
    }

    /// What changed from one snapshot to the next.
    public struct Change: Equatable {
        /// Alerts added, or changed in themselves or in their next showing.
        public var changed: Set<UUID> = []
        /// Alerts gone.
        public var removed: Set<UUID> = []
        /// The list's order (or what is in it).
        public var order = false
        /// The day's water or the week's.
        public var water = false
        /// The daemon came, went, or says something new.
        public var service = false
        /// The store became unreadable, or readable again, or was removed or made.
        public var trouble = false

        /// Whether anything did.
        public var isEmpty: Bool { self == Change() }
    }

    /// The world the feed reads in, as a face passes it to the operations: the daemon
    /// reached on the feed's connection (``channel``), the store through the feed's session
    /// (``store()``), so a face's change opens nothing and waits for no one.
    public private(set) var world: World
    /// The last snapshot.
    public private(set) var snapshot = Snapshot()
    /// The alerts of the last read before the store failed (removed, unreadable), kept
    /// while the trouble lasts: what the face showed, for a restore that keeps it.
    private var listedBeforeTrouble: [Alert] = []

    /// What the face shows, or showed before the store failed: the reminders a restore of
    /// the last good copy would keep when asked to.
    public var shownBeforeTrouble: [Alert] { snapshot.alerts.isEmpty ? listedBeforeTrouble : snapshot.alerts }
    /// Where an alert is in ``snapshot``'s `alerts`, without a search.
    public func position(of id: UUID) -> Int? { position[id] }

    /// Called before each read of the store: a face that keeps the last snapshot's arrays
    /// lets them go here (it is told the new ones by ``onChange`` before anything else
    /// runs), so the feed changes them in place instead of copying every alert (10,000
    /// alerts: a third of what a one-row change costs the window).
    public var willRead: (() -> Void)?

    /// Called with each new snapshot and what changed: after every read of the store (even
    /// when nothing changed: the face may wait for it), and when the daemon's state changes.
    public var onChange: ((Snapshot, Change) -> Void)?
    /// Alerts listed even when finished (ids in full hex), before the others: the window
    /// opened at one, as a one-shot the opening click answered is.
    public var alsoListed: Set<String> = []

    /// The face's way to the daemon, on the feed's own connection (none without a bus): the
    /// feed's ``world`` carries it.
    public let channel: DaemonChannel?

    private let session: StoreSession
    private let loop: EventLoop
    private let bus: Connection?
    private let files: FileWatcher?
    private let weekChart: Bool
    private let letsStoreGo: Bool
    private var settle: EventLoop.Source!, settleLatest: Double?
    private var nextShowing: WallClockTimer?
    /// Lets the store go on the turn after a face used it (see ``store()``).
    private var letGo: EventLoop.Source!
    private var statusTimer: EventLoop.Source?
    private var asking = false
    /// Whether the store's file was there at a read (then its absence is a removal).
    private var sawStore = false
    /// Whether the daemon's state was told once (the first answer is news either way).
    private var serviceTold = false
    /// What the last read left, for the next to read only what changed since: the store's
    /// change count, which file it was and the schedules parsed (the ``StoreFollower``, as
    /// the daemon has one), where each alert is in the snapshot, the states, the rows that
    /// cannot be read, and for each alert the instant from which its showing or its place
    /// in the list may differ with time alone.
    private let follower = StoreFollower()
    private var position: [UUID: Int] = [:]
    private var states: [UUID: AlertState] = [:]
    private var unreadable: [String: StoreError] = [:]
    private var recheck: [Date] = []
    /// The list's order without the alerts listed for ``alsoListed`` alone, and whether
    /// each alert is in it.
    private var listedOrder: [Int] = []
    private var listed: [Bool] = []

    /// A feed on `loop`, reading in `world`, with the daemon followed on `bus` (none
    /// without). `weekChart` adds the last seven drink days to each snapshot;
    /// `statusEvery` asks the daemon again that often (seconds) while it runs, for what
    /// it says no signal for (why it holds reminders); `letsStoreGo` closes the store after
    /// each read and after a face's own use of it, on the next turn. Nothing is read until
    /// ``start()``.
    public init(world: World, loop: EventLoop, bus: Connection?, weekChart: Bool = false, statusEvery: Double? = nil,
                letsStoreGo: Bool = true) {
        self.world = world
        self.loop = loop
        self.bus = bus
        channel = bus.map(DaemonChannel.init)
        self.weekChart = weekChart
        self.letsStoreGo = letsStoreGo
        session = StoreSession(path: world.storePath)
        files = try? FileWatcher()
        settle = loop.addTimer { [unowned self] in
            settleLatest = nil
            reload()
        }
        // The wall clock's: a next showing is a time of day, which a suspend or a clock set
        // moves against the monotonic clock (a read after either sees where things stand).
        nextShowing = try? loop.addWallClockTimer { [unowned self] _ in reload() }
        letGo = loop.addTimer { [unowned self] in session.release() }
        if let files {
            watch()
            loop.add(descriptor: files.fd) { [unowned self] _ in
                if !files.read().isEmpty { storeChanged() }
            }
        }
        if let bus {
            loop.add(bus: bus) {}
            try? bus.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                         member: "NameOwnerChanged", arg0: NudgeService.busName), confirmed: false) { [unowned self] _ in
                refreshStatus()
            }
            try? bus.subscribe(MatchRule(interface: NudgeService.interface, member: "Fired"), confirmed: false) { [unowned self] _ in
                storeChanged()
            }
        }
        if let statusEvery {
            statusTimer = loop.addTimer { [unowned self] in
                statusTimer?.deadline = monotonicSeconds() + statusEvery
                if snapshot.service != nil { refreshStatus() }
            }
            statusTimer?.deadline = monotonicSeconds() + statusEvery
        }
        self.world = world.face(channel: channel, store: HeldStore(path: world.storePath) { [unowned self] () throws(OperationError) in
            try store()
        })
    }

    deinit {
        for source in [settle, letGo, statusTimer] { source?.remove() }
        nextShowing?.remove()
    }

    /// The first read and the first `Status()`.
    public func start() {
        reload()
    }

    /// The store changed (or may have): read again once the writer is done, 30 ms without
    /// a change and 200 ms at most.
    public func storeChanged() {
        let now = monotonicSeconds(), latest = settleLatest ?? now + 0.2
        (settle.deadline, settleLatest) = (min(now + 0.03, latest), latest)
    }

    /// Why a face must not write now, in the person's words; `nil` when it may. While the
    /// store it followed is gone, a write would quietly start a new, empty store in its
    /// place and the reminders, and the warning, would vanish: the person restores the
    /// last good copy or starts anew on purpose (``startAnew()``). A store that is read
    /// only (``Snapshot/readOnly``) refuses too, until it can be written again.
    public func refusal() -> String? {
        if snapshot.readOnly != nil, !session.isRemoved, !StoreSession.canWrite(world.storePath) {
            // TRANSLATORS: a face refusing a change while the store's file cannot be written (read-only).
            return tr("Not saved: your reminders’ file is read-only")
        }
        guard sawStore, session.isRemoved else { return nil }
        // TRANSLATORS: a face refusing a change while the store's file is gone.
        return tr("Not saved: your reminders’ file is gone. Restore the last good copy, or start anew, from the note at the top.")
    }

    /// Runs a change a face makes on the person's behalf, unless the store refuses changes
    /// now (``refusal()``, thrown as the operation's error): every face's writes pass here,
    /// so a store that is gone is never made anew by a switch, nor a read-only one written.
    /// The store is read again on the loop's next turn either way.
    public func perform<T>(_ body: () throws(OperationError) -> T) throws(OperationError) -> T {
        defer { reloadSoon() }
        if let refusal = refusal() { throw OperationError(.ioError, refusal) }
        return try body()
    }

    /// Makes a new, empty store where the one followed was removed, on the person's word.
    public func startAnew() throws(OperationError) {
        sawStore = false
        _ = try store()
        reload()
    }

    /// The face changed the store itself: read it again on the loop's next turn, once
    /// however many changes the turn made (a paste of a hundred keys is one read).
    public func reloadSoon() {
        settleLatest = nil
        settle.deadline = monotonicSeconds()
    }

    /// The store the path names now, for a face's own reads (a form's check against what
    /// is stored): followed when another file was renamed over it or it was made anew. It
    /// is let go again on the loop's next turn, as after a read.
    public func store() throws(OperationError) -> AppDatabase {
        if letsStoreGo { letGo.deadline = monotonicSeconds() }
        do { return try session.store() } catch { throw OperationError(error) }
    }

    /// The default reminder time as the store this feed follows keeps it, read through the
    /// feed's own session (never another opening) only when words ask at what time.
    public var defaultTime: DefaultReminderTime {
        DefaultReminderTime(dateOrder: .person(environment: world.environment)) { [self] () throws(OperationError) in
            let store = try store()
            return try world.run { try store.defaultTime() }
        }
    }

    /// Reads the store now, tells the face, and asks the daemon how it is. Only the alerts
    /// changed since the last read are read (and those whose next showing time alone may
    /// have moved are worked out again): at 10,000 alerts a change elsewhere costs its rows.
    public func reload() {
        // Watched again each time, before the read: a store folder removed and made anew is
        // a new folder, which the old watch does not see (adding a watch again is free). A
        // watch added after the read missed a store made and written between the two (the
        // first `nudge add` into a data folder made anew), and the window never showed it.
        watch()
        let now = world.now
        var new = snapshot
        // The snapshot's arrays are the feed's alone while it changes them: changed in place,
        // not copied, when the face let its copy go (``willRead``).
        snapshot = Snapshot()
        // Ids read in place (no alert copied): 10,000 of them each time.
        let oldOrder = new.alerts.withUnsafeBufferPointer { alerts in new.order.map { alerts[$0].id } }
        let (oldWater, oldWeek, oldTrouble, oldRemoved) = (new.water, new.week, new.trouble, new.removed)
        let (oldDamage, oldNewer, oldLastGood, oldReadOnly) = (new.damage, new.newer, new.lastGood, new.readOnly)
        willRead?()
        var change = Change(), replaced: Snapshot?
        do {
            if session.isRemoved {
                replaced = new
                if !new.alerts.isEmpty { listedBeforeTrouble = new.alerts }
                forget(&new)
                // Gone once it was there; never made yet (a new user), it is no trouble.
                new.removed = sawStore
            } else {
                sawStore = true
                replaced = try read(into: &new, now: now, change: &change)
                (new.trouble, new.removed) = (nil, false)
            }
        } catch {
            // A read that fails changes nothing before it does: `new` is the last snapshot.
            replaced = new
            if !new.alerts.isEmpty { listedBeforeTrouble = new.alerts }
            forget(&new)
            new.trouble = error.message
        }
        // When it was read (a whole read starts from an empty snapshot: set after it).
        new.now = now
        // What stands beside the file: a damage marker, a last good copy (two small reads).
        let file = StoreFile(path: world.storePath)
        new.damage = new.removed ? nil : file.damage()?.detail
        if new.trouble == nil, !new.removed, new.damage == nil { listedBeforeTrouble = [] }
        new.lastGood = file.lastGood()?.modified
        // The store is let go between reads (see the type's comment); the log emptied first.
        if letsStoreGo { session.release() }
        // On the timer's own clock, as far ahead as the world's clock says (the same for the
        // live world; a test's fixed clock keeps its distance).
        try? nextShowing?.arm(atEpochSeconds: new.next.map {
            Date().timeIntervalSince1970 + max($0.instant.timeIntervalSince(now), 0) + 0.05
        })
        if let replaced {
            change = Self.change(from: replaced, to: new)
        } else {
            change.order = oldOrder.count != new.order.count
                || new.alerts.withUnsafeBufferPointer { alerts in !zip(oldOrder, new.order).allSatisfy { $0 == alerts[$1].id } }
            change.water = oldWater != new.water || oldWeek != new.week
            change.trouble = oldTrouble != new.trouble || oldRemoved != new.removed || oldDamage != new.damage
                || oldNewer != new.newer || oldLastGood != new.lastGood || oldReadOnly != new.readOnly
        }
        snapshot = new
        onChange?(new, change)
        refreshStatus()
    }

    /// Lets go of what the last read left: the next reads everything.
    private func forget(_ snapshot: inout Snapshot) {
        let service = snapshot.service
        snapshot = Snapshot()
        snapshot.service = service
        follower.forget()
        position = [:]
        states = [:]
        unreadable = [:]
        (recheck, listedOrder, listed) = ([], [], [])
    }

    /// Reads what changed into `snapshot`, and says what in `change` (all but the order,
    /// the water and the trouble); returns the snapshot it replaced when it read every
    /// alert instead. Everything that can fail is done before `snapshot` changes.
    /// Reads of ``Snapshot/newer`` that failed in a row (see ``read(into:now:change:)``).
    private var newerRetries = 0

    private func read(into snapshot: inout Snapshot, now: Date, change: inout Change) throws(OperationError) -> Snapshot? {
        let store = try self.store()
        let known = { [position, unreadable] (id: String) in unreadable[id] != nil || UUID(hex: id).map { position[$0] != nil } ?? false }
        let changes = try world.run {
            try follower.changes(in: store, file: session.identity, known: known, knownCount: snapshot.alerts.count + unreadable.count)
        }
        // Gone, or unreadable now.
        var gone = Set<UUID>()
        if !changes.isWhole {
            gone = Set(changes.unreadable.compactMap { UUID(hex: $0.id) }.filter { position[$0] != nil })
            if let ids = changes.ids {
                for id in position.keys where !ids.contains(id.hex) { gone.insert(id) }
            }
        }
        // The day's water, which water reminders follow (an error when there is one).
        let changedIDs = Set(changes.alerts.map(\.id))
        let hasWater = changes.alerts.contains { $0.kind == .water }
            || (!changes.isWhole && snapshot.alerts.withUnsafeBufferPointer { alerts in
                alerts.indices.contains { alerts[$0].kind == .water && !gone.contains(alerts[$0].id) && !changedIDs.contains(alerts[$0].id) }
            })
        let water = hasWater ? try world.run { try store.waterProgress(now: now, zone: world.zone) }
                             : try? world.run { try store.waterProgress(now: now, zone: world.zone) }

        // The calendars followed reminders come from: read again when reminders changed
        // (a sync brings them and their calendar in one transaction).
        let origins = changes.isWhole || !changes.alerts.isEmpty || !gone.isEmpty ? (try? world.run { try store.syncOrigins() }) : nil

        // From here on nothing fails.
        var replaced: Snapshot?
        if changes.isWhole {
            replaced = snapshot
            forget(&snapshot)
        }
        follower.took(changes, of: session.identity)
        for (id, error) in changes.unreadable { unreadable[id] = error }
        if let ids = changes.ids {
            for id in unreadable.keys where !ids.contains(id) { unreadable[id] = nil }
        }
        defer {
            // Named at every read, as a command names them.
            for id in unreadable.keys.sorted() { writeError("nudge: \(unreadable[id]!.phrase.text(world.language))\n") }
        }
        if let origins { snapshot.origins = origins }
        // Taken out: the last in each place taken out.
        for id in gone { remove(id, from: &snapshot) }
        change.removed = gone
        // Changed or new.
        var dirty: [Int] = []
        dirty.reserveCapacity(changes.alerts.count)
        for alert in changes.alerts {
            unreadable[alert.id.hex] = nil
            states[alert.id] = changes.states[alert.id]
            if let index = position[alert.id] {
                if snapshot.alerts[index] != alert {
                    snapshot.alerts[index] = alert
                    change.changed.insert(alert.id)
                }
                dirty.append(index)
            } else {
                position[alert.id] = snapshot.alerts.count
                dirty.append(snapshot.alerts.count)
                snapshot.alerts.append(alert)
                snapshot.showings.append(NextShowing(instant: nil, reason: nil, pending: -1))
                recheck.append(.distantPast)
                listed.append(false)
                change.changed.insert(alert.id)
            }
        }
        // Every alert the day's water or the time may have moved.
        let waterChanged = water != snapshot.water
        snapshot.water = water
        var isDirty = [Bool](repeating: false, count: snapshot.alerts.count)
        for index in dirty { isDirty[index] = true }
        let isWater = !waterChanged ? [] : snapshot.alerts.withUnsafeBufferPointer { alerts in alerts.indices.map { alerts[$0].kind == .water } }
        for index in snapshot.alerts.indices where !isDirty[index] && (recheck[index] <= now || (waterChanged && isWater[index])) {
            isDirty[index] = true
            dirty.append(index)
        }
        // Their showings again, and their places in the list.
        let zone = world.zone
        let (alerts, dirtyNow, statesNow) = (snapshot.alerts, dirty, states)
        let showings = Parallel.chunks(dirty.count) { range in
            dirtyNow[range].map { index in
                let alert = alerts[index], states = statesNow
                return AlertView.next(alert, state: states[alert.id], after: now, zone: zone, water: hasWater ? water : nil)
            }
        }.flatMap { $0 }
        var moved: [Int] = []
        for (index, showing) in zip(dirty, showings) {
            let alert = snapshot.alerts[index], before = snapshot.showings[index]
            let isListed = Operations.isListed(alert, next: showing.instant, pending: Int(showing.pending), now: now)
            if showing != before {
                snapshot.showings[index] = showing
                change.changed.insert(alert.id)
            }
            recheck[index] = Self.recheck(alert, showing, listed: isListed, now: now)
            if isListed || listed[index] { moved.append(index) }
            listed[index] = isListed
        }
        place(moved, in: snapshot)
        var order = listedOrder
        if !alsoListed.isEmpty {
            let front = alsoListed.compactMap { UUID(hex: $0).flatMap { position[$0] } }.filter { !listed[$0] }
            order = front.sorted { Operations.listedBefore(snapshot.alerts[$0], snapshot.showings[$0].instant,
                                                             snapshot.alerts[$1], snapshot.showings[$1].instant) } + order
        }
        snapshot.order = order
        // A newer Nudge's store is read, never written: said beside the list. A read of it
        // that fails keeps what was known and reads again shortly, a few times: the change
        // that made it newer may be the last the file sees (`sqlite3 … 'PRAGMA
        // user_version = 7'` as it closed), and the card waited for the next change.
        do {
            snapshot.newer = try store.readNewerWriter()
            newerRetries = 0
        } catch {
            if newerRetries < 10 { newerRetries += 1; storeChanged() }
        }
        // One that can be read but not written is read, and changes are refused: said too.
        snapshot.readOnly = session.readOnly.map { OperationError($0).message }
        if weekChart { snapshot.week = try? Statistics.water(store, world, days: 7, now: now) }
        // What others wrote is read: the file alone is the whole store again.
        session.settle()
        return replaced
    }

    /// The instant from which an alert's showing, or whether it is listed, may differ with
    /// time alone: its next showing (or the end of its schedule, listed without one); now
    /// for what the day, the water or a snooze moves, which are worked out at every read.
    private static func recheck(_ alert: Alert, _ showing: NextShowing, listed: Bool, now: Date) -> Date {
        switch showing.reason {
        case .doneForDay?, .goalMet?, .snoozed?, .due?: return .distantPast
        case nil, .off?: break
        }
        if alert.kind == .water { return .distantPast }
        if let instant = showing.instant { return instant }
        guard listed, showing.pending == 0, let end = alert.schedule.end else { return .distantFuture }
        return end
    }

    /// Takes an alert out of the snapshot: the last alert takes its place.
    private func remove(_ id: UUID, from snapshot: inout Snapshot) {
        guard let index = position.removeValue(forKey: id) else { return }
        states[id] = nil
        let last = snapshot.alerts.count - 1
        if listed[index] { listedOrder.remove(at: listedOrder.firstIndex(of: index)!) }
        if index != last {
            snapshot.alerts.swapAt(index, last)
            snapshot.showings.swapAt(index, last)
            recheck.swapAt(index, last)
            listed.swapAt(index, last)
            position[snapshot.alerts[index].id] = index
            if listed[index], let at = listedOrder.firstIndex(of: last) { listedOrder[at] = index }
        }
        snapshot.alerts.removeLast()
        snapshot.showings.removeLast()
        recheck.removeLast()
        listed.removeLast()
    }

    /// Puts alerts whose showing changed in their places in the list (or out of it): each
    /// taken out and put back where it sorts, or, for many, the list sorted again.
    private func place(_ moved: [Int], in snapshot: Snapshot) {
        guard !moved.isEmpty else { return }
        let before = { (i: Int, j: Int) in
            Operations.listedBefore(snapshot.alerts[i], snapshot.showings[i].instant, snapshot.alerts[j], snapshot.showings[j].instant)
        }
        if moved.count > 64 && moved.count > listedOrder.count / 16 {
            listedOrder = snapshot.alerts.indices.filter { listed[$0] }.sorted(by: before)
            return
        }
        var isMoved = [Bool](repeating: false, count: snapshot.alerts.count)
        for index in moved { isMoved[index] = true }
        listedOrder.removeAll { isMoved[$0] }
        for index in moved where listed[index] {
            var (low, high) = (0, listedOrder.count)
            while low < high {
                let middle = (low + high) / 2
                if before(listedOrder[middle], index) { low = middle + 1 } else { high = middle }
            }
            listedOrder.insert(index, at: low)
        }
    }

    private func watch() {
        guard let files else { return }
        let path = world.storePath
        try? StoreSession.watch(path, with: files)
        // The folders on the way, made or removed (rm -r of the data folder, a restore that
        // makes it anew): each is watched from its parent, up to the first that is there.
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > 1 {
            let parent = (folder as NSString).deletingLastPathComponent
            try? files.watch(folder: parent, events: [(folder as NSString).lastPathComponent: .replaced])
            if FileManager.default.fileExists(atPath: parent) { break }
            folder = parent
        }
    }

    /// Asks the daemon's `Status()`, never waiting for more than 300 ms: a daemon that did
    /// not answer, whose name has an owner, reads as running but not answering (stopped or
    /// busy), one whose name has none as not running; neither stalls the face.
    public func refreshStatus() {
        guard let bus else { return setService(nil) }
        guard !asking else { return }
        asking = true
        DaemonStatus.query(on: bus, timeout: .milliseconds(300)) { [weak self] status in
            guard let self else { return }
            asking = false
            if let status {
                setService(Service(pending: Int(status.pending), awayReason: status.awayReason))
            } else if channel?.isRunning == true {
                setService(Service(pending: snapshot.service?.pending ?? 0, awayReason: "", answering: false))
            } else {
                setService(nil)
            }
        }
    }

    private func setService(_ service: Service?) {
        guard service != snapshot.service || !serviceTold else { return }
        serviceTold = true
        snapshot.service = service
        var change = Change()
        change.service = true
        onChange?(snapshot, change)
    }

    /// What differs between two snapshots: O(alerts), the rows themselves compared.
    static func change(from old: Snapshot, to new: Snapshot) -> Change {
        var change = Change()
        var before: [UUID: (alert: Alert, showing: NextShowing)] = [:]
        before.reserveCapacity(old.alerts.count)
        for (alert, showing) in zip(old.alerts, old.showings) { before[alert.id] = (alert, showing) }
        for (alert, showing) in zip(new.alerts, new.showings) {
            if let kept = before.removeValue(forKey: alert.id), kept.alert == alert, kept.showing == showing { continue }
            change.changed.insert(alert.id)
        }
        change.removed = Set(before.keys)
        change.order = old.order.count != new.order.count
            || !zip(old.order, new.order).allSatisfy { old.alerts[$0].id == new.alerts[$1].id }
        change.water = old.water != new.water || old.week != new.week
        change.trouble = old.trouble != new.trouble || old.removed != new.removed || old.damage != new.damage
            || old.newer != new.newer || old.lastGood != new.lastGood || old.readOnly != new.readOnly
        return change
    }
}
