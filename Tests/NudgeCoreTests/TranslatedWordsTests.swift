import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// The core writes in whatever words it is given: no process locale, no catalog.
struct TranslatedWordsTests {
    static let catalog = [
        "Done": "완료", "Done for today": "오늘은 그만", "Snooze %d min": "%d분 후 다시 알림",
        "Missed %1$d reminder since %2$s": "%2$s 이후 놓친 알림 %1$d개",
        "Time to drink water 💧": "물 마실 시간이에요 💧", "The WHO recommends 1.5–2 litres of water a day.": "물 1.5–2리터",
        "daily at %s": "매일 %s", "every %s": "%s마다", "%d min": "%d분", "%1$s at %2$s": "%1$s %2$s",
        "Mon": "월", "Fri": "금", "%1$s, %2$s–%3$s": "%1$s, %2$s–%3$s",
    ]
    let korean = Language(tr: { catalog[$0] ?? $0 }, trn: { singular, _, _ in catalog[singular] ?? singular })

    @Test func buttonsCatchUpAndTheDrinkWaterReminderUseTheWordsGiven() throws {
        let created = utc("2026-11-23T00:00:00Z")
        let water = Alert(schedule: try ScheduleParser.schedule(ScheduleFlags(every: "1h"), now: created, zone: utcZone),
                          created: created, language: korean)
        #expect(water.title == "물 마실 시간이에요 💧")
        #expect(water.body == "물 1.5–2리터")
        let own = Alert(title: "Tea", schedule: water.schedule, created: created, language: korean)
        #expect(own.title == "Tea" && own.body == "", "a person's own title is never replaced")

        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [water], zone: utcZone, now: created, delivery: delivery, language: korean)
        _ = scheduler.run(now: utc("2026-11-23T03:00:30Z"))
        let shown = try #require(delivery.delivered.last?.notification)
        #expect(shown.actions.map(\.label) == ["", "완료", "10분 후 다시 알림", "오늘은 그만"])
        #expect(shown.actions.map(\.key.rawValue) == ["default", "done", "snooze", "skip-today"], "keys never change")
        #expect(shown.body == "01:00 이후 놓친 알림 3개")
    }

    @Test func englishIsTheSource() {
        #expect(Language.english.snooze(minutes: 10) == "Snooze 10 min")
        #expect(Language.english.missed(1, since: "09:30") == "Missed 1 reminder since 09:30")
        #expect(Language.english.missed(3, since: "09:30") == "Missed 3 reminders since 09:30")
    }
}
