import Foundation
import NudgeCore
import TestSupport
import Testing

/// The phrase tables (``PhraseTables``): every phrase means what its row says, checked by
/// the schedule and its next showings.
@Suite(.onTestThreads)
struct SchedulePhraseTests {
    let zone = PhraseTables.zone, now = PhraseTables.now

    func local(_ instants: [Date]) -> String {
        let clock = CivilZone(zone)
        return instants.map { let (day, second) = clock.local($0); return "\(day) \(LocalTime(secondOfDay: second)!)" }.joined(separator: ", ")
    }

    func check(_ phrase: String, _ meaning: String) {
        let reading: PhraseReading
        do {
            reading = try SchedulePhrase.read(phrase, now: now, zone: zone)
        } catch {
            #expect(meaning.hasPrefix("! ") && error.problem.template == String(meaning.dropFirst(2)), "\(phrase): \(error)")
            return
        }
        if meaning.hasPrefix("! ") {
            Issue.record("\(phrase): read as \(reading.schedule.summary(in: zone)), expected refusal \(meaning)")
        } else if meaning.hasPrefix("= ") {
            #expect(reading.flags == nil, "\(phrase)")
            #expect(local(reading.schedule.occurrences(after: now, count: 3, in: zone)) == String(meaning.dropFirst(2)), "\(phrase)")
        } else {
            do {
                let expected = try ScheduleParser.schedule(PhraseTables.flags(meaning), now: now, zone: zone)
                #expect(reading.schedule == expected, "\(phrase): \(reading.schedule.summary(in: zone)), expected \(expected.summary(in: zone))")
                #expect(reading.schedule.occurrences(after: now, count: 5, in: zone) == expected.occurrences(after: now, count: 5, in: zone), "\(phrase)")
                // The echo's flags are the meaning's: one meaning, two spellings.
                #expect(reading.flags == meaning, "\(phrase): echoed as \(reading.flags ?? "nil")")
            } catch {
                Issue.record("\(phrase): the meaning \(meaning) does not parse: \(error)")
            }
        }
    }

    @Test func theKoreanTableHasAtLeast150RepeatsAndEveryPhraseMeansItsRow() {
        let repeats = PhraseTables.korean.filter { ["--at", "--every", "--cron", "= "].contains(where: $0.1.hasPrefix) }
        #expect(repeats.count >= 150, "Korean repeats: \(repeats.count)")
        #expect(Set(PhraseTables.korean.map(\.0)).count == PhraseTables.korean.count, "no phrase twice")
        for (phrase, meaning) in PhraseTables.korean { check(phrase, meaning) }
    }

    @Test func theEnglishTableMeansItsRows() {
        for (phrase, meaning) in PhraseTables.english { check(phrase, meaning) }
    }

    @Test func aBareHourWithNoDayTakesTheNextSuchTimeAndSaysSo() throws {
        let reading = try SchedulePhrase.read("9시", now: now, zone: zone)
        #expect(reading.notes.map(\.description) == ["9시 is read as 2026-11-25 21:00, the next such time not yet passed"])
        #expect(try SchedulePhrase.read("tomorrow 9am", now: now, zone: zone).notes.isEmpty)
    }

    func once(_ phrase: String) throws -> (String, [String]) {
        let reading = try SchedulePhrase.read(phrase, now: now, zone: zone)
        return (local(reading.schedule.occurrences(after: now, count: 4, in: zone)), reading.notes.map(\.description))
    }

    /// Issue 44: "tomorrow at 3" was 03:00. A bare hour on a named day is the waking day's
    /// (7–11 morning, 12 noon, 1–6 afternoon), and the choice is said.
    @Test func aBareHourOnANamedDayTakesTheWakingDay() throws {
        #expect(try once("tomorrow at 3") == ("2026-11-26 15:00", ["3 is read as 15:00; say 3am for 03:00"]))
        #expect(try once("내일 3시") == ("2026-11-26 15:00", ["3시 is read as 15:00; say 새벽 3시 for 03:00"]))
        #expect(try once("friday at 4").0 == "2026-11-27 16:00")
        #expect(try once("금요일 2시").0 == "2026-11-27 14:00")
        #expect(try once("토요일 1시 반") == ("2026-11-28 13:30", ["1시 반 is read as 13:30; say 새벽 1시 30분 for 01:30"]))
        #expect(try once("tomorrow at 9") == ("2026-11-26 09:00", ["9 is read as 09:00; say 9pm for 21:00"]))
        #expect(try once("내일 12시").0 == "2026-11-26 12:00")
        #expect(try once("12월 1일 6시").0 == "2026-12-01 18:00")
        #expect(try once("the 5th at 2").0 == "2026-12-05 14:00")
        // A part of the day said decides: 저녁 7시, tomorrow at 7 in the evening, 새벽 3시.
        #expect(try once("내일 새벽 3시") == ("2026-11-26 03:00", []))
        #expect(try once("tomorrow at 7 in the evening").0 == "2026-11-26 19:00")
    }

    /// Without a day a colon time 1–6 is read as a bare hour is, the next such time not yet
    /// passed (issue 54: "at 4:45" said at 08:05 was 04:45 the next morning); on a named day
    /// 1–6 is the waking day's afternoon, as a bare hour is ("tomorrow at 2:30" was 02:30).
    /// A leading zero and 7–23 stay on the 24-hour clock.
    @Test func aColonTimeOneToSixSaysTheAfternoon() throws {
        #expect(try once("at 2:30") == ("2026-11-25 14:30", ["2:30 is read as 2026-11-25 14:30, the next such time not yet passed"]))
        let night = try ScheduleParser.instant("2026-11-25 21:30", zone: zone)
        let late = try SchedulePhrase.read("at 5:15", now: night, zone: zone)
        #expect(late.schedule == .once(try ScheduleParser.instant("2026-11-26 05:15", zone: zone)))
        #expect(late.choices == [PhraseReading.Choice(said: "5:15", other: "5:15pm")])
        #expect(try once("at 02:30") == ("2026-11-26 02:30", []))
        // 7:00–12:59 without a day too (session 22): the next such time, 21:30 today.
        #expect(try once("at 9:30").0 == "2026-11-25 21:30")
        #expect(try once("tomorrow at 2:30") == ("2026-11-26 14:30", ["2:30 is read as 14:30; say 2:30am for 02:30"]))
        #expect(try once("tomorrow at 02:30").1 == [])
        #expect(try once("tomorrow at 9:30").1 == [])
    }

    /// "this weekend at 10am" was every Saturday and Sunday.
    @Test func thisWeekendIsOnceOnItsSaturday() throws {
        #expect(try once("this weekend at 10am").0 == "2026-11-28 10:00")
        #expect(try once("이번 주말 오전 10시").0 == "2026-11-28 10:00")
        #expect(try once("이번 주말 일요일 오후 2시").0 == "2026-11-29 14:00")
        #expect(try once("this friday at 3pm").0 == "2026-11-27 15:00")
        #expect(try once("every weekend at 10am").0 == "2026-11-28 10:00, 2026-11-29 10:00, 2026-12-05 10:00, 2026-12-06 10:00")
        #expect(try once("weekends at 10am").0 == "2026-11-28 10:00, 2026-11-29 10:00, 2026-12-05 10:00, 2026-12-06 10:00")
    }

    /// "every 3 months on the 1st" took its phase from the day it was set up, and skipped
    /// the coming 1st: it starts at the coming such day, and the echo names the months.
    @Test func everyFewMonthsStartsAtTheComingDayAndNamesTheMonths() throws {
        let english = try once("every 3 months on the 1st at 9am")
        #expect(english.0 == "2026-12-01 09:00, 2027-03-01 09:00, 2027-06-01 09:00, 2027-09-01 09:00")
        #expect(english.1 == ["3 months falls in Dec, Mar, Jun, Sep"])
        #expect(try once("3개월마다 1일 오전 9시").0 == english.0)
        #expect(try once("every 2 months on the 15th at 9am").0 == "2026-12-15 09:00, 2027-02-15 09:00, 2027-04-15 09:00, 2027-06-15 09:00")
    }

    /// A step with no window runs day and night: said.
    @Test func aStepAroundTheClockSaysAllDay() throws {
        #expect(try once("every 2 hours on weekends").1.first?.contains("runs all day") == true)
        #expect(try once("2시간마다").1.first?.contains("runs all day") == true)
        #expect(try once("every 2 hours from 9am to 9pm").1 == [])
    }

    @Test func refusalsNameTheWordsAndOfferTheReadings() throws {
        func refusal(_ phrase: String) -> ScheduleError? {
            do { _ = try SchedulePhrase.read(phrase, now: now, zone: zone); return nil } catch { return error }
        }
        #expect(refusal("every weekday at 9:30 and then some")?.token == "then some")
        #expect(refusal("매일 오전 9시 빨리 좀")?.token == "빨리 좀")
        // A bare hour every day is read by the waking day, the other reading said (issue 54).
        let bare = try SchedulePhrase.read("every day at 9", now: now, zone: zone)
        #expect(bare.notes.map(\.description) == ["9 is read as 09:00; say 9pm for 21:00"])
        let korean = try SchedulePhrase.read("평일 9시 반", now: now, zone: zone)
        #expect(korean.flags == "--at 09:30 --days mon-fri", "\(korean.flags ?? "")")
        #expect(korean.notes.count == 1, "\(korean.notes)")
        // "next friday": the first Friday after today, said with the one a week after (issue 54).
        let next = try SchedulePhrase.read("next friday 5pm", now: now, zone: zone)
        #expect(next.flags == "--on '2026-11-27 17:00'", "\(next.flags ?? "")")
        #expect(next.notes.map(\.description) == ["next friday is read as 2026-11-27 (Fri), the first after today; say the date for 2026-12-04 (Fri)"])
        let numeric = try #require(refusal("12/1 9am"))
        #expect(numeric.description.contains("YYYY-MM-DD") && numeric.description.contains("12월 1일"))
    }

    @Test func theClockAndTheZoneAreValuesNeverRead() throws {
        // The same words at another instant, in another zone, on a DST day in New York.
        let newYork = TimeZone(identifier: "America/New_York")!
        let before = try ScheduleParser.instant("2026-11-01 00:30", zone: newYork)
        let reading = try SchedulePhrase.read("tomorrow 1:30am", now: before, zone: newYork)
        #expect(reading.schedule == .once(try ScheduleParser.instant("2026-11-02 01:30", zone: newYork)))
        let today = try SchedulePhrase.read("today 1:30am", now: before, zone: newYork)
        // 01:30 happens twice on 2026-11-01: the first time is the one, as for --at.
        #expect(today.schedule == .once(Date(timeIntervalSince1970: 1_793_511_000)))
    }

    /// Words of the tables, shuffled into 20,000 phrases (a fixed seed): each is read or
    /// refused with a ScheduleError, and nothing traps.
    @Test func wordSoupIsReadOrRefusedNeverTrapped() {
        let pieces = Array(Set((PhraseTables.korean + PhraseTables.english).flatMap { $0.0.split(separator: " ").map(String.init) }
            + ["~", "-", ",", ":", "(", ")", "/", "+", "0", "24", "99", "12", "시", "분", "반", "전", "후", "마다", "부터", "까지", "밤", "일", "월"])).sorted()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var read = 0
        for _ in 0..<20_000 {
            let phrase = (0..<(1 + next(7))).map { _ in pieces[next(pieces.count)] }.joined(separator: next(3) == 0 ? "" : " ")
            if (try? SchedulePhrase.read(phrase, now: now, zone: zone)) != nil { read += 1 }
        }
        #expect(read > 0)
    }

    /// The words of the everyday phrasings (Tests/Fixtures/phrases) too, shuffled into
    /// 20,000 phrases, written apart and together: each is read or refused, nothing traps,
    /// and what is read reads back from list's words.
    @Test func everydayWordSoupIsReadOrRefusedNeverTrapped() throws {
        var words = Set<String>()
        for language in ["en", "ko"] {
            let url = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases/everyday-\(language).tsv")
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
                let phrase = line.split(separator: "\t", omittingEmptySubsequences: false)[0]
                words.formUnion(phrase.split(separator: " ").map(String.init))
            }
        }
        let pieces = words.sorted() + ["~", "-", ".", ",", ":", "0", "24", "2400", "99", "1.5", "시", "분", "반", "쯤", "마다", "까지", "부터"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var read = 0
        for _ in 0..<20_000 {
            let phrase = (0..<(1 + next(6))).map { _ in pieces[next(pieces.count)] }.joined(separator: next(3) == 0 ? "" : " ")
            guard let schedule = try? SchedulePhrase.read(phrase, now: now, zone: zone).schedule else { continue }
            read += 1
            let words = schedule.summary(in: zone)
            #expect((try? SchedulePhrase.read(words, now: now, zone: zone).schedule) == schedule, "\(phrase) → '\(words)'")
        }
        #expect(read > 0)
    }

    @Test func hostileInputGetsOneErrorQuickly() {
        let huge = String(repeating: "매일 ", count: 10_000)
        #expect(throws: ScheduleError.self) { try SchedulePhrase.read(huge, now: now, zone: zone) }
        let megabyte = String(repeating: "a", count: 1_000_000)
        #expect(throws: ScheduleError.self) { try SchedulePhrase.read(megabyte, now: now, zone: zone) }
        for garbage in ["\u{1B}[31m", "9\u{0}am", "🙂🙂", "::::", "----", "9999999999999 minutes", "in", "every", "at", "~", "(", "월월월월"] {
            #expect(throws: ScheduleError.self, "\(garbage.debugDescription)") { try SchedulePhrase.read(garbage, now: now, zone: zone) }
        }
    }
}
