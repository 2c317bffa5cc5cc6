import Foundation
import Testing
import TestSupport

/// `nudge drink` and the water settings, on a store of their own (zone Asia/Seoul).
struct DrinkTests {
    @Test func drinksAddUpAgainstTheGoal() throws {
        let home = try Home()
        let cup = try home.nudge("drink")
        #expect(cup.status == 0)
        #expect(cup.stdout.hasPrefix("drank 250 ml at "))
        #expect(cup.stdout.hasSuffix(" — 250 of 2,000 ml today\n"))
        #expect(try home.nudge("drink", "0.5l").stdout.hasSuffix(" — 750 of 2,000 ml today\n"))
        #expect(try home.nudge("drink", "8oz").stdout.hasPrefix("drank 237 ml at "))
        let undo = try home.nudge("drink", "--undo")
        #expect(undo.stdout.hasPrefix("took back 237 ml from "))
        #expect(undo.stdout.hasSuffix(" — 750 of 2,000 ml today\n"))
    }

    @Test func settingsChangeTheCupTheGoalAndTheDay() throws {
        let home = try Home()
        #expect(try home.nudge("config", "cup", "300ml").stdout == "cup 300ml\n")
        #expect(try home.nudge("config", "goal", "2.5l").stdout == "goal 2500ml\n")
        #expect(try home.nudge("config", "day-start", "04:00").stdout == "day-start 04:00\n")
        #expect(try home.nudge("config").stdout == "log-days 90\nlog-rows 100000\ncup 300ml\ngoal 2500ml\nday-start 04:00\n")
        // With days starting at 04:00, a glass at 01:30 counts for the evening before.
        #expect(try home.nudge("drink", "--at", "2026-01-09 22:00").stdout == "drank 300 ml at 2026-01-09 22:00 — 300 of 2,500 ml on 2026-01-09\n")
        #expect(try home.nudge("drink", "1l", "--at", "2026-01-10 01:30").stdout == "drank 1,000 ml at 2026-01-10 01:30 — 1,300 of 2,500 ml on 2026-01-09\n")
        #expect(try home.nudge("drink", "--at", "2026-01-10 04:00").stdout == "drank 300 ml at 2026-01-10 04:00 — 300 of 2,500 ml on 2026-01-10\n")
    }

    @Test(arguments: [
        (["drink", "0"], "nudge: invalid amount '0': it must be more than 0 and at most 5000 ml\n"),
        (["drink", "6l"], "nudge: invalid amount '6l': it must be more than 0 and at most 5000 ml\n"),
        (["drink", "2 cups"], "nudge: invalid amount '2 cups' (use a number with ml, cl, l or oz, e.g. 250ml, 0.3l, 8oz)\n"),
        (["drink", "--at", "2999-01-01 09:00"], "nudge: invalid --at '2999-01-01 09:00': it is in the future (a drink is logged when it was drunk)\n"),
        (["drink", "--at", "noon"], "nudge: invalid date 'noon' (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)\n"),
        (["drink", "--undo", "250"], "nudge: --undo takes no amount and no --at\n"),
        (["config", "goal", "0"], "nudge: invalid goal '0': give an amount such as 250ml, 0.3l or 8oz\n"),
        (["config", "goal", "50ml"], "nudge: invalid goal 50ml: it must be between 100ml and 20000ml\n"),
        (["config", "day-start", "25:00"], "nudge: invalid day-start '25:00': give a time such as 04:00\n"),
    ])
    func badInputChangesNothing(arguments: [String], message: String) throws {
        let home = try Home()
        _ = try home.nudge("drink", "--at", "2026-01-09 22:00")
        let before = try home.digest()
        let outcome = try home.nudge(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == message)
        #expect(try home.digest() == before)
    }

    @Test func nothingToUndoIsSaid() throws {
        let home = try Home()
        let outcome = try home.nudge("drink", "--undo")
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "nudge: nothing to undo: no drink is logged\n")
    }
}
