import Foundation
import NudgeCore
import NudgeKit
import NudgeStore
import Platform
import Testing
import TestSupport

/// The default reminder time as the operations read words with it, for every face: from
/// the store the operation already has, looked up only when words name a day without a
/// time. At 2026-03-10 14:20 in Seoul, a Tuesday.
@Suite(.onTestThreads)
struct DefaultReminderTimeTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let now = Date(timeIntervalSince1970: 1_773_120_000)
    let tomorrowAtNine = Schedule.once(Date(timeIntervalSince1970: 1_773_187_200))  // 2026-03-11 09:00 in Seoul

    final class Count { var value = 0 }

    /// Words with a time, a duration or flags never look it up; words without one do,
    /// once however often they are read.
    @Test func itIsLookedUpOnlyWhenWordsAskAndOnce() throws {
        let count = Count()
        let lookup = DefaultReminderTime { () throws(OperationError) in
            count.value += 1
            return LocalTime(hour: 9, minute: 0)
        }
        _ = try lookup.schedule(ScheduleFlags(phrase: "tomorrow 9am"), now: now, zone: seoul)
        _ = try lookup.schedule(ScheduleFlags(at: ["09:00"]), now: now, zone: seoul)
        _ = try lookup.read("in 20 minutes", now: now, zone: seoul)
        #expect(count.value == 0)
        #expect(try lookup.schedule(ScheduleFlags(phrase: "tomorrow"), now: now, zone: seoul) == tomorrowAtNine)
        #expect(try lookup.read("tomorrow", now: now, zone: seoul).notes.map(\.description) == ["at 09:00, your default reminder time; say a time to choose another"])
        #expect(count.value == 1)
    }

    /// `make` reads the one kept in the world's store, and without one refuses as before
    /// (a store that is not there is not made by looking).
    @Test func makeReadsTheStoredOne() throws {
        let world = try World.withOwnStore(zone: seoul, now: now)
        let flags = ScheduleFlags(phrase: "tomorrow")
        #expect(throws: OperationError.self) { try Operations.make(title: "Dentist", schedule: flags, settings: AlertSettings(), world, now: now) }
        #expect(!FileManager.default.fileExists(atPath: world.storePath))
        try Preferences.set(.defaultTime, to: try Preferences.value("09:00", for: .defaultTime), world)
        #expect(try Operations.make(title: "Dentist", schedule: flags, settings: AlertSettings(), world, now: now).schedule == tomorrowAtNine)
        // A value given is taken instead.
        let eight = Schedule.once(Date(timeIntervalSince1970: 1_773_183_600))
        #expect(try Operations.make(title: "Dentist", schedule: flags, settings: AlertSettings(), world, now: now,
                                    defaultTime: .known(LocalTime(hour: 8, minute: 0))).schedule == eight)
        // A refusal on a store kept as none.
        try Preferences.set(.defaultTime, to: try Preferences.value("none", for: .defaultTime), world)
        #expect(throws: OperationError.self) { try Operations.make(title: "Dentist", schedule: flags, settings: AlertSettings(), world, now: now) }
    }

    /// `change` reads the one kept in the store it edits in; the faces' forms, through
    /// their feed, the one kept in the store they follow.
    @Test func changeAndTheFormsReadTheStoreTheyHave() throws {
        let world = try World.withOwnStore(zone: seoul, now: now)
        try Preferences.set(.defaultTime, to: 9 * 60, world)
        let store = try world.store.forWriting()
        let alert = try Operations.make(title: "Dentist", schedule: ScheduleFlags(at: ["10:00"]), settings: AlertSettings(), world, now: now)
        try Operations.save(alert, in: store, world)
        let changed = try Operations.change(alert.id.hex, in: store, title: nil, schedule: ScheduleFlags(phrase: "tomorrow"), settings: AlertSettings(), world, now: now)
        #expect(changed.schedule == tomorrowAtNine)

        let feed = AlertFeed(world: world, loop: EventLoop(), bus: nil)
        #expect(try feed.defaultTime.time() == LocalTime(hour: 9, minute: 0))
        var draft = AlertDraft()
        (draft.title, draft.schedule) = ("Dentist", ScheduleFlags(phrase: "내일"))
        #expect(try draft.check(with: feed, now: now).get().schedule == tomorrowAtNine)
    }
}
