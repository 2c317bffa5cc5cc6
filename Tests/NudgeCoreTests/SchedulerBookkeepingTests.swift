import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// The scheduler's per-pop-up memory stays bounded whatever happens to the pop-ups, and a
/// late reply is a reply.
struct SchedulerBookkeepingTests {
    @Test func everyWayAPopUpEndsLeavesNothingBehind() throws {
        let start = utc("2026-11-23T00:00:00Z")
        let alerts = try (0..<4).map { i in
            try alert(ScheduleFlags(every: "1m"), title: "A\(i)", created: start)
        }
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: alerts, zone: utcZone, now: start, delivery: delivery)
        delivery.onEvent = { _ = scheduler.handle($0, now: start) }
        var peak = (shown: 0, unsettled: 0)
        for minute in 1...2000 {
            let now = start.addingTimeInterval(TimeInterval(minute * 60))
            _ = scheduler.run(now: now)
            for (i, alert) in alerts.enumerated() {
                guard let shown = scheduler.state(alert.id)?.shownID else { continue }
                switch (minute + i) % 7 {
                case 0: _ = scheduler.handle(.action(id: shown, key: .done), now: now)
                    _ = scheduler.handle(.closed(id: shown, reason: .dismissed), now: now)
                case 1: _ = scheduler.handle(.closed(id: shown, reason: .dismissed), now: now)
                case 2: _ = scheduler.handle(.closed(id: shown, reason: .expired), now: now)
                case 3: scheduler.acknowledge(alert.id, now: now)
                case 4: _ = scheduler.handle(.failed(id: shown, error: DeliveryError(.noReply, "slow")), now: now)
                case 5: _ = scheduler.handle(.closed(id: shown, reason: .undefined), now: now)
                default: break // left on screen: replaced with a count next time
                }
            }
            _ = scheduler.deliveryRestored(now: now)
            let tracked = scheduler.trackedPopups
            peak = (max(peak.shown, tracked.shown), max(peak.unsettled, tracked.unsettled))
        }
        #expect(peak.shown <= alerts.count)
        #expect(peak.unsettled <= 64)
    }

    /// An alert fired at 09:00 whose Notify got no reply in time.
    func popUpWithoutReply() throws -> (Alert, InMemoryDelivery, Scheduler) {
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "Slow", created: utc("2026-11-23T08:00:00Z"))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        _ = scheduler.handle(.failed(id: 1, error: DeliveryError(.noReply, "no reply")), now: utc("2026-11-23T09:00:02Z"))
        return (a, delivery, scheduler)
    }

    @Test func aLateReplyIsAReplyAndItsAnswerCounts() throws {
        let (a, delivery, scheduler) = try popUpWithoutReply()
        #expect(scheduler.handle(.appeared(id: 1), now: utc("2026-11-23T09:00:06Z")) == [.shownLate(alert: a.id, deliveryID: 1)])
        #expect(scheduler.state(a.id)?.shownID == 1)
        #expect(scheduler.handle(.action(id: 1, key: .done), now: utc("2026-11-23T09:00:08Z")) == [.acknowledged(alert: a.id, delay: 8)])
        #expect(scheduler.state(a.id)?.pendingCount == 0)
        // A later server restart has nothing to show again.
        #expect(scheduler.deliveryRestored(now: utc("2026-11-23T09:01:00Z")).isEmpty)
        #expect(delivery.delivered.count == 1)
    }

    @Test func aLateCopyOfAPopUpShownAgainIsWithdrawn() throws {
        let (a, delivery, scheduler) = try popUpWithoutReply()
        #expect(scheduler.deliveryRestored(now: utc("2026-11-23T09:00:03Z")) == [.redelivered(alert: a.id, deliveryID: 2, count: 1)])
        #expect(scheduler.handle(.appeared(id: 1), now: utc("2026-11-23T09:00:06Z")).isEmpty)
        #expect(delivery.withdrawn == [1])
        #expect(scheduler.state(a.id)?.shownID == 2)
    }

    @Test func runFiresAtMostTheLimit() throws {
        let now = utc("2026-11-23T08:00:00Z")
        let alerts = try (0..<5).map { i in
            try alert(ScheduleFlags(at: ["09:00"]), title: "A\(i)", created: now)
        }
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: alerts, zone: utcZone, now: now, delivery: delivery)
        let due = utc("2026-11-23T09:00:00Z")
        var batches = 0
        while scheduler.isDue(due) {
            #expect(scheduler.run(now: due, limit: 1).count == 1)
            batches += 1
        }
        #expect(batches == 5)
        #expect(delivery.delivered.count == 5)
    }
}

extension SchedulerBookkeepingTests {
    @Test func aCloseForARemovedAlertsPopUpLeavesNothing() throws {
        let (a, _, scheduler) = try popUpWithoutReply()
        _ = scheduler.handle(.appeared(id: 1), now: utc("2026-11-23T09:00:06Z"))
        // Acknowledged (the pop-up is withdrawn, its close still to come), then removed.
        scheduler.acknowledge(a.id, now: utc("2026-11-23T09:00:07Z"))
        scheduler.remove(a.id)
        _ = scheduler.handle(.closed(id: 1, reason: .closedByCall), now: utc("2026-11-23T09:00:07Z"))
        #expect(scheduler.trackedPopups.shown == 0)
        #expect(scheduler.trackedPopups.unsettled == 0)
    }
}
