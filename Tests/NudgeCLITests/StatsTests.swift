import Foundation
import Testing
import TestSupport

/// `nudge stats`: the water chart in text, JSON and SVG. Drinks are logged on fixed days
/// in the past; the chart's last day is today, so expectations are counted back from it.
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
        #expect(lines.last == "Streak: 0 days at goal now, 3 at most")
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
    }

    @Test(arguments: [["stats", "--days", "0"], ["stats", "--days", "3661"]])
    func badDaysAreSaid(arguments: [String]) throws {
        let outcome = try Home().nudge(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("nudge: invalid --days '"))
    }
}
