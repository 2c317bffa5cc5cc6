import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// The scheduler state machine with fixed instants and the in-memory delivery.
struct SchedulerTests {
    @Test func firesAtTheDueInstantAndSaysWhenToWake() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        #expect(scheduler.nextWake == utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.run(now: utc("2026-11-23T08:59:59Z")).isEmpty)
        let records = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(records == [.fired(alert: a.id, due: utc("2026-11-23T09:00:00Z"), deliveryID: 1, count: 1)])
        #expect(delivery.delivered.first?.notification.summary == Language.english.waterTitle)
        #expect(delivery.delivered.first?.notification.actions.map(\.key.rawValue) == ["default", "done", "snooze", "skip-today"])
        #expect(scheduler.nextWake == utc("2026-11-24T09:00:00Z"))
    }

    @Test func unansweredFiresReplaceOnePopUpAndCount() throws {
        let a = try alert(ScheduleFlags(every: "1h"))
        let delivery = InMemoryDelivery()
        let start = utc("2026-11-23T00:00:00Z")
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        for hour in 1...3 { _ = scheduler.run(now: start.addingTimeInterval(Double(hour) * 3600)) }
        #expect(delivery.delivered.map(\.id) == [1, 1, 1])
        #expect(delivery.delivered.last?.notification.displayedSummary == "\(Language.english.waterTitle) ×3")
        #expect(delivery.shown == [1])
        #expect(scheduler.totalPending == 3)
        let records = scheduler.handle(.action(id: 1, key: .default), now: start.addingTimeInterval(3 * 3600 + 5))
        // Answered 2 h 5 s after the pop-up first came up (replaced in place since).
        #expect(records == [.acknowledged(alert: a.id, delay: 7205)])
        #expect(scheduler.totalPending == 0)
        #expect(delivery.withdrawn == [1])
    }

    @Test func snoozeComesBackOnce() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let snoozed = scheduler.handle(.action(id: 1, key: .snooze), now: utc("2026-11-23T09:00:10Z"))
        #expect(snoozed == [.snoozed(alert: a.id, until: utc("2026-11-23T09:10:10Z"), delay: 10)])
        #expect(delivery.shown.isEmpty)
        #expect(scheduler.nextWake == utc("2026-11-23T09:10:10Z"))
        let again = scheduler.run(now: utc("2026-11-23T09:10:10Z"))
        #expect(again.count == 1)
        #expect(delivery.delivered.count == 2)
        #expect(scheduler.nextWake == utc("2026-11-24T09:00:00Z"))
    }

    @Test func doneForTodaySkipsTheRestOfTheLocalDay() throws {
        let a = try alert(ScheduleFlags(every: "30m", from: "09:30", until: "21:30"), zone: "Asia/Seoul")
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T00:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T00:30:00Z")) // 09:30 KST
        let records = scheduler.handle(.action(id: 1, key: .skipToday), now: utc("2026-11-23T00:31:00Z"))
        #expect(records == [.doneForToday(alert: a.id, day: CivilDay(year: 2026, month: 11, day: 23)!, delay: 60)])
        #expect(scheduler.nextWake == utc("2026-11-24T00:30:00Z"), "next is tomorrow 09:30 KST")
        #expect(scheduler.run(now: utc("2026-11-23T12:00:00Z")).isEmpty)
    }

    @Test func daemonOffAcrossThreeDueTimesGivesOneMissedPopUp() throws {
        let a = try alert(ScheduleFlags(every: "1h"))
        let delivery = InMemoryDelivery()
        var state = AlertState(checkedUntil: utc("2026-11-23T08:30:00Z"))
        state.lastFired = utc("2026-11-23T08:00:00Z")
        let scheduler = Scheduler(alerts: [a], states: [a.id: state], zone: utcZone, now: utc("2026-11-23T11:45:00Z"), delivery: delivery)
        #expect(scheduler.nextWake == utc("2026-11-23T09:00:00Z"))
        let records = scheduler.run(now: utc("2026-11-23T11:45:00Z"))
        #expect(records == [.caughtUp(alert: a.id, missed: 3, since: utc("2026-11-23T09:00:00Z"), deliveryID: 1)])
        #expect(delivery.delivered.count == 1)
        #expect(delivery.delivered[0].notification.body == "Missed 3 reminders since 09:00")
        #expect(scheduler.totalPending == 3)
        #expect(scheduler.run(now: utc("2026-11-23T11:46:00Z")).isEmpty, "never a duplicate")
        #expect(scheduler.nextWake == utc("2026-11-23T12:00:00Z"))
    }

    @Test func skipPolicyIsOnlyRecordedOnceIsCoalesced() throws {
        let skip = try alert(ScheduleFlags(every: "1h"), catchUp: .skip)
        let old = try alert(ScheduleFlags(every: "1h"), catchUp: .once(graceSeconds: 3600))
        let delivery = InMemoryDelivery()
        let states = [skip.id: AlertState(checkedUntil: utc("2026-11-23T00:30:00Z")),
                      old.id: AlertState(checkedUntil: utc("2026-11-22T00:30:00Z"))]
        let scheduler = Scheduler(alerts: [skip, old], states: states, zone: utcZone, now: utc("2026-11-23T03:40:00Z"), delivery: delivery)
        let records = Set(scheduler.run(now: utc("2026-11-23T03:40:00Z")))
        #expect(records.contains(.missed(alert: skip.id, count: 3, since: utc("2026-11-23T01:00:00Z"))))
        // The interval is anchored at its creation (00:00), so nothing before that is owed.
        #expect(records.contains(.caughtUp(alert: old.id, missed: 4, since: utc("2026-11-23T00:00:00Z"), deliveryID: 1)),
                "the latest miss (03:00) is within the 1 h grace")
        #expect(delivery.delivered.count == 1)
    }

    @Test func missesOlderThanTheGraceAreOnlyRecorded() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]), catchUp: .once(graceSeconds: 3600))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], states: [a.id: AlertState(checkedUntil: utc("2026-11-23T08:00:00Z"))],
                                  zone: utcZone, now: utc("2026-11-25T08:00:00Z"), delivery: delivery)
        let records = scheduler.run(now: utc("2026-11-25T08:00:00Z"))
        #expect(records == [.missed(alert: a.id, count: 2, since: utc("2026-11-23T09:00:00Z"))])
        #expect(delivery.delivered.isEmpty)
        #expect(scheduler.nextWake == utc("2026-11-25T09:00:00Z"))
    }

    @Test func dismissalAcknowledgesExpiryKeepsTheCount() throws {
        let a = try alert(ScheduleFlags(every: "1h"))
        let b = try alert(ScheduleFlags(every: "1h"))
        let delivery = InMemoryDelivery()
        let start = utc("2026-11-23T00:00:00Z")
        let scheduler = Scheduler(alerts: [a, b], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: start.addingTimeInterval(3600))
        let ids = Dictionary(uniqueKeysWithValues: delivery.delivered.map { ($0.id, $0.id) })
        #expect(ids.count == 2)
        #expect(scheduler.handle(.closed(id: 1, reason: .dismissed), now: start).count == 1)
        #expect(scheduler.handle(.closed(id: 2, reason: .expired), now: start).first.map { if case .expired = $0 { true } else { false } } == true)
        #expect(scheduler.totalPending == 1)
        #expect(scheduler.handle(.action(id: 99, key: .default), now: start).isEmpty, "ids we did not issue are ignored")
    }

    @Test func aMissingServerHoldsTheReminderUntilItIsBack() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        delivery.failure = DeliveryError(.noServer, "no server")
        let failed = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(failed == [.deliveryFailed(alert: a.id, error: DeliveryError(.noServer, "no server"))])
        #expect(scheduler.nextWake == nil, "no busy retry loop")
        delivery.failure = nil
        let records = scheduler.deliveryRestored(now: utc("2026-11-23T09:00:30Z"))
        #expect(records == [.fired(alert: a.id, due: utc("2026-11-23T09:00:00Z"), deliveryID: 1, count: 1)])
        #expect(scheduler.deliveryRestored(now: utc("2026-11-23T09:00:31Z")).isEmpty, "exactly once")
    }

    @Test func offAndRemovedAlertsStopAndWithdraw() throws {
        let a = try alert(ScheduleFlags(every: "1h"))
        let delivery = InMemoryDelivery()
        let start = utc("2026-11-23T00:00:00Z")
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: start.addingTimeInterval(3600))
        scheduler.setEnabled(a.id, false, now: start.addingTimeInterval(3700))
        #expect(scheduler.nextWake == nil)
        #expect(delivery.withdrawn == [1])
        scheduler.setEnabled(a.id, true, now: start.addingTimeInterval(3800))
        #expect(scheduler.nextWake == start.addingTimeInterval(7200))
        scheduler.remove(a.id)
        #expect(scheduler.nextWake == nil)
    }

    @Test func floatingAlertsFollowTheSystemZone() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let scheduler = Scheduler(alerts: [a], zone: TimeZone(identifier: "Europe/Berlin")!, now: utc("2026-11-23T00:00:00Z"),
                                  delivery: InMemoryDelivery())
        #expect(scheduler.nextWake == utc("2026-11-23T08:00:00Z"))
        scheduler.setSystemZone(TimeZone(identifier: "America/New_York")!)
        #expect(scheduler.nextWake == utc("2026-11-23T14:00:00Z"))
    }

    @Test func manyAlertsWakeInOrder() throws {
        var alerts: [Alert] = []
        for i in 0..<2000 {
            alerts.append(try alert(ScheduleFlags(at: [String(format: "%02d:%02d", (i / 60) % 24, i % 60)])))
        }
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: alerts, zone: utcZone, now: utc("2026-11-23T00:00:30Z"), delivery: delivery)
        var last = utc("2026-11-23T00:00:30Z")
        for _ in 0..<50 {
            let wake = try #require(scheduler.nextWake)
            #expect(wake > last)
            #expect(scheduler.run(now: wake).count >= 1)
            last = wake
        }
    }
}
