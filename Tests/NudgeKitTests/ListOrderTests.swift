import Foundation
import NudgeCore
import NudgeKit
import NudgeStore
import Testing
import TestSupport

/// Which reminders every face lists: `nudge list`, `nudge ui` and the window read
/// ``Operations/order(_:in:_:now:all:)``.
@Suite(.onTestThreads)
struct ListOrderTests {
    let created = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aOneShotThatFiredStaysListedUntilItIsAnswered() throws {
        let store = try AppDatabase.inMemory()
        let waiting = Alert(title: "Tea", schedule: .once(created.addingTimeInterval(600)), created: created)
        let answered = Alert(title: "Call", schedule: .once(created.addingTimeInterval(300)), created: created)
        try store.save([waiting, answered])
        var fired = AlertState(checkedUntil: created.addingTimeInterval(600))
        fired.lastFired = created.addingTimeInterval(600)
        fired.pendingCount = 1
        var done = AlertState(checkedUntil: created.addingTimeInterval(300))
        done.lastFired = created.addingTimeInterval(300)
        _ = try store.save(states: [waiting.id: fired, answered.id: done])
        let now = created.addingTimeInterval(900)

        let (_, order) = try Operations.order([waiting, answered], in: store, .test(now: now), now: now, all: false)
        // The one waiting for Done or Snooze is there to answer; the answered one is over.
        #expect(order == [0])
        #expect(try Operations.order([waiting, answered], in: store, .test(now: now), now: now, all: true).order.count == 2)
    }
}
