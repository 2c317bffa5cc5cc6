import DBus
import Foundation
import Testing
import TestSupport

/// Holding reminders while the person is away, with real services on the bench's bus:
/// MATE's screen locker (mate-screensaver on Xvfb, locked and unlocked with its own
/// command) and dunst's do-not-disturb (`dunstctl set-paused`).
@Suite(.onTestThreadsAhead, .serialized)
struct PresenceTests {
    /// What the daemon's `Status` says of presence: `away` and `away-reason`, in one line.
    func away(_ desktop: Desktop) throws -> String {
        let status = try #require(try desktop.daemon("Status").first?.vardict)
        return "\(status["away"]?.bool.map(String.init) ?? "?") \(status["away-reason"]?.string ?? "?")"
    }

    /// What the daemon's `Status` says it follows (`away-sources`).
    func sources(_ desktop: Desktop) throws -> [String] {
        try #require(try desktop.daemon("Status").first?.vardict?["away-sources"]?.strings)
    }

    /// A reminder due while away is held, and the return shows one "while you were away"
    /// pop-up within a second: `goAway` and `comeBack` say how the person leaves and returns.
    func holdsAndShowsOnReturn(_ desktop: Desktop, reason: String, goAway: () throws -> Void, comeBack: () throws -> Void) throws {
        #expect(try away(desktop) == "false ")
        try goAway()
        #expect(Bench.eventually(5) { (try? away(desktop)) == "true \(reason)" })
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(4) { (try? desktop.events(id)) == ["held"] })
        let monitor = try desktop.monitor()
        try comeBack()
        let back = Date()
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["held", "shown-on-return"] })
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.map(\.body) == ["While you were away: 1 reminder"])
        let shownAfter = try #require(calls.first?.time) - back.timeIntervalSince1970
        #expect(shownAfter < 1, "shown \(shownAfter) s after the return")
        #expect(try away(desktop) == "false ")
    }

    /// Calls the logind stand-in's session on the test's system bus, as a screen locker or
    /// session manager does.
    func session(_ desktop: Desktop, _ member: String, _ value: Bool) throws {
        let connection = try Connection.bus(address: try #require(desktop.systemAddress))
        _ = try connection.call(destination: LogindStandIn.name, path: LogindStandIn.sessionPath, interface: "org.freedesktop.login1.Session",
                                member: member, arguments: [.bool(value)])
    }

    /// logind (a stand-in on a bus standing for the system bus): the session's `LockedHint`
    /// holds, and its clearing shows one pop-up; `PrepareForSleep` counts as away until the
    /// wake. The daemon runs outside the session (no `XDG_SESSION_ID`, as under systemd)
    /// and finds it through the user's `Display`.
    @Test func logindsLockedHintAndSleep() throws {
        let desktop = try Desktop()
        let logind = try LogindStandIn(address: try desktop.startSystemBus())
        defer { logind.stop() }
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        // Presence is asked without waiting: its answers come in after the start.
        #expect(Bench.eventually(3) { (try? sources(desktop))?.contains("logind (LockedHint, IdleHint, PrepareForSleep)") == true }, "\((try? sources(desktop)) ?? [])")
        try holdsAndShowsOnReturn(desktop, reason: "screen locked (logind LockedHint)",
                                  goAway: { try session(desktop, "SetLockedHint", true) },
                                  comeBack: { try session(desktop, "SetLockedHint", false) })
        logind.prepareForSleep(true)
        #expect(Bench.eventually(3) { (try? away(desktop)) == "true suspending (logind PrepareForSleep)" })
        logind.prepareForSleep(false)
        #expect(Bench.eventually(3) { (try? away(desktop)) == "false " })
        // Asleep when the system bus goes away: nothing says away any more, and the daemon
        // goes on (its session bus is what it needs).
        logind.prepareForSleep(true)
        #expect(Bench.eventually(3) { (try? away(desktop)) == "true suspending (logind PrepareForSleep)" })
        desktop.stopSystemBus()
        #expect(Bench.eventually(3) { (try? away(desktop)) == "false " })
        #expect(try sources(desktop).contains { $0.hasPrefix("logind") } == false)
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("After", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(4) { (try? desktop.events(id)) == ["fired"] })
    }

    /// With no idle monitor and no idle time on the session bus, logind's `IdleHint` says
    /// idle; the session named by `XDG_SESSION_ID`. logind gone: nothing says away.
    @Test func logindsIdleHintIsTheLastIdleSource() throws {
        let desktop = try Desktop()
        let logind = try LogindStandIn(address: try desktop.startSystemBus())
        let daemon = try desktop.startDaemon(environment: ["XDG_SESSION_ID": LogindStandIn.sessionID])
        defer { _ = daemon.stop() }
        #expect(try away(desktop) == "false ")
        try session(desktop, "SetIdleHint", true)
        #expect(Bench.eventually(3) { (try? away(desktop)) == "true idle (logind IdleHint)" })
        logind.stop()
        #expect(Bench.eventually(3) { (try? away(desktop)) == "false " })
        #expect(try sources(desktop).contains("logind (LockedHint, IdleHint, PrepareForSleep)") == false)
    }

    /// KDE's idle time (a stand-in for kscreenlocker's `org.freedesktop.ScreenSaver`), which
    /// has no signal: asked when the threshold could first be reached, then every half
    /// second while idle, and no more once the person is back until the threshold could be
    /// reached again.
    @Test func kdesIdleTimeIsAskedOnlyWhenItCouldMatter() throws {
        let desktop = try Desktop()
        let saver = try ScreenSaverStandIn(address: desktop.address)
        defer { saver.stop() }
        #expect(try desktop.nudge("config", "idle-minutes", "1").status == 0)
        saver.idle(for: 58.5)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        // Presence is asked without waiting: its answers come in after the start.
        #expect(Bench.eventually(3) { (try? sources(desktop))?.contains("idle time: org.freedesktop.ScreenSaver") == true }, "\((try? sources(desktop)) ?? [])")
        try holdsAndShowsOnReturn(desktop, reason: "idle for 1 min (org.freedesktop.ScreenSaver)",
                                  goAway: {}, comeBack: { saver.idle(for: 0) })
        let asked = saver.idleTimeAsked
        Thread.sleep(forTimeInterval: 2)
        #expect(saver.idleTimeAsked == asked, "not asked again within the minute the threshold needs")
    }

    /// GNOME's do-not-disturb: `show-banners` off, with the real dconf service on the
    /// session bus and `gsettings` setting it, as GNOME's panel does.
    @Test func gnomesShowBannersOffHolds() throws {
        let desktop = try Desktop()
        let runtime = desktop.directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let gnome: [String: String?] = ["XDG_CURRENT_DESKTOP": "GNOME", "XDG_CONFIG_HOME": desktop.directory + "/config",
                                        "XDG_RUNTIME_DIR": runtime]
        let dconf = try Bench.start("/usr/libexec/dconf-service", [], environment: desktop.environment(gnome))
        defer { _ = dconf.stop() }
        #expect(Bench.eventually(5) {
            (try? desktop.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                               [.string("ca.desrt.dconf")]).first?.bool) == true
        })
        let daemon = try desktop.startDaemon(environment: gnome)
        defer { _ = daemon.stop() }
        // gsettings is a child the loop reaps: SIGCHLD is not ignored (with it ignored, its
        // exit status could not be read and always said 0).
        let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
        let ignored = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) })
        #expect(ignored & (1 << (UInt64(SIGCHLD) - 1)) == 0)
        // Presence is asked without waiting: its answers come in after the start.
        #expect(Bench.eventually(3) { (try? sources(desktop))?.contains("GNOME show-banners") == true }, "\((try? sources(desktop)) ?? [])")
        func gsettings(_ arguments: String...) throws {
            #expect(try Bench.run("gsettings", arguments, environment: desktop.environment(gnome)).status == 0)
        }
        try holdsAndShowsOnReturn(desktop, reason: "do not disturb (GNOME show-banners off)",
                                  goAway: { try gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false") },
                                  comeBack: { try gsettings("reset", "org.gnome.desktop.notifications", "show-banners") })
    }

    /// No screen locker, idle time, do-not-disturb or logind (notification-daemon has no
    /// pause): the daemon follows nothing, a reminder shows on time as before, and
    /// `doctor` says so.
    @Test func withNoSourceAtAllRemindersShowAsBefore() throws {
        let desktop = try Desktop(serverKind: .notificationDaemon)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(try sources(desktop) == [])
        #expect(try away(desktop) == "false ")
        let monitor = try desktop.monitor()
        let water = try desktop.dueSoon { try desktop.add("Water", "--at", desktop.clockText($0)) }
        #expect(Bench.eventually(30) { (try? desktop.events(water.id)) == ["fired"] })
        // On time: the daemon fired it in its second (it knew of it before), and the pop-up
        // crossed the bus after that instant.
        #expect(try desktop.logged(water.id) == [LoggedEvent("fired", at: water.due, count: 1)])
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop()).filter { $0.time >= water.since.timeIntervalSince1970 }
        #expect(calls.map(\.summary) == ["Water"])
        #expect(try #require(calls.first?.time) >= water.due.timeIntervalSince1970)
        let doctor = try desktop.nudge("doctor")
        #expect(doctor.stdout.contains("the daemon follows nothing that says you are away: reminders always show"), "\(doctor.stdout)")
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
        let before = try desktop.dueSoon(lead: 1) { try desktop.add("Before", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.events(before)) == ["fired"] })
        let monitor = try desktop.monitor()
        #expect(try Bench.run("mate-screensaver-command", ["--lock"], environment: environment).status == 0)
        #expect(Bench.eventually(5) { (try? away(desktop)) == "true screen locked (org.mate.ScreenSaver)" })
        let id = try desktop.dueSoon(lead: 1) { first in
            try desktop.add("Stretch", "--at", desktop.clockText(first), "--at", desktop.clockText(first.addingTimeInterval(1)))
        }.id
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
        let id = try desktop.dueSoon(lead: 1) { first in
            try desktop.add("Tea", "--at", desktop.clockText(first), "--at", desktop.clockText(first.addingTimeInterval(3)))
        }.id
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
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Pills", "--at", desktop.clockText($0), "--nag", "2s", "--nag-max", "2") }.id
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
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(4) { (try? desktop.events(id)) == ["held"] })
        monitor.becomeActive()
        let back = Date()
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["held", "shown-on-return"] })
        bus.settle()
        let calls = MonitoredNotify.parse(bus.stop())
        #expect(calls.map(\.body) == ["While you were away: 1 reminder"])
        // Shown on the return itself, not at some later check: a bound a busy machine keeps.
        #expect(try #require(calls.first?.time) - back.timeIntervalSince1970 < 10)
        #expect(try away(desktop) == "false ")
        // The threshold follows the setting.
        #expect(try desktop.nudge("config", "idle-minutes", "2").status == 0)
        #expect(Bench.eventually(3) { monitor.idleIntervals == [120_000] })
    }
}
