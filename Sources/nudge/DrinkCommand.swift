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

        let world = World.live
        if undo && (amount != nil || at != nil) {
            throw OperationError(.usage, tr("--undo takes no amount and no --at"))
        }
        let now = Date()
        if undo {
            let taken = try Drinking.undo(world, now: now)
            // TRANSLATORS: nudge drink --undo; %1$s is the amount (250 ml), %2$s when it was drunk, %3$s the day's total against the goal.
            print(format(tr("took back %1$s from %2$s — %3$s"), Water.text(taken.millilitres), taken.when, taken.total))
            return
        }
        let drunk = try Drinking.drink(amount, at: at, world, now: now)
        // TRANSLATORS: nudge drink; %1$s is the amount (250 ml), %2$s when, %3$s the day's total against the goal.
        print(format(tr("drank %1$s at %2$s — %3$s"), Water.text(drunk.millilitres), drunk.when, drunk.total))
    }
}
