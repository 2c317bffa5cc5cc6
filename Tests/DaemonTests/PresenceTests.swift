import DBus
import Foundation
import Testing
import TestSupport

/// Holding reminders while the person is away, with real services on the bench's bus:
/// MATE's screen locker (mate-screensaver on Xvfb, locked and unlocked with its own
/// command) and dunst's do-not-disturb (`dunstctl set-paused`).
@Suite(.serialized)
struct PresenceTests {
    /// What the daemon's `Status` says of presence: `away` and `away-reason`, in one line.
    func away(_ desktop: Desktop) throws -> String {
        let status = try #require(try desktop.daemon("Status").first?.vardict)
        return "\(status["away"]?.bool.map(String.init) ?? "?") \(status["away-reason"]?.string ?? "?")"
    }

    @Test func aLockedScreenHoldsAndUnlockingShowsOnePopUp() throws {
        let desktop = try Desktop()
        let environment = desktop.environment(["DISPLAY": ProcessInfo.processInfo.environment["DISPLAY"]])
        let locker = try Bench.start("/usr/bin/mate-screensaver", ["--no-daemon"], environment: environment)
        defer { _ = locker.stop() }
        #expect(Bench.eventually(10) {
            (try? desktop.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                               [.string("org.mate.ScreenSaver")]).first?.bool) == true
        })
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(try away(desktop) == "false ")
        // Not away: a reminder shows as always.
        let before = try desktop.add("Before", "--at", desktop.clock(in: 1).text)
        #expect(Bench.eventually(5) { (try? desktop.events(before)) == ["fired"] })
        let monitor = try desktop.monitor()
        #expect(try Bench.run("mate-screensaver-command", ["--lock"], environment: environment).status == 0)
        #expect(Bench.eventually(5) { (try? away(desktop)) == "true screen locked (org.mate.ScreenSaver)" })
        let id = try desktop.add("Stretch", "--at", desktop.clock(in: 1).text, "--at", desktop.clock(in: 2).text)
        #expect(Bench.eventually(6) { (try? desktop.events(id).filter { $0 == "held" }.count) == 2 })
        #expect(try Bench.run("mate-screensaver-command", ["--deactivate"], environment: environment).status == 0)
        let unlocked = Date()
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["held", "held", "shown-on-return"] })
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.map(\.summary) == ["Stretch ×2"] || calls.map(\.summary) == ["Stretch"])
        #expect(calls.first?.body == "While you were away: 2 reminders")
        let shownAfter = try #require(calls.first?.time).advanced(by: -unlocked.timeIntervalSince1970)
        #expect(shownAfter < 1, "shown \(shownAfter) s after the unlock")
        #expect(try away(desktop) == "false ")
    }

    @Test func doNotDisturbHoldsAndARestartAfterTheReturnShowsOnce() throws {
        let desktop = try Desktop()
        var daemon = try desktop.startDaemon()
        _ = try desktop.dunstctl("set-paused", "true")
        #expect(Bench.eventually(5) { (try? away(desktop)) == "true do not disturb (dunst paused)" })
        let id = try desktop.add("Tea", "--at", desktop.clock(in: 1).text, "--at", desktop.clock(in: 4).text)
        #expect(Bench.eventually(4) { (try? desktop.events(id)) == ["held"] })
        // Stopped while away; 04 passes while nothing runs; the person is back before it starts.
        _ = daemon.stop()
        Thread.sleep(forTimeInterval: 3.5)
        _ = try desktop.dunstctl("set-paused", "false")
        let monitor = try desktop.monitor()
        daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["held", "shown-on-return"] })
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.count == 1, "one pop-up, not two")
        #expect(calls.first?.body == "While you were away: 2 reminders")
        #expect(try desktop.nudge("log").stdout.contains("shown on return 2"))
    }

    /// `--nag`: an ignored pop-up is shown again on its interval, in place, its count
    /// unchanged, critical for the last try; Done stops it.
    @Test func anIgnoredPopUpIsShownAgainUntilDone() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let id = try desktop.add("Pills", "--at", desktop.clock(in: 1).text, "--nag", "2s", "--nag-max", "2")
        #expect(Bench.eventually(8) { (try? desktop.events(id)) == ["fired", "nagged", "nagged"] })
        try desktop.chooseFromMenu(",done]")
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["fired", "nagged", "nagged", "acknowledged"] })
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try desktop.events(id) == ["fired", "nagged", "nagged", "acknowledged"], "Done stops it")
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.map(\.summary) == ["Pills", "Pills", "Pills"], "the count unchanged")
        #expect(calls.dropFirst().allSatisfy { $0.replacesID != 0 }, "shown again in place")
        // Urgency is the hint's byte: normal, then critical for the last try.
        let urgencies = calls.map { $0.text.components(separatedBy: "string \"urgency\"").last?.hasPrefix("\n         variant             byte 2") == true }
        #expect(urgencies == [false, false, true], "\(calls.map(\.text))")
        #expect(try desktop.nudge("show", String(id.prefix(8))).stdout.contains("nag        every 2 s, at most 2 times"))
    }

    /// Idle, through GNOME's idle monitor (a stand-in speaking its interface): a watch at
    /// the threshold (the setting, lowered to a minute here), held while idle, one pop-up
    /// on the first input.
    @Test func idleHoldsAndTheFirstInputShowsOnePopUp() throws {
        let desktop = try Desktop()
        let monitor = try IdleMonitorStandIn(address: desktop.environment()["DBUS_SESSION_BUS_ADDRESS"]!!)
        defer { monitor.stop() }
        #expect(try desktop.nudge("config", "idle-minutes", "1").status == 0)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(3) { monitor.idleIntervals == [60_000] })
        #expect(try away(desktop) == "false ")
        monitor.goIdle()
        #expect(Bench.eventually(3) { (try? away(desktop)) == "true idle for 1 min (org.gnome.Mutter.IdleMonitor)" })
        let bus = try desktop.monitor()
        let id = try desktop.add("Stretch", "--at", desktop.clock(in: 1).text)
        #expect(Bench.eventually(4) { (try? desktop.events(id)) == ["held"] })
        monitor.becomeActive()
        let back = Date()
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["held", "shown-on-return"] })
        bus.settle()
        let calls = MonitoredNotify.parse(bus.stop())
        #expect(calls.map(\.body) == ["While you were away: 1 reminder"])
        #expect(try #require(calls.first?.time) - back.timeIntervalSince1970 < 1)
        #expect(try away(desktop) == "false ")
        // The threshold follows the setting.
        #expect(try desktop.nudge("config", "idle-minutes", "2").status == 0)
        #expect(Bench.eventually(3) { monitor.idleIntervals == [120_000] })
    }
}
