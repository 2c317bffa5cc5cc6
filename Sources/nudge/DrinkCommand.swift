import NudgeKit
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeStore

/// `nudge drink`: log a drink of water, or take the last one back, and say the day's total.
struct DrinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drink",
        abstract: "Log a drink of water (the cup size without an amount) and show today's total against the goal.",
        discussion: """
        AMOUNT is millilitres, or a number with ml, cl, l or oz (US fluid ounces): 250, \
        250ml, 0.3l, 8oz; from 1 ml to 5 l at once, rounded to whole millilitres. The cup \
        size, the daily goal and when a day starts are settings (nudge config \
        cup|goal|day-start).

        Examples:
          nudge drink
          nudge drink 500ml
          nudge drink 8oz --at 14:30
          nudge drink --undo
        """
    )

    @Argument(help: ArgumentHelp("How much: 250ml, 0.3l, 8oz (default: the cup size).", valueName: "AMOUNT"))
    var amount: String?

    @Option(help: ArgumentHelp("When it was drunk, for one that was forgotten: HH:MM today, or 'YYYY-MM-DD HH:MM' (1970 to now).", valueName: "TIME"))
    var at: String?

    @Flag(help: "Take back the drink logged last.")
    var undo = false

    func run() throws {
        if undo && (amount != nil || at != nil) {
            throw OperationError(.usage, tr("--undo takes no amount and no --at"))
        }
        let now = Date()
        let zone = LocalZone.current
        let store = try StoreAccess.open()
        let settings = try StoreAccess.run { try store.settings() }
        let cup = settings[.cup] ?? Setting.cup.defaultValue
        if undo {
            guard let drink = try StoreAccess.run({ try store.undoLastDrink() }) else {
                throw OperationError(.usage, tr("nothing to undo: no drink is logged"))
            }
            DaemonLink.storeChanged()
            let total = try Self.total(store, at: drink.at, settings: settings, zone: zone, now: now)
            // TRANSLATORS: nudge drink --undo; %1$s is the amount (250 ml), %2$s when it was drunk, %3$s the day's total against the goal.
            print(format(tr("took back %1$s from %2$s — %3$s"), Water.text(drink.millilitres), Self.when(drink.at, zone: zone, now: now), total))
            return
        }
        let millilitres: Int
        do {
            millilitres = try amount.map { (text) throws(Water.AmountError) in try Water.millilitres(text) } ?? cup
        } catch {
            throw OperationError(.usage, error.phrase.text(Catalog.shared.wording))
        }
        let when = try at.map { try Self.instant($0, now: now, zone: zone) } ?? now
        _ = try StoreAccess.run { try store.logDrink(millilitres, at: when) }
        // A running daemon sees the store change by itself too; this is sooner.
        DaemonLink.storeChanged()
        let total = try Self.total(store, at: when, settings: settings, zone: zone, now: now)
        // TRANSLATORS: nudge drink; %1$s is the amount (250 ml), %2$s when, %3$s the day's total against the goal.
        print(format(tr("drank %1$s at %2$s — %3$s"), Water.text(millilitres), Self.when(when, zone: zone, now: now), total))
    }

    /// "750 of 2,000 ml today", or for an earlier day "… on 2026-11-22".
    static func total(_ store: AppDatabase, at instant: Date, settings: [Setting: Int], zone: TimeZone, now: Date) throws -> String {
        let dayStart = (settings[.dayStart] ?? 0) * 60
        let goal = settings[.goal] ?? Setting.goal.defaultValue
        let day = Water.day(containing: instant, zone: zone, dayStart: dayStart)
        let intake = try StoreAccess.run { try store.intake(from: day.start, to: day.end) }
        let today = Water.day(containing: now, zone: zone, dayStart: dayStart).day
        return day.day == today
            ? Catalog.shared.wording.waterProgress(intake, goal: goal)
            // TRANSLATORS: an earlier day's water: %1$s drunk, %2$s the goal, %3$s the day (2026-11-22).
            : format(tr("%1$s of %2$s on %3$s"), Water.number(intake), Water.text(goal), day.day.description)
    }

    /// When a drink was: the time of day as the person's clock writes it, with the date
    /// when it was not today.
    static func when(_ instant: Date, zone: TimeZone, now: Date) -> String {
        let clock = ZoneClock(zone)
        let local = clock.local(instant)
        let time = Terminal().wording.time(LocalTime(hour: local.second / 3600, minute: local.second / 60 % 60)!)
        return local.day == clock.local(now).day ? time : "\(local.day) \(time)"
    }

    /// `--at`: HH:MM today or a date and time; never in the future.
    static func instant(_ text: String, now: Date, zone: TimeZone) throws -> Date {
        let instant: Date
        do {
            if let time = try? ScheduleParser.time(text) {
                instant = ZoneClock(zone).instant(ZoneClock(zone).local(now).day, time)
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
