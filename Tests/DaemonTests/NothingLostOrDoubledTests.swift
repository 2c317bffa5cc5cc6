import DBus
import Foundation
import NudgeCore
import NudgeStore
import Testing
import TestSupport

/// Issue 10's defects, each live against the built daemon and a real dunst.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct NothingLostOrDoubledTests {
    @Test func anAnswerAfterASlowServerCountsAndIsNotShownAgain() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        desktop.freezeServer(true)
        let due = desktop.clock(in: 1)
        let id = try desktop.add("Slow", "--at", due.text)
        // The Notify gets no reply within its 2 s.
        #expect(Bench.eventually(6) { (try? desktop.events(id)) == ["fired", "failed"] })
        desktop.freezeServer(false)
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "failed", "shown-late"] })
        #expect(try desktop.displayed() == 1)
        try desktop.chooseFromMenu(",done]")
        #expect(Bench.eventually(3) { (try? desktop.events(id).last) == "acknowledged" })
        #expect(try desktop.daemon("Status").first?.vardict?["pending"]?.uint32 == 0)
        // A later server restart has nothing to show again.
        let monitor = try desktop.monitor()
        desktop.killServer()
        try desktop.startServer()
        // The daemon saw the server come back before this call reaches it: what it would
        // show again is on the bus by the time it answers.
        _ = try desktop.daemon("Status")
        #expect(MonitoredNotify.parse(monitor.stop()).isEmpty)
        #expect(!(try desktop.events(id)).contains("redelivered"))
    }

    @Test func aCrashMidBatchRepeatsAtMostOnePopUp() throws {
        let desktop = try Desktop()
        let count = 600
        let store = try AppDatabase.open(path: desktop.directory + "/data/nudge/nudge.sqlite")
        let created = Date().addingTimeInterval(-600)
        let due = Date().addingTimeInterval(-5)
        try store.save((0..<count).map { Alert(title: "Owed \($0)", schedule: .once(due), created: created) })
        let monitor = try desktop.monitor()
        // A session's runtime folder, where the daemon notes its notification server.
        let runtime = desktop.directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let first = try desktop.startDaemon(waitForName: false, environment: ["XDG_RUNTIME_DIR": runtime])
        // Killed while it works through the batch.
        _ = Bench.eventually(20) { monitor.soFar.components(separatedBy: "member=Notify").count > 60 }
        kill(first.pid, SIGKILL)
        _ = first.finish(timeout: 3)
        let beforeRestart = MonitoredNotify.parse(monitor.soFar).count
        let second = try desktop.startDaemon(environment: ["XDG_RUNTIME_DIR": runtime])
        defer { _ = second.stop() }
        _ = Bench.eventually(30) { Set(MonitoredNotify.parse(monitor.soFar).map(\.summary)).count >= count }
        // What the first left up, the second shows again in its place (a replacement: its
        // buttons answered the connection that died): new pop-ups are each reminder once.
        _ = try desktop.daemon("Status")
        let calls = MonitoredNotify.parse(monitor.stop())
        let summaries = calls.filter { $0.replacesID == 0 }.map(\.summary)
        #expect(Set(summaries).count == count, "every owed reminder shown")
        #expect(summaries.count - Set(summaries).count <= 1, "killed after \(beforeRestart) of \(count): \(summaries.count - Set(summaries).count) shown twice")
        #expect(beforeRestart < count, "the kill came mid-batch")
    }

    @Test func theLogNamesThePopUpAsTheServerDoes() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        _ = try desktop.dueSoon(lead: 1) { try desktop.add("Warm-up", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.dunstctl("close-all")
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Named", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.dunstctl("close")
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["fired", "dismissed"] })
        let history = try Bench.run("dunstctl", ["history"], environment: desktop.environment()).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any])
        let entries = try #require((json["data"] as? [[Any]])?.first as? [[String: Any]])
        let named = try #require(entries.first { (($0["summary"] as? [String: Any])?["data"] as? String) == "Named" })
        let serverID = try #require((named["id"] as? [String: Any])?["data"] as? Int)
        let fired = try #require(try desktop.log().first { ($0["id"] as? String)?.replacingOccurrences(of: "-", with: "") == id && $0["event"] as? String == "fired" })
        #expect(fired["notificationId"] as? Int == serverID)
        #expect(serverID > 1)
    }

    @Test func snoozeLimitsAreTheSameWithADaemon() throws {
        let desktop = try Desktop(server: false)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let id = try desktop.add("Tea", "--at", "23:59:59")
        for duration in ["50000d", "8d", "999999h"] {
            let outcome = try desktop.nudge("snooze", String(id.prefix(8)), duration)
            #expect(outcome.status == 64, "\(duration): \(outcome.stderr)")
            #expect(outcome.stderr.contains("it must be between 1s and 7d"))
        }
        #expect(daemon.isRunning)
        #expect(try desktop.nudge("snooze", String(id.prefix(8)), "7d").status == 0)
    }

    @Test func aHugeIDIsQuotedShortInTheErrorReply() throws {
        let desktop = try Desktop(server: false)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        do {
            _ = try desktop.daemon("Ack", [.string(String(repeating: "x", count: 1_000_000))])
            Issue.record("accepted")
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.count < 120)
            #expect(error.message.contains("(1000000 characters)"))
        }
    }
}

extension NothingLostOrDoubledTests {
    private func openFilesDeleted(_ pid: Int32) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            .filter { $0.contains("nudge.sqlite") && $0.hasSuffix("(deleted)") }
    }

    @Test func aStoreRemovedAndMadeAnewIsFollowed() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        _ = try desktop.add("Old", "--at", "23:59:59")
        let folder = desktop.directory + "/data/nudge"
        for name in ["nudge.sqlite", "nudge.sqlite-wal", "nudge.sqlite-shm"] { unlink(folder + "/" + name) }
        #expect(Bench.eventually(3) { (try? desktop.daemon("Status").first?.vardict?["alerts"]?.uint32) == 0 })
        let id = try desktop.dueSoon(lead: 3) { try desktop.add("New", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(8) { (try? desktop.events(id)) == ["fired"] }, "\(daemon.stderrSoFar)")
        #expect(openFilesDeleted(daemon.pid).isEmpty)
    }

    @Test func aStoreRenamedOverTheOldOneIsFollowed() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        _ = try desktop.add("Old", "--at", "23:59:59")
        #expect(Bench.eventually(3) { (try? desktop.daemon("Status").first?.vardict?["alerts"]?.uint32) == 1 })
        // A backup or sync tool: another store written elsewhere, renamed over this one.
        let elsewhere = desktop.directory + "/elsewhere"
        let other = try Bench.nudge(["add", "Restored", "--at", desktop.clock(in: 3).text],
                                    environment: desktop.environment(["XDG_DATA_HOME": elsewhere, "DBUS_SESSION_BUS_ADDRESS": nil]))
        try #require(other.status == 0)
        let store = AppDatabase.defaultPath(environment: ["XDG_DATA_HOME": desktop.directory + "/data"])
        _ = try Bench.run("sqlite3", [elsewhere + "/nudge/nudge.sqlite", "PRAGMA wal_checkpoint(TRUNCATE)"])
        #expect(rename(elsewhere + "/nudge/nudge.sqlite", store) == 0)
        #expect(Bench.eventually(3) { (try? desktop.nudge("list").stdout.contains("Restored")) == true })
        #expect(Bench.eventually(6) { (try? desktop.displayed()) == 1 })
        #expect(try desktop.log().compactMap { $0["title"] as? String } == ["Restored"])
        #expect(openFilesDeleted(daemon.pid).isEmpty)
        // SIGHUP and Reload see the file that is there now, not the one open before.
        kill(daemon.pid, SIGHUP)
        #expect(Bench.eventually(3) { (try? desktop.daemon("Status").first?.vardict?["alerts"]?.uint32) == 1 })
    }
}

extension NothingLostOrDoubledTests {
    @Test func theDaemonKeepsALastGoodCopyAndRefusesADamagedStore() throws {
        let desktop = try Desktop(server: false)
        let path = desktop.directory + "/data/nudge/nudge.sqlite"
        let store = try AppDatabase.open(path: path)
        try store.save((0..<200).map { Alert(title: "Filler \($0) " + String(repeating: "x", count: 80), schedule: .once(Date().addingTimeInterval(86400)), created: Date()) })
        var daemon = try desktop.startDaemon()
        #expect(FileManager.default.fileExists(atPath: path + ".last-good"))
        #expect(daemon.stop().status == 0)
        // Damage the table's root page, as a stray write would.
        _ = try Bench.run("sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE)"])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
        try handle.close()
        let refused = try desktop.nudge("daemon")
        #expect(refused.status == 74)
        #expect(refused.stderr.contains("is damaged"))
        #expect(refused.stderr.contains("run `nudge doctor`"))
        // It never took the name: an activating caller hears of the failure at once.
        #expect(throws: BusError.self) { try desktop.daemon("Status") }
        let restored = try desktop.nudge("doctor", "--restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(try desktop.daemon("Status").first?.vardict?["alerts"]?.uint32 == 200)
    }
}

extension NothingLostOrDoubledTests {
    @Test func anActivatedDaemonThatCannotUseItsStoreFailsAtOnce() throws {
        let desktop = try Desktop(activatable: true)
        // The store's path is a folder: a permanent error, before the daemon takes its name.
        try FileManager.default.createDirectory(atPath: desktop.directory + "/data/nudge/nudge.sqlite", withIntermediateDirectories: true)
        let started = Date()
        do {
            _ = try desktop.call("io.github.nudge.Nudge", "/io/github/nudge/Nudge", "io.github.nudge.Nudge1", "Status",
                                 timeout: .seconds(10), autoStart: true)
            Issue.record("activation succeeded")
        } catch {
            #expect(error.name.rawValue == "org.freedesktop.DBus.Error.Spawn.ChildExited", "\(error)")
            #expect(error.message.contains("74"), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}

/// Issue 52: a restore that lost data. The last good copy follows the person's changes, and
/// a reminder put back by a restore (or by any file renamed over the store) owes nothing
/// from before it came back: no "missed 10" pop-up at once.
extension NothingLostOrDoubledTests {
    @Test func theLastGoodCopyFollowsChangesAndARestoredReminderCountsFromNow() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let path = desktop.directory + "/data/nudge/nudge.sqlite"
        func copied() -> [String] {
            guard let out = try? Bench.run("sqlite3", [path + ".last-good", "SELECT title FROM alert ORDER BY title"]) else { return [] }
            return out.stdout.split(separator: "\n").map(String.init)
        }
        // Water, made ten days ago and due daily an hour ago: ten showings passed before it
        // came to this store. Written by a process of the test's own, as a sync tool would.
        let made = Date().addingTimeInterval(-10 * 86400)
        let hourAgo = desktop.clockText(Date().addingTimeInterval(-3600)).prefix(5)
        let water = Alert(title: "Water", schedule: .daily(times: [try ScheduleParser.time(String(hourAgo))], days: Schedule.everyDay), created: made)
        _ = try desktop.add("Tea", "--at", "23:59:59")
        try AppDatabase.open(path: path).save(water)
        #expect(Bench.eventually(15) { copied() == ["Tea", "Water"] }, "\(daemon.stderrSoFar)")
        let stale = desktop.directory + "/stale-copy"
        #expect(copyfile(path + ".last-good", stale))
        // Removed, and something new: the copy follows both.
        _ = try desktop.nudge("rm", water.id.hex)
        _ = try desktop.add("Walk", "--at", "23:59:58")
        #expect(Bench.eventually(15) { copied() == ["Tea", "Walk"] }, "\(daemon.stderrSoFar)")

        // A copy from before the removal, restored over a store damaged meanwhile: Water
        // comes back, and counts from now.
        #expect(rename(stale, path + ".last-good") == 0)
        _ = try Bench.run("sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE)"])
        try overwrite(path, count: 100)
        let restored = try desktop.nudge("doctor", "--restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        // The event waited on: a reminder due after Water was taken in has fired, so Water's
        // catch-up, due at once when taken in, would have come before it.
        let soon = try desktop.dueSoon(lead: 3) { try desktop.add("Soon", "--at", desktop.clockText($0)) }
        #expect(Bench.eventually(30) { (try? desktop.events(soon.id)) == ["fired"] }, "\(daemon.stderrSoFar)")
        #expect(try desktop.events(water.id.hex).isEmpty, "\(daemon.stderrSoFar)")
        #expect(try desktop.displayed() == 1)
        // Its state, stamped by the restore: nothing owed before it.
        let checked = try Bench.run("sqlite3", [path, "SELECT checkedUntil FROM alertState WHERE alertId = '\(water.id.hex)'"])
        #expect((Double(checked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > Date().timeIntervalSince1970 - 120)
    }
}

extension NothingLostOrDoubledTests {
    /// A backup renamed over the store brings back a reminder snoozed in it: it still comes
    /// back when its snooze ends (the daemon wrote its own empty state over the file's, and
    /// a once reminder snoozed never came back). Nothing else owed before is taken.
    @Test func aBackupPutBackKeepsASnoozeStillAhead() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let path = desktop.directory + "/data/nudge/nudge.sqlite"
        _ = try desktop.add("Tea", "--at", "23:59:59")
        // The backup: the store as it was, plus Stretch, a once reminder an hour gone,
        // snoozed until 40 minutes from now (the stamp kept to the second, as the store keeps it).
        let backup = desktop.directory + "/backup.sqlite"
        _ = try Bench.run("sqlite3", [path, ".backup '\(backup)'"])
        let until = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2400).rounded())
        let stretch = Alert(title: "Stretch", schedule: .once(Date().addingTimeInterval(-3600)), created: Date().addingTimeInterval(-7200))
        do {
            let store = try AppDatabase.open(path: backup)
            try store.save(stretch)
            var state = AlertState(checkedUntil: Date())
            state.snoozedUntil = until
            _ = try store.save(states: [stretch.id: state])
        }
        _ = try Bench.run("sqlite3", [backup, "PRAGMA wal_checkpoint(TRUNCATE)"])
        let reopened = daemon.stderrSoFar.components(separatedBy: "reopened it").count
        #expect(rename(backup, path) == 0)
        #expect(Bench.eventually(15) { daemon.stderrSoFar.components(separatedBy: "reopened it").count > reopened }, "\(daemon.stderrSoFar)")
        let next = try #require(desktop.next(stretch.id.hex), "\(daemon.stderrSoFar)")
        #expect(abs(next.timeIntervalSince(until)) < 1, "\(next) against \(until)")
    }
}

/// Writes garbage over a file's first `count` bytes, in place, as a stray program would.
private func overwrite(_ path: String, count: Int) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.write(contentsOf: Data(repeating: 0x5A, count: count))
    try handle.close()
}

/// Copies a file's bytes (the test's own: the store's copy, which no process holds open).
private func copyfile(_ from: String, _ to: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: from) else { return false }
    return FileManager.default.createFile(atPath: to, contents: data)
}

/// Issue 52: a store overwritten under the running daemon is seen by the daemon itself
/// (SQLite would not see it: nobody committed) and never written again; its reminders go
/// on from memory.
extension NothingLostOrDoubledTests {
    @Test func aStoreOverwrittenUnderTheDaemonIsNeverWrittenAgain() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let path = desktop.directory + "/data/nudge/nudge.sqlite"
        let soon = try desktop.dueSoon(lead: 3) { try desktop.add("Soon", "--at", desktop.clockText($0)) }
        try overwrite(path, count: 4096)
        let garbage = FileManager.default.contents(atPath: path)
        #expect(Bench.eventually(10) { FileManager.default.fileExists(atPath: path + ".damaged") }, "\(daemon.stderrSoFar)")
        // Fired from memory; its state and log line are not written into the garbage.
        #expect(Bench.eventually(30) { (try? desktop.displayed()) == 1 }, "\(daemon.stderrSoFar)")
        #expect(daemon.stderrSoFar.contains("fired \(soon.id.prefix(8))"))
        #expect(daemon.stop().status == 0)
        #expect(FileManager.default.contents(atPath: path) == garbage)
        #expect(daemon.stderrSoFar.contains("its first bytes are not an SQLite database's"))
    }
}
