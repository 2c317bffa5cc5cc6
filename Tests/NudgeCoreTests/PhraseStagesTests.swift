import Foundation
@testable import NudgeCore
import TestSupport
import Testing

/// The three stages of reading a phrase, each alone: words (tokens with their places in the
/// text), the pieces the words say, and the schedule the pieces make at a fixed instant.
struct PhraseStagesTests {
    let zone = PhraseTables.zone, now = PhraseTables.now

    // MARK: Stage one: words

    func words(_ text: String) -> [PhraseWord] { PhraseWords.split(text, zone: zone).words }

    @Test func wordsKnowWhatTheyAreAndWhereTheyStand() {
        let (found, source) = PhraseWords.split("내일 오후 3시30분부터", zone: zone)
        #expect(found.map(\.kind) == [.word("tomorrow"), .word("pm"), .number(3), .word("시"), .number(30), .word("minutes"), .word("since")])
        // Each span is the word as it stands in the text: a Korean run's words share the run.
        #expect(found.map { String(source[$0.span]) } == ["내일", "오후", "3", "시", "30", "분", "부터"])
    }

    @Test func nativeKoreanNumbersAndUnitsAreTokens() {
        #expect(words("세 시 반").map(\.kind) == [.number(3), .word("시"), .word("half")])
        #expect(words("두 시간 후").map(\.kind) == [.number(2), .word("hours"), .word("after")])
        // A Sino-Korean number is one only before 분 or 초: 오 alone is not five.
        #expect(words("십오 분").map(\.kind) == [.number(15), .word("minutes")])
        #expect(words("every 30 min").map(\.kind) == [.word("every"), .number(30), .word("minutes")])
    }

    @Test func decimalsAreANumberAMarkAndANumber() {
        #expect(words("in 1.5 hours").map(\.kind) == [.word("in"), .number(1), .mark("."), .number(5), .word("hours")])
        #expect(words("1.5시간 후").map(\.kind) == [.number(1), .mark("."), .number(5), .word("hours"), .word("after")])
    }

    @Test func whatIsNotKnownKeepsItsSpan() {
        let (found, source) = PhraseWords.split("매일 빨리 9am", zone: zone)
        let unknown = found.filter { $0.kind == .unknown }
        #expect(unknown.map { String(source[$0.span]) } == ["빨리"])
    }

    // MARK: Stage two: pieces

    func pieces(_ text: String) throws(ScheduleError) -> PhrasePieces {
        let (found, source) = PhraseWords.split(text, zone: zone)
        var reader = PhraseReader(words: found, source: source)
        return try reader.readAll()
    }

    @Test func aWindowOfStepsIsAStepTwoEdgesAndDays() throws {
        let said = try pieces("every 30 minutes from 9:30 to 21:30 on weekdays")
        #expect(said.step?.count == 1800 && said.step?.text == "30 minutes")
        #expect(said.windowStart?.hour == 9 && said.windowStart?.minute == 30)
        #expect(said.windowEnd?.hour == 21 && said.windowEnd?.minute == 30)
        #expect(said.days == [.monday, .tuesday, .wednesday, .thursday, .friday] && said.manyDays && said.repeats)
        #expect(said.times.isEmpty && said.date == nil && said.dayOffset == nil)
    }

    @Test func aOneShotIsADayAndATimeWithNoClock() throws {
        let said = try pieces("내일 오후 3시 반")
        #expect(said.dayOffset?.0 == 1 && said.dayOffset?.1 == "내일")
        #expect(said.times.map(\.hour) == [3] && said.times.first?.minute == 30 && said.times.first?.half == .pm)
        #expect(!said.repeats)
    }

    @Test func aWordLeftOverIsRefusedAsTyped() {
        do {
            _ = try pieces("매일 오전 9시 빨리 좀")
            Issue.record("read")
        } catch {
            #expect(error.token == "빨리 좀")
        }
    }

    // MARK: Stage three: the schedule

    @Test func piecesMadeByHandMakeTheSchedule() throws {
        var said = PhrasePieces()
        said.dayOffset = (1, "tomorrow")
        said.times = [SaidTime(hour: 9, half: .am, text: "9am")]
        let reading = try said.schedule(now: now, zone: zone)
        #expect(reading.schedule == .once(try ScheduleParser.instant("2026-11-26 09:00", zone: zone)))

        var every = PhrasePieces()
        every.repeats = true
        every.days = [.monday]
        every.times = [SaidTime(hour: 15, text: "15:00")]
        #expect(try every.schedule(now: now, zone: zone).schedule == .daily(times: [LocalTime(hour: 15, minute: 0)!], days: [.monday]))
    }

    @Test func piecesThatDoNotFitAreRefusedNamingTheirWords() {
        var said = PhrasePieces()
        said.repeats = true
        said.dayOffset = (1, "tomorrow")
        said.times = [SaidTime(hour: 9, half: .am, text: "9am")]
        do {
            _ = try said.schedule(now: now, zone: zone)
            Issue.record("made a schedule")
        } catch {
            #expect(error.token == "tomorrow")
        }
    }
}
