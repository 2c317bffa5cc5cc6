import Presentation
import Foundation
import NudgeCore
import Testing

/// The window form's schedule: what it shows of a stored schedule, and the flags it gives
/// back make that same schedule (or, for what it has no fields for, nothing is shown).
struct FormScheduleTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-11-23 00:00 UTC, a Monday.
    let now = Date(timeIntervalSince1970: 1_795_392_000)
    var today: CivilDay { CivilZone(seoul).local(now).day }

    func parsed(_ flags: ScheduleFlags) throws -> Schedule {
        try ScheduleParser.schedule(flags, now: now, zone: seoul)
    }

    @Test(arguments: [
        ScheduleFlags(at: ["09:30"], days: "weekdays"),
        ScheduleFlags(at: ["07:05"]),
        ScheduleFlags(days: "mon,wed", every: "30m", from: "09:30", until: "21:30"),
        ScheduleFlags(every: "45m"),
        ScheduleFlags(every: "90m", from: "08:00", until: "20:00", afterAnswer: true),
        ScheduleFlags(every: "20m", afterAnswer: true),
        ScheduleFlags(on: "2026-12-01 18:45"),
        ScheduleFlags(cron: "0 9 * * mon-fri"),
    ])
    func aScheduleShownGivesItselfBack(_ flags: ScheduleFlags) throws {
        let schedule = try parsed(flags)
        let form = try #require(FormSchedule(schedule, zone: seoul, today: today))
        let again = try parsed(form.flags)
        // An interval counts from when it is made: the same steps, a new anchor.
        if case .interval(let seconds, _, let days) = schedule, case .interval(let seconds2, _, let days2) = again {
            #expect(seconds == seconds2 && days == days2)
        } else {
            #expect(again == schedule, "\(form)")
        }
    }

    @Test func whatTheFormHasNoFieldsForIsNotShown() throws {
        #expect(FormSchedule(try parsed(ScheduleFlags(at: ["08:00", "20:00"])), zone: seoul, today: today) == nil)
        #expect(FormSchedule(try parsed(ScheduleFlags(at: ["08:00:30"])), zone: seoul, today: today) == nil)
        #expect(FormSchedule(try parsed(ScheduleFlags(every: "90s")), zone: seoul, today: today) == nil)
    }

    @Test func aNewOneIsAtNineEveryDayAndDatedTomorrow() throws {
        let form = FormSchedule(today: today)
        #expect(form.kind == .time && form.time == 9 * 60 && form.days.count == 7)
        #expect(form.date == "2026-11-24")
        #expect(form.flags == ScheduleFlags(at: ["09:00"]))
        var delayed = form
        delayed.kind = .delay
        #expect(delayed.flags == ScheduleFlags(in: "20m"))
        var none = form
        none.days = []
        #expect(throws: ScheduleError.self) { try parsed(none.flags) }
    }
}
