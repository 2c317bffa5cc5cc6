import Foundation
import Glibc
import NudgeCore
import NudgeKit
import NudgeStore
import Platform
import TestSupport
import Testing

/// A face's answers (Done, Snooze) to the reminders it shows, with the daemon running on the
/// feed's channel: sent at once, the store not opened (each key in `nudge ui` opened it
/// again, most of the key's time), and the daemon's refusal of one removed meanwhile said
/// in words.
@Suite(.onTestThreads) struct FaceAnswerTests {
    @Test(.enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
    func aFaceAnswersThroughTheDaemonAndHearsOfOneDeletedMeanwhile() throws {
        let desktop = try Desktop()
        let id = try desktop.add("Stretch", "--at", "09:00")
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let world = World(storePath: desktop.directory + "/data/nudge/nudge.sqlite", zone: TimeZone(identifier: desktop.zone)!,
                          language: .english, busAddress: desktop.address, clock: { Date() })
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: world.connectToBus())
        feed.start()
        #expect(try turn(loop) { feed.channel?.isRunning == true && feed.snapshot.alerts.count == 1 })
        let shown = try #require(feed.snapshot.alerts.first)
        #expect(shown.id.hex == id)
        var said: [String] = [], failures: [String] = []
        try Answer.acknowledge.apply(toShown: [shown], feed.world, now: Date(), announce: { said.append($0) },
                                     failed: { failures.append($0.message) })
        // One the daemon does not hold, as one deleted elsewhere after the face read it.
        let gone = Alert(title: "Tea", schedule: shown.schedule, sound: nil, created: shown.created)
        try Answer.doneForToday.apply(toShown: [gone], feed.world, now: Date(), announce: { said.append($0) },
                                      failed: { failures.append($0.message) })
        #expect(try turn(loop) { said.count + failures.count == 2 })
        #expect(said == ["acknowledged \(shown.shortID): Stretch"])
        #expect(failures == ["“Tea” was deleted meanwhile"])
        // A snooze of one the daemon holds as off: refused by it (the face's copy may be a
        // turn behind), said as the command line says it.
        #expect(try Bench.nudge(["off", id], environment: desktop.environment()).status == 0)
        try Answer.snooze(seconds: 600).apply(toShown: [shown], feed.world, now: Date(), announce: { said.append($0) },
                                              failed: { failures.append($0.message) })
        #expect(try turn(loop) { failures.count == 2 })
        #expect(failures.last == "alert \(shown.shortID) is off: switch it on first (nudge on \(shown.shortID))")
        // A store found damaged: refused here, as every write to it is, not sent to a daemon
        // that would take it and save nothing.
        StoreFile(path: feed.world.storePath).markDamaged("test: damaged")
        #expect(throws: OperationError.self) {
            try Answer.acknowledge.apply(toShown: [shown], feed.world, now: Date(), announce: { said.append($0) }, failed: { _ in })
        }
        #expect(said.count == 1)
    }

    /// A daemon killed while stopped, a Done pending on it: the answer is applied to the
    /// store, as without a daemon, not lost behind a bus error.
    @Test(.enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
    func anAnswerToADaemonKilledWhileStoppedIsAppliedToTheStore() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { kill(daemon.pid, SIGCONT); _ = daemon.stop() }
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(10) { (try? desktop.events(id)) == ["fired"] })
        let world = World(storePath: desktop.directory + "/data/nudge/nudge.sqlite", zone: TimeZone(identifier: desktop.zone)!,
                          language: .english, busAddress: desktop.address, clock: { Date() })
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: world.connectToBus())
        feed.start()
        #expect(try turn(loop) { feed.channel?.isRunning == true && feed.snapshot.alerts.count == 1 })
        let shown = try #require(feed.snapshot.alerts.first)
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        var said: [String] = [], failures: [String] = []
        try Answer.acknowledge.apply(toShown: [shown], feed.world, now: Date(), announce: { said.append($0) }, failed: { failures.append($0.message) })
        #expect(kill(daemon.pid, SIGKILL) == 0)
        #expect(try turn(loop) { !said.isEmpty || failures.contains { !$0.contains("has not answered") } })
        #expect(said == ["acknowledged \(shown.shortID): Stretch"], "\(failures)")
        #expect(try desktop.list().first?["pending"] as? Int == 0)
    }

    private func turn(_ loop: EventLoop, turns: Int = 100, until done: () -> Bool) throws -> Bool {
        for _ in 0..<turns where !done() { try loop.turn(maxWait: 100) }
        return done()
    }
}
