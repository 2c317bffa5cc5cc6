import Foundation
import NudgeCore
import PropertyBased
import Testing

struct OccurrenceCase: Sendable, CustomTestStringConvertible {
    var name: String
    var zone: String
    var flags: ScheduleFlags
    var after: String
    var expected: [String]
    var testDescription: String { name }

    init(_ name: String, _ zone: String, at: [String] = [], days: String? = nil, every: String? = nil,
         from: String? = nil, until: String? = nil, cron: String? = nil, after: String, _ expected: [String]) {
        self.name = name
        self.zone = zone
        flags = ScheduleFlags(at: at, days: days, every: every, from: from, until: until, cron: cron)
        self.after = after
        self.expected = expected
    }
}

/// Next occurrences across zones and DST changes; expected instants in UTC.
struct ScheduleTests {
    static let cases: [OccurrenceCase] = [
        .init("Berlin spring forward: 02:30 fires when the gap ends, 03:00 CEST", "Europe/Berlin", at: ["02:30"],
              after: "2026-03-28T12:00:00Z", ["2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z"]),
        .init("Berlin fall back: 02:30 fires once, the first time", "Europe/Berlin", at: ["02:30"],
              after: "2026-10-24T12:00:00Z", ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]),
        .init("New York spring forward", "America/New_York", at: ["2:30am"],
              after: "2026-03-07T12:00:00Z", ["2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"]),
        .init("New York fall back: 01:30 EDT, not EST", "America/New_York", at: ["1:30"],
              after: "2026-10-31T12:00:00Z", ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
        .init("Lord Howe 30-minute gap: 02:15 fires at 02:30 +11", "Australia/Lord_Howe", at: ["02:15"],
              after: "2026-10-03T00:00:00Z", ["2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"]),
        .init("Lord Howe 30-minute overlap: 01:45 fires at the first, +11", "Australia/Lord_Howe", at: ["01:45"],
              after: "2026-04-04T00:00:00Z", ["2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"]),
        .init("Sydney spring forward", "Australia/Sydney", at: ["02:30"],
              after: "2026-10-03T00:00:00Z", ["2026-10-03T16:00:00Z", "2026-10-04T15:30:00Z"]),
        .init("two times in one gap fire once", "Europe/Berlin", at: ["02:15", "02:45"],
              after: "2026-03-29T00:00:00Z", ["2026-03-29T01:00:00Z", "2026-03-30T00:15:00Z"]),
        .init("Seoul, no DST: strictly after", "Asia/Seoul", at: ["09:00"],
              after: "2026-11-22T00:00:00Z", ["2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"]),
        .init("45-minute window on weekdays skips the weekend", "Asia/Seoul", days: "mon-fri", every: "45m",
              from: "09:30", until: "12:00", after: "2026-11-27T00:00:00Z",
              ["2026-11-27T00:30:00Z", "2026-11-27T01:15:00Z", "2026-11-27T02:00:00Z", "2026-11-27T02:45:00Z",
               "2026-11-30T00:30:00Z"]),
        .init("the study nudge: every 30 min 09:30–21:30 weekdays, across Berlin's fall back", "Europe/Berlin",
              days: "weekdays", every: "30m", from: "09:30", until: "21:30", after: "2026-10-23T19:00:00Z",
              ["2026-10-23T19:30:00Z", "2026-10-26T08:30:00Z", "2026-10-26T09:00:00Z"]),
        .init("weekday mask", "UTC", at: ["08:00"], days: "sat,sun", after: "2026-11-23T00:00:00Z",
              ["2026-11-28T08:00:00Z", "2026-11-29T08:00:00Z", "2026-12-05T08:00:00Z"]),
        .init("leap day only", "UTC", cron: "0 9 29 feb *", after: "2026-01-01T00:00:00Z",
              ["2028-02-29T09:00:00Z", "2032-02-29T09:00:00Z"]),
        .init("cron: day-of-month or day-of-week", "UTC", cron: "0 12 1 * mon", after: "2026-11-22T00:00:00Z",
              ["2026-11-23T12:00:00Z", "2026-11-30T12:00:00Z", "2026-12-01T12:00:00Z", "2026-12-07T12:00:00Z"]),
        .init("cron: steps on a range", "UTC", cron: "0-30/10 8 * * *", after: "2026-11-22T00:00:00Z",
              ["2026-11-22T08:00:00Z", "2026-11-22T08:10:00Z", "2026-11-22T08:20:00Z", "2026-11-22T08:30:00Z",
               "2026-11-23T08:00:00Z"]),
        .init("cron: @weekly is Sunday midnight", "Europe/Berlin", cron: "@weekly", after: "2026-11-22T00:00:00Z",
              ["2026-11-28T23:00:00Z"]),
        .init("cron in a DST gap", "Europe/Berlin", cron: "30 2 * * *", after: "2026-03-28T12:00:00Z",
              ["2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"]),
    ]

    @Test(arguments: cases)
    func nextOccurrences(_ c: OccurrenceCase) throws {
        let schedule = try ScheduleParser.schedule(c.flags, now: utc(c.after), zone: zone(c.zone))
        let got = schedule.occurrences(after: utc(c.after), count: c.expected.count, in: zone(c.zone))
        #expect(got == c.expected.map(utc), "\(got)")
    }

    @Test func theSameScheduleFollowsTheZoneItIsAskedIn() throws {
        var flags = ScheduleFlags()
        flags.at = ["09:00"]
        let after = utc("2026-11-22T12:00:00Z")
        let schedule = try ScheduleParser.schedule(flags, now: after, zone: zone("UTC"))
        #expect(schedule.occurrences(after: after, count: 1, in: zone("America/New_York")) == [utc("2026-11-22T14:00:00Z")])
        #expect(schedule.occurrences(after: after, count: 1, in: zone("Europe/Berlin")) == [utc("2026-11-23T08:00:00Z")])
    }

    @Test func oneShotsAndIntervals() throws {
        let now = utc("2026-11-22T10:00:00Z")
        var flags = ScheduleFlags()
        flags.in = "20m"
        #expect(try ScheduleParser.schedule(flags, now: now, zone: zone("UTC")) == .once(utc("2026-11-22T10:20:00Z")))
        flags = ScheduleFlags()
        flags.on = "2026-12-01T09:00:05+01:00"
        let once = try ScheduleParser.schedule(flags, now: now, zone: zone("Asia/Seoul"))
        #expect(once.occurrences(after: now, count: 3, in: zone("UTC")) == [utc("2026-12-01T08:00:05Z")])
        #expect(once.occurrences(after: utc("2026-12-02T00:00:00Z"), count: 1, in: zone("UTC")).isEmpty)
        flags.on = "2026-12-01 09:00"
        #expect(try ScheduleParser.schedule(flags, now: now, zone: zone("Asia/Seoul")) == .once(utc("2026-12-01T00:00:00Z")))
        flags = ScheduleFlags()
        flags.every = "1h30m"
        let interval = try ScheduleParser.schedule(flags, now: now, zone: zone("UTC"))
        #expect(interval.occurrences(after: utc("2026-11-22T11:40:00Z"), count: 2, in: zone("UTC"))
                == [utc("2026-11-22T13:00:00Z"), utc("2026-11-22T14:30:00Z")])
    }

    @Test(arguments: [("9:30", 9 * 3600 + 1800), ("09:30:15", 9 * 3600 + 1815), ("9:30am", 9 * 3600 + 1800),
                      ("9pm", 21 * 3600), ("12am", 0), ("12:05 PM", 12 * 3600 + 300), ("23:59", 86340)])
    func timesParse(text: String, second: Int) throws {
        #expect(try ScheduleParser.time(text).secondOfDay == second)
    }

    @Test func daysParse() throws {
        #expect(try ScheduleParser.days("mon-fri") == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(try ScheduleParser.days("Sat,SUN") == [.saturday, .sunday])
        #expect(try ScheduleParser.days("fri-mon") == [.friday, .saturday, .sunday, .monday])
        #expect(try ScheduleParser.days("weekends") == [.saturday, .sunday])
        #expect(try ScheduleParser.days("Wednesday").count == 1)
        #expect(try ScheduleParser.days("daily").count == 7)
    }

    @Test(arguments: [("45m", 2700), ("1h30m", 5400), ("90m", 5400), ("90s", 90), ("1h", 3600), ("2h5m10s", 7510),
                      // As people say them, in either language.
                      ("10 min", 600), ("10 minutes", 600), ("1 hour 30 minutes", 5400), ("1 hour and 30 minutes", 5400),
                      ("an hour and a half", 5400), ("half an hour", 1800), ("a minute", 60), ("1.5h", 5400), ("1.5 hours", 5400),
                      ("2 days", 172_800), ("10분", 600), ("1시간 30분", 5400), ("1시간30분", 5400), ("1시간 반", 5400), ("90초", 90),
                      ("2일", 172_800), ("1 h 5 m", 3900), ("1시간반", 5400),
                      // Korean number words: native for hours, Sino-Korean tens for minutes.
                      ("한 시간", 3600), ("한시간", 3600), ("두 시간 반", 9000), ("두시간반", 9000), ("삼십 분", 1800), ("삼십분", 1800),
                      ("한 시간 삼십 분", 5400), ("열두 시간", 43_200), ("십오 초", 15)])
    func durationsParse(text: String, seconds: Int) throws {
        #expect(try ScheduleParser.duration(text, for: .grace) == seconds)
    }

    @Test(arguments: [
        ("time", "25:61"), ("time", "9:75"), ("time", "13pm"), ("time", "noon"), ("time", "9"),
        ("days", "funday"), ("days", "mon-"),
        ("duration", "0m"), ("duration", "m"), ("duration", "10"), ("duration", "5x"), ("duration", "30m1h"),
        ("duration", "30분 1시간"), ("duration", "1.5s"), ("duration", "10 10 min"), ("duration", "an"), ("duration", "half"), ("duration", "반"),
        ("duration", "1시간 반 10분"), ("duration", "1.33m"), ("duration", "1m m"),
        ("zone", "Mars/Olympus"), ("cron", "*/0 * * * *"), ("cron", "60 * * * *"), ("cron", "* * *"),
        ("cron", "5-1 * * * *"), ("cron", "@sometimes"), ("date", "2026-02-30 09:00"), ("date", "tomorrow"),
        ("date", "0000-01-01 00:00"), ("date", "1969-12-31"), ("date", "+999-01-01"), ("date", "-001-01-01"),
    ])
    func badTokensAreNamed(kind: String, token: String) {
        do {
            switch kind {
            case "time": _ = try ScheduleParser.time(token)
            case "days": _ = try ScheduleParser.days(token)
            case "duration": _ = try ScheduleParser.duration(token, for: .grace)
            case "zone": _ = try ScheduleParser.zone(token)
            case "cron": _ = try CronExpression(token)
            default: _ = try ScheduleParser.instant(token, zone: zone("UTC"))
            }
            Issue.record("\(token) was accepted")
        } catch {
            #expect(error.description.contains("'"), "\(error)")
            #expect(!error.accepted.description.isEmpty)
        }
    }

    @Test func datesAreInTheYears1970To9999() throws {
        #expect(try ScheduleParser.instant("1970-01-01T00:00:00Z", zone: zone("UTC")) == Date(timeIntervalSince1970: 0))
        #expect(try ScheduleParser.instant("9999-12-31 23:59", zone: zone("UTC")) == Date(timeIntervalSince1970: 253_402_300_740))
        #expect(throws: ScheduleError.self) { try ScheduleParser.instant("0000-01-01 00:00", zone: zone("UTC")) }
        // An offset or a zone cannot carry a date in range out of it.
        #expect(throws: ScheduleError.self) { try ScheduleParser.instant("9999-12-31T23:59:59-12:00", zone: zone("UTC")) }
        #expect(throws: ScheduleError.self) { try ScheduleParser.instant("1970-01-01T00:00:00+05:00", zone: zone("UTC")) }
        #expect(throws: ScheduleError.self) { try ScheduleParser.instant("9999-12-31 23:00", zone: zone("America/New_York")) }
        #expect(try ScheduleParser.instant("9999-12-31 23:00", zone: zone("Asia/Seoul")) == Date(timeIntervalSince1970: 253_402_264_800))
        do {
            _ = try ScheduleParser.instant("1969-12-31 23:59", zone: zone("UTC"))
        } catch {
            #expect(error.description == "invalid date '1969-12-31 23:59': the year must be from 1970 to 9999 (use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00)")
        }
    }

    @Test func everyMustBeAtLeastAMinute() {
        var flags = ScheduleFlags()
        flags.every = "30s"
        #expect(throws: ScheduleError.self) { try ScheduleParser.schedule(flags, now: Date(), zone: zone("UTC")) }
        flags = ScheduleFlags()
        #expect(throws: ScheduleError.self) { try ScheduleParser.schedule(flags, now: Date(), zone: zone("UTC")) }
    }

    /// On days without a DST change, daily times agree with Foundation's `Calendar.nextDate`.
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Seoul"])
    func agreesWithFoundationAwayFromDSTChanges(zoneName: String) async {
        let tz = zone(zoneName)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        calendar.locale = Locale(identifier: "en_US_POSIX")
        await propertyCheck(count: 300, input: Gen.int(in: 0...(3 * 365 * 86400)), Gen.int(in: 0...23), Gen.int(in: 0...59)) { offset, hour, minute in
            let after = Date(timeIntervalSince1970: 1_767_225_600 + Double(offset))
            let time = LocalTime(hour: hour, minute: minute)!
            // Within two days of a DST change the rules differ on purpose.
            if let change = tz.nextDaylightSavingTimeTransition(after: after.addingTimeInterval(-2 * 86400)),
               change < after.addingTimeInterval(3 * 86400) { return }
            let ours = Schedule.daily(times: [time], days: Schedule.everyDay).occurrences(after: after, count: 1, in: tz).first
            let theirs = calendar.nextDate(after: after, matching: DateComponents(hour: hour, minute: minute, second: 0),
                                           matchingPolicy: .nextTime)
            #expect(ours == theirs, "\(zoneName) \(time) after \(after)")
        }
    }

    /// Occurrences strictly increase and land on the schedule's local fields, a DST gap's
    /// shift aside.
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Seoul"])
    func occurrencesStrictlyIncreaseAndKeepTheirLocalFields(zoneName: String) async {
        let tz = zone(zoneName)
        let clock = CivilZone(tz)
        await propertyCheck(count: 40, input: Gen.int(in: 0...95).array(of: 1...4), Gen.int(in: 1...127), Gen.int(in: 0...(2 * 365))) { quarters, mask, startDay in
            let times = quarters.map { LocalTime(hour: $0 / 4, minute: $0 % 4 * 15)! }
            let days = Set(Weekday.allCases.filter { mask & (1 << $0.rawValue) != 0 })
            let after = Date(timeIntervalSince1970: 1_767_225_600 + Double(startDay) * 86400)
            let got = Schedule.daily(times: times, days: days).occurrences(after: after, count: 60, in: tz)
            #expect(got.count == 60)
            #expect(zip(got, got.dropFirst()).allSatisfy { $0 < $1 })
            #expect(got.first.map { $0 > after } ?? false)
            for t in got {
                let (day, second) = clock.local(t)
                let onTime = times.contains { $0.secondOfDay == second }
                let shifted = times.contains { second > $0.secondOfDay && second - $0.secondOfDay <= 3600 }
                #expect(onTime || shifted, "\(zoneName) \(t)")
                #expect(days.contains(day.weekday))
            }
        }
    }

    @Test func civilDaysRoundTrip() {
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            let day = CivilDay(daysSinceEpoch: n)
            let (y, m, d) = day.components
            #expect(CivilDay(year: y, month: m, day: d) == day)
        }
        #expect(CivilDay(year: 2026, month: 11, day: 22)?.weekday == .sunday)
        #expect(CivilDay(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDay(year: 2100, month: 2, day: 29) == nil)
    }
}
