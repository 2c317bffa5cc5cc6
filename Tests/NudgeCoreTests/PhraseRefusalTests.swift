import Foundation
import NudgeCore
import TestSupport
import Testing

/// Refusals that help (issue 44): the smallest part not understood, as typed; the nearest
/// reading that works; the person's language; a year out of range said as such.
struct PhraseRefusalTests {
    let zone = PhraseTables.zone, now = PhraseTables.now

    func refusal(_ phrase: String) -> ScheduleError? {
        do { _ = try SchedulePhrase.read(phrase, now: now, zone: zone); return nil } catch { return error }
    }

    @Test func wordsNotUnderstoodOfferTheNearestReading() throws {
        let korean = try #require(refusal("내일 오전 9시 빨리요"))
        #expect(korean.token == "빨리요")
        #expect(korean.accepted.description == "did you mean: 내일 오전 9시 → --on '2026-11-26 09:00'?")
        let english = try #require(refusal("every weekday at 9:30 please"))
        #expect(english.token == "please")
        #expect(english.accepted.description == "did you mean: every weekday at 9:30 → --at 09:30 --days mon-fri?")
        // Written together, the words stay together.
        #expect(refusal("매일오전9시 빨리")?.accepted.description == "did you mean: 매일오전9시 → --at 09:00?")
        // Nothing near: the forms, as before.
        #expect(refusal("빨리 빨리")?.accepted.description.hasPrefix("say e.g.") == true)
    }

    /// A piece of a Korean word is named with the whole word it was cut from (a lone '말'
    /// or '흘 후' was named).
    @Test func aPieceOfAKoreanWordIsNamedWithItsWord() throws {
        let error = try #require(refusal("매일 오전 9시 시말서"))
        #expect(error.token == "시말서")
    }

    @Test func aYearOutOfRangeSaysSo() throws {
        let error = try #require(refusal("10000-01-01 9am"))
        #expect(error.problem.template == "year out of range")
        #expect(error.description.contains("the year must be from 1970 to 9999"))
        #expect(refusal("10000-01-01 오전 9시")?.problem.template == "year out of range")
        // A year of eleven digits, and Int.max: refused, never trapped.
        #expect(refusal("99999999999-01-01 9am")?.problem.template == "year out of range")
        #expect(refusal("99999999999999999999-01-01 9am")?.problem.template == "year out of range")
    }

    /// A minute of 60 is no time: refused, never trapped (the fuzz target's find: the
    /// afternoon's note unwrapped it).
    @Test func aColonTimeWithMinuteSixtyIsRefused() {
        #expect(refusal("at3 :60")?.problem.template == "invalid time")
        #expect(refusal("tomorrow at 3:60")?.problem.template == "invalid time")
        // "end of next" alone read past the phrase's end.
        #expect(refusal("end of next ")?.problem.template == "words not understood")
    }

    @Test func aRefusalIsInThePersonsLanguage() throws {
        let korean = try PoCatalog.language("ko")
        let error = try #require(refusal("10000-01-01 9am"))
        #expect(error.problem.text(korean) == "연도가 범위를 벗어났습니다")
        let count = try #require(refusal("하루 세 번 오전 9시"))
        #expect(count.problem.text(korean) == "횟수와 시각의 수가 맞지 않습니다")
    }

    /// What is read is said back in the person's words: a reading chosen, a word read as
    /// another, an approximate time.
    @Test func choicesAreSaidInThePersonsLanguage() throws {
        let korean = try PoCatalog.language("ko")
        let reading = try SchedulePhrase.read("낼 3시쯤", now: now, zone: zone)
        #expect(reading.schedule == .once(try ScheduleParser.instant("2026-11-26 15:00", zone: zone)))
        #expect(reading.notes.map { $0.text(korean) } == ["낼 → 내일", "3시 → 15:00 (03:00은 새벽 3시라고 하세요)", "쯤: 대략의 시각은 그 시각으로 읽습니다"])
        let typo = try SchedulePhrase.read("tomorow at 9am", now: now, zone: zone)
        #expect(typo.notes.map(\.description) == ["tomorow → tomorrow"])
    }

    /// Monthly and yearly rules are said in words, never as a cron line, in both languages.
    @Test func monthlyAndYearlyRulesAreSaidInWords() throws {
        let korean = try PoCatalog.language("ko")
        let yearly = try SchedulePhrase.read("매년 3월 15일 오전 9시", now: now, zone: zone).schedule
        #expect(yearly.summary(in: zone) == "every year on Mar 15 at 09:00")
        #expect(yearly.summary(in: zone, language: korean) == "매년 3월 15일 09:00")
        let monthly = try SchedulePhrase.read("every month on the 1st and 15th at 9am", now: now, zone: zone).schedule
        #expect(monthly.summary(in: zone) == "day 1, day 15 of every month at 09:00")
    }
}
