import Foundation
import NudgeCore
import NudgeStore

/// The person's default reminder time (`nudge config default-time`) as every face reads a
/// schedule phrase with it: "tomorrow", "friday", "every monday" take it. It is looked up
/// only when a phrase names a day without a time of day (words refused before it was set),
/// and then once: a phrase with a time never opens the store for it, and `nudge add`
/// opens the store no more often than before. A face that follows the store gives the
/// value it already holds (``known(_:)``).
public final class DefaultReminderTime {
    private let lookup: () throws(OperationError) -> LocalTime?
    private var found: LocalTime??
    /// The order the person's locale writes numeric dates in (``DateOrder/person(environment:)``):
    /// phrases are read with it too.
    public let dateOrder: DateOrder?

    /// A default time found by `lookup` when first needed.
    public init(dateOrder: DateOrder? = nil, _ lookup: @escaping () throws(OperationError) -> LocalTime?) {
        self.lookup = lookup
        self.dateOrder = dateOrder
    }

    /// A default time already known (a face's, from the store it follows; a test's), or none.
    public static func known(_ time: LocalTime?, dateOrder: DateOrder? = nil) -> DefaultReminderTime {
        DefaultReminderTime(dateOrder: dateOrder) { () throws(OperationError) in time }
    }

    /// The one kept in a store already open.
    public static func stored(in store: AppDatabase, _ world: World) -> DefaultReminderTime {
        DefaultReminderTime(dateOrder: .person(environment: world.environment)) { () throws(OperationError) in try world.run { try store.defaultTime() } }
    }

    /// The one kept in `world`'s store, read (never created) when first needed.
    public static func stored(_ world: World) -> DefaultReminderTime {
        DefaultReminderTime(dateOrder: .person(environment: world.environment)) { () throws(OperationError) in
            let store = try world.store.forReading()
            return try world.run { try store.defaultTime() }
        }
    }

    /// The default time, `nil` for none; looked up the first time only.
    public func time() throws(OperationError) -> LocalTime? {
        if let found { return found }
        let time = try lookup()
        found = .some(time)
        return time
    }

    /// `body`'s answer without the default time, or, when the words ask at what time and a
    /// default is set, with it.
    func reading<T>(_ body: (LocalTime?) throws(ScheduleError) -> T) throws(OperationError) -> T {
        do throws(ScheduleError) {
            return try body(nil)
        } catch {
            guard error.wantsTimeOfDay, let time = try time() else { throw OperationError(error) }
            do throws(ScheduleError) { return try body(time) } catch { throw OperationError(error) }
        }
    }

    /// What a schedule phrase says at `now` in `zone`, read as the operations read it: the
    /// echo's notes include the default time's when it was taken.
    public func read(_ phrase: String, now: Date, zone: TimeZone) throws(OperationError) -> PhraseReading {
        try reading { (time) throws(ScheduleError) in try SchedulePhrase.read(phrase, now: now, zone: zone, defaultTime: time, dateOrder: dateOrder) }
    }

    /// The schedule the flags make (see ``ScheduleParser/schedule(_:now:zone:defaultTime:)``).
    public func schedule(_ flags: ScheduleFlags, now: Date, zone: TimeZone) throws(OperationError) -> Schedule {
        try reading { (time) throws(ScheduleError) in try ScheduleParser.schedule(flags, now: now, zone: zone, defaultTime: time, dateOrder: dateOrder) }
    }
}
