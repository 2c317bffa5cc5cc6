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
        var peakKept = 0
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
            peakKept = max(peakKept, delivery.kept.count)
        }
        #expect(peak.shown <= alerts.count)
        #expect(peak.unsettled <= 64)
        #expect(peakKept <= alerts.count + 64, "the delivery is told to let every finished pop-up go")
    }

    /// Servers say one answer many ways: GNOME Shell 43 sends a body click once per
    /// replacement and every signal twice, Plasma closes an answered pop-up (3) and closes
    /// it again when told to, a dismissal may be reported twice, and signals come for
    /// pop-ups long gone. Each pop-up is answered once, whatever comes after.
    @Test(arguments: [
        ("GNOME's triple click", [DeliveryEvent.action(id: 1, key: .default), .action(id: 1, key: .default),
                                  .action(id: 1, key: .default), .closed(id: 1, reason: .closedByCall),
                                  .closed(id: 1, reason: .closedByCall)], "acknowledged"),
        ("Plasma's Done and two closes", [.action(id: 1, key: .done), .closed(id: 1, reason: .closedByCall),
                                          .closed(id: 1, reason: .closedByCall)], "acknowledged"),
        ("a snooze said twice", [.action(id: 1, key: .snooze), .action(id: 1, key: .snooze),
                                 .closed(id: 1, reason: .closedByCall)], "snoozed"),
        ("a dismissal said twice", [.closed(id: 1, reason: .dismissed), .closed(id: 1, reason: .dismissed),
                                    .action(id: 1, key: .done)], "dismissed"),
        ("done for today, then a click", [.action(id: 1, key: .skipToday), .action(id: 1, key: .default),
                                          .closed(id: 1, reason: .dismissed)], "doneForToday"),
    ])
    func oneAnswerPerPopUpWhateverTheServerRepeats(name: String, events: [DeliveryEvent], answer: String) throws {
        let start = utc("2026-11-23T08:00:00Z")
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "Stretch", created: start)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.state(a.id)?.shownID == 1)
        var records: [SchedulerRecord] = []
        for (i, event) in events.enumerated() {
            records += scheduler.handle(event, now: utc("2026-11-23T09:00:05Z").addingTimeInterval(Double(i)))
        }
        // Signals for ids nobody knows, and for this pop-up once let go, are nothing.
        for event in [DeliveryEvent.action(id: 99, key: .done), .closed(id: 99, reason: .dismissed),
                      .action(id: 1, key: .snooze), .closed(id: 1, reason: .expired)] {
            records += scheduler.handle(event, now: utc("2026-11-23T09:01:00Z"))
        }
        #expect(records.count == 1, "\(name): \(records)")
        #expect(records.first.map { "\($0)".hasPrefix(answer + "(") } == true, "\(name): \(records)")
        #expect(scheduler.state(a.id)?.shownID == nil)
        #expect(scheduler.trackedPopups.shown == 0)
    }

    /// A pop-up whose server went away unanswered (the delivery reports it closed, reason
    /// undefined) is shown again, once, when a server is back; an answered one is not.
    @Test func aPopUpLostWithItsServerIsShownAgainOnce() throws {
        let start = utc("2026-11-23T08:00:00Z")
        let lost = try alert(ScheduleFlags(at: ["09:00"]), title: "Lost", created: start)
        let answered = try alert(ScheduleFlags(at: ["09:00"]), title: "Answered", created: start)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [lost, answered], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let lostID = try #require(scheduler.state(lost.id)?.shownID)
        let answeredID = try #require(scheduler.state(answered.id)?.shownID)
        let now = utc("2026-11-23T09:00:05Z")
        _ = scheduler.handle(.action(id: answeredID, key: .done), now: now)
        _ = scheduler.handle(.closed(id: answeredID, reason: .undefined), now: now)
        _ = scheduler.handle(.closed(id: lostID, reason: .undefined), now: now)
        let back = scheduler.deliveryRestored(now: utc("2026-11-23T09:00:09Z"))
        #expect(back.count == 1)
        guard case .redelivered(let id, _, let count)? = back.first else {
            Issue.record("\(back)")
            return
        }
        #expect(id == lost.id && count == 1)
        #expect(scheduler.deliveryRestored(now: utc("2026-11-23T09:00:10Z")).isEmpty)
    }

    /// A key Nudge did not offer (a server's own, or a stranger's on the bus) answers
    /// nothing and leaves the pop-up's one answer to the person.
    @Test func aKeyNudgeDidNotOfferUsesUpNothing() throws {
        let start = utc("2026-11-23T08:00:00Z")
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "Stretch", created: start)
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: InMemoryDelivery())
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let shown = try #require(scheduler.state(a.id)?.shownID)
        #expect(scheduler.handle(.action(id: shown, key: ActionKey(rawValue: "foo")), now: utc("2026-11-23T09:00:05Z")).isEmpty)
        #expect(scheduler.handle(.action(id: shown, key: .done), now: utc("2026-11-23T09:00:06Z"))
                == [.acknowledged(alert: a.id, delay: 6)])
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

/// The scheduler's ledger is the one layer that makes one answer of a pop-up's action and
/// close in either order; it lets the delivery forget a pop-up once its answer is complete.
extension SchedulerBookkeepingTests {
    /// An alert at 09:00, fired, its pop-up (id 1) up since 09:00.
    func firedAtNine(_ delivery: InMemoryDelivery) throws -> (Alert, Scheduler) {
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "Race", created: utc("2026-11-23T08:00:00Z"))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        return (a, scheduler)
    }

    @Test func anActionAfterTheCloseIsOneAnswerAndThenThePopUpIsLetGo() throws {
        let at = utc("2026-11-23T09:00:10Z")
        let delivery = InMemoryDelivery()
        let (a, scheduler) = try firedAtNine(delivery)
        #expect(scheduler.handle(.closed(id: 1, reason: .dismissed), now: at) == [.dismissed(alert: a.id, delay: 10)])
        #expect(delivery.released.isEmpty, "an action may still follow the close")
        #expect(scheduler.handle(.action(id: 1, key: .snooze), now: at) == [.snoozed(alert: a.id, until: utc("2026-11-23T09:10:10Z"))])
        #expect(delivery.released == [1])
        #expect(delivery.kept.isEmpty)
        #expect(scheduler.trackedPopups.shown == 0 && scheduler.trackedPopups.unsettled == 0)
        // Done after a dismissal is no second acknowledgment, and lets it go just the same.
        let other = InMemoryDelivery()
        let (_, second) = try firedAtNine(other)
        _ = second.handle(.closed(id: 1, reason: .dismissed), now: at)
        #expect(second.handle(.action(id: 1, key: .done), now: at).isEmpty)
        #expect(other.released == [1])
    }

    @Test func theCloseAfterAnActionEndsItsAnswer() throws {
        let at = utc("2026-11-23T09:00:10Z")
        let delivery = InMemoryDelivery()
        let (a, scheduler) = try firedAtNine(delivery)
        #expect(scheduler.handle(.action(id: 1, key: .done), now: at) == [.acknowledged(alert: a.id, delay: 10)])
        #expect(delivery.withdrawn == [1])
        #expect(delivery.released.isEmpty, "its close is still to come")
        #expect(scheduler.handle(.closed(id: 1, reason: .closedByCall), now: at).isEmpty)
        #expect(delivery.released == [1])
    }

    @Test func closedPopUpsWithoutAnActionAreLetGoOldestFirst() throws {
        let now = utc("2026-11-23T08:00:00Z")
        let alerts = try (0..<65).map { i in try alert(ScheduleFlags(at: ["09:00"]), title: "A\(i)", created: now) }
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: alerts, zone: utcZone, now: now, delivery: delivery)
        let due = utc("2026-11-23T09:00:00Z")
        _ = scheduler.run(now: due)
        for id in UInt32(1)...64 { _ = scheduler.handle(.closed(id: id, reason: .expired), now: due) }
        #expect(delivery.released.isEmpty)
        _ = scheduler.handle(.closed(id: 65, reason: .expired), now: due)
        #expect(delivery.released == [1], "at most 64 wait for an action")
        #expect(scheduler.handle(.action(id: 1, key: .snooze), now: due).isEmpty)
        #expect(scheduler.handle(.action(id: 2, key: .snooze), now: due).count == 1)
    }

    @Test func aPopUpReplacedUnderANewIDOrRemovedWithItsAlertIsLetGo() throws {
        let start = utc("2026-11-23T00:00:00Z")
        let a = try alert(ScheduleFlags(every: "1h"), created: start)
        let delivery = InMemoryDelivery()
        delivery.newIDEachTime = true
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: start, delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T01:00:00Z"))
        _ = scheduler.run(now: utc("2026-11-23T02:00:00Z"))
        #expect(delivery.delivered.map(\.notification.replacesID) == [nil, 1])
        #expect(delivery.released == [1])
        #expect(delivery.kept == [2])
        #expect(scheduler.handle(.action(id: 1, key: .done), now: utc("2026-11-23T02:00:05Z")).isEmpty)
        #expect(scheduler.state(a.id)?.pendingCount == 2)
        scheduler.remove(a.id)
        #expect(delivery.withdrawn == [2])
        #expect(delivery.kept.isEmpty)
    }
}
