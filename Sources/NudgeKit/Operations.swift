import Foundation
import Localization
import NudgeCore
import NudgeStore

/// What a person does to their reminders, for every face: the command line, `nudge ui`
/// and the window call these and get the same checks, the same messages and the same
/// changes to the store.
public enum Operations {
    /// A new alert from the command line's values, every one checked. Words naming a day
    /// without a time of day take the default reminder time: `defaultTime`'s, or else the
    /// one kept in `world`'s store, read only when such words are given.
    public static func make(title: String?, schedule flags: ScheduleFlags, settings: AlertSettings, _ world: World, now: Date,
                            defaultTime: DefaultReminderTime? = nil) throws(OperationError) -> Alert {
        let zone = settings.pinnedZone ?? world.zone
        let parsed = try AlertSettings.schedule(flags, now: now, zone: zone, defaultTime: defaultTime ?? .stored(world))
        // Without a title it is the drink-water reminder, in the person's language; a
        // title given is the person's own text and never translated.
        var alert = Alert(title: title, schedule: parsed, created: now, language: world.language)
        try settings.apply(to: &alert, title: title)
        return alert
    }

    /// The stored alert `id` names, changed by the values given (no schedule flag keeps its
    /// schedule), every one checked; not saved (`nudge ui`'s form edits here too). Words
    /// naming a day without a time of day take `defaultTime`, or else the one `store` keeps.
    public static func change(_ id: String, in store: AppDatabase, title: String?, schedule flags: ScheduleFlags, settings: AlertSettings,
                              _ world: World, now: Date, defaultTime: DefaultReminderTime? = nil) throws(OperationError) -> Alert {
        let defaultTime = defaultTime ?? .stored(in: store, world)
        // A new schedule replaces one this Nudge cannot read.
        let replacement = flags == ScheduleFlags() ? nil
            : try AlertSettings.schedule(flags, now: now, zone: settings.pinnedZone ?? world.zone, defaultTime: defaultTime)
        var alert = try world.run { try store.alert(matching: id, schedule: replacement) }
        try settings.apply(to: &alert, title: title)
        if flags != ScheduleFlags() {
            alert.schedule = try AlertSettings.schedule(flags, now: now, zone: alert.zone(system: world.zone), defaultTime: defaultTime)
        }
        return alert
    }

    /// Saves a new or changed alert and tells a running daemon.
    public static func save(_ alert: Alert, _ world: World) throws(OperationError) {
        try save(alert, in: try world.store.forWriting(), world)
    }

    /// Saves a new or changed alert in a store already open (a face's) and tells a running daemon.
    public static func save(_ alert: Alert, in store: AppDatabase, _ world: World) throws(OperationError) {
        try world.run { try store.save(alert) }
        world.storeChanged()
    }

    /// Deletes the alerts the ids name (every id resolved first), closes their pop-ups, and
    /// returns what was removed.
    public static func remove(_ ids: [String], _ world: World) throws(OperationError) -> [(id: UUID, title: String)] {
        let store = try world.store.forWriting()
        // By id and title only: an alert whose row cannot be read can still be removed.
        var alerts: [(id: UUID, title: String)] = []
        for id in ids { alerts.append(try world.run { try store.alertID(matching: id) }) }
        let states = try world.run { try store.states() }
        let shown = alerts.compactMap { states[$0.id]?.shownID }
        try world.run { try store.delete(alerts.map(\.id)) }
        world.storeChanged(closing: shown)
        return alerts
    }

    /// Each alert's next showing, and the order `list` shows them in: soonest first (then
    /// by creation), switched-off alerts and finished one-shots last, one-shots that are
    /// over only with `all`. `nudge ui` lists in this order too.
    public static func order(_ alerts: [Alert], in store: AppDatabase, _ world: World, now: Date, all: Bool) throws(OperationError) -> (showings: [NextShowing], order: [Int]) {
        let zone = world.zone
        // Sort indices by (next fire, creation): moving whole alerts around costs more
        // than the sort itself with 100,000 of them.
        let states = try world.run { try store.states() }
        let water = try AlertView.water(for: alerts, in: store, world, now: now)
        let showings = Parallel.chunks(alerts.count) { range in
            alerts[range].map { AlertView.next($0, state: states[$0.id], after: now, zone: zone, water: water) }
        }.flatMap { $0 }
        let next = showings.map(\.instant)
        // The keys apart from the alerts, read in place: a comparator that took alerts[i]
        // copied two whole alerts per comparison (a quarter of `list --json` at 100,000).
        let (order, keys) = alerts.withUnsafeBufferPointer { alerts in
            (alerts.indices.filter { all || isListed(alerts[$0], next: next[$0], pending: Int(states[alerts[$0].id]?.pendingCount ?? 0), now: now) },
             alerts.map { (created: $0.created, id: idOrder($0.id)) })
        }
        let sorted = order.sorted { a, b in
            let (x, y) = (next[a] ?? .distantFuture, next[b] ?? .distantFuture)
            if x != y { return x < y }
            if keys[a].created != keys[b].created { return keys[a].created < keys[b].created }
            return keys[a].id < keys[b].id
        }
        return (showings, sorted)
    }

    /// Whether alert `a`, next shown at `aNext`, is listed before `b`: by next showing
    /// (never: last), then by creation, then by id, so every face and every read agrees on
    /// one order, however the alerts came off the store.
    @inline(__always)
    public static func listedBefore(_ a: Alert, _ aNext: Date?, _ b: Alert, _ bNext: Date?) -> Bool {
        let (x, y) = (aNext ?? .distantFuture, bNext ?? .distantFuture)
        if x != y { return x < y }
        if a.created != b.created { return a.created < b.created }
        return idOrder(a.id) < idOrder(b.id)
    }

    /// An id as two numbers that sort as its hex does.
    @inline(__always)
    private static func idOrder(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) {
            (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    /// Whether an alert is in the list at `now`, shown next at `next`, with `pending`
    /// pop-ups waiting: a finished one still waiting for its answer stays (it is answered
    /// from the list).
    @inline(__always)
    public static func isListed(_ alert: Alert, next: Date?, pending: Int, now: Date) -> Bool {
        next != nil || !alert.isFinished(after: now) || pending > 0
    }
}

extension Alert {
    /// A one-shot whose instant has passed, or a schedule whose end has.
    public func isFinished(after now: Date) -> Bool {
        schedule.end.map { $0 <= now } ?? false
    }
}
