import Foundation
import Testing
import TestSupport

/// The daemon against the other servers Debian runs headless (dunst has DaemonTests):
/// each on an X display of its own, answered by clicking its pop-up as a person would.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct ServerCompatibilityTests {
    static let servers = NotificationServer.allCases.filter { $0 != .dunst && $0.isInstalled }

    /// Where a person clicks to say Done: xfce4-notifyd draws Done as the first of three
    /// equal buttons along the bottom (none for `default`, whose label is empty);
    /// notification-daemon runs `default` (Done) on a click on the pop-up's body.
    static func donePoint(_ window: PrivateDisplay.Window, on server: NotificationServer) -> (x: Int, y: Int) {
        switch server {
        case .xfce4Notifyd: (window.x + 14 + (window.width - 28) / 6, window.y + window.height - 31)
        default: (window.x + window.width / 2, window.y + 30)
        }
    }

    @Test(arguments: servers)
    func aReminderArrivesOnceAndDoneComesBack(server: NotificationServer) throws {
        let desktop = try Desktop(serverKind: server)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let answers = try desktop.monitor("type='signal',interface='org.freedesktop.Notifications'")
        let id = try desktop.dueSoon(lead: 2) { try desktop.add("Water", "--at", desktop.clockText($0), "--body", "A glass now") }.id
        #expect(Bench.eventually(6) { desktop.popUps().count == 1 })
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["fired"] })
        let window = try #require(desktop.popUps().first)
        let point = Self.donePoint(window, on: server)
        try #require(desktop.display).click(x: point.x, y: point.y)
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "acknowledged"] })
        #expect(Bench.eventually(5) { desktop.popUps().isEmpty })
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.count == 1, "shown once")
        #expect(calls.first?.actions == ["default", "", "done", "Done", "snooze", "Snooze 10 min", "skip-today", "Done for today"])
        #expect(answers.stop().contains("member=ActionInvoked"))
    }

    @Test(arguments: servers)
    func anUnansweredReminderCountsInOnePopUp(server: NotificationServer) throws {
        let desktop = try Desktop(serverKind: server)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let id = try desktop.dueSoon(lead: 2) { first in
            try desktop.add("Water", "--at", desktop.clockText(first), "--at", desktop.clockText(first.addingTimeInterval(1)))
        }.id
        #expect(Bench.eventually(8) { (try? desktop.events(id).count) == 2 })
        #expect(Bench.eventually(3) { desktop.popUps().count == 1 })
        let calls = MonitoredNotify.parse(monitor.stop())
        try #require(calls.count == 2)
        #expect(calls[0].replacesID == 0)
        #expect(calls[1].replacesID != 0, "the second showing replaces the first in place")
        #expect(calls[1].summary == "Water ×2")
        #expect(desktop.popUps().count == 1)
    }

    /// mako under a headless sway (wlroots). sway refuses to run as root, so the session
    /// runs as `nobody` with a bus of its own (Tests/bench/mako-session); the answer is
    /// mako's own click, `makoctl invoke`.
    @Test(.enabled(if: getuid() == 0 && ["/usr/bin/sway", "/usr/bin/mako", "/usr/bin/grim"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0) }, "needs root (to run as nobody), sway, mako and grim"))
    func makoUnderHeadlessSway() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-mako-\(UUID())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        defer { try? FileManager.default.removeItem(atPath: work) }
        // Copies nobody can run wherever the checkout lives (a home folder may be closed to it).
        let script = work + "/mako-session", nudge = work + "/nudge"
        try FileManager.default.copyItem(atPath: Bench.packageRoot.appendingPathComponent("Tests/bench/mako-session").path, toPath: script)
        try FileManager.default.copyItem(atPath: Bench.nudgePath, toPath: nudge)
        let outcome = try Bench.run("/usr/sbin/runuser", ["-u", "nobody", "--", "dbus-run-session", "--", script, nudge, work],
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": nil, "DISPLAY": nil], timeout: 60)
        var seen: [String: String] = [:]
        for line in outcome.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { seen[String(parts[0])] = String(parts[1]) }
        }
        #expect(seen["events"] == "fired fired ", "\(outcome.stdout)\(outcome.stderr)")
        #expect(seen["shown"] == "1", "the second showing replaced the first in place")
        #expect(seen["summary"] == "Water ×2")
        #expect(seen["answered"] == "fired fired acknowledged ")
        #expect(seen["after"] == "0")
    }
}
