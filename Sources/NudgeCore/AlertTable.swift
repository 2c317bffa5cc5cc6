import Foundation

/// The scheduler's alerts: each with its state and its wake-up, side by side in one array,
/// found through one index. A dictionary per field would cost 2-3x the memory at 100,000
/// alerts (each one rounds up to a power of two at three-quarters load).
///
/// Every write to an alert or a state goes through here, so what is kept over them (the
/// pending total, the water reminders, the alerts holding showings, the ids the store has
/// not taken yet) is updated in one place and cannot drift from what it counts.
struct AlertTable {
    /// One alert and what the scheduler keeps for it.
    struct Slot {
        var alert: Alert
        /// The state, kept packed (88 bytes, not 144: an optional instant pads to 16).
        private var packed: PackedState
        /// The generation of its wake-up in the ``WakeQueue``; 0 when none is due.
        var wake = 0

        init(alert: Alert, state: AlertState) {
            self.alert = alert
            packed = PackedState(state)
        }

        var state: AlertState {
            get { packed.state }
            set { packed = PackedState(newValue) }
        }
    }

    /// An ``AlertState`` with each optional instant as seconds, NaN for none, and the
    /// pop-up's id and the day as plain integers with a flag: at 100,000 alerts it keeps
    /// 5.6 MB of the daemon's memory off (issue 51's goal of 64 MB).
    struct PackedState {
        private var checkedUntil: Double
        private var lastFired: Double
        private var snoozedUntil: Double
        private var lastAnswer: Double
        private var shownAt: Double
        private var goalMetUntil: Double
        private var heldSince: Double
        private var nagAt: Double
        private var doneForDay: Int32
        private var pendingCount: Int32
        private var heldCount: Int32
        private var nagCount: Int32
        private var shownID: UInt32
        private var hasShownID: Bool
        private var hasDoneForDay: Bool

        init(_ state: AlertState) {
            checkedUntil = state.checkedUntil.timeIntervalSinceReferenceDate
            lastFired = Self.seconds(state.lastFired)
            snoozedUntil = Self.seconds(state.snoozedUntil)
            lastAnswer = Self.seconds(state.lastAnswer)
            shownAt = Self.seconds(state.shownAt)
            goalMetUntil = Self.seconds(state.goalMetUntil)
            heldSince = Self.seconds(state.heldSince)
            nagAt = Self.seconds(state.nagAt)
            // Days since 1970 within ±5.8 million years fit; the store's instants are bounded far inside.
            doneForDay = state.doneForDay.map { Int32(clamping: $0.daysSinceEpoch) } ?? 0
            hasDoneForDay = state.doneForDay != nil
            pendingCount = state.pendingCount
            heldCount = state.heldCount
            nagCount = state.nagCount
            shownID = state.shownID ?? 0
            hasShownID = state.shownID != nil
        }

        var state: AlertState {
            var state = AlertState(checkedUntil: Date(timeIntervalSinceReferenceDate: checkedUntil))
            state.lastFired = Self.date(lastFired)
            state.snoozedUntil = Self.date(snoozedUntil)
            state.lastAnswer = Self.date(lastAnswer)
            state.shownAt = Self.date(shownAt)
            state.goalMetUntil = Self.date(goalMetUntil)
            state.heldSince = Self.date(heldSince)
            state.nagAt = Self.date(nagAt)
            state.doneForDay = hasDoneForDay ? CivilDay(daysSinceEpoch: Int(doneForDay)) : nil
            state.pendingCount = pendingCount
            state.heldCount = heldCount
            state.nagCount = nagCount
            state.shownID = hasShownID ? shownID : nil
            return state
        }

        private static func seconds(_ date: Date?) -> Double { date?.timeIntervalSinceReferenceDate ?? .nan }
        private static func date(_ seconds: Double) -> Date? { seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds) }
    }

    private var slots: [Slot] = []
    private var index: [UUID: Int32] = [:]
    /// The unacknowledged count over every alert: the launcher badge.
    private(set) var totalPending = 0
    /// The water reminders, so a drink touches only them.
    private(set) var waterIDs: Set<UUID> = []
    /// The place reminders, so a place event touches only them.
    private(set) var placeIDs: Set<UUID> = []
    /// The alerts holding showings for the person's return (`heldCount > 0`).
    private(set) var heldIDs: Set<UUID> = []
    /// The ids whose state changed since the store last took them.
    private var changed: Set<UUID> = []

    init(capacity: Int) {
        slots.reserveCapacity(capacity)
        index.reserveCapacity(capacity)
    }

    /// Whether a water reminder is switched on.
    var hasEnabledWater: Bool { waterIDs.contains { alert($0)?.enabled == true } }

    /// How many alerts there are.
    var count: Int { slots.count }

    /// Where an alert's slot is.
    func position(_ id: UUID) -> Int? { index[id].map(Int.init) }

    /// The alert at a position.
    func alert(at i: Int) -> Alert { slots[i].alert }

    /// The state at a position.
    func state(at i: Int) -> AlertState { slots[i].state }

    /// The generation of the wake-up the alert at a position waits for (0: none).
    func wake(at i: Int) -> Int { slots[i].wake }

    func alert(_ id: UUID) -> Alert? { position(id).map { slots[$0].alert } }

    func state(_ id: UUID) -> AlertState? { position(id).map { slots[$0].state } }

    /// Every alert's id, in slot order (a copy: safe to change the table while going through it).
    var ids: [UUID] { slots.map(\.alert.id) }

    /// Every state by id (built on each call: for a few alerts, not in a loop).
    var states: [UUID: AlertState] { Dictionary(uniqueKeysWithValues: slots.lazy.map { ($0.alert.id, $0.state) }) }

    /// The ids of the alerts that follow the system zone.
    var floating: [UUID] { slots.lazy.filter { $0.alert.timeZone == nil }.map(\.alert.id) }

    /// Whether a wake-up is the one the alert waits for now (not replaced since).
    func isCurrent(_ id: UUID, generation: Int) -> Bool {
        position(id).map { slots[$0].wake == generation } ?? false
    }

    // MARK: Writing

    /// Adds an alert that is not in the table yet.
    mutating func insert(_ alert: Alert, _ state: AlertState) {
        index[alert.id] = Int32(slots.count)
        slots.append(Slot(alert: alert, state: state))
        account(alert.id, from: nil, to: state)
        sort(alert)
    }

    /// Replaces an alert, keeping its state.
    mutating func setAlert(_ alert: Alert, at i: Int) {
        slots[i].alert = alert
        sort(alert)
    }

    /// Replaces an alert's state; the store will be told.
    mutating func setState(_ id: UUID, _ state: AlertState) {
        guard let i = position(id) else { return }
        account(id, from: slots[i].state, to: state)
        slots[i].state = state
        changed.insert(id)
    }

    /// Keeps the generation of the alert's wake-up (0: none).
    mutating func setWake(_ generation: Int, at i: Int) { slots[i].wake = generation }

    /// Takes an alert out; the last slot moves into its place.
    @discardableResult
    mutating func remove(_ id: UUID) -> Slot? {
        guard let i = position(id) else { return nil }
        let removed = slots[i]
        let last = slots.count - 1
        if i != last {
            slots[i] = slots[last]
            index[slots[i].alert.id] = Int32(i)
        }
        slots.removeLast()
        index[id] = nil
        account(id, from: removed.state, to: nil)
        sort(id, water: false, place: false)
        changed.remove(id)
        return removed
    }

    /// Marks a state as changed (a new alert, or a write that failed and must be retried).
    mutating func markChanged(_ id: UUID) {
        if index[id] != nil { changed.insert(id) }
    }

    /// The ids whose state changed since the last call.
    mutating func takeChanged() -> Set<UUID> {
        defer { changed.removeAll(keepingCapacity: true) }
        return changed
    }

    /// The one place the pending total and the held set follow a state.
    private mutating func account(_ id: UUID, from old: AlertState?, to new: AlertState?) {
        totalPending += Int(new?.pendingCount ?? 0) - Int(old?.pendingCount ?? 0)
        let wasHeld = (old?.heldCount ?? 0) > 0, isHeld = (new?.heldCount ?? 0) > 0
        if isHeld && !wasHeld { heldIDs.insert(id) } else if wasHeld && !isHeld { heldIDs.remove(id) }
    }

    private mutating func sort(_ alert: Alert) {
        var place = false
        if case .place = alert.schedule { place = true }
        sort(alert.id, water: alert.kind == .water, place: place)
    }

    /// The one place the water and place sets follow an alert's kind and schedule.
    private mutating func sort(_ id: UUID, water: Bool, place: Bool) {
        if water { waterIDs.insert(id) } else if !waterIDs.isEmpty { waterIDs.remove(id) }
        if place { placeIDs.insert(id) } else if !placeIDs.isEmpty { placeIDs.remove(id) }
    }
}
