import Foundation
import Localization
import NudgeCore
import NudgeStore

/// Water drunk, logged and taken back, for every face: the amount as a person types it
/// (`250ml`, `8oz`, nothing for the cup), when (`14:30`, a date and time, never ahead),
/// and the day's total said back.
public enum Drinking {
    /// What was logged or taken back, with when in words and the day's total after it.
    public struct Logged: Sendable {
        /// How much.
        public var millilitres: Int
        /// When it was drunk.
        public var at: Date
        /// When, as the person's clock writes it (with the date when not today).
        public var when: String
        /// "750 of 2,000 ml today", or for an earlier day "… on 2026-11-22".
        public var total: String
    }

    /// Logs a drink of `amount` (the cup when `nil`) at `time` (now when `nil`).
    public static func drink(_ amount: String?, at time: String?, _ world: World, now: Date) throws(OperationError) -> Logged {
        let zone = world.zone
        let store = try world.store.forWriting()
        let settings = try world.run { try store.settings() }
        let millilitres: Int
        do {
            millilitres = try amount.map { (text) throws(Water.AmountError) in try Water.millilitres(text) } ?? (settings[.cup] ?? Setting.cup.defaultValue)
        } catch {
            throw OperationError(.usage, error.phrase.text(world.language))
        }
        let when = try time.map { (text) throws(OperationError) in try instant(text, now: now, zone: zone) } ?? now
        _ = try world.run { try store.logDrink(millilitres, at: when) }
        // A running daemon sees the store change by itself too; this is sooner.
        world.storeChanged()
        return Logged(millilitres: millilitres, at: when, when: self.when(when, zone: zone, now: now),
                      total: try world.run { try total(store, at: when, settings: settings, zone: zone, language: world.language, now: now) })
    }

    /// Takes back the drink logged last.
    public static func undo(_ world: World, now: Date) throws(OperationError) -> Logged {
        let zone = world.zone
        let store = try world.store.forWriting()
        let settings = try world.run { try store.settings() }
        guard let drink = try world.run({ try store.undoLastDrink() }) else {
            // TRANSLATORS: nudge drink --undo with nothing logged.
            throw OperationError(.usage, tr("nothing to undo: no drink is logged"))
        }
        world.storeChanged()
        return Logged(millilitres: drink.millilitres, at: drink.at, when: when(drink.at, zone: zone, now: now),
                      total: try world.run { try total(store, at: drink.at, settings: settings, zone: zone, language: world.language, now: now) })
    }

    /// "750 of 2,000 ml today", or for an earlier day "… on 2026-11-22".
    public static func total(_ store: AppDatabase, at instant: Date, settings: [Setting: Int], zone: TimeZone, language: Language, now: Date) throws -> String {
        let dayStart = (settings[.dayStart] ?? 0) * 60
        let goal = settings[.goal] ?? Setting.goal.defaultValue
        let day = Water.day(containing: instant, zone: zone, dayStart: dayStart)
        let intake = try store.intake(from: day.start, to: day.end)
        let today = Water.day(containing: now, zone: zone, dayStart: dayStart).day
        return day.day == today
            ? language.waterProgress(intake, goal: goal)
            // TRANSLATORS: an earlier day's water: %1$s drunk, %2$s the goal, %3$s the day (2026-11-22).
            : format(tr("%1$s of %2$s on %3$s"), Water.number(intake), Water.text(goal), day.day.description)
    }

    /// When a drink was: the time of day as the person's clock writes it, with the date
    /// when it was not today.
    public static func when(_ instant: Date, zone: TimeZone, now: Date) -> String {
        let clock = CivilZone(zone)
        let local = clock.local(instant)
        let time = TimeStyle.person().time(LocalTime(hour: local.second / 3600, minute: local.second / 60 % 60)!)
        return local.day == clock.local(now).day ? time : "\(local.day) \(time)"
    }

    /// `--at`: HH:MM today or a date and time; never in the future.
    public static func instant(_ text: String, now: Date, zone: TimeZone) throws(OperationError) -> Date {
        let instant: Date
        do throws(ScheduleError) {
            if let time = try? ScheduleParser.time(text) {
                instant = CivilZone(zone).instant(CivilZone(zone).local(now).day, time)
            } else {
                instant = try ScheduleParser.instant(text, zone: zone)
            }
        } catch {
            throw OperationError(error)
        }
        guard instant <= now else {
            // TRANSLATORS: nudge drink --at with a time still to come; %s is the time as typed, quoted.
            throw OperationError(.usage, format(tr("invalid --at %s: it is in the future (a drink is logged when it was drunk)"), text.quotedForMessage()))
        }
        return instant
    }
}
