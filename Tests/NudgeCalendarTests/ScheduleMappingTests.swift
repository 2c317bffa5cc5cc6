import Foundation
import ICalendar
@testable import NudgeCalendar
import NudgeCore
import Testing

/// Schedules as RRULE values and back, with plain values: fixed days, times and zones,
/// nothing read from today or the machine.
struct ScheduleMappingTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Monday 2027-03-01, 08:00 in Berlin: the first second the rules start from.
    static let first = (day: CivilDay(year: 2027, month: 3, day: 1)!, second: 8 * 3600)

    static func rules(_ schedule: Schedule) -> [String] {
        CalendarExport.rules(schedule, first: first, form: TimeForm(zone: berlin, tzid: "Europe/Berlin")).map { $0.rrule?.description ?? "-" }
    }

    static func time(_ text: String) -> LocalTime { try! ScheduleParser.time(text) }

    @Test func schedulesBecomeTheRulesOtherCalendarsExpand() throws {
        let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
        #expect(Self.rules(.daily(times: [Self.time("09:30")], days: weekdays)) == ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=30"])
        // Times grouped by their minute: BYHOUR × BYMINUTE combines every hour with every minute.
        #expect(Self.rules(.daily(times: [Self.time("09:30"), Self.time("13:00"), Self.time("17:30")], days: Schedule.everyDay))
                == ["FREQ=DAILY;BYHOUR=13;BYMINUTE=0", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=30"])
        #expect(Self.rules(.daily(times: [Self.time("07:15:20")], days: Schedule.everyDay)) == ["FREQ=DAILY;BYHOUR=7;BYMINUTE=15;BYSECOND=20"])
        let anchor = Date(timeIntervalSince1970: 1_803_000_000)
        #expect(Self.rules(.interval(seconds: 7200, anchor: anchor, days: Schedule.everyDay)) == ["FREQ=HOURLY;INTERVAL=2"])
        #expect(Self.rules(.interval(seconds: 90, anchor: anchor, days: [.saturday])) == ["FREQ=SECONDLY;INTERVAL=90;BYDAY=SA"])
        // Both cron day fields: a day matching either, as cron does, is two rules.
        #expect(Self.rules(.cron(try CronExpression("0 9 1 * mon"))) == ["FREQ=DAILY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
                                                                          "FREQ=DAILY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"])
        #expect(Self.rules(.once(anchor)) == ["-"])
    }

    @Test func aNarrowedScheduleSaysItsPeriodPlacesAndEnd() throws {
        var restriction = Schedule.Restriction()
        restriction.period = Schedule.Period(unit: .week, every: 2, anchor: Self.first.day, weekStart: .monday)
        restriction.until = Date(timeIntervalSince1970: 1_830_000_000)
        #expect(Self.rules(.restricted(.daily(times: [Self.time("10:00")], days: [.tuesday, .thursday]), restriction))
                == ["FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=TU,TH;BYHOUR=10;BYMINUTE=0;UNTIL=20271228T132000Z"])
        var places = Schedule.Restriction()
        places.places = [Schedule.Place(-1, .friday)!]
        #expect(Self.rules(.restricted(.daily(times: [Self.time("16:00")], days: [.friday]), places)) == ["FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=16;BYMINUTE=0"])
    }

    /// The month's last weekday (issue 54: "last weekday of the month", 마지막 평일) is the
    /// last of its Mondays to Fridays: RRULE's BYSETPOS=-1, one rule a time, and back.
    @Test func theLastWeekdayOfTheMonthIsBySetPosAndBack() throws {
        var last = Schedule.Restriction()
        last.monthDays = [Schedule.Restriction.lastWeekday]
        let schedule = Schedule.restricted(.daily(times: [Self.time("16:00")], days: Schedule.everyDay), last)
        #expect(Self.rules(schedule) == ["FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=16;BYMINUTE=0;BYSETPOS=-1"])
        let two = Schedule.restricted(.daily(times: [Self.time("09:00"), Self.time("17:00")], days: Schedule.everyDay), last)
        #expect(Self.rules(two).count == 2, "BYSETPOS counts the times: one rule a time")
        // Back: Mondays to Fridays, the last of each month.
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:w\r\nSUMMARY:Expenses\r\nDTSTART;TZID=Europe/Berlin:20270129T160000\r\n"
            + "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=16;BYMINUTE=0\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        guard case .alert(let alert, _, _)? = CalendarImport.alerts(in: try Component.read(text), system: Self.berlin,
                                                                      now: Date(timeIntervalSince1970: 1_803_000_000)).first else {
            Issue.record("not read")
            return
        }
        let read = alert.schedule
        let firings = read.occurrences(after: Date(timeIntervalSince1970: 1_803_000_000), count: 4, in: Self.berlin).map {
            CivilZone(Self.berlin).local($0).day.description
        }
        // 2027-02-18 on: the last weekdays of February (Fri 26), March (Wed 31), April (Fri 30), May (Mon 31).
        #expect(firings == ["2027-02-26", "2027-03-31", "2027-04-30", "2027-05-31"], "\(firings)")
        #expect(Schedule(storageText: read.storageText) == read)
        #expect(throws: CalendarImport.Refusal.self) { try Self.schedule("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=9,17") }
    }

    /// Instants added (a moved occurrence, RDATE) are RDATE on the first rule only; a
    /// one-shot with them is DTSTART and RDATE.
    @Test func addedInstantsAreRDateOnTheFirstRule() throws {
        let added: Set<Date> = [Date(timeIntervalSince1970: 1_804_000_000), Date(timeIntervalSince1970: 1_805_000_000)]
        let form = TimeForm(zone: Self.berlin, tzid: "Europe/Berlin")
        let twice = Schedule.restricted(.daily(times: [Self.time("09:30"), Self.time("13:00")], days: Schedule.everyDay), Schedule.Restriction(also: added))
        let rules = CalendarExport.rules(twice, first: Self.first, form: form)
        #expect(rules.map(\.also.count) == [2, 0])
        let rdate = form.times("RDATE", rules[0].also, utc: false)
        #expect(rdate.parameter("TZID") == "Europe/Berlin" && rdate.list.count == 2 && rdate.list[0] == "20270302T160640", "\(rdate.value)")
        let once = CalendarExport.rules(.restricted(.once(Date(timeIntervalSince1970: 1_803_000_000)), Schedule.Restriction(also: added)),
                                        first: Self.first, form: form)
        #expect(once.count == 1 && once[0].rrule == nil && once[0].also == added.sorted())
        // The store reads a one-shot with added and left-out instants, and nothing else on one.
        let stored = "once 1803000000.0;except 1803500000.0;also 1804000000.0,1805000000.0"
        #expect(Schedule(storageText: stored)?.storageText == stored)
        #expect(Schedule(storageText: "once 1803000000.0;until 1805000000.0") == nil)
        #expect(Schedule(storageText: stored)?.end == Date(timeIntervalSince1970: 1_805_000_000))
    }

    /// What a rule's text becomes as Nudge reads it, with its start in Berlin.
    static func schedule(_ rrule: String, start: String = "20270301T090000") throws -> Schedule {
        let parsed = try CalendarImport.DateTime.parse(start, zone: berlin)
        let begin = CalendarImport.DateTime(instant: parsed.instant, day: parsed.day, time: parsed.time, zone: berlin, zoneID: "Europe/Berlin")
        let parts = try CalendarImport.parts(rrule)
        return try CalendarImport.rule(parts, start: begin, offset: 0, times: try CalendarImport.times(parts, start: begin, offset: 0), rrule: rrule)
    }

    @Test func rulesBecomeNudgesSchedules() throws {
        #expect(try Self.schedule("FREQ=WEEKLY;BYDAY=MO,WE") == .daily(times: [Self.time("09:00")], days: [.monday, .wednesday]))
        #expect(try Self.schedule("FREQ=WEEKLY") == .daily(times: [Self.time("09:00")], days: [.monday]))
        #expect(try Self.schedule("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30")
                == .daily(times: ["09:00", "09:30", "17:00", "17:30"].map(Self.time), days: Schedule.everyDay))
        #expect(try Self.schedule("FREQ=MINUTELY;INTERVAL=30;BYHOUR=9,10")
                == .daily(times: ["09:00", "09:30", "10:00", "10:30"].map(Self.time), days: Schedule.everyDay))
        #expect(try Self.schedule("FREQ=MONTHLY;BYMONTHDAY=15") == .cron(try CronExpression("0 9 15 * *")))
        #expect(try Self.schedule("FREQ=YEARLY") == .cron(try CronExpression("0 9 1 3 *")))
        let parts = try CalendarImport.parts("FREQ=MONTHLY;BYDAY=-1FR")
        #expect(parts.places == [Schedule.Place(-1, .friday)!] && parts.weekdays == [.friday])
    }

    @Test func whatNudgeCannotSayIsRefusedNamingThePart() {
        for (rrule, reason) in [("FREQ=YEARLY;BYSETPOS=1", "RRULE BYSETPOS: Nudge's schedules cannot say that"),
                                ("FREQ=DAILY;BYSECOND=60", "RRULE BYSECOND=60: 60 is not in 0…59"),
                                ("FREQ=MONTHLY;BYDAY=6MO", "RRULE BYDAY=6MO: 6MO: a weekday's place in the month is 1 to 5, or -1 to -5 from its end"),
                                ("FREQ=WEEKLY;BYDAY=1MO", "RRULE BYDAY=1MO: a weekday's place counts in a month: FREQ=MONTHLY, or YEARLY with BYMONTH"),
                                ("FREQ=WEEKLY;BYMONTHDAY=-1", "RRULE BYMONTHDAY with FREQ=WEEKLY: RFC 5545 has no days of the month in a weekly rule"),
                                ("FREQ=SECONDLY;INTERVAL=30", "RRULE FREQ=SECONDLY;INTERVAL=30: more often than once a minute"),
                                ("FREQ=DAILY;=9", "RRULE \u{201C}FREQ=DAILY;=9\u{201D} is not NAME=value;…")] {
            do {
                _ = try Self.schedule(rrule)
                Issue.record("\(rrule) was read")
            } catch {
                #expect((error as? CalendarImport.Refusal)?.reason == reason)
            }
        }
    }
}
