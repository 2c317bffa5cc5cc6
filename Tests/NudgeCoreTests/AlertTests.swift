import Foundation
import NudgeCore
import Testing

struct AlertTests {
    let created = Date(timeIntervalSince1970: 1_795_348_800)

    @Test func noTitleMeansTheDrinkWaterReminder() {
        let alert = Alert(schedule: .daily(times: [LocalTime(hour: 9, minute: 0)!], days: Schedule.everyDay), created: created)
        #expect(alert.title == "Time to drink water 💧")
        #expect(alert.body == "The WHO recommends 1.5–2 litres of water a day.")
        #expect(alert.catchUp == .once(graceSeconds: 43_200))
        #expect(alert.snoozeSeconds == 600)
        #expect(alert.sound == .named("alarm-clock-elapsed"))
        #expect(alert.enabled)
        let titled = Alert(title: "Stand up", schedule: .once(created), created: created)
        #expect(titled.title == "Stand up" && titled.body.isEmpty)
    }

    @Test func zonesFloatUnlessPinned() {
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        var alert = Alert(schedule: .once(created), created: created)
        #expect(alert.zone(system: seoul) == seoul)
        alert.timeZone = "Europe/Berlin"
        #expect(alert.zone(system: seoul).identifier == "Europe/Berlin")
    }

    @Test func shortIDsAreEightHexDigits() {
        let alert = Alert(id: UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!, schedule: .once(created), created: created)
        #expect(alert.shortID == "3f2504e0")
    }

    @Test func itsPopUpCarriesTheCount() {
        let alert = Alert(schedule: .once(created), urgency: .critical, created: created)
        let n = alert.notification(count: 3)
        #expect(n.displayedSummary == "Time to drink water 💧 ×3")
        #expect(n.urgency == .critical)
        #expect(n.category == "x-nudge.reminder")
        #expect(n.count == 3)
    }
}

/// Ids sort by their bytes in the order their strings sort: the scheduler goes through
/// reminders in that order without making a string per comparison.
@Test func idsSortByTheirBytesAsByTheirStrings() {
    var generator = SystemRandomNumberGenerator()
    var ids = (0..<500).map { _ in UUID() }
    // Ids alike in their first half, and in all but one byte, too.
    let base = UUID()
    for byte in [0, 7, 8, 15] {
        var raw = base.uuid
        withUnsafeMutableBytes(of: &raw) { $0[byte] = UInt8.random(in: 0...255, using: &generator) }
        ids.append(UUID(uuid: raw))
    }
    #expect(ids.sorted { $0.precedes($1) } == ids.sorted { $0.uuidString < $1.uuidString })
    #expect(!base.precedes(base))
}
