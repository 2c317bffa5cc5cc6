import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// Holding reminders while the person is away, with fixed instants and the in-memory
/// delivery.
struct AwayTests {
    let start = utc("2026-11-23T08:00:00Z")

    func stretch(_ flags: ScheduleFlags, whenAway: Alert.WhenAway? = nil) throws -> Alert {
        try alert(flags, title: "Stretch", whenAway: whenAway, created: start)
    }

    @Test func heldWhileAwayAndOnePopUpOnReturn() throws {
        let a = try stretch(ScheduleFlags(every: "30m", from: "09:00", until: "12:00"))
        let once = try alert(ScheduleFlags(in: "2h"), title: "Dentist", created: start)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a, once], zone: utcZone, now: start, delivery: delivery)
        scheduler.setAway(true)
        var records: [SchedulerRecord] = []
        for minute in stride(from: 0, through: 70, by: 5) {
            records += scheduler.run(now: utc("2026-11-23T09:00:00Z").addingTimeInterval(Double(minute) * 60))
        }
        // The repeating one holds 09:00, 09:30 and 10:00; the one-shot (10:00) shows anyway.
        #expect(records.filter { if case .held = $0 { true } else { false } }.count == 3)
        #expect(delivery.delivered.map(\.notification.summary) == ["Dentist"])
        #expect(scheduler.state(a.id)?.heldCount == 3)
        #expect(scheduler.nextWake.map { $0 > utc("2026-11-23T10:10:00Z") } == true, "no wake-up for the held ones while away")
        // Back: one pop-up, at once, counting the three.
        let back = utc("2026-11-23T10:12:00Z")
        scheduler.setAway(false)
        #expect(scheduler.nextWake.map { $0 <= back } == true)
        let returned = scheduler.run(now: back)
        #expect(returned == [.shownOnReturn(alert: a.id, held: 3, since: utc("2026-11-23T09:00:00Z"), deliveryID: 2)])
        #expect(delivery.delivered.last?.notification.body == "While you were away: 3 reminders")
        #expect(delivery.delivered.last?.notification.displayedSummary == "Stretch ×3")
        #expect(scheduler.state(a.id)?.heldCount == 0)
        #expect(scheduler.nextWake == utc("2026-11-23T10:30:00Z"))
    }

    @Test func showAlwaysShowsAndSkipOnlyLogs() throws {
        let shown = try stretch(ScheduleFlags(at: ["09:00"]), whenAway: .show)
        let skipped = try alert(ScheduleFlags(at: ["09:00"]), title: "Skip", catchUp: .skip, created: start)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [shown, skipped], zone: utcZone, now: start, delivery: delivery)
        scheduler.setAway(true)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(delivery.delivered.map(\.notification.summary) == ["Stretch"])
        scheduler.setAway(false)
        #expect(scheduler.run(now: utc("2026-11-23T09:10:00Z")) == [.missed(alert: skipped.id, count: 1, since: utc("2026-11-23T09:00:00Z"))])
    }

    /// The daemon stopped while away and started after the return: what was held and what
    /// passed while it was stopped are one pop-up, not two.
    @Test func heldAndMissedMeanwhileAreOnePopUp() throws {
        let a = try stretch(ScheduleFlags(every: "30m", from: "09:00", until: "12:00"))
        let first = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: InMemoryDelivery())
        first.setAway(true)
        _ = first.run(now: utc("2026-11-23T09:00:00Z"))
        _ = first.run(now: utc("2026-11-23T09:30:00Z"))
        let saved = try #require(first.state(a.id))
        #expect(saved.heldCount == 2)
        // Stopped at 09:31; started again at 10:40, the person back: 10:00 and 10:30 passed.
        let delivery = InMemoryDelivery()
        let second = Scheduler(alerts: [a], states: [a.id: saved], zone: utcZone, now: utc("2026-11-23T10:40:00Z"), delivery: delivery)
        second.setAway(false)
        let records = second.run(now: utc("2026-11-23T10:40:00Z"))
        #expect(records == [.shownOnReturn(alert: a.id, held: 4, since: utc("2026-11-23T09:00:00Z"), deliveryID: 1)])
        #expect(delivery.delivered.count == 1)
        #expect(second.run(now: utc("2026-11-23T10:40:01Z")).isEmpty)
    }
}

/// Following up an ignored pop-up (`--nag`), with fixed instants.
struct NagTests {
    let start = utc("2026-11-23T08:00:00Z")

    func nagging(_ flags: ScheduleFlags = ScheduleFlags(at: ["09:00", "12:00"]), times: Int = 3) throws -> Alert {
        try alert(flags, title: "Pills", nag: Alert.Nag(seconds: 300, times: times), created: start)
    }

    @Test func anIgnoredPopUpComesBackMoreUrgentlyAndStops() throws {
        let a = try nagging()
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.nextWake == utc("2026-11-23T09:05:00Z"))
        var records: [SchedulerRecord] = []
        for minute in ["05", "10", "15", "20"] { records += scheduler.run(now: utc("2026-11-23T09:\(minute):00Z")) }
        #expect(records == [.nagged(alert: a.id, attempt: 1, deliveryID: 1), .nagged(alert: a.id, attempt: 2, deliveryID: 1),
                            .nagged(alert: a.id, attempt: 3, deliveryID: 1)])
        // The same showing: replaced in place, the count unchanged; the last try critical.
        #expect(delivery.delivered.map(\.notification.count) == [1, 1, 1, 1])
        #expect(delivery.delivered.map(\.notification.urgency) == [.normal, .normal, .normal, .critical])
        #expect(delivery.delivered.dropFirst().allSatisfy { $0.notification.replacesID == 1 })
        #expect(scheduler.nextWake == utc("2026-11-23T12:00:00Z"), "capped")
    }

    @Test func anAnswerStopsItAndTheNextShowingStartsAgain() throws {
        let a = try nagging()
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        _ = scheduler.run(now: utc("2026-11-23T09:05:00Z"))
        _ = scheduler.handle(.action(id: 1, key: .done), now: utc("2026-11-23T09:06:00Z"))
        #expect(scheduler.nextWake == utc("2026-11-23T12:00:00Z"))
        _ = scheduler.run(now: utc("2026-11-23T12:00:00Z"))
        #expect(scheduler.nextWake == utc("2026-11-23T12:05:00Z"))
    }

    @Test func neverWhileAway() throws {
        let a = try nagging()
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        scheduler.setAway(true)
        #expect(scheduler.run(now: utc("2026-11-23T09:05:00Z")).isEmpty)
        #expect(delivery.delivered.count == 1)
        #expect(scheduler.state(a.id)?.nagAt == nil)
    }
}
