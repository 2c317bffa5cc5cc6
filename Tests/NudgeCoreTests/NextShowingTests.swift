import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// When an alert shows next, for every state, and the scheduler agreeing with it.
struct NextShowingTests {
    let zone = TimeZone(identifier: "Asia/Seoul")!
    let now = utc("2026-11-23T03:59:30Z")  // 12:59:30 in Seoul

    func everyMinute() throws -> Alert {
        Alert(title: "Water", schedule: try ScheduleParser.schedule(ScheduleFlags(every: "1m", from: "09:00", until: "23:00"),
                                                                      now: utc("2026-11-23T00:00:00Z"), zone: zone),
              created: utc("2026-11-22T00:00:00Z"))
    }

    @Test func withoutStateItIsTheSchedule() throws {
        let next = NextShowing.of(try everyMinute(), state: nil, system: zone, now: now)
        #expect(next.instant == utc("2026-11-23T04:00:00Z"))
        #expect(next.reason == nil)
        #expect(next.pending == 0)
    }

    @Test func offIsNever() throws {
        var alert = try everyMinute()
        alert.enabled = false
        let next = NextShowing.of(alert, state: nil, system: zone, now: now)
        #expect(next.instant == nil)
        #expect(next.reason == .off)
    }

    @Test func aSnoozeBeforeTheScheduleComesFirst() throws {
        var alert = try everyMinute()
        alert.schedule = try ScheduleParser.schedule(ScheduleFlags(at: ["23:00"]), now: now, zone: zone)
        var state = AlertState(checkedUntil: now)
        state.snoozedUntil = utc("2026-11-23T04:29:30Z")
        let next = NextShowing.of(alert, state: state, system: zone, now: now)
        #expect(next.instant == utc("2026-11-23T04:29:30Z"))
        #expect(next.reason == .snoozed(until: utc("2026-11-23T04:29:30Z")))
    }

    @Test func aSnoozeAfterTheNextScheduledTimeWaitsForIt() throws {
        var state = AlertState(checkedUntil: now)
        state.snoozedUntil = utc("2026-11-23T04:10:00Z")
        let next = NextShowing.of(try everyMinute(), state: state, system: zone, now: now)
        #expect(next.instant == utc("2026-11-23T04:00:00Z"))
        #expect(next.reason == nil)
    }

    @Test func doneForTodayIsTomorrowsFirst() throws {
        var state = AlertState(checkedUntil: now)
        state.doneForDay = CivilZone(zone).local(now).day
        state.pendingCount = 0
        let next = NextShowing.of(try everyMinute(), state: state, system: zone, now: now)
        #expect(next.instant == utc("2026-11-24T00:00:00Z"))  // 09:00 in Seoul the next day
        #expect(next.reason == .doneForDay(CivilZone(zone).local(now).day))
        // The day after, it no longer moves anything.
        let later = NextShowing.of(try everyMinute(), state: state, system: zone, now: utc("2026-11-24T03:00:00Z"))
        #expect(later.instant == utc("2026-11-24T03:01:00Z"))
        #expect(later.reason == nil)
    }

    @Test func aPendingPopUpIsCountedAndDoesNotMoveIt() throws {
        var state = AlertState(checkedUntil: now)
        state.pendingCount = 3
        state.shownID = 7
        let next = NextShowing.of(try everyMinute(), state: state, system: zone, now: now)
        #expect(next.instant == utc("2026-11-23T04:00:00Z"))
        #expect(next.pending == 3)
    }

    @Test(arguments: [ActionKey.done, .snooze, .skipToday, .default])
    func theSchedulerWakesWhenItSays(answer: ActionKey) throws {
        let alert = try everyMinute()
        let delivery = InMemoryDelivery()
        let start = utc("2026-11-23T03:58:00Z")
        let scheduler = Scheduler(alerts: [alert], zone: zone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T03:59:00Z"))
        _ = scheduler.handle(.action(id: 1, key: answer), now: utc("2026-11-23T03:59:10Z"))
        let told = try #require(scheduler.nextShowing(alert.id))
        #expect(told.instant == scheduler.nextWake)
        let fromState = NextShowing.of(alert, state: scheduler.state(alert.id), system: zone, now: utc("2026-11-23T03:59:10Z"))
        #expect(fromState.instant == told.instant)
    }
}

/// Issue 52: a one-shot that came due while the daemon was stopped is due and waiting,
/// not gone, as long as the daemon's catch-up would still show it.
struct DueWhileStoppedTests {
    let zone = TimeZone(identifier: "Asia/Seoul")!

    @Test func aOneShotDueWhileNothingRanIsDueAndWaiting() throws {
        let due = utc("2026-11-23T03:00:00Z")
        let tea = Alert(title: "Tea", schedule: .once(due), created: utc("2026-11-23T02:00:00Z"))
        let now = utc("2026-11-23T03:30:00Z")
        // Never seen by a daemon (no state), or seen before it came due.
        for state in [nil, AlertState(checkedUntil: utc("2026-11-23T02:30:00Z"))] {
            let next = NextShowing.of(tea, state: state, system: zone, now: now)
            #expect(next.instant == due && next.reason == .due(since: due))
        }
        // The daemon handled it: gone, as before.
        #expect(NextShowing.of(tea, state: AlertState(checkedUntil: due), system: zone, now: now).instant == nil)
        // Past the catch-up's grace, or with no catch-up, the daemon would only log it as missed.
        var skip = tea
        skip.catchUp = .skip
        #expect(NextShowing.of(skip, state: nil, system: zone, now: now).instant == nil)
        // But a showing at most a minute late is shown as it is, whatever the catch-up (the
        // scheduler's rule): due, as the daemon will show it.
        #expect(NextShowing.of(skip, state: nil, system: zone, now: due.addingTimeInterval(20)).reason == .due(since: due))
        #expect(NextShowing.of(tea, state: nil, system: zone, now: due.addingTimeInterval(13 * 3600)).instant == nil)
        // A schedule with a time ahead shows that time, as before.
        let later = Alert(title: "Later", schedule: .once(utc("2026-11-23T05:00:00Z")), created: utc("2026-11-23T02:00:00Z"))
        #expect(NextShowing.of(later, state: nil, system: zone, now: now).reason == nil)
        // The scheduler's own answer, from where it checked, never has it.
        let scheduler = Scheduler(alerts: [tea], zone: zone, now: now, delivery: InMemoryDelivery())
        #expect(scheduler.nextWake == nil || scheduler.nextWake! <= now)
    }
}
