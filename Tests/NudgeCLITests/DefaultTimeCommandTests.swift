import Foundation
import NudgeCore
import Testing
import TestSupport

/// The default reminder time: `nudge config default-time` keeps it (none by default), and
/// `add`, `edit` and `next` read a day said without a time with it. On a store of its own,
/// in Seoul and the C locale; `next` at a fixed instant (`--after`, Tue 2026-03-10 14:20),
/// and `add` checked against the day it ran on, whatever that day is.
@Suite(.onTestThreads)
struct DefaultTimeCommandTests {
    static let after = ["--after", "2026-03-10T14:20:00+09:00"]
    static let note = "  at 09:00, your default reminder time; say a time to choose another"

    @Test func configKeepsItListsItAndClearsIt() throws {
        let home = try Home()
        #expect(try home.nudge("config", "default-time").stdout == "none\n")
        #expect(try home.nudge("config").stdout.hasSuffix("idle-minutes 5\ndefault-time none\ncomplete-tasks off\n"))
        #expect(try home.nudge("config", "default-time", "09:00").stdout == "default-time 09:00\n")
        #expect(try home.nudge("config", "default-time").stdout == "09:00\n")
        #expect(try home.nudge("config").stdout.hasSuffix("\ndefault-time 09:00\ncomplete-tasks off\n"))
        // Said as a time is said anywhere else: 9:30pm is 21:30.
        #expect(try home.nudge("config", "default-time", "9:30pm").stdout == "default-time 21:30\n")
        #expect(try home.nudge("config", "default-time", "none").stdout == "default-time none\n")
        #expect(try home.nudge("config", "default-time").stdout == "none\n")
    }

    /// A bad value: one line, exit 64, and the value kept stays.
    @Test(arguments: [
        ("25:00", "nudge: invalid default-time '25:00': give a time such as 09:00, or none\n"),
        ("noon", "nudge: invalid default-time 'noon': give a time such as 09:00, or none\n"),
        ("", "nudge: invalid default-time '': give a time such as 09:00, or none\n"),
        ("09:00:30", "nudge: invalid default-time '09:00:30': give a time in whole minutes, without seconds, such as 09:00, or none\n"),
    ])
    func aBadValueIsRefusedInOneLine(_ value: String, _ message: String) throws {
        let home = try Home()
        try home.nudge("config", "default-time", "08:30")
        let refused = try home.nudge("config", "default-time", value)
        #expect(refused.status == 64)
        #expect(refused.stderr == message)
        #expect(try home.nudge("config", "default-time").stdout == "08:30\n")
    }

    /// Without it, "tomorrow" is refused as before, and the store is only looked at: a
    /// refused add makes none. With it, tomorrow at 09:00, said under the echo.
    @Test func addReadsTomorrowWithItAndRefusesItWithout() throws {
        let home = try Home()
        let refused = try home.nudge("add", "Dentist", "tomorrow")
        #expect(refused.status == 64)
        #expect(refused.stderr == "nudge: no time of day given 'tomorrow': say at what time: tomorrow 9am, 내일 오전 9시 "
            + "(say e.g. every weekday at 9:30, in 20 minutes, tomorrow 9am, every 30 minutes from 9:30 to 21:30, 매일 오전 9시)\n")
        #expect(!FileManager.default.fileExists(atPath: home.database))

        try home.nudge("config", "default-time", "09:00")
        let clock = CivilZone(TimeZone(identifier: "Asia/Seoul")!)
        let before = clock.local(Date()).day.advanced(by: 1)
        let added = try home.nudge("add", "Dentist", "tomorrow")
        let after = clock.local(Date()).day.advanced(by: 1)
        #expect(added.status == 0, "\(added.stderr)")
        let lines = added.stdout.split(separator: "\n").map(String.init)
        // Run across midnight, tomorrow is either day.
        let day = try #require([before, after].first { lines.first?.hasPrefix("tomorrow → --on '\($0) 09:00' (once, ") == true }, "\(added.stdout)")
        #expect(lines.count == 4 && lines[1] == Self.note, "\(added.stdout)")
        #expect(lines.count == 4 && lines[2].hasSuffix(": Dentist — once, \(day)T09:00:00+09:00"), "\(added.stdout)")
        #expect(try home.list().map { $0["schedule"] as? String } == ["once, \(day)T09:00:00+09:00"])
    }

    @Test func editReadsWithIt() throws {
        let home = try Home()
        try home.nudge("config", "default-time", "07:45")
        let id = try home.add("Dentist", "--at", "10:00")
        let edited = try home.nudge("edit", id, "모레")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("\n  at 07:45, your default reminder time; say a time to choose another\n"), "\(edited.stdout)")
        let schedule = try #require(try home.list().first?["schedule"] as? String)
        #expect(schedule.hasPrefix("once, ") && schedule.hasSuffix("T07:45:00+09:00"), "\(schedule)")
    }

    /// `next` at a fixed instant: each day said without a time, in both languages; a day
    /// whose default time has passed is refused as passed, never moved.
    @Test func nextReadsWithItAtAFixedInstant() throws {
        let home = try Home()
        let without = try home.nudge(["next", "tomorrow", "--count", "1"] + Self.after)
        #expect(without.status == 64)
        try home.nudge("config", "default-time", "09:00")
        let cases = [
            ("tomorrow", "tomorrow → --on '2026-03-11 09:00' (once, Wed 2026-03-11 09:00)\n\(Self.note)\nWed 2026-03-11T09:00:00+09:00\n"),
            ("금요일", "금요일 → --on '2026-03-13 09:00' (once, Fri 2026-03-13 09:00)\n\(Self.note)\nFri 2026-03-13T09:00:00+09:00\n"),
            ("every monday", "every monday → --at 09:00 --days mon (every Mon at 09:00)\n\(Self.note)\nMon 2026-03-16T09:00:00+09:00\n"),
        ]
        for (phrase, output) in cases {
            let next = try home.nudge(["next", phrase, "--count", "1"] + Self.after)
            #expect(next.status == 0, "\(phrase): \(next.stderr)")
            #expect(next.stdout == output, "\(phrase)")
        }
        let passed = try home.nudge(["next", "today"] + Self.after)
        #expect(passed.status == 64)
        #expect(passed.stderr.hasPrefix("nudge: that time has passed 'today': 09:00, your default reminder time, has passed on that day; say a later time ("), "\(passed.stderr)")
        let korean = try home.nudge(["next", "내일", "--count", "1"] + Self.after, environment: ["LANG": "ko_KR.UTF-8"])
        #expect(korean.stdout.split(separator: "\n").dropFirst().first == "  09:00: 기본 알림 시각입니다. 다른 시각을 원하면 시각을 함께 말하세요", "\(korean.stdout)")
    }
}
