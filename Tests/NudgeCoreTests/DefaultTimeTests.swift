import Foundation
import NudgeCore
import TestSupport
import Testing

/// The default reminder time (`nudge config default-time`): a day said without a time of
/// day takes it, and says so; without it, the same words are refused as before. At the
/// everyday tables' now, Tuesday 2026-03-10 14:20 in Seoul, whatever the machine's date,
/// zone or language.
struct DefaultTimeTests {
    static let zone = TimeZone(identifier: "Asia/Seoul")!
    static let now = try! ScheduleParser.instant("2026-03-10 14:20", zone: zone)
    static let nine = LocalTime(hour: 9, minute: 0)!

    func read(_ phrase: String, _ defaultTime: LocalTime? = nine) throws(ScheduleError) -> PhraseReading {
        try SchedulePhrase.read(phrase, now: Self.now, zone: Self.zone, defaultTime: defaultTime)
    }

    func once(_ text: String) throws -> Schedule { .once(try ScheduleParser.instant(text, zone: Self.zone)) }

    func refusal(_ phrase: String, _ defaultTime: LocalTime? = nine) -> ScheduleError? {
        do { _ = try read(phrase, defaultTime); return nil } catch { return error }
    }

    static let note = "at 09:00, your default reminder time; say a time to choose another"

    /// Each one-shot on a day said without a time, in both languages, at 09:00 of that day.
    @Test(arguments: [
        ("tomorrow", "2026-03-11 09:00"), ("friday", "2026-03-13 09:00"), ("this friday", "2026-03-13 09:00"),
        ("friday next week", "2026-03-20 09:00"), ("dec 1", "2026-12-01 09:00"), ("2026-12-01", "2026-12-01 09:00"),
        ("this weekend", "2026-03-14 09:00"), ("the 15th", "2026-03-15 09:00"),
        ("내일", "2026-03-11 09:00"), ("모레", "2026-03-12 09:00"), ("금요일", "2026-03-13 09:00"),
        ("12월 1일", "2026-12-01 09:00"), ("다음 주 월요일", "2026-03-16 09:00"), ("다음 달 1일", "2026-04-01 09:00"),
    ])
    func aDayWithoutATimeTakesTheDefault(_ phrase: String, _ instant: String) throws {
        let reading = try read(phrase)
        #expect(reading.schedule == (try once(instant)), "\(phrase)")
        #expect(reading.notes.last?.description == Self.note, "\(phrase)")
        #expect(reading.flags == "--on '\(instant)'", "\(phrase)")
    }

    @Test func withoutTheSettingTheRefusalIsAsBefore() throws {
        for phrase in ["tomorrow", "friday", "12월 1일", "내일", "모레", "금요일", "every monday", "매일", "every year on march 1", "the 15th"] {
            let refused = try #require(refusal(phrase, nil), "\(phrase)")
            #expect(refused.wantsTimeOfDay, "\(phrase)")
            // The function as every caller used it before: the same refusal, word for word.
            do {
                _ = try SchedulePhrase.read(phrase, now: Self.now, zone: Self.zone)
                Issue.record("\(phrase) read")
            } catch {
                #expect(error == refused)
            }
        }
        #expect(refusal("tomorrow", nil)?.description == "no time of day given 'tomorrow': say at what time: tomorrow 9am, 내일 오전 9시 "
            + "(say e.g. every weekday at 9:30, in 20 minutes, tomorrow 9am, every 30 minutes from 9:30 to 21:30, 매일 오전 9시)")
    }

    /// Only a phrase that asked at what time changes: one with a time, a duration or a step
    /// reads as it does without the setting, a bare hour every day too.
    @Test func aPhraseThatReadsAloneIsReadTheSame() throws {
        for phrase in ["tomorrow at 3", "내일 오후 3시", "tomorrow morning", "오늘 저녁", "in 2 days", "이틀 후", "every 2 hours", "every monday at 10am", "at 5"] {
            #expect(try read(phrase) == (try read(phrase, nil)), "\(phrase)")
        }
        #expect(try read("매일 9시") == (try read("매일 9시", nil)))
        #expect(try read("every day at 8") == (try read("every day at 8", nil)))
        // "next friday" is the first Friday after today: without a time, at the default.
        #expect(refusal("next friday", nil)?.problem.template == "no time of day given")
        #expect(refusal("next friday") == nil)
    }

    /// A day said whose default time has passed is refused as passed, never moved to
    /// another day: today at 09:00 at 14:20, the 10th on
    /// the 10th; with a later default time the same words are that day. (A weekday said on that
    /// day, bare or with this, is next week's, at the default time.)
    @Test func aDefaultTimePassedOnTheDaySaidIsRefused() throws {
        for phrase in ["tuesday", "화요일", "this tuesday"] { #expect(try read(phrase).schedule == (try once("2026-03-17 09:00")), "\(phrase)") }
        for phrase in ["today", "오늘", "the 10th", "10일", "mar 10", "3월 10일"] {
            let refused = try #require(refusal(phrase), "\(phrase)")
            #expect(refused.problem.template == "that time has passed", "\(phrase)")
            // The words the refusal without a default time names.
            #expect(refused.token == refusal(phrase, nil)?.token, "\(phrase)")
            #expect(refused.detail?.description == "09:00, your default reminder time, has passed on that day; say a later time", "\(phrase)")
        }
        let three = LocalTime(hour: 15, minute: 0)!
        for phrase in ["today", "오늘", "the 10th", "3월 10일"] {
            #expect(try read(phrase, three).schedule == (try once("2026-03-10 15:00")), "\(phrase)")
        }
        // Tomorrow's 09:00 has not passed.
        #expect(try read("tomorrow").schedule == (try once("2026-03-11 09:00")))
    }

    /// Repeating days said without a time take it too (every monday at 09:00), as a person
    /// who set a default reminder time expects, and as Todoist does for recurring days.
    @Test func repeatingDaysTakeTheDefaultToo() throws {
        let nine = Self.nine
        let cases: [(String, Schedule)] = [
            ("every monday", .daily(times: [nine], days: [.monday])),
            ("매주 월요일", .daily(times: [nine], days: [.monday])),
            ("매일", .daily(times: [nine], days: Schedule.everyDay)),
            ("weekdays", .daily(times: [nine], days: [.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("매달 1일", .cron(try CronExpression("0 9 1 * *"))),
            ("every year on march 1", .cron(try CronExpression("0 9 1 3 *"))),
        ]
        for (phrase, schedule) in cases {
            let reading = try read(phrase)
            #expect(reading.schedule == schedule, "\(phrase)")
            #expect(reading.notes.last?.description == Self.note, "\(phrase)")
        }
    }

    @Test func theDefaultsMinutesAreKept() throws {
        let reading = try read("내일", LocalTime(hour: 8, minute: 30)!)
        #expect(reading.schedule == (try once("2026-03-11 08:30")))
        #expect(reading.notes.map(\.description) == ["at 08:30, your default reminder time; say a time to choose another"])
    }

    /// A refusal of words not understood offers the nearest reading with the default time too.
    @Test func theNearestReadingTakesTheDefault() throws {
        #expect(refusal("내일 빨리요")?.accepted.description == "did you mean: 내일 → --on '2026-03-11 09:00'?")
        #expect(refusal("내일 빨리요", nil)?.accepted.description != "did you mean: 내일 → --on '2026-03-11 09:00'?")
    }

    /// The flags' reader passes it on to the phrase, and flags alone never need it.
    @Test func theFlagsReaderPassesItOn() throws {
        let flags = ScheduleFlags(phrase: "tomorrow")
        #expect(try ScheduleParser.schedule(flags, now: Self.now, zone: Self.zone, defaultTime: Self.nine) == (try once("2026-03-11 09:00")))
        #expect(throws: ScheduleError.self) { try ScheduleParser.schedule(flags, now: Self.now, zone: Self.zone) }
    }

    @Test func theNoteIsSaidInThePersonsLanguage() throws {
        let korean = try PoCatalog.language("ko")
        #expect(try read("내일").notes.map { $0.text(korean) } == ["09:00: 기본 알림 시각입니다. 다른 시각을 원하면 시각을 함께 말하세요"])
        #expect(refusal("오늘")?.detail?.text(korean) == "그날의 기본 알림 시각(09:00)이 이미 지났습니다. 더 늦은 시각을 말하세요")
    }
}

/// An hour with the part of the day said apart from it, in English's order ("at 6 this
/// evening", "at 7 tomorrow morning", "at 9 tonight"): the part decides the half, as 저녁 7시
/// does (it was refused as two times), and am or pm after a time said in words ("half past
/// 6pm"). At the everyday tables' now, Tuesday 2026-03-10 14:20 in Seoul.
struct PartOfDayApartTests {
    @Test(arguments: [
        ("at 6 this evening", "2026-03-10 18:00"), ("at 6 tonight", "2026-03-10 18:00"), ("at 11 tonight", "2026-03-10 23:00"),
        ("at 7 tomorrow morning", "2026-03-11 07:00"), ("at 3 this afternoon", "2026-03-10 15:00"),
        ("at 6 tomorrow evening", "2026-03-11 18:00"), ("at half past 6pm", "2026-03-10 18:30"), ("ten to 4 pm", "2026-03-10 15:50"),
    ])
    func thePartDecides(_ phrase: String, _ instant: String) throws {
        let reading = try SchedulePhrase.read(phrase, now: DefaultTimeTests.now, zone: DefaultTimeTests.zone)
        #expect(reading.schedule == .once(try ScheduleParser.instant(instant, zone: DefaultTimeTests.zone)), "\(phrase)")
    }
}
