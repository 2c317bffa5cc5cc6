import Foundation
import NudgeCore
import Testing
import TestSupport

/// Schedules said in words in `add`, `edit` and `next`: echoed before anything is stored,
/// refused in one line with exit 64 and the store untouched.
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
