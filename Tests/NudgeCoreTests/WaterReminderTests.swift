import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// Water reminders and after-answer schedules in the pure scheduler, with fixed instants
/// (2026-11-23 is a Monday) and the in-memory delivery.
struct WaterReminderTests {
    let created = utc("2026-11-23T08:00:00Z")

    /// A water reminder (or another kind) created at 08:00.
    func water(_ flags: ScheduleFlags, kind: Alert.Kind? = nil) throws -> Alert {
        try alert(flags, kind: kind, created: created)
    }

    /// The day's water as the daemon reads it: goal 2,000 ml, cup 250 ml, days from midnight.
    func progress(_ intake: Int, lastDrink: Date? = nil, now: Date, dayStart: Int = 0) -> WaterProgress {
        WaterProgress(goal: 2000, cup: 250, dayStart: dayStart, intake: intake, lastDrink: lastDrink, now: now, zone: utcZone)
    }

    @Test func thePopUpShowsTheDaysWaterAndOffersTheCup() throws {
        let a = try water(ScheduleFlags(at: ["09:00", "12:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: created, delivery: delivery)
        scheduler.setWater(progress(750, now: created), now: created)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let first = try #require(delivery.delivered.last?.notification)
        #expect(first.body == Language.english.waterBody + "\n750 of 2,000 ml today")
        #expect(first.actions.map(\.key.rawValue) == ["default", "drink", "done", "snooze", "skip-today"])
        #expect(first.actions[1].label == "Drank 250 ml")
        // "Drank": the cup is logged, the pop-up answered, and the next one shows the new total.
        let records = scheduler.handle(.action(id: 1, key: .drink), now: utc("2026-11-23T09:00:30Z"))
        #expect(records == [.drank(alert: a.id, millilitres: 250, delay: 30)])
        #expect(scheduler.water?.intake == 1000)
        #expect(scheduler.state(a.id)?.pendingCount == 0)
        _ = scheduler.run(now: utc("2026-11-23T12:00:00Z"))
        #expect(delivery.delivered.last?.notification.body == Language.english.waterBody + "\n1,000 of 2,000 ml today")
        // A plain reminder never shows water.
        let plain = try water(ScheduleFlags(at: ["09:00"]), kind: .reminder)
        #expect(scheduler.actions(for: plain).map(\.key.rawValue) == ["default", "done", "snooze", "skip-today"])
    }

    @Test func meetingTheGoalRestsTheDayAndTheNextDayBringsThemBack() throws {
        let a = try water(ScheduleFlags(every: "1h", from: "09:00", until: "21:00"))
        let tea = Alert(title: "Tea", schedule: a.schedule, created: created)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a, tea], zone: utcZone, now: created, delivery: delivery)
        scheduler.setWater(progress(1900, now: created), now: created)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(delivery.shown.count == 2)
        let shown = try #require(scheduler.state(a.id)?.shownID)
        // The goal is met by a drink from elsewhere (the CLI): the water pop-up goes, once.
        let met = utc("2026-11-23T09:20:00Z")
        #expect(scheduler.setWater(progress(2150, lastDrink: met, now: met), now: met) == [.goalMet(alert: a.id, day: CivilDay(year: 2026, month: 11, day: 23)!)])
        #expect(scheduler.setWater(progress(2150, lastDrink: met, now: met), now: met).isEmpty)
        #expect(delivery.withdrawn == [shown])
        #expect(scheduler.state(a.id)?.pendingCount == 0)
        let next = try #require(scheduler.nextShowing(a.id))
        #expect(next.instant == utc("2026-11-24T09:00:00Z"))
        #expect(next.reason == .goalMet(until: utc("2026-11-24T00:00:00Z")))
        // The rest of the day: the plain reminder fires, the water one neither shows nor misses.
        var records: [SchedulerRecord] = []
        for hour in 10...21 { records += scheduler.run(now: utc("2026-11-23T\(hour):00:00Z")) }
        #expect(records.filter { $0.alertID == a.id }.isEmpty)
        #expect(records.filter { $0.alertID == tea.id }.count == 12)
        // The next day it is back, with the new day's total, and nothing owed from yesterday.
        let morning = scheduler.run(now: utc("2026-11-24T09:00:00Z"))
        #expect(morning.filter { $0.alertID == a.id }.count == 1)
        #expect(scheduler.state(a.id)?.pendingCount == 1)
        #expect(delivery.delivered.last { $0.notification.summary == a.title }?.notification.body.hasSuffix("\n0 of 2,000 ml today") == true)
    }

    @Test func aDrinkTakenBackBringsThemBackOwingNothingSkipped() throws {
        let a = try water(ScheduleFlags(every: "1h", from: "09:00", until: "21:00"))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: created, delivery: InMemoryDelivery())
        let met = utc("2026-11-23T10:30:00Z")
        scheduler.setWater(progress(2000, now: met), now: met)
        #expect(scheduler.nextWake == utc("2026-11-24T09:00:00Z"))
        let undone = utc("2026-11-23T12:30:00Z")
        #expect(scheduler.setWater(progress(1750, now: undone), now: undone).isEmpty)
        #expect(scheduler.state(a.id)?.goalMetUntil == nil)
        #expect(scheduler.nextWake == utc("2026-11-23T13:00:00Z"))
        #expect(scheduler.run(now: utc("2026-11-23T13:00:00Z")) == [.fired(alert: a.id, due: utc("2026-11-23T13:00:00Z"), deliveryID: 1, count: 1)])
    }

    @Test func drinkDaysStartWhenThePersonSays() throws {
        // Days from 04:00: a goal met at 23:00 rests the reminders until 04:00, not midnight.
        let a = try water(ScheduleFlags(every: "1h", from: "00:00", until: "23:00"))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: created, delivery: InMemoryDelivery())
        let late = utc("2026-11-23T23:00:00Z")
        scheduler.setWater(progress(2000, now: late, dayStart: 4 * 3600), now: late)
        #expect(scheduler.nextWake == utc("2026-11-24T04:00:00Z"))
    }

    @Test func afterDoneCountsFromTheLastAnswerInsideTheWindow() throws {
        let schedule = try ScheduleParser.schedule(ScheduleFlags(days: "mon-fri", every: "45m", from: "09:30", until: "21:30", afterAnswer: true),
                                                   now: created, zone: utcZone)
        let window = try #require(DayWindow(start: LocalTime(hour: 9, minute: 30)!, end: LocalTime(hour: 21, minute: 30)!))
        #expect(schedule == .afterAnswer(seconds: 2700, window: window, days: [.monday, .tuesday, .wednesday, .thursday, .friday]))
        #expect(Schedule(storageText: schedule.storageText) == schedule)
        #expect(schedule.summary(in: utcZone) == "45 min after the last answer, 09:30–21:30, Mon–Fri")
        let a = Alert(title: "Stretch", schedule: schedule, created: created)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: created, delivery: delivery)
        // Created at 08:00: 08:45 is outside the window, so the window's start.
        #expect(scheduler.nextWake == utc("2026-11-23T09:30:00Z"))
        _ = scheduler.run(now: utc("2026-11-23T09:30:00Z"))
        // Unanswered, it comes again an interval after the pop-up.
        #expect(scheduler.nextWake == utc("2026-11-23T10:15:00Z"))
        // Done at 09:50: 45 minutes from the answer.
        _ = scheduler.handle(.action(id: 1, key: .done), now: utc("2026-11-23T09:50:00Z"))
        #expect(scheduler.nextWake == utc("2026-11-23T10:35:00Z"))
        // Done late in the evening: the next one is the next window, on a chosen day.
        scheduler.upsert(a, now: utc("2026-11-27T21:00:00Z"))
        _ = scheduler.run(now: utc("2026-11-27T21:00:00Z"))
        let friday = utc("2026-11-27T21:05:00Z")
        _ = scheduler.snooze(a.id, now: friday, seconds: 60)
        _ = scheduler.acknowledge(a.id, now: friday)
        #expect(scheduler.nextWake == utc("2026-11-30T09:30:00Z"), "Friday 21:50 is past the window; Monday 09:30")
        // A preview without an anchor counts from the instant asked about.
        #expect(schedule.occurrences(after: utc("2026-11-23T12:00:00Z"), count: 3, in: utcZone)
                == [utc("2026-11-23T12:45:00Z"), utc("2026-11-23T13:30:00Z"), utc("2026-11-23T14:15:00Z")])
        // Past the window's end, the grid from the next start.
        #expect(schedule.occurrences(after: utc("2026-11-23T20:00:00Z"), count: 4, in: utcZone)
                == [utc("2026-11-23T20:45:00Z"), utc("2026-11-23T21:30:00Z"), utc("2026-11-24T09:30:00Z"), utc("2026-11-24T10:15:00Z")])
    }

    @Test func aDrinkMovesAnAfterDoneWaterReminder() throws {
        let a = try water(ScheduleFlags(every: "45m", afterAnswer: true))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: created, delivery: InMemoryDelivery())
        #expect(scheduler.nextWake == utc("2026-11-23T08:45:00Z"))
        let drink = utc("2026-11-23T08:30:00Z")
        scheduler.setWater(progress(250, lastDrink: drink, now: drink), now: drink)
        #expect(scheduler.nextWake == utc("2026-11-23T09:15:00Z"))
        // A plain reminder ignores drinks.
        let plain = Alert(title: "Stretch", schedule: a.schedule, created: created)
        let other = Scheduler(alerts: [plain], zone: utcZone, now: created, delivery: InMemoryDelivery())
        other.setWater(progress(250, lastDrink: drink, now: drink), now: drink)
        #expect(other.nextWake == utc("2026-11-23T08:45:00Z"))
    }

    @Test func afterDoneNeedsEvery() {
        #expect(throws: ScheduleError.self) {
            try ScheduleParser.schedule(ScheduleFlags(at: ["09:00"], afterAnswer: true), now: created, zone: utcZone)
        }
        #expect(throws: ScheduleError.self) {
            try ScheduleParser.schedule(ScheduleFlags(afterAnswer: true), now: created, zone: utcZone)
        }
    }

    /// A water reminder added once the goal is met owes nothing from the rest of that day.
    @Test func oneAddedAtGoalNeitherShowsNorMissesThatDay() throws {
        let scheduler = Scheduler(alerts: [], zone: utcZone, now: created, delivery: InMemoryDelivery())
        let met = utc("2026-11-23T10:00:00Z")
        scheduler.setWater(progress(2000, now: met), now: met)
        let a = try alert(ScheduleFlags(every: "1h", from: "09:00", until: "21:00"), created: met)
        scheduler.upsert(a, now: met)
        #expect(scheduler.nextWake == utc("2026-11-24T09:00:00Z"))
        let records = scheduler.run(now: utc("2026-11-24T09:00:00Z"))
        #expect(records == [.fired(alert: a.id, due: utc("2026-11-24T09:00:00Z"), deliveryID: 1, count: 1)])
    }
}
