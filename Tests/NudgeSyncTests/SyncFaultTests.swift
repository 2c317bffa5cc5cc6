import Foundation
import Testing
import TestSupport

/// `nudge sync` against a Radicale that fails: through the tests' own proxy (cut, stalled,
/// 503, 412 on every write, a write whose answer never comes), killed mid-sync, and with its
/// sync tokens forgotten. After each, the next sync converges: nothing lost, nothing doubled.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench (make test)"))
struct SyncFaultTests {
    struct World {
        let server: CalDAVServer
        let proxy: FaultProxy
        let session: KeyringSession
        let id: String
    }

    /// An account added through the proxy, Nudge's calendar `Reminders` holding Tea.
    static func world() throws -> World {
        let server = try CalDAVServer(.radicale)
        try server.makeCalendar("Reminders")
        let proxy = try FaultProxy(server)
        let session = try KeyringSession()
        let id = String(try session.nudge("add", "Tea", "--every", "2h").stdout.split(separator: " ")[1].dropLast())
        let added = try session.nudge(["sync", "add", proxy.url, "--user", "ann", "--password-stdin", "--own", "Reminders"], input: server.password)
        #expect(added.status == 0, "\(added.stderr)")
        return World(server: server, proxy: proxy, session: session, id: id)
    }

    /// The objects in `Reminders`, as the phone reads them.
    static func objects(_ world: World) throws -> [String] {
        try world.server.phone("for o in objects('Reminders'): print(o.data.replace('\\r', '').replace('\\n', '|'))")
            .split(separator: "\n").map(String.init)
    }

    static func sync(_ world: World, _ extra: [String: String?] = [:]) throws -> Bench.Outcome {
        try world.session.nudge(["sync", "now"], environment: extra)
    }

    /// After a fault: a sync that works sends what waited, and one more sends nothing.
    static func converges(_ world: World, titles: [String]) throws {
        try world.proxy.set("pass")
        let again = try sync(world)
        #expect(again.status == 0, "\(again.stderr)")
        let quiet = try sync(world)
        #expect(quiet.stdout.contains("0 fetched, 0 changed here, 0 removed here, 0 sent, 0 removed there"), "\(quiet.stdout)")
        let there = try objects(world)
        #expect(there.count == titles.count, "objects on the server: \(there)")
        for title in titles { #expect(there.filter { $0.contains("SUMMARY:\(title)|") }.count == 1, "\(title) once: \(there)") }
        #expect(try world.session.titles() == titles.sorted())
    }

    @Test("an answer cut short, a 503, a stalled server: one line, the error kept, then it converges",
          arguments: ["cut 300", "status 503 120", "stall"])
    func aServerThatFailsIsSaidAndThenCaughtUp(_ fault: String) throws {
        let world = try Self.world()
        #expect(try world.session.nudge("edit", world.id, "--title", "Green tea").status == 0)
        _ = try world.session.nudge("add", "Stretch", "--every", "1h")
        try world.proxy.set(fault)
        let failed = try Self.sync(world, ["NUDGE_SYNC_STALL_SECONDS": "3"])
        #expect(failed.status == 69, "\(fault): \(failed.stdout) \(failed.stderr)")
        let words = fault.hasPrefix("stall") ? "stopped answering" : fault.hasPrefix("cut") ? "transfer failed" : "503"
        #expect(failed.stderr.contains(words), "\(fault): \(failed.stderr)")
        let status = try world.session.nudge("sync", "status").stdout
        #expect(status.contains("last error:") && status.contains("2 waiting to be sent"), "\(status)")
        try Self.converges(world, titles: ["Green tea", "Stretch"])
    }

    @Test func aWriteRefusedAgainAndAgainIsNeverForcedThenGoesThrough() throws {
        let world = try Self.world()
        #expect(try world.session.nudge("edit", world.id, "--title", "Green tea").status == 0)
        try world.proxy.set("refuse-writes")
        let before = world.proxy.log.count
        let refused = try Self.sync(world)
        #expect(refused.stderr.contains("changed on the server at each of 3 tries"), "\(refused.stderr)")
        // Each 412 was followed by a fetch, never by the same write sent blind.
        let log = Array(world.proxy.log.dropFirst(before))
        let puts = log.filter { $0.hasPrefix("PUT") }.count, gets = log.filter { $0.hasPrefix("GET") }.count
        #expect(puts == 3 && gets == 2, "\(log)")
        #expect(try Self.objects(world).first?.contains("SUMMARY:Tea|") == true, "the server's copy is untouched")
        try Self.converges(world, titles: ["Green tea"])
    }

    @Test func killedBetweenTheWriteAndTheStoreNothingIsSentTwice() throws {
        let world = try Self.world()
        #expect(try world.session.nudge("edit", world.id, "--title", "Green tea").status == 0)
        _ = try world.session.nudge("add", "Stretch", "--every", "1h")
        try world.proxy.set("hang-after-write")
        let syncing = try Bench.start(["sync", "now"], environment: world.session.environment([:]))
        #expect(Bench.eventually(20) { world.proxy.wrote }, "\(world.proxy.log)")
        kill(syncing.pid, SIGKILL)
        _ = syncing.finish()
        try Self.converges(world, titles: ["Green tea", "Stretch"])
    }

    /// A write that reached the server but whose answer never came, then a change here:
    /// the server holding exactly what was sent means it took it, so the change is this
    /// side's alone: sent, not a conflict, and not undone (found by a hostile pass).
    @Test func aWriteWhoseAnswerWasLostThenAChangeHereIsSentNotAConflict() throws {
        let world = try Self.world()
        #expect(try Self.sync(world).status == 0)
        #expect(try world.session.nudge("edit", world.id, "--title", "Green tea").status == 0)
        _ = try world.session.nudge("add", "Stretch", "--every", "1h")
        let stretch = try #require(try world.session.list().first { $0["title"] as? String == "Stretch" }?["id"] as? String)
        try world.proxy.set("hang-after-write")
        let lost = try Self.sync(world, ["NUDGE_SYNC_STALL_SECONDS": "3"])
        #expect(world.proxy.wrote, "\(world.proxy.log)")
        #expect(lost.status == 69, "a write whose answer never came is a failed sync: \(lost.stdout) \(lost.stderr)")
        try world.proxy.set("pass")
        #expect(try world.session.nudge("off", world.id).status == 0)
        #expect(try world.session.nudge("edit", stretch, "--title", "Stretch more").status == 0)
        let synced = try Self.sync(world)
        #expect(synced.status == 0 && synced.stdout.contains("0 conflicts") && synced.stdout.contains("2 sent"), "\(synced.stdout) \(synced.stderr)")
        let there = try Self.objects(world)
        #expect(there.contains { $0.contains("SUMMARY:Green tea|") && $0.contains("X-NUDGE-ENABLED:FALSE") }, "\(there)")
        #expect(there.contains { $0.contains("SUMMARY:Stretch more|") }, "\(there)")
        #expect(try world.session.list().first { ($0["id"] as? String)?.hasPrefix(world.id) == true }?["enabled"] as? Bool == false)
        try Self.converges(world, titles: ["Green tea", "Stretch more"])
    }

    @Test func aServerKilledMidSyncAndOneThatForgotItsTokensConverge() throws {
        let world = try Self.world()
        try world.server.phone("""
        cal = calendar('Reminders')
        for i in range(30):
            cal.save_event("BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//p//EN\\r\\nBEGIN:VEVENT\\r\\nUID:p%d@phone\\r\\nDTSTAMP:20261120T100000Z\\r\\nDTSTART:20301202T150000Z\\r\\nSUMMARY:Phone %d\\r\\nBEGIN:VALARM\\r\\nACTION:DISPLAY\\r\\nTRIGGER:-PT5M\\r\\nDESCRIPTION:x\\r\\nEND:VALARM\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n" % (i, i))
        """)
        // Killed as the sync asks it: whatever got through stays, the rest waits.
        let syncing = try Bench.start(["sync", "now"], environment: world.session.environment([:]))
        _ = Bench.eventually(5) { world.proxy.log.contains { $0.hasPrefix("REPORT") } }
        world.server.kill()
        _ = syncing.finish(timeout: 60)
        try world.server.start()
        let titles = ["Tea"] + (0..<30).map { "Phone \($0)" }
        try Self.converges(world, titles: titles)
        // Its sync tokens forgotten: one full listing, compared with what is known.
        let cache = world.server.dir + "/collections/.Radicale.cache"
        try? FileManager.default.removeItem(atPath: cache)
        world.server.kill()
        try world.server.start()
        try Self.converges(world, titles: titles)
    }

    @Test func httpsIsVerifiedAgainstTheSystemsAuthoritiesOrTheOneNamed() throws {
        let server = try CalDAVServer(.radicale, tls: true)
        try server.makeCalendar("Reminders")
        let session = try KeyringSession()
        let add = ["sync", "add", server.url, "--user", "ann", "--password-stdin"]
        // The system's authorities do not know the test CA; another CA named signed nothing of it.
        for extra in [[], ["--ca-file", server.dir + "/other.pem"]] {
            let refused = try session.nudge(add + extra, input: server.password)
            #expect(refused.status == 69 && refused.stderr.contains("certificate is not trusted"), "\(extra): \(refused.stderr)")
            #expect(try session.nudge("sync", "status", "--json").stdout == #"{"accounts":[],"completeTasks":false}"# + "\n")
        }
        // Its own CA named: added, kept with the account, and a later sync trusts it too.
        let added = try session.nudge(add + ["--ca-file", server.dir + "/ca.pem", "--own", "Reminders"], input: server.password)
        #expect(added.status == 0, "\(added.stderr)")
        _ = try session.nudge("add", "Tea", "--every", "2h")
        let synced = try session.nudge("sync", "now")
        #expect(synced.status == 0 && synced.stdout.contains("1 sent"), "\(synced.stdout) \(synced.stderr)")
    }

    /// A session of its own and a system bus where NetworkManager's stand-in says no
    /// network yet; a Xandikos account through the proxy, its calendar Nudge's own; `body`
    /// gets them and starts the daemon with `start`.
    static func withSystemBus(_ extra: [String: String?] = [:],
                              _ body: (FaultProxy, KeyringSession, NetworkManagerStandIn, () throws -> Running) throws -> Void) throws {
        let server = try CalDAVServer(.xandikos)
        let proxy = try FaultProxy(server)
        let session = try KeyringSession(keyring: false)
        let system = try PrivateBus()
        let nm = try NetworkManagerStandIn(address: system.address, profiles: [.init(id: "office", ssid: "ACME-Office")])
        defer {
            nm.stop()
            withExtendedLifetime((server, system)) {}
        }
        let added = try session.nudge("sync", "add", proxy.url, "--own", "calendar")
        #expect(added.status == 0, "\(added.stderr)")
        try body(proxy, session, nm) { try Bench.start(["daemon"], environment: session.environment(["DBUS_SYSTEM_BUS_ADDRESS": system.address].merging(extra) { $1 })) }
    }

    @Test func theDaemonWaitsAsLongAsTheServerAsks() throws {
        try Self.withSystemBus { proxy, _, _, start in
            try proxy.set("status 503 600")
            let before = proxy.log.count
            let daemon = try start()
            defer { _ = daemon.stop() }
            // Its first sync (5 s after it starts) meets the 503: not again for 10 minutes, not 1.
            #expect(Bench.eventually(30) { daemon.stderrSoFar.contains("again in 600 s, as the server asked (Retry-After)") }, "\(daemon.stderrSoFar)")
            #expect(proxy.log.count == before + 1, "one request, then nothing: \(proxy.log)")
        }
    }

    /// A sync process that never answers (here: a server that stalls, given longer than the
    /// daemon waits) is killed, and the next sync starts another.
    @Test func aSyncThatHangsIsKilledAndTheNextStartsAnew() throws {
        try Self.withSystemBus(["NUDGE_SYNC_LONGEST_SECONDS": "3", "NUDGE_SYNC_STALL_SECONDS": "120"]) { proxy, session, _, start in
            try proxy.set("stall")
            let daemon = try start()
            defer { _ = daemon.stop() }
            #expect(Bench.eventually(30) { daemon.stderrSoFar.contains("did not answer in 3 s; killed") }, "\(daemon.stderrSoFar)")
            #expect(Bench.eventually(10) { daemon.stderrSoFar.contains("sync ended with the sync process ending first; again in 60 s") },
                    "\(daemon.stderrSoFar)")
            #expect(SyncLiveTests.syncProcesses(of: daemon.pid).isEmpty)
            // The server back, a change here: a new process syncs it.
            try proxy.set("pass")
            _ = try session.nudge("add", "Tea", "--every", "2h")
            #expect(Bench.eventually(30) { proxy.log.contains { $0.hasPrefix("PUT") } }, "\(proxy.log) \(daemon.stderrSoFar)")
            #expect(SyncLiveTests.syncProcesses(of: daemon.pid).count == 1)
        }
    }

    @Test func aNetworkComingUpSyncsAtOnce() throws {
        try Self.withSystemBus { proxy, _, nm, start in
            try proxy.set("status 503")
            let daemon = try start()
            defer { _ = daemon.stop() }
            #expect(Bench.eventually(30) { daemon.stderrSoFar.contains("again in 60 s") }, "\(daemon.stderrSoFar)")
            try proxy.set("pass")
            // Back on a network: synced a few seconds later, not at the next try a minute on
            // (nothing else here starts one: no change, no resume).
            let before = proxy.log.count
            nm.connect("office")
            #expect(Bench.eventually(30) { daemon.stderrSoFar.contains("a network came up: calendars sync in a few seconds") }, "\(daemon.stderrSoFar)")
            #expect(Bench.eventually(30) { proxy.log.count > before }, "\(proxy.log) \(daemon.stderrSoFar)")
        }
    }
}
