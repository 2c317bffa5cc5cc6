import Foundation
import NudgeCore
import Testing

/// Schedules narrowed as a calendar's rule narrows them; expected instants computed by
/// hand in UTC from fixed dates (none depends on today).
struct RestrictionTests {
    static let nine = LocalTime(hour: 9, minute: 0)!
    static func day(_ text: String) -> CivilDay {
        CivilDay(year: Int(text.prefix(4))!, month: Int(text.dropFirst(5).prefix(2))!, day: Int(text.suffix(2))!)!
    }

    func next(_ schedule: Schedule, after: String, count: Int = 6, in name: String = "UTC") -> [String] {
        let iso = ISO8601DateFormatter()
        return schedule.occurrences(after: utc(after), count: count, in: zone(name)).map { iso.string(from: $0) }
    }

    @Test func everyOtherDayCountsFromTheAnchorsDayAcrossMonthsAndDST() throws {
        let period = try #require(Schedule.Period(unit: .day, every: 2, anchor: Self.day("2026-10-23")))
        let schedule = Schedule.restricted(.daily(times: [Self.nine], days: Schedule.everyDay), .init(period: period))
        // Berlin: CEST until 25 October, then CET; the 9 o'clocks every other day.
        #expect(next(schedule, after: "2026-10-22T00:00:00Z", count: 4, in: "Europe/Berlin")
                == ["2026-10-23T07:00:00Z", "2026-10-25T08:00:00Z", "2026-10-27T08:00:00Z", "2026-10-29T08:00:00Z"])
        // Before the anchor the days keep the same parity (a start is `from`'s work).
        #expect(next(schedule, after: "2026-10-20T00:00:00Z", count: 1) == ["2026-10-21T09:00:00Z"])
    }

    @Test func weeksStartOnTheWeekStartGiven() throws {
        // 2026-12-01 is a Tuesday. Weeks from Sunday: 29 Nov–5 Dec, then every other one.
        let sunday = try #require(Schedule.Period(unit: .week, every: 2, anchor: Self.day("2026-12-01"), weekStart: .sunday))
        let monday = try #require(Schedule.Period(unit: .week, every: 2, anchor: Self.day("2026-12-01"), weekStart: .monday))
        let base = Schedule.daily(times: [Self.nine], days: [.monday, .sunday])
        #expect(next(.restricted(base, .init(period: sunday)), after: "2026-12-01T00:00:00Z", count: 4)
                == ["2026-12-13T09:00:00Z", "2026-12-14T09:00:00Z", "2026-12-27T09:00:00Z", "2026-12-28T09:00:00Z"])
        #expect(next(.restricted(base, .init(period: monday)), after: "2026-12-01T00:00:00Z", count: 4)
                == ["2026-12-06T09:00:00Z", "2026-12-14T09:00:00Z", "2026-12-20T09:00:00Z", "2026-12-28T09:00:00Z"])
    }

    @Test func monthsAndYearsOfACronExpression() throws {
        let quarterly = try #require(Schedule.Period(unit: .month, every: 3, anchor: Self.day("2026-11-15")))
        let cron = try CronExpression("0 9 15 * *")
        #expect(next(.restricted(.cron(cron), .init(period: quarterly)), after: "2026-11-20T00:00:00Z", count: 3)
                == ["2027-02-15T09:00:00Z", "2027-05-15T09:00:00Z", "2027-08-15T09:00:00Z"])
        // February 29 every third year from 2028: the next after 2028 is 2040 (beyond 8 years).
        let leap = try #require(Schedule.Period(unit: .year, every: 3, anchor: Self.day("2028-02-29")))
        #expect(next(.restricted(.cron(try CronExpression("0 9 29 2 *")), .init(period: leap)), after: "2026-01-01T00:00:00Z", count: 2)
                == ["2028-02-29T09:00:00Z", "2040-02-29T09:00:00Z"])
    }

    @Test func weekdaysByTheirPlaceInTheMonth() throws {
        // January 2026 begins on a Thursday: Wednesdays 7, 14, 21, 28; the last Friday is the
        // 30th. March begins on a Sunday: Wednesdays 4…25, the last Friday the 27th.
        let period = try #require(Schedule.Period(unit: .month, every: 2, anchor: Self.day("2026-01-07")))
        let places = [try #require(Schedule.Place(-1, .friday)), try #require(Schedule.Place(0, .wednesday))]
        let schedule = Schedule.restricted(.daily(times: [LocalTime(hour: 17, minute: 0)!], days: [.wednesday, .friday]),
                                           .init(period: period, places: places))
        #expect(next(schedule, after: "2026-01-01T00:00:00Z", count: 7)
                == ["2026-01-07T17:00:00Z", "2026-01-14T17:00:00Z", "2026-01-21T17:00:00Z", "2026-01-28T17:00:00Z", "2026-01-30T17:00:00Z",
                    "2026-03-04T17:00:00Z", "2026-03-11T17:00:00Z"])
        #expect(next(schedule, after: "2026-03-26T00:00:00Z", count: 2) == ["2026-03-27T17:00:00Z", "2026-05-06T17:00:00Z"])
        // The fifth Monday: only in months that have one (2026: March, June, August, November).
        let fifth = Schedule.restricted(.daily(times: [Self.nine], days: [.monday]), .init(places: [try #require(Schedule.Place(5, .monday))]))
        #expect(next(fifth, after: "2026-01-01T00:00:00Z", count: 4)
                == ["2026-03-30T09:00:00Z", "2026-06-29T09:00:00Z", "2026-08-31T09:00:00Z", "2026-11-30T09:00:00Z"])
        #expect(Schedule.Place(6, .monday) == nil && Schedule.Place(-6, .monday) == nil)
        #expect(schedule.summary(in: zone("UTC")) == "Wed, Fri at 17:00, every 2 months, last Fri, each Wed of every month")
        #expect(Schedule(storageText: schedule.storageText) == schedule)
    }

    @Test func daysOfTheMonthFromItsEndAndWithWeekdays() throws {
        let last = Schedule.restricted(.daily(times: [Self.nine], days: Schedule.everyDay), .init(monthDays: [-1]))
        // 2028 is a leap year: February ends on the 29th.
        #expect(next(last, after: "2028-01-01T00:00:00Z", count: 3) == ["2028-01-31T09:00:00Z", "2028-02-29T09:00:00Z", "2028-03-31T09:00:00Z"])
        #expect(last.summary(in: zone("UTC")) == "daily at 09:00, the last day of every month")
        // Friday the 13th: February, March and November in 2026.
        let friday13 = Schedule.restricted(.daily(times: [Self.nine], days: [.friday]), .init(monthDays: [13]))
        #expect(next(friday13, after: "2026-01-01T00:00:00Z", count: 3) == ["2026-02-13T09:00:00Z", "2026-03-13T09:00:00Z", "2026-11-13T09:00:00Z"])
        #expect(Schedule(storageText: friday13.storageText) == friday13)
        #expect(Schedule.Restriction.monthDay(-2) == "day 2 from the end")
    }

    @Test func aDayOnceInDecadesIsFoundAndOneThatNeverComesIsNot() throws {
        // The fifth Friday of February: a leap year's February 29 on a Friday; after 2189,
        // the next is 2228 (2200 is not a leap year).
        let fifth = Schedule.restricted(.cron(try CronExpression("0 9 * 2 5")), .init(places: [try #require(Schedule.Place(5, .friday))]))
        #expect(next(fifth, after: "2026-03-01T00:00:00Z", count: 2) == ["2036-02-29T09:00:00Z", "2064-02-29T09:00:00Z"])
        #expect(next(fifth, after: "2189-01-01T00:00:00Z", count: 1) == ["2228-02-29T09:00:00Z"])
        // February 29 every 99 years from 2027: 2324, then 396 years on.
        let leap = try CronExpression("0 9 29 2 *")
        let every99 = try #require(Schedule.Period(unit: .year, every: 99, anchor: Self.day("2027-01-01")))
        #expect(next(.restricted(.cron(leap), .init(period: every99)), after: "2026-01-01T00:00:00Z", count: 2)
                == ["2324-02-29T09:00:00Z", "2720-02-29T09:00:00Z"])
        // Never: February 30; February 29 every fourth year from 2027; the 31st every 12
        // months from April; a fifth Monday every 7 days from a first Monday.
        let everyFourth = try #require(Schedule.Period(unit: .year, every: 4, anchor: Self.day("2027-02-28")))
        let aprils = try #require(Schedule.Period(unit: .month, every: 12, anchor: Self.day("2026-04-01")))
        let weeks = try #require(Schedule.Period(unit: .day, every: 7, anchor: Self.day("2026-01-05")))
        let never: [Schedule] = [
            .cron(try CronExpression("0 9 30 2 *")),
            .restricted(.cron(leap), .init(period: everyFourth)),
            .restricted(.cron(try CronExpression("0 9 31 * *")), .init(period: aprils)),
            .restricted(.daily(times: [Self.nine], days: Schedule.everyDay), .init(period: weeks, places: [try #require(Schedule.Place(5, .monday))], monthDays: [3])),
        ]
        for schedule in never {
            #expect(next(schedule, after: "2026-01-01T00:00:00Z").isEmpty, "\(schedule.storageText)")
        }
    }

    @Test func aStartAnEndAndTimesLeftOut() {
        let restriction = Schedule.Restriction(from: utc("2026-12-02T09:00:00Z"), until: utc("2026-12-06T09:00:00Z"),
                                               except: [utc("2026-12-04T09:00:00Z")])
        let schedule = Schedule.restricted(.daily(times: [Self.nine], days: Schedule.everyDay), restriction)
        #expect(next(schedule, after: "2026-11-30T00:00:00Z", count: 10)
                == ["2026-12-02T09:00:00Z", "2026-12-03T09:00:00Z", "2026-12-05T09:00:00Z", "2026-12-06T09:00:00Z"])
        #expect(schedule.end == utc("2026-12-06T09:00:00Z"))
        #expect(next(schedule, after: "2026-12-06T09:00:00Z").isEmpty)
        // Steps of elapsed time too.
        let steps = Schedule.restricted(.interval(seconds: 3600, anchor: utc("2026-12-01T00:00:00Z"), days: Schedule.everyDay),
                                        .init(until: utc("2026-12-01T03:00:00Z"), except: [utc("2026-12-01T02:00:00Z")]))
        #expect(next(steps, after: "2026-12-01T00:00:00Z") == ["2026-12-01T01:00:00Z", "2026-12-01T03:00:00Z"])
    }

    @Test func manyTimesLeftOutInARowAreWalkedPast() {
        let start = utc("2026-12-01T00:00:00Z")
        let left = Set((1...1_000).map { start.addingTimeInterval(Double($0 * 60)) })
        let schedule = Schedule.restricted(.interval(seconds: 60, anchor: start, days: Schedule.everyDay), .init(except: left))
        #expect(next(schedule, after: "2026-12-01T00:00:00Z", count: 2) == ["2026-12-01T16:41:00Z", "2026-12-01T16:42:00Z"])
    }

    @Test func theStorageTextKeepsEverythingAndRefusesWhatIsNotOne() throws {
        let period = try #require(Schedule.Period(unit: .week, every: 2, anchor: CivilDay(daysSinceEpoch: -400), weekStart: .sunday))
        let schedules: [Schedule] = [
            .restricted(.daily(times: [Self.nine], days: [.monday]), .init(from: utc("2026-12-02T09:00:00Z"), until: utc("2027-01-01T00:00:00Z"),
                                                                         except: [utc("2026-12-09T09:00:00Z"), utc("2026-12-16T09:00:00Z")], period: period)),
            .restricted(.cron(try CronExpression("30 12 15 1,4 *")), .init(period: Schedule.Period(unit: .year, every: 2, anchor: Self.day("2025-01-15")))),
            .restricted(.interval(seconds: 2700, anchor: Date(timeIntervalSince1970: 1_795_348_800.25), days: Schedule.everyDay),
                        .init(until: Date(timeIntervalSince1970: 1_796_000_000))),
        ]
        for schedule in schedules {
            #expect(Schedule(storageText: schedule.storageText) == schedule, "\(schedule.storageText)")
        }
        for bad in ["at 32400 127;", "at 32400 127;until", "at 32400 127;until x", "at 32400 127;every day 1 0 1", "at 32400 127;every day 2 0 9",
                    "at 32400 127;every fortnight 2 0 1", "at 32400 127;from 1;from 2", "once 1;until 2", "after 60 - 127;until 2",
                    "at 32400 127;except ", "at 32400 127;except 1,,2", "at 32400 127;every year 101 0 1", "at 32400 127;until nan",
                    "cron 0 9 * * *;until 5;x 1", "every 60 0 127;every day 2 0 1", "every 60 0 127;places 1:1", "at 32400 2;places 6:1", "at 32400 2;places 1:9",
                    "at 32400 2;places 1-1", "at 32400 2;monthdays -32", "at 32400 2;monthdays 32", "at 32400 2;monthdays -1,", "every 60 0 127;monthdays 1"] {
            #expect(Schedule(storageText: bad) == nil, "\(bad)")
        }
    }

    @Test func theSummarySaysTheRestriction() throws {
        let period = try #require(Schedule.Period(unit: .day, every: 3, anchor: Self.day("2026-12-01")))
        let utcZone = zone("UTC")
        #expect(Schedule.restricted(.daily(times: [Self.nine], days: Schedule.everyDay), .init(until: utc("2027-01-01T09:00:00Z"), period: period))
                .summary(in: utcZone) == "every 3 days at 09:00, until 2027-01-01T09:00:00Z")
        let weeks = try #require(Schedule.Period(unit: .week, every: 2, anchor: Self.day("2026-12-01")))
        #expect(Schedule.restricted(.daily(times: [Self.nine], days: [.monday, .friday]), .init(except: [utc("2026-12-04T09:00:00Z"), utc("2026-12-07T09:00:00Z")], period: weeks))
                .summary(in: utcZone) == "Mon, Fri at 09:00, every 2 weeks, except 2 times")
    }
}
