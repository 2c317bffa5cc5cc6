import Foundation
import Testing
import TestSupport

/// `nudge stats`: the water chart in text, JSON and SVG. Drinks are logged on fixed days
/// in the past; the chart's last day is today, so expectations are counted back from it.
@Suite(.onTestThreads)
struct StatsTests {
    /// Three days in a row at goal, then one below it.
    func home() throws -> Home {
        let home = try Home()
        for (day, amounts) in [("2026-01-05", ["1l", "1l"]), ("2026-01-06", ["2l"]), ("2026-01-07", ["1.5l", "600ml"]),
                               ("2026-01-08", ["1l"])] {
            for (index, amount) in amounts.enumerated() {
                #expect(try home.nudge("drink", amount, "--at", "\(day) 1\(index):00").status == 0)
            }
        }
        return home
    }

    @Test func jsonCountsDaysAndStreaks() throws {
        let home = try home()
        let out = try home.nudge("stats", "--days", "2", "--json")
        #expect(out.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect(object["goal"] as? Int == 2000)
        #expect((object["days"] as? [[String: Any]])?.count == 2)
        let streak = try #require(object["streak"] as? [String: Int])
        #expect(streak["longest"] == 3)
        #expect(streak["current"] == 0, "the last day at goal was long ago")
    }

    @Test func theChartLinesUpAndMarksTheGoal() throws {
        let home = try home()
        // Enough days to reach back to January 2026 from whenever this runs.
        let out = try home.nudge("stats", "--days", "3660")
        #expect(out.status == 0)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Water, the last 3660 days (goal 2,000 ml)")
        #expect(lines.contains("Streak: 0 days at goal now, 3 at most"))
        #expect(lines.last == "No reminder came up in these days.")
        let day6 = try #require(lines.first { $0.contains("2026-01-06") })
        // 20 cells are the goal; the bars' column is as wide as the longest (2,100 ml: 21).
        #expect(day6.hasPrefix("Tue 2026-01-06  ████████████████████   2,000 ml ✓"))
        #expect(try #require(lines.first { $0.contains("2026-01-07") }).hasPrefix("Wed 2026-01-07  █████████████████████  2,100 ml ✓"))
        let day8 = try #require(lines.first { $0.contains("2026-01-08") })
        #expect(day8.hasPrefix("Thu 2026-01-08  ██████████  "))
        #expect(day8.hasSuffix("1,000 ml"))
    }

    @Test func theSVGRenders() throws {
        let home = try Home()
        _ = try home.nudge("drink", "2l")
        let file = home.dir + "/water.svg", png = home.dir + "/water.png"
        #expect(try home.nudge("stats", "--svg", file).status == 0)
        let rendered = try Bench.run("rsvg-convert", [file, "-o", png])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let header = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(24)
        #expect(header.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width > 300 && height > 300)
        // A pipe is written into, not replaced by a file (as --svg /dev/stdout must not
        // replace /dev/stdout); a folder is one line, exit 74.
        let piped = try home.nudgeIntoPipe(["stats", "--svg"])
        #expect(piped.outcome.status == 0, "\(piped.outcome.stderr)")
        #expect(piped.stillAPipe)
        #expect(piped.read.contains("<svg"))
        let folder = try home.nudge("stats", "--svg", home.dir)
        #expect(folder.status == 74 && folder.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [["stats", "--days", "0"], ["stats", "--days", "3661"]])
    func badDaysAreSaid(arguments: [String]) throws {
        let outcome = try Home().nudge(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("nudge: invalid --days '"))
    }

    /// Log rows as the daemon writes them, on fixed days in Seoul (the home's zone):
    /// instants as seconds since 1970 and answer times in seconds. They go in as a store
    /// from before the day summary had them (the CLI never writes a past instant), and the
    /// next command's upgrade sums them up per day.
    func logRows(_ home: Home, alert: String, _ rows: [(event: String, at: String, delay: Double?, count: Int?)]) throws {
        let id = try #require(try home.list().first { ($0["shortId"] as? String) == alert }?["id"] as? String).replacingOccurrences(of: "-", with: "")
        let values = try rows.map { row -> String in
            let at = try #require(ISO8601DateFormatter().date(from: row.at)).timeIntervalSince1970
            return "('\(id)', '\(row.event)', \(at), \(row.delay.map { "\($0)" } ?? "NULL"), \(row.count.map { "\($0)" } ?? "NULL"))"
        }
        let insert = try Bench.run("sqlite3", [home.database, "DROP TABLE IF EXISTS logDay; DELETE FROM grdb_migrations WHERE identifier LIKE 'v6:%';"
                                                + "INSERT INTO deliveryLog (alertId, event, at, delay, count) VALUES " + values.joined(separator: ",")])
        try #require(insert.status == 0, "\(insert.stderr)")
    }

    /// Every reminder's pop-ups per day: shown, each kind of answer, missed, and the
    /// median time to answer; --json has every day, the text its totals past 31 days.
    @Test func remindersAreCountedPerDayWithTheirAnswerTimes() throws {
        let home = try home()
        let water = try home.add("--every", "1h", "--from", "09:00", "--until", "21:00")
        let stretch = try home.add("Stretch", "--at", "10:00")
        try logRows(home, alert: water, [
            ("fired", "2026-01-06T09:00:00+09:00", nil, 1), ("drank", "2026-01-06T09:00:40+09:00", 40, 250),
            ("fired", "2026-01-06T10:00:00+09:00", nil, 1), ("acknowledged", "2026-01-06T10:02:00+09:00", 120, nil),
            ("fired", "2026-01-06T11:00:00+09:00", nil, 1), ("dismissed", "2026-01-06T11:00:10+09:00", 10, nil),
            ("goal-met", "2026-01-06T11:30:00+09:00", nil, nil),
            ("caught-up", "2026-01-07T12:00:00+09:00", nil, 3), ("snoozed", "2026-01-07T12:05:00+09:00", 300, nil),
            ("snooze-fired", "2026-01-07T12:15:00+09:00", nil, nil), ("done-for-today", "2026-01-07T12:16:00+09:00", 60, nil),
            ("missed", "2026-01-08T09:00:00+09:00", nil, 2),
        ])
        try logRows(home, alert: stretch, [("fired", "2026-01-07T10:00:00+09:00", nil, 1)])
        let out = try home.nudge("stats", "--days", "3660", "--json")
        #expect(out.status == 0, "\(out.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let reminders = try #require(object["reminders"] as? [[String: Any]])
        #expect(reminders.map { $0["shortId"] as? String } == [water, stretch])
        #expect(reminders.first?["kind"] as? String == "water")
        let total = try #require(reminders.first?["total"] as? [String: Any])
        #expect(total["shown"] as? Int == 5)
        #expect(total["done"] as? Int == 1)
        #expect(total["drank"] as? Int == 1)
        #expect(total["dismissed"] as? Int == 1)
        #expect(total["snoozed"] as? Int == 1)
        #expect(total["doneForToday"] as? Int == 1)
        #expect(total["missed"] as? Int == 5)
        #expect(total["medianAnswerSeconds"] as? Int == 60, "median of 10, 40, 60, 120, 300")
        let days = try #require(reminders.first?["days"] as? [[String: Any]])
        #expect(days.map { $0["day"] as? String } == ["2026-01-06", "2026-01-07", "2026-01-08"])
        #expect(days.map { $0["goalMet"] as? Bool } == [true, false, false])
        #expect(days.map { $0["medianAnswerSeconds"] as? Int } == [40, 180, nil])
        // The text: per reminder, its totals (3660 days are too many to list one by one).
        let text = try home.nudge("stats", "--days", "3660").stdout
        #expect(text.contains("Reminders, the last 3660 days\n\n\(water)  Time to drink water 💧\n"))
        #expect(text.contains("  all days  5      1     1        1           1       1      5       1 min\n"))
        #expect(text.contains("\(stretch)  Stretch\n  DAY       SHOWN  DONE  SNOOZED  DONE TODAY  CLOSED  MISSED  MEDIAN ANSWER\n  all days  1 "))
        // A week has its days, and a reminder removed since keeps its figures.
        #expect(try home.nudge("rm", stretch).status == 0)
        let week = try home.nudge("stats", "--days", "3660", "--json").stdout
        #expect(week.contains("\"title\":null"))
    }

    /// In a terminal (a pty) the bars have colour; through a pipe they do not.
    @Test func colourOnlyInATerminal() throws {
        let home = try Home()
        _ = try home.nudge("drink", "2l")
        let nudge = Bench.nudgePath
        let pty = try Bench.run("script", ["-qec", "\(nudge) stats --days 2", "/dev/null"],
                                environment: home.environment(["NO_COLOR": nil, "TERM": "xterm-256color"]))
        #expect(pty.status == 0)
        #expect(pty.stdout.contains("\u{1B}[32m████████████████████"), "the day at goal in green")
        #expect(pty.stdout.contains("Reminders, the last 2 days"))
        let piped = try home.nudge("stats", "--days", "2", environment: ["NO_COLOR": nil, "TERM": "xterm-256color"])
        #expect(!piped.stdout.contains("\u{1B}["))
    }
}
