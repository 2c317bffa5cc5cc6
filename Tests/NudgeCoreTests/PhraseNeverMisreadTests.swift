import Foundation
import NudgeCore
import Testing

/// Issue 54, "Never misread": phrases that were read and stored a time the person did not
/// mean. Each row is read at a fixed instant in a fixed zone and must make exactly the
/// schedule written beside it (or be refused with the problem named).
struct PhraseNeverMisreadTests {
    /// The fixed instants: a Wednesday afternoon in Seoul, and 08:47 on the Saturdays
    /// before the US and EU clocks go forward (2026-03-08 in New York, 2026-03-29 in Berlin).
    enum At: String, CaseIterable, Sendable {
        case seoul = "Asia/Seoul", newYork = "America/New_York", berlin = "Europe/Berlin"

        var zone: TimeZone { TimeZone(identifier: rawValue)! }
        var now: Date {
            let local = ["Asia/Seoul": "2026-11-25 14:00", "America/New_York": "2026-03-07 08:47", "Europe/Berlin": "2026-03-28 08:47"][rawValue]!
            return try! ScheduleParser.instant(local, zone: zone)
        }
    }

    /// What a phrase must make: once at a local time, daily times on some days, or a refusal.
    enum Meaning: Sendable, CustomStringConvertible {
        case once(String)
        case daily([String], [Weekday])
        case refused(String)
        /// Every so many seconds from now, until a local time (today's, unless said).
        case stops(Int, String)

        func schedule(in zone: TimeZone, now: Date) -> Schedule? {
            switch self {
            case .stops(let seconds, let until):
                let end = try! ScheduleParser.instant(until, zone: zone)
                return .restricted(.interval(seconds: seconds, anchor: now, days: Schedule.everyDay), Schedule.Restriction(until: end))
            case .once(let local): return .once(try! ScheduleParser.instant(local, zone: zone))
            case .daily(let times, let days):
                let locals = times.map { text in
                    let parts = text.split(separator: ":").map { Int($0)! }
                    return LocalTime(hour: parts[0], minute: parts[1])!
                }
                return .daily(times: locals, days: days.isEmpty ? Schedule.everyDay : Set(days))
            case .refused: return nil
            }
        }

        var description: String {
            switch self {
            case .once(let t): "once \(t)"
            case .daily(let t, let d): "daily \(t) \(d)"
            case .refused(let p): "! \(p)"
            case .stops(let seconds, let until): "every \(seconds) s until \(until)"
            }
        }
    }

    func check(_ phrase: String, _ at: At, _ meaning: Meaning) {
        let reading: PhraseReading
        do {
            reading = try SchedulePhrase.read(phrase, now: at.now, zone: at.zone)
        } catch {
            if case .refused(let problem) = meaning {
                #expect(error.problem.template == problem, "\(phrase) in \(at.rawValue): \(error)")
            } else {
                Issue.record("\(phrase) in \(at.rawValue): refused (\(error)), expected \(meaning)")
            }
            return
        }
        guard let expected = meaning.schedule(in: at.zone, now: at.now) else {
            Issue.record("\(phrase) in \(at.rawValue): read as \(reading.schedule.summary(in: at.zone)), expected \(meaning)")
            return
        }
        #expect(reading.schedule == expected, "\(phrase) in \(at.rawValue): \(reading.schedule.summary(in: at.zone)), expected \(expected.summary(in: at.zone))")
    }

    /// 1. A part of the day beside an explicit time only chooses its half: one time a day,
    /// never the part's own default hour beside it ("at 7:15 every evening" was 07:15 and 19:00).
    @Test(arguments: At.allCases)
    func aPartOfTheDayBesideATimeAddsNothing(_ at: At) {
        let rows: [(String, Meaning)] = [
            ("at 7:15 every evening", .daily(["19:15"], [])),
            ("every morning at 6:50", .daily(["06:50"], [])),
            ("at 11pm every night", .daily(["23:00"], [])),
            ("매일 아침 6시 40분에", .daily(["06:40"], [])),
            ("at 7:15 every morning", .daily(["07:15"], [])),
            ("at 19:15 every evening", .daily(["19:15"], [])),
            ("at 12:30 every afternoon", .daily(["12:30"], [])),
            ("every night at midnight", .daily(["00:00"], [])),
            ("every evening at 7", .daily(["19:00"], [])),
            ("every evening", .daily(["19:00"], [])),
            // A time that says its own half must be in the part of the day said.
            ("at 9am every evening", .refused("invalid time")),
            ("at 07:15 every evening", .refused("invalid time")),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// 1, once: "at 7:30 tonight" is 19:30 today (it was refused as two times for once).
    @Test func aPartOfTheDayAfterAColonTimeOnce() {
        check("at 7:30 tonight", .seoul, .once("2026-11-25 19:30"))
        check("at 7:30 tonight", .newYork, .once("2026-03-07 19:30"))
        check("at 7:30 tonight", .berlin, .once("2026-03-28 19:30"))
    }

    /// 2. "eve" is the day before, never "evening" (christmas eve at 7pm was the 25th).
    @Test(arguments: At.allCases)
    func eveIsTheDayBefore(_ at: At) {
        let rows: [(String, Meaning)] = [
            ("christmas eve at 7pm", .once("2026-12-24 19:00")),
            ("크리스마스 이브 오후 7시", .once("2026-12-24 19:00")),
            ("크리스마스이브 저녁 7시", .once("2026-12-24 19:00")),
            ("christmas at 7pm", .once("2026-12-25 19:00")),
            ("new year's eve at 9pm", .once("2026-12-31 21:00")),
            // Eve of nothing named: refused, never an evening.
            ("eve at 7", .refused("words not understood")),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// The refusal of an "eve" of nothing named offers no reading without "eve": that would
    /// be an evening of another day.
    @Test func aRefusedEveOffersNoEvening() throws {
        #expect(throws: ScheduleError.self) { try SchedulePhrase.read("the eve at 9pm", now: At.seoul.now, zone: At.seoul.zone) }
        do {
            _ = try SchedulePhrase.read("the eve at 9pm", now: At.seoul.now, zone: At.seoul.zone)
        } catch {
            #expect(!error.description.contains("did you mean"), "\(error)")
        }
    }

    /// 3. A plural day or part of the day repeats ("saturday mornings at 9" was once).
    @Test(arguments: At.allCases)
    func aPluralRepeats(_ at: At) {
        let rows: [(String, Meaning)] = [
            ("saturday mornings at 9", .daily(["09:00"], [.saturday])),
            ("mondays at 8", .daily(["08:00"], [.monday])),
            ("weekday evenings at 7", .daily(["19:00"], [.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("sunday nights at 10", .daily(["22:00"], [.sunday])),
            ("friday afternoons at 3", .daily(["15:00"], [.friday])),
            ("evenings at 6", .daily(["18:00"], [])),
            ("mornings at 7:30", .daily(["07:30"], [])),
            // The singular stays once (said on a Saturday, next week's: a weekday named on that day).
            ("saturday morning at 9", .once(["Asia/Seoul": "2026-11-28 09:00", "America/New_York": "2026-03-14 09:00", "Europe/Berlin": "2026-04-04 09:00"][at.rawValue]!)),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// 4. "on the hour", 정각, 매시간 15분 and "quarter past" keep a minute of the clock's
    /// hours (매시간 정각 fell at :47, counted from now): every step at that minute, laid
    /// from the day's first, as `--every 1h --from 00:15 --until 23:59:59` lays them.
    @Test(arguments: At.allCases)
    func onTheHourKeepsTheMinute(_ at: At) {
        func hourly(_ minute: Int, every hours: Int = 1, from first: Int = 0, to last: Int = 23, _ days: [Weekday] = []) -> Meaning {
            .daily(stride(from: first, through: last, by: hours).map { String(format: "%02d:%02d", $0, minute) }, days)
        }
        let rows: [(String, Meaning)] = [
            ("every hour on the hour", hourly(0)),
            ("매시간 정각", hourly(0)),
            ("매시간 15분", hourly(15)),
            ("every hour at quarter past", hourly(15)),
            ("every hour at half past", hourly(30)),
            ("every hour at quarter to", hourly(45)),
            ("every 2 hours on the hour", hourly(0, every: 2)),
            ("평일 매시간 정각", hourly(0, [.monday, .tuesday, .wednesday, .thursday, .friday])),
            // A window's start moves to its first such minute.
            ("every hour on the hour from 9:30 to 17:00", hourly(0, from: 10, to: 17)),
            ("every hour on the hour from 9 to 17", hourly(0, from: 9, to: 17)),
            ("매시간 정각 오전 9시부터 오후 6시까지", hourly(0, from: 9, to: 18)),
            ("every hour at quarter past from 9am to 5pm", hourly(15, from: 9, to: 16)),
            // 정각 after a time is "sharp".
            ("내일 9시 정각", .once(["Asia/Seoul": "2026-11-26 09:00", "America/New_York": "2026-03-08 09:00", "Europe/Berlin": "2026-03-29 09:00"][at.rawValue]!)),
            // A minute of every hour needs a step of whole hours that divides the day.
            ("every 45 minutes on the hour", .refused("invalid step")),
            ("every 5 hours on the hour", .refused("invalid step")),
            ("on the hour", .refused("words not understood")),
            ("in 20 minutes on the hour", .refused("words not understood")),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// 4. The first showing is the coming such minute, across the DST change too.
    @Test func onTheHourFirstShowings() throws {
        for at in At.allCases {
            let reading = try SchedulePhrase.read("every hour at quarter past", now: at.now, zone: at.zone)
            let clock = CivilZone(at.zone)
            let first = reading.schedule.occurrences(after: at.now, count: 1, in: at.zone).map { LocalTime(secondOfDay: clock.local($0).second)! }
            #expect(first == [LocalTime(hour: at == .seoul ? 14 : 9, minute: 15)!], "\(at.rawValue)")
            #expect(reading.flags == "--every 1h --from 00:15 --until 23:59:59")
        }
        // New York's 2026-03-08: 02:15 does not happen; it fires when the gap ends (03:00),
        // as every daily time does, and 03:15 follows.
        let ny = At.newYork
        let sunday = try ScheduleParser.instant("2026-03-08 00:50", zone: ny.zone)
        let reading = try SchedulePhrase.read("every hour at quarter past", now: ny.now, zone: ny.zone)
        let clock = CivilZone(ny.zone)
        let next = reading.schedule.occurrences(after: sunday, count: 3, in: ny.zone).map { LocalTime(secondOfDay: clock.local($0).second)!.description }
        #expect(next == ["01:15", "03:00", "03:15"])
    }

    /// 6. A step with only an end and no day word is today, from now, and stops ("every 15
    /// minutes until 11am" said at 08:47 runs 09:02 … 10:47 and stops; it was every day from
    /// 00:00). With a day word it repeats from the day's start, as before.
    @Test(arguments: [At.newYork, At.berlin])
    func aStepWithOnlyAnEndIsTodayFromNow(_ at: At) {
        let today = at == .newYork ? "2026-03-07" : "2026-03-28"
        let rows: [(String, Meaning)] = [
            ("every 15 minutes until 11am", .stops(900, "\(today) 11:00")),
            ("20분마다 11시까지", .stops(1200, "\(today) 11:00")),
            ("20분마다 오전 11시까지", .stops(1200, "\(today) 11:00")),
            ("every hour until 5pm", .stops(3600, "\(today) 17:00")),
            ("every 30 minutes until midnight", .stops(1800, "\(at == .newYork ? "2026-03-08" : "2026-03-29") 00:00")),
            // A bare hour that has passed today is the next such time: 8 is 20:00.
            ("every hour until 8", .stops(3600, "\(today) 20:00")),
            // With a day word: from the day's start, every such day.
            ("every weekday every 15 minutes until 5pm", .daily(stride(from: 0, to: 17 * 60 + 1, by: 15).map { String(format: "%02d:%02d", $0 / 60, $0 % 60) },
                                                                  [.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("평일 20분마다 오후 5시까지", .daily(stride(from: 0, to: 17 * 60 + 1, by: 20).map { String(format: "%02d:%02d", $0 / 60, $0 % 60) },
                                         [.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("every day every hour until 5pm", .daily((0...17).map { String(format: "%02d:00", $0) }, [])),
            // An end already passed today is refused, never moved to tomorrow.
            ("every 15 minutes until 8am", .refused("that time has passed")),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// Windows: "for the next hour", 앞으로 1시간 동안: a step from now that stops at now and the
    /// length; days on the calendar, so the nights before the US and EU clock changes keep
    /// the time of day (08:47 three days later, 71 hours on).
    @Test(arguments: [At.newYork, At.berlin])
    func aStepForTheNextHourStopsThen(_ at: At) throws {
        let today = at == .newYork ? "2026-03-07" : "2026-03-28"
        let rows: [(String, Meaning)] = [
            ("every 10 minutes for the next hour", .stops(600, "\(today) 09:47")),
            ("every 10 min for an hour", .stops(600, "\(today) 09:47")),
            ("every 15 minutes for 2 hours", .stops(900, "\(today) 10:47")),
            ("every 5 minutes over the next 30 minutes", .stops(300, "\(today) 09:17")),
            ("every 20 minutes for the next 1.5 hours", .stops(1200, "\(today) 10:17")),
            ("앞으로 1시간 동안 10분마다", .stops(600, "\(today) 09:47")),
            ("10분마다 2시간 동안", .stops(600, "\(today) 10:47")),
            ("30분마다 한 시간 동안", .stops(1800, "\(today) 09:47")),
            ("every 2 hours for 3 days", .stops(7200, "\(at == .newYork ? "2026-03-10" : "2026-03-31") 08:47")),
            ("every hour for the next day", .stops(3600, "\(at == .newYork ? "2026-03-08" : "2026-03-29") 08:47")),
            ("6시간마다 3일 동안", .stops(21600, "\(at == .newYork ? "2026-03-10" : "2026-03-31") 08:47")),
            ("6시간마다 3일간", .stops(21600, "\(at == .newYork ? "2026-03-10" : "2026-03-31") 08:47")),
            ("앞으로 3일 6시간마다", .stops(21600, "\(at == .newYork ? "2026-03-10" : "2026-03-31") 08:47")),
            ("2시간동안 30분마다", .stops(1800, "\(today) 10:47")),
            ("every 10 minutes during the next hour", .stops(600, "\(today) 09:47")),
            ("every 10 minutes in the next hour", .stops(600, "\(today) 09:47")),
            ("every 10 minutes within the next 2 hours", .stops(600, "\(today) 10:47")),
            ("next 2 hours every 20 min", .stops(1200, "\(today) 10:47")),
            // A length with no step of time is refused, never dropped ("in 10 minutes for the
            // next hour" was once); one past --in's reach too (an end 100,000 years on was stored).
            ("in 10 minutes for the next hour", .refused("a length of time needs a step")),
            ("every day at 9am for 5 days", .refused("a length of time needs a step")),
            ("every 1 minute for 999999999 hours", .refused("invalid duration")),
            ("every minute for 3661 days", .refused("invalid duration")),
            // No step, a step longer than the time, or days and times beside it: refused.
            ("for 2 hours", .refused("a length of time needs a step")),
            ("every 2 hours for the next hour", .refused("it ends before the first showing")),
            ("every weekday every 10 minutes for an hour", .refused("a length of time goes with a step alone")),
            ("every 10 minutes from 9am to 5pm for 2 hours", .refused("a length of time goes with a step alone")),
            ("every 10 minutes for 2 months", .refused("invalid duration")),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
        let read = try SchedulePhrase.read("every 10 minutes for the next hour", now: at.now, zone: at.zone)
        #expect(read.notes.map { $0.text(.english) } == ["for the next hour: from now until \(today) 09:47, then it stops"])
    }

    /// 6. In Seoul at 14:00; the showings stop at the end, and the echo says so.
    @Test func aStepWithOnlyAnEndStopsAndSaysSo() throws {
        let at = At.seoul
        check("every 15 minutes until 11pm", at, .stops(900, "2026-11-25 23:00"))
        check("20분마다 밤 11시까지", at, .stops(1200, "2026-11-25 23:00"))
        check("every 15 minutes until 11am", at, .refused("that time has passed"))
        let reading = try SchedulePhrase.read("every hour until 5pm", now: at.now, zone: at.zone)
        let clock = CivilZone(at.zone)
        let showings = reading.schedule.occurrences(after: at.now, count: 10, in: at.zone).map { LocalTime(secondOfDay: clock.local($0).second)!.description }
        #expect(showings == ["15:00", "16:00", "17:00"])
        #expect(reading.notes.map(\.description) == ["5pm: from now until 2026-11-25 17:00, then it stops; say every day to repeat it"])
        #expect(reading.flags == nil)
        let bare = try SchedulePhrase.read("20분마다 11시까지", now: At.berlin.now, zone: At.berlin.zone)
        #expect(bare.notes.map(\.description) == ["11시 is read as 2026-03-28 11:00, the next such time not yet passed",
                                                  "11시: from now until 2026-03-28 11:00, then it stops; say every day to repeat it"])
        // With a day word the echo says the day's start, as before.
        let weekdays = try SchedulePhrase.read("every weekday every 15 minutes until 5pm", now: at.now, zone: at.zone)
        #expect(weekdays.notes.map(\.description) == ["5pm: from the start of the day (00:00) to 17:00"])
    }

    /// 5. A colon time 1–6 on a named day is the waking day's afternoon, as a bare hour is;
    /// 0:MM, a leading zero, 7–12 and 13–23 stay on the 24-hour clock.
    @Test(arguments: At.allCases)
    func aColonTimeOnANamedDayTakesTheWakingDay(_ at: At) {
        let tomorrow = ["Asia/Seoul": "2026-11-26", "America/New_York": "2026-03-08", "Europe/Berlin": "2026-03-29"][at.rawValue]!
        let friday = ["Asia/Seoul": "2026-11-27", "America/New_York": "2026-03-13", "Europe/Berlin": "2026-04-03"][at.rawValue]!
        let rows: [(String, Meaning)] = [
            ("tomorrow 5:15", .once("\(tomorrow) 17:15")),
            ("friday at 2:45", .once("\(friday) 14:45")),
            ("내일 5시 15분", .once("\(tomorrow) 17:15")),
            ("tomorrow at 1:30", .once("\(tomorrow) 13:30")),
            ("tomorrow at 6:59", .once("\(tomorrow) 18:59")),
            ("tomorrow at 0:30", .once("\(tomorrow) 00:30")),
            ("tomorrow at 05:15", .once("\(tomorrow) 05:15")),
            // A leading zero is the 24-hour clock's in Korean too (a hostile review's misread).
            ("내일 05시 15분", .once("\(tomorrow) 05:15")),
            ("내일 05시", .once("\(tomorrow) 05:00")),
            ("tomorrow at 7:15", .once("\(tomorrow) 07:15")),
            ("tomorrow at 12:30", .once("\(tomorrow) 12:30")),
            ("tomorrow at 17:15", .once("\(tomorrow) 17:15")),
            ("tomorrow at 5:15am", .once("\(tomorrow) 05:15")),
            ("every monday at 2:30", .daily(["14:30"], [.monday])),
            // Every repeat takes it (session 20: "every weekday at 3:15" was 03:15, a hostile
            // pass's misread); a leading zero and 7:00–12:59 stay as written.
            ("every day at 2:30", .daily(["14:30"], [])),
            ("every weekday at 3:15", .daily(["15:15"], [.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("매일 3:15", .daily(["15:15"], [])),
            ("every day at 05:15", .daily(["05:15"], [])),
            ("every day at 7:15", .daily(["07:15"], [])),
        ]
        for (phrase, meaning) in rows { check(phrase, at, meaning) }
    }

    /// 5. The choice is said under the echo and offered, as for a bare hour.
    @Test func aColonTimeOnANamedDaySaysTheOtherReading() throws {
        let reading = try SchedulePhrase.read("tomorrow 5:15", now: At.seoul.now, zone: At.seoul.zone)
        #expect(reading.notes.map(\.description) == ["5:15 is read as 17:15; say 5:15am for 05:15"])
        #expect(reading.choices == [PhraseReading.Choice(said: "5:15", other: "5:15am")])
        // Without a day, as a bare hour: the next such time not yet passed, the other offered.
        let bare = try SchedulePhrase.read("at 2:30", now: At.seoul.now, zone: At.seoul.zone)
        #expect(bare.schedule == .once(try ScheduleParser.instant("2026-11-25 14:30", zone: At.seoul.zone)))
        #expect(bare.notes.map(\.description) == ["2:30 is read as 2026-11-25 14:30, the next such time not yet passed"])
        #expect(bare.choices == [PhraseReading.Choice(said: "2:30", other: "2:30am")])
    }
}
