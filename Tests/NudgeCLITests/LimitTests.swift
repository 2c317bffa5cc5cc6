import Foundation
import NudgeCore
import Testing
import TestSupport

/// One limit per quantity and per field, the same answer everywhere; no control character
/// reaches the store or, raw, a terminal.
struct LimitTests {
    @Test(arguments: [
        (["snooze", "ID", "50000d"], "invalid snooze"), (["snooze", "ID", "8d"], "between 1s and 7d"),
        (["snooze", "ID", "999999h"], "invalid snooze"), (["add", "x", "--at", "9:00", "--snooze", "999999h"], "invalid snooze"),
        (["add", "x", "--at", "9:00", "--grace", "40d"], "invalid grace"), (["add", "x", "--every", "32d"], "invalid --every"),
        (["add", "x", "--in", "999999d"], "invalid --in"), (["add", "x", "--at", "9:00", "--sound", String(repeating: "s", count: 100_000)], "invalid sound: 100000 bytes, at most 4096"),
        (["add", "x", "--at", "9:00", "--icon", String(repeating: "i", count: 4097)], "invalid icon: 4097 bytes"),
        (["add", "Bad\u{1B}[2J", "--at", "9:00"], "control character U+001B"), (["add", "a\nb", "--at", "9:00"], "U+000A"),
        (["add", "osc\u{1B}]0;x\u{07}", "--at", "9:00"], "U+001B"), (["add", "cr\r", "--at", "9:00"], "U+000D"),
        (["add", "bs\u{08}", "--at", "9:00"], "U+0008"), (["add", "c1\u{9B}", "--at", "9:00"], "U+009B"),
        (["add", "x", "--at", "9:00", "--body", "a\u{1B}[31m"], "only line breaks and tabs"),
        (["add", "x"], "nudge: no schedule given: give exactly one"),
    ])
    func refusedTheSameWithOrWithoutADaemon(arguments: [String], mentions: String) throws {
        let home = try Home()
        let id = try home.add("Kept", "--at", "10:00")
        let before = try home.digest()
        let outcome = try home.nudge(arguments.map { $0 == "ID" ? id : $0 })
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(mentions), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(outcome.stderr.utf8.count < 300)
        #expect(try home.digest() == before)
    }

    @Test func aBodyMayBreakLines() throws {
        let home = try Home()
        let id = try home.add("Lines", "--at", "10:00", "--body", "one\ntwo\tthree")
        #expect(try home.list().first?["body"] as? String == "one\ntwo\tthree")
        let shown = try home.nudge("show", id).stdout
        #expect(shown.contains("body       one\\ntwo\\tthree"))
    }

    @Test func controlsAlreadyStoredArePrintedEscaped() throws {
        let home = try Home()
        let id = try home.add("Plain", "--at", "10:00")
        // An older store, or a file written by hand: the text is there already.
        let sqlite = try Bench.run("sqlite3", [home.database, "UPDATE alert SET title = 'A' || char(27) || '[2J' || char(10) || 'B' || char(155) || 'C'"])
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        for arguments in [["list"], ["show", id], ["ack", id]] {
            let out = try home.nudge(arguments, environment: ["NO_COLOR": nil, "TERM": "xterm"])
            #expect(!out.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x0D }, "\(arguments)")
            #expect(out.stdout.contains("A\\e[2J\\nB\\u{9B}C"), "\(arguments): \(out.stdout)")
        }
        let list = try home.nudge("list").stdout
        #expect(list.split(separator: "\n").count == 2)
    }

    @Test func theTableIsOneTable() {
        #expect(Limits.Quantity.snooze.range == 1...604_800)
        #expect(throws: Limits.Violation.self) { try Limits.check(.snooze, seconds: 50_000 * 86400) }
        #expect(throws: Limits.Violation.self) { try Limits.check(.title, String(repeating: "x", count: 501)) }
        #expect("a\u{1B}b".escapingControls == "a\\eb")
        #expect(String(repeating: "0", count: 1000).quotedForMessage().count < 70)
    }
}
