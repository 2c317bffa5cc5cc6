import Foundation
import Testing
import TestSupport

/// `nudge add`, `list`, `on`, `off`, `rm` end to end, each test with its own XDG_DATA_HOME.
@Suite(.onTestThreads)
struct AlertCommandTests {
    @Test(arguments: [
        ["--at", "09:30", "--days", "mon-fri"], ["--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays"],
        ["--every", "45m"], ["--in", "20m"], ["--on", "2030-12-01 09:00"], ["--cron", "0 9 1 * mon"],
    ])
    func addListOffListRemove(schedule: [String]) throws {
        let home = try Home()
        let added = try home.nudge(["add", "Check"] + schedule)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added "))
        let alerts = try home.list()
        #expect(alerts.count == 1)
        let id = try #require(alerts.first?["shortId"] as? String)
        #expect(id.count == 8)
        #expect(alerts.first?["enabled"] as? Bool == true)
        #expect(alerts.first?["next"] is String)
        #expect(try home.nudge("off", id).status == 0)
        #expect(try home.list().first?["enabled"] as? Bool == false)
        #expect(try home.list().first?["next"] is NSNull)
        #expect(try home.nudge("on", String(id.prefix(4))).status == 0)
        #expect(try home.list().first?["enabled"] as? Bool == true)
        #expect(try home.nudge("rm", id).status == 0)
        #expect(try home.list().isEmpty)
    }


    @Test(arguments: [
        (["add", "--at", "25:61"], "'25:61'"), (["add", "--at", "9:00", "--days", "funday"], "'funday'"),
        (["add", "--every", "0m"], "'0m'"), (["add", "--every", "1h", "--from", "9:75", "--until", "10:00"], "'9:75'"),
        (["add", "--at", "9:00", "--tz", "Mars/Olympus"], "'Mars/Olympus'"), (["add", "--on", "2020-01-01 09:00"], "in the past"),
        (["add", String(repeating: "a", count: 100_000), "--at", "9:00"], "at most 500"),
        (["off", "ffff"], "no alert"), (["rm", "zz"], "invalid id"), (["on"], "<ids>"),
    ])
    func badInputChangesNothing(arguments: [String], mentions: String) throws {
        let home = try Home()
        try home.nudge("add", "Keep", "--at", "08:00")
        #expect(try home.refuses(arguments, mentions: mentions) == [])
    }

    @Test func nextForAStoredAlertUsesItsPinnedZone() throws {
        let home = try Home()
        let added = try home.nudge("add", "Pinned", "--at", "02:30", "--tz", "Europe/Berlin")
        let id = try #require(added.stdout.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        let next = try home.nudge("next", String(id.prefix(5)), "--after", "2026-03-28T12:00:00Z", "--count", "2")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == "Sun 2026-03-29T03:00:00+02:00\nMon 2026-03-30T02:30:00+02:00\n")
        #expect(try home.nudge("next", id, "--at", "9:00").status == 64)
    }

    @Test func showGivesTheWholeAlert() throws {
        let home = try Home()
        try home.nudge("add", "Stretch", "--body", "Arms up", "--at", "10:00", "--catch-up", "skip", "--snooze", "5m")
        let id = try #require(try home.list().first?["shortId"] as? String)
        let text = try home.nudge("show", String(id.prefix(4)))
        #expect(text.status == 0)
        for line in ["title      Stretch", "body       Arms up", "catch-up   skip", "snooze     5 min", "schedule   daily at 10:00"] {
            #expect(text.stdout.contains(line), "missing \(line)")
        }
        let json = try home.nudge("show", id, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Stretch")
    }

    @Test func aDamagedDatabaseIsNamedAndLeftAlone() throws {
        let home = try Home()
        try FileManager.default.createDirectory(atPath: home.dir + "/nudge", withIntermediateDirectories: true)
        let junk = Data(repeating: 0x41, count: 4096)
        try junk.write(to: URL(fileURLWithPath: home.database))
        let result = try home.nudge("list")
        #expect(result.status == 74)
        #expect(result.stderr.contains(home.database))
        #expect(try home.digest() == junk)
    }

    @Test func twentyConcurrentAddsAllLand() throws {
        let home = try Home()
        let running = try (0..<20).map { i in
            try Bench.start(["add", "C\(i)", "--at", "09:00"], environment: home.environment())
        }
        let outcomes = running.map { $0.finish(timeout: 30) }
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.map(\.stderr))")
        #expect(!outcomes.contains { $0.stderr.contains("locked") })
        #expect(try home.list().count == 20)
    }
}
