import Foundation
import NudgeCore
import Testing
import TestSupport

/// Schedules said in words in `add`, `edit` and `next`: echoed before anything is stored,
/// refused in one line with exit 64 and the store untouched.
@Suite(.onTestThreads)
struct PhraseCommandTests {
    func show(_ home: Home, _ id: String) throws -> [String: Any] {
        let out = try home.nudge("show", id, "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    /// The id in the line after the echo: "added 1a2b3c4d: …", in any language.
    func id(in output: String) -> String? {
        let lines = output.split(separator: "\n")
        guard lines.count > 1, let word = lines[1].split(separator: " ").first(where: { $0.count == 9 && $0.hasSuffix(":") }) else { return nil }
        return String(word.dropLast())
    }

    @Test func aKoreanPhraseIsEchoedInKoreanThenStored() throws {
        let home = try Home()
        let added = try home.nudge(["add", "물 마시기", "매일 오전 9시"], environment: ["LANG": "ko_KR.UTF-8"])
        #expect(added.status == 0, "\(added.stderr)")
        let lines = added.stdout.replacingOccurrences(of: "\u{202F}", with: " ").split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("매일 오전 9시 → --at 09:00 (매일 오전 9:00) · 다음: ") == true, "\(added.stdout)")
        #expect(lines.first?.components(separatedBy: "오전 9:00").count == 5, "the words, and three showings: \(lines.first ?? "")")
        let id = try #require(self.id(in: added.stdout))
        #expect(try show(home, id)["schedule"] as? String == "daily at 09:00")
        #expect(try show(home, id)["title"] as? String == "물 마시기")
    }

    /// One line holding a title and when (issue 54): told apart as the desktop's search tells
    /// them, said, then stored; a line read two ways is refused saying both; a line with no
    /// schedule is refused as before.
    @Test func oneLineWithATitleAndWhenIsOneReminder() throws {
        let home = try Home()
        let dry = try home.nudge("add", "call mum on 2030-12-01 at 6pm", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("title: call mum · when: on 2030-12-01 at 6pm\non 2030-12-01 at 6pm → "), "\(dry.stdout)")
        #expect(try home.list().isEmpty)
        let added = try home.nudge("add", "call mum on 2030-12-01 at 6pm")
        #expect(added.status == 0, "\(added.stderr)")
        let line = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("added ") })
        let id = String(try #require(line.split(separator: " ").dropFirst().first).dropLast())
        let shown = try show(home, id)
        #expect(shown["title"] as? String == "call mum")
        #expect((shown["schedule"] as? String)?.hasPrefix("once, 2030-12-01T18:00:00") == true, "\(shown)")
        // Korean, the title after when.
        let korean = try home.nudge(["add", "2030년 12월 1일 오후 3시에 엄마한테 전화하기"], environment: ["LANG": "ko_KR.UTF-8"])
        #expect(korean.status == 0, "\(korean.stderr)")
        #expect(korean.stdout.hasPrefix("제목: 엄마한테 전화하기 · 언제: 2030년 12월 1일 오후 3시"), "\(korean.stdout)")
        // Two ways: refused, both said, nothing stored.
        let before = try home.list().count
        let two = try home.nudge("add", "call mum on 2030-12-01 at 9")
        #expect(two.status == 64 && two.stdout.isEmpty, "\(two)")
        #expect(two.stderr.hasPrefix("nudge: 'call mum on 2030-12-01 at 9' reads two ways: ") && two.stderr.split(separator: "\n").count == 1, "\(two.stderr)")
        #expect(two.stderr.contains("on 2030-12-01 at 9 (") && two.stderr.contains("on 2030-12-01 at 9pm ("), "\(two.stderr)")
        // A date refused whole is said as the phrase's refusal, not made a title.
        let noSuchDay = try home.nudge("add", "call mum on 31/11 at 9am")
        #expect(noSuchDay.status == 64 && noSuchDay.stderr.hasPrefix("nudge: invalid date '31/11'"), "\(noSuchDay.stderr)")
        #expect(try home.list().count == before)
        // Texting's asking words go; a line that is all when asks for a title.
        let texted = try home.nudge("add", "pls remind me 2 call mum on 2030-12-01 at 6pm please", "--dry-run")
        #expect(texted.status == 0 && texted.stdout.hasPrefix("title: call mum · when: on 2030-12-01 at 6pm\n"), "\(texted)")
        let untitled = try home.nudge("add", "on 2030-12-01 at 6pm")
        #expect(untitled.status == 64 && untitled.stderr.hasPrefix("nudge: 'on 2030-12-01 at 6pm' says when but no title: "), "\(untitled.stderr)")
        // Words of when at an edge that give no reading: said, not "no schedule given".
        let apart = try home.nudge("add", "tea 25:00")
        #expect(apart.status == 64 && apart.stderr.hasPrefix("nudge: 'tea 25:00': the title and when could not be told apart"), "\(apart.stderr)")
        // A step for a while, in one line.
        let lasting = try home.nudge("add", "stretch every 20 minutes for the next 2 hours", "--dry-run")
        #expect(lasting.status == 0 && lasting.stdout.hasPrefix("title: stretch · when: every 20 minutes for the next 2 hours\n")
                && lasting.stdout.contains("for the next 2 hours: from now until "), "\(lasting)")
        #expect(try home.list().count == before)
        // No schedule in it: as before.
        let none = try home.nudge("add", "Tea")
        #expect(none.status == 64 && none.stderr.hasPrefix("nudge: no schedule given"), "\(none.stderr)")
        // A line that says when, with flags too: refused (it was daily at 10:00, titled with the
        // words of when); openers before the asking words go; a title of invisible marks is none.
        let both = try home.nudge("add", "call mum on 2030-12-01 at 9am", "--at", "10:00")
        #expect(both.status == 64 && both.stderr == "nudge: 'call mum on 2030-12-01 at 9am' says when ('on 2030-12-01 at 9am') and the flags say it too: give one\n",
                "\(both.stderr)")
        let opened = try home.nudge("add", "hey can you please remind me to call mum on 2030-12-01 at 6pm", "--dry-run")
        #expect(opened.status == 0 && opened.stdout.hasPrefix("title: call mum · when: on 2030-12-01 at 6pm\n"), "\(opened)")
        let invisible = try home.nudge("add", "\u{200F}\u{200B}", "on 2030-12-01 at 6pm")
        #expect(invisible.status == 64 && invisible.stderr == "nudge: a reminder needs a title\n", "\(invisible.stderr)")
        #expect(try home.list().count == before)
    }

    /// A numeric date both orders allow is read in the order of the person's LC_TIME and
    /// said; in C it is refused as before (issue 54).
    @Test func aNumericDateIsReadInTheLocalesOrder() throws {
        let home = try Home()
        let us = try home.nudge(["add", "Tea", "3/4/2030 at 9am", "--dry-run"], environment: ["LANG": "en_US.UTF-8"])
        #expect(us.status == 0, "\(us.stderr)")
        #expect(us.stdout.contains("2030-03-04 09:00") && us.stdout.contains("  3/4/2030 is read month first, as your locale writes dates"), "\(us.stdout)")
        let polish = try home.nudge(["add", "Tea", "3/4/2030 at 9am", "--dry-run"], environment: ["LANG": "en_US.UTF-8", "LC_TIME": "pl_PL.UTF-8"])
        #expect(polish.status == 0, "\(polish.stderr)")
        #expect(polish.stdout.contains("2030-04-03 09:00") && polish.stdout.contains("  3/4/2030 is read day first, as your locale writes dates"), "\(polish.stdout)")
        let c = try home.nudge(["add", "Tea", "3/4/2030 at 9am", "--dry-run"], environment: ["LANG": "C"])
        #expect(c.status == 64 && c.stderr.hasPrefix("nudge: ambiguous date '3/4/2030'"), "\(c.stderr)")
        let clear = try home.nudge(["add", "Tea", "25/12/2030 at 9am", "--dry-run"], environment: ["LANG": "C"])
        #expect(clear.status == 0 && clear.stdout.contains("2030-12-25 09:00"), "\(clear)")
    }

    @Test func aDryRunEchoesAndStoresNothing() throws {
        let home = try Home()
        let dry = try home.nudge("add", "Stand up", "every weekday at 15:00", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("every weekday at 15:00 → --at 15:00 --days mon-fri (Mon–Fri at 15:00) · next: "), "\(dry.stdout)")
        #expect(!dry.stdout.contains("added"))
        #expect(try home.list().isEmpty)
        let window = try home.nudge("add", "Water", "every 2 hours from 9 to 18", "--dry-run")
        #expect(window.stdout.hasPrefix("every 2 hours from 9 to 18 → --every 2h --from 09:00 --until 18:00 (every 2 h, 09:00–17:00)"), "\(window.stdout)")
    }

    @Test(arguments: [
        ("every weekday at 9:30 please", "nudge: words not understood 'please'"),
        ("12/1 9am", "nudge: ambiguous date '12/1'"),
    ])
    func aPhraseThatIsNotClearIsRefusedInOneLine(phrase: String, message: String) throws {
        let home = try Home()
        let kept = try home.add("Kept", "--at", "8:00")
        let refused = try home.nudge("add", "T", phrase)
        #expect(refused.status == 64)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.hasPrefix(message), "\(refused.stderr)")
        #expect(refused.stderr.filter { $0 == "\n" }.count == 1, "one line: \(refused.stderr)")
        #expect(try home.list().map { $0["shortId"] as? String } == [kept])
        // So is an edit, and the alert keeps its schedule.
        let edit = try home.nudge("edit", kept, phrase)
        #expect(edit.status == 64 && edit.stderr.hasPrefix(message), "\(edit.stderr)")
        #expect(try show(home, kept)["schedule"] as? String == "daily at 08:00")
    }

    /// The longest argument Linux passes is 128 KiB; the parser's own test reads 1 MB.
    @Test func hugeAndHostilePhrasesGetOneLineAndExit64() throws {
        let home = try Home()
        for phrase in [String(repeating: "x", count: 120_000), String(repeating: "매일 ", count: 10_000), "\u{1B}]0;pwned\u{7}매일 9시", "--at"] {
            let refused = try home.nudge("add", "T", phrase)
            #expect(refused.status == 64, "\(refused.stderr.prefix(200))")
            #expect(refused.stderr.filter { $0 == "\n" }.count == 1)
            #expect(!refused.stderr.contains("\u{1B}"), "escapes are shown, not sent")
        }
        #expect(try home.list().isEmpty)
    }

    @Test func aPhraseAndScheduleFlagsAreNotBoth() throws {
        let home = try Home()
        let both = try home.nudge("add", "T", "every day at 9am", "--at", "10:00")
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("nudge: a schedule phrase and schedule flags 'every day at 9am': give one or the other"), "\(both.stderr)")
    }

    @Test func editTakesAPhraseAfterTheID() throws {
        let home = try Home()
        let id = try home.add("Stretch", "--at", "9:00")
        let edited = try home.nudge("edit", id, "평일 오후 3시")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasPrefix("평일 오후 3시 → --at 15:00 --days mon-fri"), "\(edited.stdout)")
        #expect(try show(home, id)["schedule"] as? String == "Mon–Fri at 15:00")
        let dry = try home.nudge("edit", id, "every 45 minutes", "--dry-run")
        #expect(dry.stdout.hasPrefix("every 45 minutes → --every 45m (every 45 min)"))
        #expect(try show(home, id)["schedule"] as? String == "Mon–Fri at 15:00", "a dry run changes nothing")
    }

    @Test func nextPreviewsAPhraseAndSaysWhatItRead() throws {
        let home = try Home()
        let next = try home.nudge("next", "every 2 hours from 9 to 18", "--after", "2026-11-25 14:00", "--count", "3")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == """
            every 2 hours from 9 to 18 → --every 2h --from 09:00 --until 18:00 (every 2 h, 09:00–17:00)
              9 – 18 is read as 09:00–18:00
            Wed 2026-11-25T15:00:00+09:00
            Wed 2026-11-25T17:00:00+09:00
            Thu 2026-11-26T09:00:00+09:00

            """)
        let bare = try home.nudge("next", "내일 9시", "--after", "2026-11-25 14:00", "--count", "1")
        #expect(bare.stdout.contains("9시 is read as 09:00; say 오후 9시 for 21:00"), "\(bare.stdout)")
        let json = try home.nudge("next", "매일 오전 9시", "--after", "2026-11-25 14:00", "--count", "1", "--json")
        #expect(json.stdout.hasPrefix("[{\"local\":\"2026-11-26T09:00:00+09:00\""), "only JSON: \(json.stdout)")
    }
}
