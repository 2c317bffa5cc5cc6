import Foundation
import NudgeCore
import NudgeKit
import TestSupport
import Testing

/// Every phrase of the tables round-trips: phrase → schedule → the schedule in words, as
/// `list` says it (English on a 24-hour clock and in en_US, Korean in ko_KR) → read again →
/// the same schedule.
@Suite(.onTestThreads)
struct PhraseRoundTripTests {
    /// Reads `schedule` back from how `list` says it in each of the four clocks (ISO, C,
    /// en_US, ko_KR), recording what does not come back as the same schedule; returns how
    /// many readings were checked.
    private func readsBack(_ phrase: String, _ schedule: Schedule, now: Date, zone: TimeZone) throws -> Int {
        let wordings: [(String, TimeStyle, Language)] = [
            ("ISO", .iso, .english), ("C", TimeStyle.style(locale: nil), .english),
            ("en_US", TimeStyle.style(locale: "en_US.UTF-8"), .english), ("ko_KR", TimeStyle.style(locale: "ko_KR.UTF-8"), try PoCatalog.language("ko")),
        ]
        for (name, style, language) in wordings {
            let words = schedule.summary(in: zone, timeStyle: style, language: language)
            do {
                let again = try SchedulePhrase.read(words, now: now, zone: zone).schedule
                #expect(again == schedule, "\(phrase) → \(name) '\(words)' → \(again.summary(in: zone))")
            } catch {
                Issue.record("\(phrase) → \(name) '\(words)': \(error)")
            }
        }
        return wordings.count
    }

    @Test func everyPhraseReadsBackFromHowListSaysIt() throws {
        let (zone, now) = (PhraseTables.zone, PhraseTables.now)
        var count = 0
        for (phrase, meaning) in PhraseTables.korean + PhraseTables.english where !meaning.hasPrefix("! ") {
            let schedule = try SchedulePhrase.read(phrase, now: now, zone: zone).schedule
            count += try readsBack(phrase, schedule, now: now, zone: zone)
        }
        #expect(count >= 4 * 200)
    }

    /// The everyday phrasings (Tests/Fixtures/phrases) too, at their own fixed now: every
    /// family issue 44 added reads back from list's words in both languages and all four clocks.
    @Test func everydayPhrasesReadBackFromHowListSaysThem() throws {
        let zone = TimeZone(identifier: "Asia/Seoul")!
        let now = try ScheduleParser.instant("2026-03-10 14:20", zone: zone)
        var count = 0
        for language in ["en", "ko"] {
            let url = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases/everyday-\(language).tsv")
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
                let phrase = String(line.split(separator: "\t", omittingEmptySubsequences: false)[0])
                guard let schedule = try? SchedulePhrase.read(phrase, now: now, zone: zone).schedule else { continue }
                count += try readsBack(phrase, schedule, now: now, zone: zone)
            }
        }
        #expect(count >= 4 * 700)
    }
}
