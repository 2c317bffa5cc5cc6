import Foundation
import MemoryDelivery
import NudgeCore
import Testing
import TestSupport

/// What the daemon relies on the scheduler for beyond firing: late failures, the
/// changed-state set, the running total, reloads, and alerts added while nobody ran.
@Suite(.onTestThreads)
struct SchedulerDaemonTests {
    @Test func aPopUpThatFailsLaterIsShownAgainOnceAServerIsBack() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let error = DeliveryError(.noReply, "no reply")
        #expect(scheduler.handle(.failed(id: 1, error: error), now: utc("2026-11-23T09:00:02Z"))
                == [.deliveryFailed(alert: a.id, error: error)])
        #expect(scheduler.state(a.id)?.shownID == nil)
        #expect(scheduler.state(a.id)?.pendingCount == 1)
        let restored = scheduler.deliveryRestored(now: utc("2026-11-23T09:05:00Z"))
        #expect(restored == [.redelivered(alert: a.id, deliveryID: 2, count: 1)])
        #expect(delivery.delivered.count == 2)
        // Once is enough.
        #expect(scheduler.deliveryRestored(now: utc("2026-11-23T09:06:00Z")).isEmpty)
    }

    /// A daemon started after another: the reminders whose pop-up the earlier one left up
    /// are shown again once, with their count, in that pop-up's place; the rest are not.
    @Test func whatAnEarlierRunLeftWaitingIsShownAgainOnceInItsPlace() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "A")
        let b = try alert(ScheduleFlags(at: ["10:00"]), title: "B")
        var waiting = AlertState(checkedUntil: utc("2026-11-23T09:30:00Z"))
        waiting.pendingCount = 2
        waiting.shownID = 41
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a, b], states: [a.id: waiting, b.id: AlertState(checkedUntil: utc("2026-11-23T09:30:00Z"))],
                                  zone: utcZone, now: utc("2026-11-23T09:40:00Z"), delivery: delivery)
        let records = scheduler.showAgain([a.id, b.id], now: utc("2026-11-23T09:40:00Z"))
        #expect(records == [.redelivered(alert: a.id, deliveryID: 41, count: 2)])
        #expect(delivery.delivered.map(\.notification.replacesID) == [41])
        #expect(delivery.delivered.map(\.notification.displayedSummary) == ["A ×2"])
        // Refused: it waits for a server, and then comes once.
        let c = try alert(ScheduleFlags(at: ["09:00"]), title: "C")
        let refusing = InMemoryDelivery()
        refusing.failure = DeliveryError(.noServer, "nobody")
        let later = Scheduler(alerts: [c], states: [c.id: waiting], zone: utcZone, now: utc("2026-11-23T09:40:00Z"), delivery: refusing)
        #expect(later.showAgain([c.id], now: utc("2026-11-23T09:40:00Z")) == [.deliveryFailed(alert: c.id, error: refusing.failure!)])
        #expect(later.state(c.id)?.shownID == nil)
        refusing.failure = nil
        #expect(later.deliveryRestored(now: utc("2026-11-23T09:41:00Z")) == [.redelivered(alert: c.id, deliveryID: 1, count: 2)])
    }

    /// A restart after showings were missed: one pop-up for the reminder, the catch-up with
    /// the whole count in the old one's place, not the old one shown again and then at once
    /// replaced (on GNOME 43 a replacement is a close and a new pop-up: a double flash).
    @Test func aRestartWithMissedShowingsShowsOnePopUp() throws {
        let a = try alert(ScheduleFlags(every: "15m", from: "08:00", until: "18:00"), title: "A")
        var waiting = AlertState(checkedUntil: utc("2026-11-23T09:00:00Z"))
        waiting.pendingCount = 1
        waiting.shownID = 41
        let delivery = InMemoryDelivery()
        let now = utc("2026-11-23T09:50:00Z")
        let scheduler = Scheduler(alerts: [a], states: [a.id: waiting], zone: utcZone, now: now, delivery: delivery)
        #expect(scheduler.showAgain([a.id], now: now).isEmpty)
        _ = scheduler.run(now: now)
        #expect(delivery.delivered.count == 1)
        #expect(delivery.delivered.map(\.notification.replacesID) == [41])
        #expect(delivery.delivered.map(\.notification.displayedSummary) == ["A ×4"])
    }

    /// What a follower read as changed is brought in as a whole sync would: a changed alert
    /// replaced, one switched off loses its pop-up, one removed goes; the rest keep all.
    @Test func anUpdateOfWhatChangedIsASyncOfIt() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "A")
        let b = try alert(ScheduleFlags(at: ["10:00"]), title: "B")
        let c = try alert(ScheduleFlags(at: ["11:00"]), title: "C")
        let start = utc("2026-11-23T08:00:00Z")
        func made() -> (Scheduler, InMemoryDelivery) {
            let delivery = InMemoryDelivery()
            let scheduler = Scheduler(alerts: [a, b, c], zone: utcZone, now: start, delivery: delivery)
            _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
            return (scheduler, delivery)
        }
        var off = a
        off.enabled = false
        var later = b
        later.schedule = .daily(times: [LocalTime(hour: 12, minute: 0)!], days: Schedule.everyDay)
        let now = utc("2026-11-23T09:30:00Z")
        let (updated, updatedDelivery) = made(), (synced, syncedDelivery) = made()
        updated.update([off, later], removing: [c.id], now: now)
        synced.sync([off, later], now: now)
        for scheduler in [updated, synced] {
            #expect(Set(scheduler.ids) == [a.id, b.id])
            #expect(scheduler.state(a.id)?.pendingCount == 0)
            #expect(scheduler.nextWake == utc("2026-11-23T12:00:00Z"))
        }
        #expect(updatedDelivery.withdrawn == syncedDelivery.withdrawn)
    }

    @Test func aFailureForAnOlderPopUpChangesNothing() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.handle(.failed(id: 7, error: DeliveryError(.noReply, "x")), now: utc("2026-11-23T09:00:02Z")).isEmpty)
        #expect(scheduler.state(a.id)?.shownID == 1)
    }

    @Test func changedStatesAndTheTotalFollowEveryChange() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]), title: "A")
        let b = try alert(ScheduleFlags(at: ["10:00"]), title: "B")
        let scheduler = Scheduler(alerts: [a, b], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: InMemoryDelivery())
        #expect(scheduler.takeChanged().isEmpty)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.takeChanged() == [a.id])
        #expect(scheduler.takeChanged().isEmpty)
        _ = scheduler.run(now: utc("2026-11-23T10:00:00Z"))
        #expect(scheduler.totalPending == 2)
        scheduler.acknowledge(b.id, now: utc("2026-11-23T10:00:00Z"))
        #expect(scheduler.totalPending == 1)
        scheduler.remove(a.id)
        #expect(scheduler.totalPending == 0)
        #expect(scheduler.takeChanged() == [b.id])
        #expect(scheduler.alertCount == 1)
        #expect(scheduler.alert(b.id)?.title == "B")
    }

    @Test func syncAddsReplacesSwitchesOffAndRemoves() throws {
        let keep = try alert(ScheduleFlags(at: ["09:00"]), title: "Keep")
        var change = try alert(ScheduleFlags(at: ["09:00"]), title: "Change")
        var off = try alert(ScheduleFlags(at: ["09:00"]), title: "Off")
        let gone = try alert(ScheduleFlags(at: ["09:00"]), title: "Gone")
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [keep, change, off, gone], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        #expect(scheduler.totalPending == 4)
        change.schedule = try ScheduleParser.schedule(ScheduleFlags(at: ["11:00"]), now: utc("2026-11-23T09:00:00Z"), zone: utcZone)
        off.enabled = false
        let added = try alert(ScheduleFlags(at: ["12:00"]), title: "New", created: utc("2026-11-23T09:30:00Z"))
        scheduler.sync([keep, change, off, added], now: utc("2026-11-23T09:30:00Z"))
        #expect(scheduler.alertCount == 4)
        #expect(scheduler.alert(gone.id) == nil)
        #expect(scheduler.state(keep.id)?.pendingCount == 1)
        #expect(scheduler.state(change.id)?.pendingCount == 1)
        #expect(scheduler.state(off.id)?.pendingCount == 0)
        #expect(scheduler.totalPending == 2)
        // The switched-off and the removed alert's pop-ups were taken away.
        #expect(Set(delivery.withdrawn).count == 2)
        #expect(scheduler.nextWake == utc("2026-11-23T11:00:00Z"))
    }

    @Test func anAlertAddedWhileNobodyRanOwesWhatCameDueSinceItWasCreated() throws {
        // Added at 08:00 for 09:00; the daemon starts at 09:00:30.
        let a = try alert(ScheduleFlags(at: ["09:00"]), created: utc("2026-11-23T08:00:00Z"))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T09:00:30Z"), delivery: InMemoryDelivery())
        #expect(scheduler.run(now: utc("2026-11-23T09:00:30Z"))
                == [.fired(alert: a.id, due: utc("2026-11-23T09:00:00Z"), deliveryID: 1, count: 1)])
    }

    /// Issue 52: one made long before it came to a running scheduler (a restored copy's, a
    /// file renamed over the store, another device's) owes nothing before it arrived; one
    /// made a moment before it was taken in still owes what came due in that moment.
    @Test func anAlertThatComesBackToARunningSchedulerCountsFromWhenItCame() throws {
        let keep = try alert(ScheduleFlags(at: ["06:00"]), title: "Keep", created: utc("2026-11-13T08:00:00Z"))
        let scheduler = Scheduler(alerts: [keep], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: InMemoryDelivery())
        _ = scheduler.run(now: utc("2026-11-23T08:00:00Z"))
        // Made ten days ago, due daily at 09:00: ten showings passed before it came back at 10:00.
        let back = try alert(ScheduleFlags(at: ["09:00"]), title: "Back", created: utc("2026-11-13T08:00:00Z"))
        // Made at 09:59:58 for 09:59:59, taken in at 10:00:00.
        let just = try alert(ScheduleFlags(at: ["09:59:59"]), title: "Just", created: utc("2026-11-23T09:59:58Z"))
        scheduler.update([back, just], removing: [], now: utc("2026-11-23T10:00:00Z"))
        #expect(scheduler.run(now: utc("2026-11-23T10:00:00Z"))
                == [.fired(alert: just.id, due: utc("2026-11-23T09:59:59Z"), deliveryID: 2, count: 1)])
        #expect(scheduler.state(back.id)?.pendingCount == 0)
        #expect(scheduler.nextWake == utc("2026-11-24T06:00:00Z"))
    }

    @Test func manyReschedulesKeepTheQueueSmallAndRight() throws {
        let alerts = try (0..<50).map { try alert(ScheduleFlags(at: [String(format: "%02d:%02d", 10 + $0 / 60, $0 % 60)])) }
        let scheduler = Scheduler(alerts: alerts, zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: InMemoryDelivery())
        // Every reload replaces every alert: the stale wake-ups must not pile up or fire.
        for minute in 0..<40 {
            let now = utc("2026-11-23T08:00:00Z").addingTimeInterval(Double(minute) * 60)
            scheduler.sync(alerts.map { var copy = $0; copy.body = "v\(minute)"; return copy }, now: now)
        }
        #expect(scheduler.nextWake == utc("2026-11-23T10:00:00Z"))
        let records = scheduler.run(now: utc("2026-11-23T10:49:00Z"))
        #expect(records.count == 50)
    }
}

/// One click can come as ActionInvoked then NotificationClosed, or the other way round.
@Suite(.onTestThreads)
struct AnswerOrderTests {
    func fired() throws -> (Scheduler, Alert) {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: InMemoryDelivery())
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        return (scheduler, a)
    }

    let at = utc("2026-11-23T09:00:10Z")

    @Test func snoozeThenClosedStaysSnoozed() throws {
        let (scheduler, a) = try fired()
        #expect(scheduler.handle(.action(id: 1, key: .snooze), now: at) == [.snoozed(alert: a.id, until: utc("2026-11-23T09:10:10Z"), delay: 10)])
        #expect(scheduler.handle(.closed(id: 1, reason: .dismissed), now: at).isEmpty)
        #expect(scheduler.state(a.id)?.snoozedUntil == utc("2026-11-23T09:10:10Z"))
    }

    @Test func closedThenSnoozeEndsSnoozed() throws {
        let (scheduler, a) = try fired()
        #expect(scheduler.handle(.closed(id: 1, reason: .dismissed), now: at) == [.dismissed(alert: a.id, delay: 10)])
        #expect(scheduler.handle(.action(id: 1, key: .snooze), now: at) == [.snoozed(alert: a.id, until: utc("2026-11-23T09:10:10Z"))])
        #expect(scheduler.state(a.id)?.snoozedUntil != nil)
    }

    @Test func doneAndClosedAcknowledgeOnceInEitherOrder() throws {
        let (first, a) = try fired()
        #expect(first.handle(.action(id: 1, key: .done), now: at) == [.acknowledged(alert: a.id, delay: 10)])
        #expect(first.handle(.closed(id: 1, reason: .dismissed), now: at).isEmpty)
        let (second, b) = try fired()
        #expect(second.handle(.closed(id: 1, reason: .dismissed), now: at) == [.dismissed(alert: b.id, delay: 10)])
        #expect(second.handle(.action(id: 1, key: .default), now: at).isEmpty)
        // The next pop-up is answered afresh.
        _ = second.run(now: utc("2026-11-24T09:00:00Z"))
        #expect(second.handle(.action(id: 2, key: .done), now: utc("2026-11-24T09:00:05Z")) == [.acknowledged(alert: b.id, delay: 5)])
    }

    @Test func skipTodayAfterADismissalStillSkips() throws {
        let (scheduler, a) = try fired()
        _ = scheduler.handle(.closed(id: 1, reason: .dismissed), now: at)
        let records = scheduler.handle(.action(id: 1, key: .skipToday), now: at)
        #expect(records.contains(.doneForToday(alert: a.id, day: CivilZone(utcZone).local(at).day)))
    }
}

/// An alarm answered on another device (read from its calendar by a sync).
@Suite(.onTestThreads)
struct AnsweredElsewhereTests {
    @Test func aPopUpOfAnOccurrenceAnsweredElsewhereCloses() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let shown = try #require(scheduler.state(a.id)?.shownID)
        // Answered on the phone at 09:00:40, read here at 09:03.
        let records = scheduler.answeredElsewhere(a.id, at: utc("2026-11-23T09:00:40Z"), now: utc("2026-11-23T09:03:00Z"))
        #expect(records == [.answeredElsewhere(alert: a.id, at: utc("2026-11-23T09:00:40Z"))])
        #expect(delivery.withdrawn == [shown])
        #expect(scheduler.state(a.id)?.pendingCount == 0 && scheduler.state(a.id)?.shownID == nil)
        // Read again at the next sync: nothing more.
        #expect(scheduler.answeredElsewhere(a.id, at: utc("2026-11-23T09:00:40Z"), now: utc("2026-11-23T09:18:00Z")).isEmpty)
    }

    @Test func aShowingAfterTheAnswerElsewhereStays() throws {
        let a = try alert(ScheduleFlags(at: ["09:00", "10:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T10:00:00Z"))
        // The phone's answer was to 09:00's alarm; 10:00's pop-up is a later one.
        #expect(scheduler.answeredElsewhere(a.id, at: utc("2026-11-23T09:05:00Z"), now: utc("2026-11-23T10:01:00Z")).isEmpty)
        #expect(delivery.withdrawn.isEmpty)
        #expect(scheduler.state(a.id)?.shownID != nil)
    }

    @Test func anOccurrenceAnsweredElsewhereBeforeItsTimeHereIsNotShown() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        // This machine's clock is behind: the phone answered 09:00's alarm at what is 09:00:30
        // there, read here at 08:59:50 by this clock. Never later than now here, though.
        _ = scheduler.answeredElsewhere(a.id, at: utc("2026-11-23T09:00:30Z"), now: utc("2026-11-23T08:59:50Z"))
        #expect(scheduler.state(a.id)?.checkedUntil == utc("2026-11-23T08:59:50Z"))
        // Read by a sync once this clock passed it: 09:00 counts as handled.
        _ = scheduler.answeredElsewhere(a.id, at: utc("2026-11-23T09:00:30Z"), now: utc("2026-11-23T09:00:10Z"))
        _ = scheduler.run(now: utc("2026-11-23T09:00:20Z"))
        #expect(delivery.delivered.isEmpty)
    }

    /// Snoozed on the phone until 09:10: the pop-up here goes, and comes back at 09:10 with
    /// its count, once; a snooze here that ends later stays, and one that is over is nothing.
    @Test func aSnoozeElsewhereRingsHereWhenItEnds() throws {
        let a = try alert(ScheduleFlags(at: ["09:00"]))
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: utc("2026-11-23T08:00:00Z"), delivery: delivery)
        _ = scheduler.run(now: utc("2026-11-23T09:00:00Z"))
        let shown = try #require(scheduler.state(a.id)?.shownID)
        #expect(scheduler.snoozedElsewhere(a.id, until: utc("2026-11-23T09:00:30Z"), now: utc("2026-11-23T09:01:00Z")).isEmpty)
        let records = scheduler.snoozedElsewhere(a.id, until: utc("2026-11-23T09:10:00Z"), now: utc("2026-11-23T09:01:00Z"))
        #expect(records.count == 1 && delivery.withdrawn == [shown])
        #expect(scheduler.state(a.id)?.snoozedUntil == utc("2026-11-23T09:10:00Z") && scheduler.state(a.id)?.shownID == nil)
        #expect(scheduler.nextWake == utc("2026-11-23T09:10:00Z"))
        // An earlier snooze read later changes nothing.
        #expect(scheduler.snoozedElsewhere(a.id, until: utc("2026-11-23T09:05:00Z"), now: utc("2026-11-23T09:02:00Z")).isEmpty)
        let fired = scheduler.run(now: utc("2026-11-23T09:10:00Z"))
        #expect(fired.contains { if case .snoozeFired = $0 { true } else { false } })
        #expect(scheduler.state(a.id)?.pendingCount == 1 && scheduler.state(a.id)?.snoozedUntil == nil)
    }
}
