import Foundation
import Testing
import TestSupport

/// `nudge drink` and the water settings, on a store of their own (zone Asia/Seoul).
@Suite(.onTestThreads)
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
        #expect(try home.nudge("config").stdout == "log-days 90\nlog-rows 100000\ncup 300ml\ngoal 2500ml\nday-start 04:00\nidle-minutes 5\ndefault-time none\ncomplete-tasks off\n")
        // With days starting at 04:00, a glass at 01:30 counts for the evening before.
        #expect(try home.nudge("drink", "--at", "2026-01-09 22:00").stdout == "drank 300 ml at 2026-01-09 22:00 — 300 of 2,500 ml on 2026-01-09\n")
        #expect(try home.nudge("drink", "1l", "--at", "2026-01-10 01:30").stdout == "drank 1,000 ml at 2026-01-10 01:30 — 1,300 of 2,500 ml on 2026-01-09\n")
        #expect(try home.nudge("drink", "--at", "2026-01-10 04:00").stdout == "drank 300 ml at 2026-01-10 04:00 — 300 of 2,500 ml on 2026-01-10\n")
    }

    @Test(arguments: [
        (["drink", "0"], "nudge: invalid amount '0': it must be from 1 ml to 5000 ml\n"),
        (["drink", "6l"], "nudge: invalid amount '6l': it must be from 1 ml to 5000 ml\n"),
        // Rounded to whole millilitres, a sip below 1 ml is 0: the smallest amount is said.
        (["drink", "0.4ml"], "nudge: invalid amount '0.4ml': it must be from 1 ml to 5000 ml\n"),
        (["drink", "0.01oz"], "nudge: invalid amount '0.01oz': it must be from 1 ml to 5000 ml\n"),
        // The range said is the range taken: nothing is rounded into it.
        (["drink", "0.5ml"], "nudge: invalid amount '0.5ml': it must be from 1 ml to 5000 ml\n"),
        (["drink", "5000.4ml"], "nudge: invalid amount '5000.4ml': it must be from 1 ml to 5000 ml\n"),
        // An offset cannot carry a date out of the years: 9999-12-31 at UTC-12 is in 10000.
        (["drink", "--at", "9999-12-31T23:59:59-12:00"], "nudge: invalid date '9999-12-31T23:59:59-12:00': the year must be from 1970 to 9999 (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)\n"),
        // Years before 1970 (and year 0, which printed as "0-01-01") are no date Nudge keeps.
        (["drink", "--at", "0000-01-01 00:00"], "nudge: invalid date '0000-01-01 00:00': the year must be from 1970 to 9999 (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)\n"),
        (["drink", "--at", "1969-12-31T23:00:00Z"], "nudge: invalid date '1969-12-31T23:00:00Z': the year must be from 1970 to 9999 (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)\n"),
        (["drink", "2 cups"], "nudge: invalid amount '2 cups' (use a number with ml, cl, l or oz, e.g. 250ml, 0.3l, 8oz)\n"),
        (["drink", "--at", "2999-01-01 09:00"], "nudge: invalid --at '2999-01-01 09:00': it is in the future (a drink is logged when it was drunk)\n"),
        (["drink", "--at", "noon"], "nudge: invalid date 'noon' (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)\n"),
        (["drink", "--undo", "250"], "nudge: --undo takes no amount and no --at\n"),
        (["config", "goal", "0"], "nudge: invalid goal '0': give an amount such as 250ml, 0.3l or 8oz\n"),
        (["config", "goal", "50ml"], "nudge: invalid goal 50ml: it must be between 100ml and 20000ml\n"),
        (["config", "day-start", "25:00"], "nudge: invalid day-start '25:00': give a time such as 04:00\n"),
        // The day starts on a whole minute: seconds are refused, never cut.
        (["config", "day-start", "12:00:30"], "nudge: invalid day-start '12:00:30': a day starts on a whole minute, without seconds (give a time such as 04:00)\n"),
        // Beyond any integer: one line, never a crash.
        (["drink", "99999999999999999999l"], "nudge: invalid amount '99999999999999999999l': it must be from 1 ml to 5000 ml\n"),
        (["config", "goal", "99999999999999999999l"], "nudge: invalid goal '99999999999999999999l': give an amount such as 250ml, 0.3l or 8oz\n"),
    ])
    func badInputChangesNothing(arguments: [String], message: String) throws {
        let home = try Home()
        _ = try home.nudge("drink", "--at", "2026-01-09 22:00")
        #expect(try home.refuses(arguments, line: message) == [])
    }

    @Test func nothingToUndoIsSaid() throws {
        let home = try Home()
        let outcome = try home.nudge("drink", "--undo")
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "nudge: nothing to undo: no drink is logged\n")
    }

    /// The drink-water reminder is a water reminder; any alert can be made one. Once the
    /// day's goal is met it rests until the next drink day, and a drink taken back wakes it.
    @Test func waterRemindersKnowTheDay() throws {
        let home = try Home()
        let water = try home.add("--every", "30m", "--from", "00:00", "--until", "23:30")
        let tea = try home.add("Tea", "--every", "30m", "--from", "00:00", "--until", "23:30")
        func kinds() throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try home.list().map { ($0["shortId"] as! String, $0["kind"] as! String) })
        }
        #expect(try kinds() == [water: "water", tea: "reminder"])
        #expect(try home.nudge("edit", tea, "--water").status == 0)
        #expect(try kinds()[tea] == "water")
        #expect(try home.nudge("edit", tea, "--kind", "reminder").status == 0)
        #expect(try kinds()[tea] == "reminder")
        #expect(try home.nudge("drink", "2l").status == 0)
        let rested = try home.list().first { $0["shortId"] as? String == water }
        #expect(rested?["nextReason"] as? String == "goal-met")
        #expect(try home.list().first { $0["shortId"] as? String == tea }?["nextReason"] is NSNull)
        let text = try home.nudge("list").stdout
        #expect(text.contains("\(water)  goal met"))
        #expect(try home.nudge("show", water).stdout.contains("kind       water reminder (2,000 of 2,000 ml today)"))
        #expect(try home.nudge("drink", "--undo").status == 0)
        #expect(try home.list().first { $0["shortId"] as? String == water }?["nextReason"] is NSNull)
    }

    @Test(arguments: [
        (["add", "Tea", "--at", "10:00", "--kind", "coffee"], "nudge: invalid kind 'coffee': use water or reminder\n"),
        (["add", "Tea", "--at", "10:00", "--water", "--kind", "reminder"], "nudge: --water and --kind reminder contradict each other\n"),
        (["add", "Tea", "--at", "10:00", "--after-done"],
         "nudge: invalid schedule '--after-done': it counts --every from the last answer, and no --every is given (use e.g. --every 45m --after-done --from 09:30 --until 21:30)\n"),
    ])
    func badWaterReminderFlagsChangeNothing(arguments: [String], message: String) throws {
        let home = try Home()
        let outcome = try home.nudge(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == message)
        #expect(try home.list().isEmpty)
    }

    /// `--after-done` counts from the last answer: `next` shows it, and an answer moves it.
    @Test func afterDoneCountsFromTheLastAnswer() throws {
        let home = try Home()
        let id = try home.add("Stretch", "--every", "45m", "--after-done")
        let listed = try #require(try home.list().first)
        #expect(listed["schedule"] as? String == "45 min after the last answer")
        let preview = try home.nudge("next", "--every", "45m", "--after-done", "--after", "2026-11-23 10:00", "--count", "2")
        #expect(preview.stdout == "Mon 2026-11-23T10:45:00+09:00\nMon 2026-11-23T11:30:00+09:00\n")
        #expect(try home.nudge("show", id).stdout.contains("schedule   45 min after the last answer\n"))
    }
}
