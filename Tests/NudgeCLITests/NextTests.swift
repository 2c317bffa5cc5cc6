import Foundation
import Testing
import TestSupport

/// `nudge next` end to end (no bus needed).
@Suite(.onTestThreads)
struct NextTests {
    @Test func berlinsSpringForwardGapFiresAtThree() throws {
        let result = try Bench.nudge("next", "--at", "02:30", "--tz", "Europe/Berlin", "--after", "2026-03-28T12:00:00Z", "--count", "2")
        #expect(result.status == 0)
        #expect(result.stdout == "Sun 2026-03-29T03:00:00+02:00\nMon 2026-03-30T02:30:00+02:00\n")
    }

    @Test func jsonCarriesLocalAndUTC() throws {
        let result = try Bench.nudge("next", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays",
                                     "--tz", "Asia/Seoul", "--after", "2026-11-22 00:00", "--count", "3", "--json")
        #expect(result.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        #expect(items.map { $0["local"] ?? "" } == ["2026-11-23T09:30:00+09:00", "2026-11-23T10:00:00+09:00", "2026-11-23T10:30:00+09:00"])
        #expect(items.first?["utc"] == "2026-11-23T00:30:00Z")
    }

    @Test(arguments: [
        (["--at", "25:61"], "'25:61'"), (["--at", "9:00", "--days", "funday"], "'funday'"), (["--every", "0m"], "'0m'"),
        (["--cron", "*/0 * * * *"], "'*/0'"), (["--at", "9:00", "--tz", "Mars/Olympus"], "'Mars/Olympus'"),
        (["--every", "1h", "--from", "9:75", "--until", "10:00"], "'9:75'"), ([], "no schedule"),
        (["--on", "2026-02-30"], "'2026-02-30'"), (["--at", "9:00", "--count", "0"], "count"),
    ])
    func badSchedulesAreExit64NamingTheToken(arguments: [String], mentions: String) throws {
        let result = try Bench.run(Bench.nudgePath, ["next"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }

    /// Daily and weekday schedules away from DST changes agree with systemd's calendar.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")),
          arguments: ["Europe/Berlin", "America/New_York", "Asia/Seoul", "Australia/Sydney"])
    func agreesWithSystemdAnalyze(zone: String) throws {
        let cases: [([String], String)] = [
            (["--at", "09:30", "--days", "mon-fri"], "Mon..Fri 09:30"),
            (["--at", "07:15"], "*-*-* 07:15"),
            (["--at", "18:00", "--at", "08:00", "--days", "sat,sun"], "Sat,Sun 08,18:00"),
        ]
        for (flags, calendar) in cases {
            let base = "2026-11-22 12:00:00 UTC"
            let theirs = try Bench.run("/usr/bin/systemd-analyze", ["calendar", "--iterations", "12", "--base-time", base, calendar],
                                       environment: ["TZ": zone])
            let utcLines = theirs.stdout.split(separator: "\n").filter { $0.contains("(in UTC):") }
                .map { String($0.split(separator: " ").dropFirst(3).prefix(2).joined(separator: "T")) + "Z" }
            let ours = try Bench.nudge(["next", "--tz", zone, "--after", "2026-11-22T12:00:00Z", "--count", "12", "--json"] + flags)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(ours.stdout.utf8)) as? [[String: String]])
            #expect(utcLines.count == 12)
            #expect(items.map { $0["utc"] ?? "" } == utcLines, "\(zone) \(calendar)")
        }
    }
}
