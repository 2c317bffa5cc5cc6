import Foundation
import NudgeCore
import Testing
import TestSupport

/// One limit per quantity and per field, the same answer everywhere; no control character
/// reaches the store or, raw, a terminal.
@Suite(.onTestThreads)
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

    /// Every bidirectional control Unicode has (UAX #9): embeddings and overrides, isolates,
    /// marks.
    static let bidiControls: [Unicode.Scalar] = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
                                                 "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"]

    @Test func bidirectionalControlsAreEscaped() {
        for scalar in Self.bidiControls {
            let text = "a" + String(scalar) + "b"
            let hex = String(scalar.value, radix: 16, uppercase: true)
            #expect(text.escapingControls == "a\\u{\(hex)}b")
        }
        // Right-to-left text itself is text: only the controls are escaped.
        #expect("שלום عربي".escapingControls == "שלום عربي")
        #expect("\u{202E}".quotedForMessage() == "'\\u{202E}'")
    }

    /// A title of a right-to-left script, quoted in a sentence (the window's toasts, its
    /// no-match line), is isolated from it so the quotes and the words after stay where the
    /// sentence puts them (issue 52); a left-to-right title is left as it is.
    @Test func aRightToLeftTitleIsIsolatedInASentence() {
        #expect("שתה מים".isolatedForSentence == "\u{2068}שתה מים\u{2069}")
        #expect("اشرب الماء".isolatedForSentence == "\u{2068}اشرب الماء\u{2069}")
        #expect("Pay \u{202E}txt".isolatedForSentence == "\u{2068}Pay \u{202E}txt\u{2069}")
        for plain in ["Tea", "물 마시기", "Café", ""] { #expect(plain.isolatedForSentence == plain) }
    }

    @Test func aTitleWithBidirectionalControlsIsPrintedAsItIs() throws {
        let home = try Home()
        // On a terminal that follows the override this reads "Pay rent: txt.exe" backwards.
        let title = "Pay \u{202E}txt.exe\u{202C} rent \u{2067}x\u{2069}\u{200F}\u{061C}"
        let id = try home.add(title, "--at", "10:00")
        let other = try home.add("Plain", "--at", "11:00")
        let shown = "Pay \\u{202E}txt.exe\\u{202C} rent \\u{2067}x\\u{2069}\\u{200F}\\u{61C}"
        func raw(_ text: String) -> Bool { text.unicodeScalars.contains { Self.bidiControls.contains($0) } }
        for arguments in [["list"], ["show", id], ["ack", id], ["off", id], ["on", id]] {
            let out = try home.nudge(arguments)
            #expect(out.status == 0, "\(arguments): \(out.stderr)")
            #expect(!raw(out.stdout), "\(arguments): \(out.stdout)")
            #expect(out.stdout.contains(shown), "\(arguments): \(out.stdout)")
        }
        // The table's columns line up: each line's title starts in the same column.
        let lines = try home.nudge("list").stdout.split(separator: "\n").map(String.init)
        let columns = lines.dropFirst().map { line in line.distance(from: line.startIndex, to: line.range(of: line.contains("Pay") ? "Pay" : "Plain")!.lowerBound) }
        #expect(Set(columns).count == 1, "\(lines)")
        // JSON holds the title exactly, its controls written as \u escapes.
        let json = try home.nudge("list", "--json").stdout
        #expect(!raw(json) && json.contains("\\u202e") && json.contains("\\u061c"))
        #expect(try home.list().first { $0["shortId"] as? String == id }?["title"] as? String == title)
        // Said when it goes, too.
        let removed = try home.nudge("rm", id, other)
        #expect(!raw(removed.stdout) && removed.stdout.contains(shown), "\(removed.stdout)")
    }

    @Test func theTableIsOneTable() {
        #expect(Limits.Quantity.snooze.range == 1...604_800)
        #expect(throws: Limits.Violation.self) { try Limits.check(.snooze, seconds: 50_000 * 86400) }
        #expect(throws: Limits.Violation.self) { try Limits.check(.title, String(repeating: "x", count: 501)) }
        // A title counts what a person types: 500 Korean characters (1,500 bytes) fit, 501 do not.
        #expect(throws: Never.self) { try Limits.check(.title, String(repeating: "물", count: 500)) }
        let refused = #expect(throws: Limits.Violation.self) { try Limits.check(.title, String(repeating: "물", count: 501)) }
        #expect(refused?.description == "invalid title: 501 characters, at most 500")
        #expect("a\u{1B}b".escapingControls == "a\\eb")
        #expect(String(repeating: "0", count: 1000).quotedForMessage().count < 70)
    }
}
