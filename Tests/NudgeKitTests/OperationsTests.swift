import Foundation
import NudgeKit
import NudgeStore
import Testing
import TestSupport

/// The operations every face calls, in-process: a store of the test's own, a fixed clock
/// (Tue 2026-03-10 14:20 in Seoul), a fixed zone and no daemon.
@Suite(.onTestThreads)
struct OperationsTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-03-10 14:20 in Seoul (05:20 UTC).
    let now = Date(timeIntervalSince1970: 1_773_120_000)
    let world: World

    init() throws {
        world = try .withOwnStore(zone: seoul, now: now)
    }

    private func stored() throws -> [Alert] { try AppDatabase.open(path: world.storePath).alerts() }

    private func add(_ title: String, at time: String) throws -> Alert {
        let alert = try Operations.make(title: title, schedule: ScheduleFlags(at: [time]), settings: AlertSettings(), world, now: now)
        try Operations.save(alert, world)
        return alert
    }

    @Test func aSavedAlertIsStoredAsMadeAndItsNextShowingComesFromTheWorldsClockAndZone() throws {
        let alert = try add("Tea", at: "15:00")
        #expect(try stored() == [alert])
        let store = try world.store.forReading()
        let (showings, order) = try Operations.order([alert], in: store, world, now: now, all: false)
        #expect(order == [0])
        // 15:00 in Seoul today, 06:00 UTC.
        #expect(showings[0].instant == now.addingTimeInterval(40 * 60))
    }

    @Test func anEditChangesOnlyWhatItWasGiven() throws {
        let alert = try add("Tea", at: "15:00")
        let store = try world.store.forWriting()
        let changed = try Operations.change(alert.id.shortHex, in: store, title: "Green tea", schedule: ScheduleFlags(), settings: AlertSettings(),
                                            world, now: now)
        #expect(changed.title == "Green tea" && changed.schedule == alert.schedule && changed.id == alert.id)
        try Operations.save(changed, in: store, world)
        #expect(try stored().map(\.title) == ["Green tea"])
    }

    @Test func removeResolvesEveryIDFirstSoOneBadIDRemovesNothing() throws {
        let tea = try add("Tea", at: "15:00"), walk = try add("Walk", at: "18:00")
        #expect(throws: OperationError.self) { try Operations.remove([tea.id.hex, "ffffffff"], world) }
        #expect(Set(try stored().map(\.id)) == [tea.id, walk.id])
        let removed = try Operations.remove([tea.id.shortHex], world)
        #expect(removed.map(\.id) == [tea.id] && removed.map(\.title) == ["Tea"])
        #expect(try stored().map(\.id) == [walk.id])
    }

    @Test func updateByIDSavesTheChangeAndSaysItPerAlert() throws {
        let tea = try add("Tea", at: "15:00")
        var said: [String] = []
        try AlertIDs.update([tea.id.hex], world, announce: { said.append($0) }) { alert in
            alert.enabled = false
            return "off"
        }
        #expect(try stored().map(\.enabled) == [false])
        #expect(said == ["\(tea.shortID) off: Tea"])
    }

    @Test func answersWithoutADaemonChangeTheStoredStateByTheWorldsClock() throws {
        let tea = try add("Tea", at: "15:00")
        var said: [String] = []
        try Answer.snooze(seconds: 600).apply(to: [tea.id.hex], world, now: now, announce: { said.append($0) })
        let state = try AppDatabase.open(path: world.storePath).state(of: tea.id)
        #expect(state?.snoozedUntil == now.addingTimeInterval(600))
        // 14:30 in Seoul.
        #expect(said == ["snoozed \(tea.shortID) until 2026-03-10T14:30:00+09:00: Tea"])
        try Answer.doneForToday.apply(to: [tea.id.hex], world, now: now, announce: { said.append($0) })
        #expect(said.last == "done for today \(tea.shortID): Tea")
        // Switched off, it cannot be snoozed.
        try AlertIDs.update([tea.id.hex], world, announce: { _ in }) { alert in
            alert.enabled = false
            return "off"
        }
        #expect(throws: OperationError.self) { try Answer.snooze(seconds: 600).apply(to: [tea.id.hex], world, now: now) }
    }

    @Test func aDrinkIsLoggedAtTheWorldsTimeAndTakenBack() throws {
        let drunk = try Drinking.drink("300ml", at: nil, world, now: now)
        #expect(drunk.millilitres == 300 && drunk.at == now)
        #expect(drunk.total == "300 of 2,000 ml today")
        let earlier = try Drinking.drink(nil, at: "09:15", world, now: now)
        // The cup (250 ml) at 09:15 in Seoul, today.
        #expect(earlier.millilitres == 250 && earlier.at == now.addingTimeInterval(-(5 * 3600 + 5 * 60)))
        #expect(earlier.total == "550 of 2,000 ml today")
        #expect(throws: OperationError.self) { try Drinking.drink(nil, at: "15:00", world, now: now) }
        let taken = try Drinking.undo(world, now: now)
        #expect(taken.millilitres == 250 && taken.total == "300 of 2,000 ml today")
        _ = try Drinking.undo(world, now: now)
        #expect(throws: OperationError.self) { try Drinking.undo(world, now: now) }
    }

    /// No operation opens a store itself: each acts on the one its world holds, here one in
    /// memory, so nothing is ever made at the world's path.
    @Test func theOperationsActOnTheStoreTheirWorldHolds() throws {
        let path = "/nonexistent/nudge.sqlite"
        let store = try AppDatabase.inMemory()
        let world = World(storePath: path, zone: seoul, language: .english, busAddress: nil, clock: { [now] in now },
                          store: HeldStore(store, path: path))
        let tea = try Operations.make(title: "Tea", schedule: ScheduleFlags(at: ["15:00"]), settings: AlertSettings(), world, now: now)
        try Operations.save(tea, world)
        try AlertIDs.update([tea.id.hex], world, announce: { _ in }) { alert in
            alert.title = "Green tea"
            return "changed"
        }
        try Answer.snooze(seconds: 600).apply(to: [tea.id.hex], world, now: now, announce: { _ in })
        _ = try Drinking.drink("300ml", at: nil, world, now: now)
        try Preferences.set(.cup, to: 300, world)
        #expect(try store.alerts().map(\.title) == ["Green tea"])
        #expect(try store.state(of: tea.id)?.snoozedUntil == now.addingTimeInterval(600))
        #expect(try Preferences.values(world)[.cup] == 300)
        #expect(try Operations.remove([tea.id.shortHex], world).map(\.id) == [tea.id])
        #expect(try store.alerts().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
    }
}

/// The live model a face follows, on a loop of its own, in a store of the test's own.
@Suite(.onTestThreads)
struct AlertFeedTests {
    /// 2026-03-10 14:20 in Seoul.
    let now = Date(timeIntervalSince1970: 1_773_120_000)

    /// Turns the loop until `done` holds, at most `turns` times of at most 100 ms each.
    private func turn(_ loop: EventLoop, turns: Int = 50, until done: () -> Bool) throws -> Bool {
        for _ in 0..<turns where !done() { try loop.turn(maxWait: 100) }
        return done()
    }

    @Test func aTitleOfSpacesIsRefusedByTheOperationsThemselves() throws {
        let world = try World.withOwnStore(zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        #expect(throws: OperationError.self) {
            try Operations.make(title: " \u{3000} ", schedule: ScheduleFlags(at: ["09:00"]), settings: AlertSettings(), world, now: now)
        }
    }

    @Test func theDataFolderRemovedAndMadeAnewIsFollowed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-feed-\(UUID())").path
        let world = World.test(store: base + "/data/nudge/nudge.sqlite", zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        try FileManager.default.createDirectory(atPath: base + "/data/nudge", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        // A store that was there (one never made is no removal: a new user's).
        _ = try AppDatabase.open(path: world.storePath)
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: nil)
        feed.start()
        #expect(!feed.snapshot.removed)
        try FileManager.default.removeItem(atPath: base + "/data")
        #expect(try turn(loop) { feed.snapshot.removed })
        // Made anew by an add elsewhere, the folders too.
        try FileManager.default.createDirectory(atPath: base + "/data/nudge", withIntermediateDirectories: true)
        let alert = try Operations.make(title: "Tea", schedule: ScheduleFlags(at: ["15:00"]), settings: AlertSettings(), world, now: now)
        try AppDatabase.open(path: world.storePath).save(alert)
        #expect(try turn(loop) { feed.snapshot.alerts.map(\.id) == [alert.id] })
    }

    /// A snapshot says when it was read, whole read or not: the faces write a next showing's
    /// year only when it is not that year's (a whole read once left it at 1970, and every
    /// next showing said its year).
    @Test func aSnapshotSaysWhenItWasRead() throws {
        let world = try World.withOwnStore(zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: nil)
        let alert = try Operations.make(title: "Tea", schedule: ScheduleFlags(at: ["15:00"]), settings: AlertSettings(), world, now: now)
        try Operations.save(alert, in: try feed.store(), world)
        feed.start()
        #expect(feed.snapshot.now == now && feed.snapshot.alerts.count == 1)
        feed.reload()
        #expect(feed.snapshot.now == now)
    }

    /// A new user's store, never made, is not one removed: the faces invite the first reminder.
    @Test func aStoreNeverMadeIsNotARemovedOne() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-feed-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let world = World.test(store: base + "/data/nudge/nudge.sqlite", zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        let feed = AlertFeed(world: world, loop: EventLoop(), bus: nil)
        feed.start()
        #expect(!feed.snapshot.removed && feed.snapshot.trouble == nil && feed.snapshot.alerts.isEmpty)
    }

    @Test func theStoreAFaceUsedIsLetGoOnTheNextTurn() throws {
        let world = try World.withOwnStore(zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: nil)
        let alert = try Operations.make(title: "Tea", schedule: ScheduleFlags(at: ["15:00"]), settings: AlertSettings(), world, now: now)
        try Operations.save(alert, in: try feed.store(), world)
        #expect(FileManager.default.fileExists(atPath: world.storePath + "-wal"))
        try loop.turn(maxWait: 0)
        #expect(!FileManager.default.fileExists(atPath: world.storePath + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: world.storePath + "-shm"))
    }

    /// A face's operations go through its feed's session (the feed's world holds it): the
    /// same connection the feed reads with, let go on the next turn as the feed's own use is.
    @Test func aFacesOperationsGoThroughItsFeedsSession() throws {
        let world = try World.withOwnStore(zone: TimeZone(identifier: "Asia/Seoul")!, now: now)
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: nil)
        #expect(try feed.world.store.forWriting() === feed.store())
        try loop.turn(maxWait: 0)
        let alert = try Operations.make(title: "Tea", schedule: ScheduleFlags(at: ["15:00"]), settings: AlertSettings(), feed.world, now: now)
        try feed.perform { () throws(OperationError) in try Operations.save(alert, feed.world) }
        #expect(FileManager.default.fileExists(atPath: world.storePath + "-wal"))
        #expect(try turn(loop) { feed.snapshot.alerts.map(\.id) == [alert.id] })
        #expect(!FileManager.default.fileExists(atPath: world.storePath + "-wal"))
    }
}
