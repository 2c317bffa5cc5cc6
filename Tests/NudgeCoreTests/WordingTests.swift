import Foundation
import NudgeCore
import Testing

/// The core writes in whatever words it is given: no process locale, no catalog.
struct WordingTests {
    let utcZone = TimeZone(identifier: "UTC")!
    let korean = Wording(done: "완료", doneForToday: "오늘은 그만", snooze: { "\($0)분 후 다시 알림" },
                         missed: { "\($1) 이후 놓친 알림 \($0)개" }, waterTitle: "물 마실 시간이에요 💧",
                         waterBody: "세계보건기구(WHO)는 하루에 물 1.5–2리터를 권해요.")

    @Test func buttonsCatchUpAndTheDrinkWaterReminderUseTheWordsGiven() throws {
        let created = utc("2026-11-23T00:00:00Z")
        let water = Alert(schedule: try ScheduleParser.schedule(ScheduleFlags(every: "1h"), now: created, zone: utcZone),
                          created: created, wording: korean)
        #expect(water.title == "물 마실 시간이에요 💧")
        #expect(water.body == korean.waterBody)
        let own = Alert(title: "Tea", schedule: water.schedule, created: created, wording: korean)
        #expect(own.title == "Tea" && own.body == "", "a person's own title is never replaced")

        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [water], zone: utcZone, now: created, delivery: delivery, wording: korean)
        _ = scheduler.run(now: utc("2026-11-23T03:00:30Z"))
        let shown = try #require(delivery.delivered.last?.notification)
        #expect(shown.actions.map(\.label) == ["", "완료", "10분 후 다시 알림", "오늘은 그만"])
        #expect(shown.actions.map(\.key) == ["default", "done", "snooze", "skip-today"], "keys never change")
        #expect(shown.body == "01:00 이후 놓친 알림 3개")
    }
}
