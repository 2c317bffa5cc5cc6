import DBus
import NudgeCore
import Foundation
import Testing
import TestSupport

/// `nudge daemon` live: a private bus and a real dunst per test, the built binary, and
/// what really arrived (`dbus-monitor`, `dunstctl`, the store's log).
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct DaemonTests {
    @Test func firesAtItsSecondWithTheReminderLook() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let stretch = try desktop.dueSoon(lead: 2) {
            try desktop.add("Stretch", "--at", desktop.clockText($0), "--body", "Stand up & move", "--snooze", "5m")
        }
        let id = stretch.id
        #expect(Bench.eventually(30) { (try? desktop.events(id)) == ["fired"] })
        #expect(Bench.eventually(30) { (try? desktop.displayed()) == 1 })
        // It fires in its own second (the daemon's record), and arrives after it.
        #expect(try desktop.logged(id) == [LoggedEvent("fired", at: stretch.due, count: 1)])
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop()).filter { $0.time >= stretch.since.timeIntervalSince1970 }
        try #require(calls.count == 1)
        let call = calls[0]
        #expect(call.time >= stretch.due.timeIntervalSince1970)
        #expect(call.summary == "Stretch")
        #expect(call.icon == "io.github.nudge.Nudge")
        #expect(call.actions == ["default", "", "done", "Done", "snooze", "Snooze 5 min", "skip-today", "Done for today"])
        #expect(call.text.contains("string \"Nudge\""))
        #expect(call.text.contains("string \"io.github.nudge.Nudge\"") && call.text.contains("desktop-entry"))
        #expect(call.text.contains("sound-name"))
        #expect(try desktop.events(id) == ["fired"])
        #expect(daemon.stop().status == 0)
    }

    @Test func anUnansweredAlertReplacesItsPopUpAndCounts() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let badge = try desktop.monitor("type='signal',interface='com.canonical.Unity.LauncherEntry'")
        let times = [desktop.clock(in: 2), desktop.clock(in: 3), desktop.clock(in: 4)]
        let id = try desktop.add("Water", "--at", times[0].text, "--at", times[1].text, "--at", times[2].text)
        #expect(Bench.eventually(8) { (try? desktop.events(id).count) == 3 })
        #expect(try desktop.displayed() == 1)
        #expect(try desktop.dunstctl("count", "history") == "0")
        // The pop-up on screen shows the count; it was replaced, never piled up.
        try desktop.dunstctl("history-pop")
        _ = try desktop.dunstctl("close-all")
        let history = try Bench.run("dunstctl", ["history"], environment: desktop.environment()).stdout
        #expect(history.contains("Water ×3"))
        let signals = badge.stop()
        #expect(signals.contains("int64 3"))
        #expect(signals.contains("application://io.github.nudge.Nudge.desktop"))
    }

    /// A calendar's rule imported: its times fire to the second, the one its EXDATE
    /// leaves out does not, and nothing fires after its UNTIL.
    @Test func aCalendarsRuleFiresItsTimesButNotTheOneLeftOutNorPastItsEnd() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let stamp = DateFormatter()
        (stamp.locale, stamp.timeZone, stamp.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "UTC"), "yyyyMMdd'T'HHmmss'Z'")
        let seconds = { (t: Date) in Int(t.timeIntervalSince1970) % 60 }
        var times: [Date] = [], tries = 0
        // Four seconds of one minute (a minute's end waited out), imported before the first
        // comes; a try the machine was too slow for is removed, and the next one has a UID
        // (so an id) of its own.
        let rule = try desktop.dueSoon(lead: 2) { start in
            var first = start
            if seconds(first) > 55 { first = first.addingTimeInterval(Double(60 - seconds(first))) }
            times = (0..<4).map { first.addingTimeInterval(Double($0)) }
            tries += 1
            let byHour = Int(first.timeIntervalSince1970) / 3600 % 24, byMinute = Int(first.timeIntervalSince1970) / 60 % 60
            let calendar = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:seconds-\(tries)@test", "SUMMARY:Calendar rule",
                "DTSTART:\(stamp.string(from: times[0]))",
                "RRULE:FREQ=DAILY;BYHOUR=\(byHour);BYMINUTE=\(byMinute);BYSECOND=\(times.map { String(seconds($0)) }.joined(separator: ","));UNTIL=\(stamp.string(from: times[2]))",
                "EXDATE:\(stamp.string(from: times[1]))", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
            let file = desktop.directory + "/rule.ics"
            try calendar.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try desktop.nudge("import", file)
            try #require(imported.status == 0, "\(imported.stderr)")
            let listed = try JSONSerialization.jsonObject(with: Data(desktop.nudge("list", "--all", "--json").stdout.utf8)) as? [[String: Any]]
            let id = try #require(listed?.first { $0["title"] as? String == "Calendar rule" }?["id"] as? String)
            return (id.lowercased().replacingOccurrences(of: "-", with: ""), times[0])
        }
        // times[0] and times[2], each in its second; then the daemon has nothing left to
        // show: not the one left out (it passed between them), nor the one after the end.
        #expect(Bench.eventually(30) { (try? desktop.events(rule.id)) == ["fired", "fired"] })
        #expect(try desktop.logged(rule.id).map(\.at) == [times[0], times[2]])
        #expect(desktop.next(rule.id) == nil)
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop()).filter { $0.summary.hasPrefix("Calendar rule") && $0.time >= rule.since.timeIntervalSince1970 }
        try #require(calls.count == 2, "\(calls.map(\.time)) for \(times)")
        for (call, due) in zip(calls, [times[0], times[2]]) {
            #expect(call.time >= due.timeIntervalSince1970, "\(call.time) for \(due)")
        }
        #expect(daemon.stop().status == 0)
    }

    @Test func answersFromThePopUpChangeTheStore() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let badge = try desktop.monitor("type='signal',interface='com.canonical.Unity.LauncherEntry'")

        // A click: the default action acknowledges.
        let click = try desktop.dueSoon(lead: 1) { try desktop.add("Click", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.dunstctl("action", "0")
        #expect(Bench.eventually(3) { (try? desktop.events(click)) == ["fired", "acknowledged"] })
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 })
        // The click also opened the window (beside the daemon, as installed) at the reminder.
        #expect(Bench.eventually(10) { desktop.hasOwner(NudgeService.windowBusName) })

        // The context menu: "Done", "Done for today" and "Snooze".
        let done = try desktop.dueSoon(lead: 1) { try desktop.add("Done", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.chooseFromMenu(",done]")
        #expect(Bench.eventually(3) { (try? desktop.events(done)) == ["fired", "acknowledged"] })
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 })

        let skip = try desktop.dueSoon(lead: 1) { try desktop.add("Skip", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.chooseFromMenu("Done for today")
        #expect(Bench.eventually(3) { (try? desktop.events(skip)) == ["fired", "done-for-today"] })

        let snooze = try desktop.dueSoon(lead: 1) { try desktop.add("Later", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.chooseFromMenu("Snooze 10 min")
        #expect(Bench.eventually(3) { (try? desktop.events(snooze)) == ["fired", "snoozed"] })
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 })
        let shown = try desktop.nudge("show", String(snooze.prefix(8)))
        #expect(shown.stdout.contains("snoozed    until"))

        let signals = badge.stop()
        #expect(signals.contains("int64 0"))
    }

    /// Only the notification server answers pop-ups or says do-not-disturb: the same
    /// signals from another connection on the bus change nothing.
    @Test func strangersOnTheBusAnswerNothing() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let stranger = try Connection.bus(address: desktop.address)
        let late = try desktop.dueSoon(lead: 1) { try desktop.add("Later", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        // Snooze for every id a server might have given, and do-not-disturb on.
        for id in UInt32(0)...UInt32(8) {
            let action = try Message.signal(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                                            member: "ActionInvoked")
            try action.append(contentsOf: [.uint32(id), .string("snooze")])
            _ = try stranger.send(action)
        }
        let inhibit = try Message.signal(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.DBus.Properties",
                                         member: "PropertiesChanged")
        try inhibit.append(contentsOf: [.string("org.freedesktop.Notifications"), .vardict([("Inhibited", .variant(.bool(true)))]),
                                        .array(element: "s", [])])
        _ = try stranger.send(inhibit)
        stranger.flush()
        // The person's own Done is the answer; nothing was held.
        try desktop.dunstctl("action", "0")
        #expect(Bench.eventually(3) { (try? desktop.events(late)) == ["fired", "acknowledged"] })
        let status = try desktop.daemon("Status")
        #expect(!"\(status)".contains("do not disturb"), "\(status)")
    }

    @Test func dismissalAcknowledgesAndExpiryKeepsTheCount() throws {
        let desktop = try Desktop(expireAfter: 2)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let dismissed = try desktop.dueSoon(lead: 1) { try desktop.add("Dismissed", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.dunstctl("close")
        #expect(Bench.eventually(3) { (try? desktop.events(dismissed)) == ["fired", "dismissed"] })

        let expired = try desktop.dueSoon(lead: 1) { try desktop.add("Expired", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(8) { (try? desktop.events(expired)) == ["fired", "expired"] })
        let status = try desktop.daemon("Status")
        #expect(status.first?.vardict?["pending"]?.uint32 == 1)
        #expect(try desktop.nudge("show", String(expired.prefix(8))).stdout.contains("pending    1"))
    }

    @Test func snoozeComesBackOnce() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Tea", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        let snoozed = try desktop.nudge("snooze", String(id.prefix(8)), "2s")
        #expect(snoozed.status == 0)
        #expect(Bench.eventually(2) { (try? desktop.displayed()) == 0 })
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "snoozed", "snooze-fired"] })
        #expect(try desktop.displayed() == 1)
        // Once: what the daemon will show next is the next day's time, not the snooze again.
        guard case .int64(let usec)? = try desktop.daemon("Next", [.string(id)]).first else {
            Issue.record("Next gave no instant"); return
        }
        #expect(Double(usec) / 1e6 > Date().timeIntervalSince1970 + 22 * 3600)
        #expect(try desktop.events(id) == ["fired", "snoozed", "snooze-fired"])
    }

    @Test func whatPassedWhileStoppedIsOnePopUp() throws {
        let desktop = try Desktop()
        var daemon = try desktop.startDaemon()
        // Three seconds the daemon knew of, then stopped before the first: a try the machine
        // was too slow for (the daemon showed it before it stopped) is removed and made again
        // with more time.
        var times: [Date] = [], lead = 2.0, water: DueSoon?
        while water == nil {
            let due = try desktop.dueSoon(lead: lead) { first in
                times = (0..<3).map { first.addingTimeInterval(Double($0)) }
                return try desktop.add(["Water"] + times.flatMap { ["--at", desktop.clockText($0)] })
            }
            #expect(daemon.stop().status == 0)
            if try desktop.events(due.id).isEmpty && Date() < due.due {
                water = due
            } else {
                _ = try desktop.nudge("rm", due.id)
                lead *= 2
                daemon = try desktop.startDaemon()
            }
        }
        let id = try #require(water?.id)
        // All three pass while it is stopped.
        while Date() < times[2].addingTimeInterval(0.5) { usleep(50_000) }
        let monitor = try desktop.monitor()
        daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(30) { (try? desktop.events(id)) == ["caught-up"] })
        // The log says what passed: three, since the first of them (to the second).
        let caughtUp = try #require(try desktop.logged(id).first)
        #expect(caughtUp.count == 3)
        #expect(caughtUp.detail == "since " + ISO8601DateFormatter().string(from: times[0]))
        #expect(caughtUp.at >= times[2])
        // A round trip through the daemon's loop: whatever it would send for this is sent.
        _ = try desktop.daemon("Status")
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.count == 1)
        #expect(calls.first?.summary == "Water ×3")
        #expect(calls.first?.body.hasPrefix("Missed 3 reminders since ") == true)
        #expect(try desktop.events(id) == ["caught-up"])
    }

    @Test func aReminderDueWhileTheServerIsDownComesOnceItIsBack() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        desktop.killServer()
        let due = desktop.clock(in: 1)
        let id = try desktop.add("Meanwhile", "--at", due.text)
        // Due with no server: the attempt fails and is logged.
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["failed"] })
        let monitor = try desktop.monitor()
        let back = Date()
        try desktop.startServer()
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 1 })
        _ = try desktop.daemon("Status")
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.count == 1)
        #expect(calls.first.map { $0.time - back.timeIntervalSince1970 < 3 } == true)
        #expect(try desktop.events(id) == ["failed", "fired"])
    }

    @Test func aHungServerStallsNothing() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        desktop.freezeServer(true)
        defer { desktop.freezeServer(false) }
        let notify = try desktop.monitor()
        let first = try desktop.dueSoon(lead: 1) { try desktop.add("One", "--at", desktop.clockText($0)) }.id
        let secondDue = desktop.clock(in: 2)
        let fired = try desktop.monitor("type='signal',interface='io.github.nudge.Nudge1',member='Fired'")
        let second = try desktop.add("Two", "--at", secondDue.text)
        // The daemon answers and keeps its times while the server does not answer at all.
        #expect(Bench.eventually(5) { fired.soFar.contains(second) })
        let started = Date()
        let status = try desktop.daemon("Status")
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(status.first?.vardict?["alerts"]?.uint32 == 2)
        let signals = fired.stop()
        #expect(signals.contains(second))
        // Its Notify got no reply in 2 s: logged, and not sent again to the same server.
        #expect(try desktop.events(first).first == "fired")
        desktop.freezeServer(false)
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 2 })
        _ = try desktop.daemon("Status")
        let calls = MonitoredNotify.parse(notify.stop())
        #expect(calls.filter { $0.summary == "One" }.count == 1)
        #expect(calls.filter { $0.summary == "Two" }.count == 1)
    }

    @Test func oneDaemonPerSessionAndReplace() throws {
        let desktop = try Desktop()
        let first = try desktop.startDaemon()
        let second = try desktop.nudge("daemon")
        #expect(second.status == 69)
        #expect(second.stderr == "nudge: already running (pid \(first.pid)); use --replace to take over\n")
        let replacement = try desktop.startDaemon("--replace")
        defer { _ = replacement.stop() }
        let ended = first.finish(timeout: 3)
        #expect(ended.status == 0)
        #expect(ended.stderr.contains("another daemon took over"))
        let status = try desktop.daemon("Status")
        #expect(status.first?.vardict?["pid"]?.uint32 == UInt32(replacement.pid))
    }

    /// A daemon replaced while a reminder waits for its answer shows it again once, in its
    /// pop-up's place, and the new pop-up's answer counts.
    @Test func aReplacedDaemonShowsWhatWaitsAgainInItsPlace() throws {
        let desktop = try Desktop()
        let runtime = desktop.directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let first = try desktop.startDaemon(environment: ["XDG_RUNTIME_DIR": runtime])
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Kept", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        #expect(Bench.eventually(5) { (try? desktop.nudge("show", String(id.prefix(8))).stdout.contains("pending    1")) == true })
        let replacement = try desktop.startDaemon("--replace", environment: ["XDG_RUNTIME_DIR": runtime])
        defer { _ = replacement.stop() }
        #expect(first.finish(timeout: 5).status == 0)
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "redelivered"] })
        #expect(try desktop.displayed() == 1, "in the old one's place")
        try desktop.chooseFromMenu("Done")
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "redelivered", "acknowledged"] })
    }

    /// A notification server started anew hands out its ids from 1 again: a daemon that
    /// starts then never replaces or closes by an id the old server gave (it may be another
    /// app's pop-up now); the reminder comes as a new pop-up.
    @Test func aRestartedServersIdsAreNeverTakenForNudges() throws {
        let desktop = try Desktop()
        let runtime = desktop.directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let daemon = try desktop.startDaemon(environment: ["XDG_RUNTIME_DIR": runtime])
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Mine", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        #expect(Bench.eventually(5) { (try? desktop.nudge("show", String(id.prefix(8))).stdout.contains("pending    1")) == true })
        kill(daemon.pid, SIGTERM)
        #expect(daemon.finish(timeout: 5).status == 0)
        desktop.killServer()
        try desktop.startServer()
        for n in 1...2 { #expect(try desktop.nudge("send", "-a", "Other", "Other \(n)").status == 0) }
        let again = try desktop.startDaemon(environment: ["XDG_RUNTIME_DIR": runtime])
        defer { _ = again.stop() }
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "redelivered"] })
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 3 }, "both of the other app's and Nudge's")
        let summaries = try desktop.dunstctl("history")
        #expect(!summaries.contains("Other"), "nothing of the other app's was closed: \(summaries)")
    }

    @Test func sigtermIsCleanAndNothingIsLost() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Kept", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        // Waits on the end itself: how soon it ends is daemon-bench's figure, not a test's
        // (with the suite on both cores it took 2.5 s here).
        kill(daemon.pid, SIGTERM)
        let outcome = daemon.finish(timeout: 60)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("SIGTERM: stopping"))
        #expect(try desktop.nudge("show", String(id.prefix(8))).stdout.contains("pending    1"))
        // The pop-up it left stays answerable from the command line.
        #expect(try desktop.nudge("ack", String(id.prefix(8))).status == 0)
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 })
    }

    @Test func sighupReloadsAndSigintStops() throws {
        let desktop = try Desktop(server: false)
        let daemon = try desktop.startDaemon()
        kill(daemon.pid, SIGHUP)
        #expect(Bench.eventually(3) { daemon.stderrSoFar.contains("SIGHUP: reloading the store") })
        #expect(daemon.isRunning)
        #expect(try desktop.daemon("Status").first?.vardict?["server"]?.bool == false)
        kill(daemon.pid, SIGINT)
        let outcome = daemon.finish(timeout: 3)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("SIGINT: stopping"))
    }

    @Test func losingTheBusIsExit69() throws {
        var desktop: Desktop? = try Desktop(server: false)
        let daemon = try desktop!.startDaemon()
        desktop = nil
        let outcome = daemon.finish(timeout: 5)
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("lost the session bus"))
    }

    @Test func theBusInterfaceAnswersAndRejects() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let id = try desktop.add("Later", "--at", "23:59:59")
        let status = try #require(try desktop.daemon("Status").first?.vardict)
        #expect(status["version"]?.string?.isEmpty == false)
        #expect(status["alerts"]?.uint32 == 1)
        #expect(status["pending"]?.uint32 == 0)
        #expect(status["next-due"]?.string?.contains("T23:59:59") == true)

        let xml = try desktop.call("io.github.nudge.Nudge", "/io/github/nudge/Nudge", "org.freedesktop.DBus.Introspectable", "Introspect")
        #expect(xml.first?.string?.contains("<signal name=\"Fired\">") == true)

        func error(_ member: String, _ arguments: [Value]) -> String? {
            do {
                _ = try desktop.daemon(member, arguments)
                return nil
            } catch {
                return error.name.rawValue
            }
        }
        #expect(error("Ack", [.string("nonsense")]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Ack", [.uint32(1)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Ack", [.string(String(repeating: "0", count: 32))]) == "io.github.nudge.Nudge1.Error.UnknownAlert")
        #expect(error("Snooze", [.string(id), .uint32(0)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Snooze", [.string(id)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Explode", []) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(error("AnsweredElsewhere", [.string(id), .int64(0)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("AnsweredElsewhere", [.string(id), .uint32(1)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("AnsweredElsewhere", [.string(String(repeating: "0", count: 32)), .int64(1)]) == "io.github.nudge.Nudge1.Error.UnknownAlert")
        // Answered elsewhere with nothing shown here: nothing to close, nothing logged.
        #expect(error("AnsweredElsewhere", [.string(id), .int64(1_000_000)]) == nil)
        #expect(error("SnoozedElsewhere", [.string(id), .int64(-1)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("SnoozedElsewhere", [.string(String(repeating: "0", count: 32)), .int64(1)]) == "io.github.nudge.Nudge1.Error.UnknownAlert")
        // A snooze elsewhere that is over: nothing.
        #expect(error("SnoozedElsewhere", [.string(id), .int64(1_000_000)]) == nil)
        #expect(error("Ack", [.string(id)]) == nil)
        #expect(error("Snooze", [.string(id), .uint32(600)]) == nil)
        #expect(error("Done", [.string(id)]) == nil)
        // An Ack with nothing to acknowledge changes nothing and is not logged.
        // Done answers the snooze too: one answer, one row.
        #expect(try desktop.events(id) == ["snoozed", "done-for-today"])
        // A drink: from 1 ml to 5 l, and nothing else.
        #expect(error("Drink", [.uint32(0)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Drink", [.uint32(5001)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(error("Drink", [.string("250")]) == "org.freedesktop.DBus.Error.InvalidArgs")
        let first = try #require(try desktop.daemon("Drink", [.uint32(250)]).first?.uint32)
        let second = try #require(try desktop.daemon("Drink", [.uint32(5000)]).first?.uint32)
        #expect(first == 250)
        // The day's total (a new drink day may begin between the two, at midnight).
        #expect(second == first + 5000 || second == 5000)
        #expect(daemon.isRunning)
    }

    @Test func theStoreIsWatched() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        // Written with no bus to tell the daemon (no Reload call): it sees the store change by itself.
        let alone: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": nil]
        let added = try desktop.nudge("add", "Watched", "--at", desktop.clock(in: 2).text, environment: alone)
        #expect(added.status == 0)
        let id = try #require(added.stdout.split(separator: " ").dropFirst().first?.dropLast())
        #expect(Bench.eventually(1) { (try? desktop.daemon("Status").first?.vardict?["alerts"]?.uint32) == 1 })
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        // Switched off the same way: its pop-up goes.
        #expect(try desktop.nudge("off", String(id), environment: alone).status == 0)
        #expect(Bench.eventually(2) { (try? desktop.displayed()) == 0 })
    }
}

extension DaemonTests {
    @Test func floatingAlertsFollowANewSystemZone() throws {
        let desktop = try Desktop()
        let folder = desktop.directory + "/etc"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
        let environment: [String: String?] = ["TZ": nil]
        let daemon = try Bench.start(["daemon", "--localtime", folder + "/localtime"], environment: desktop.environment(environment))
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(5) { (try? desktop.daemon("Status")) != nil })
        _ = try desktop.nudge("add", "Floating", "--at", "12:00", environment: environment)
        func status() -> [String: Value] { (try? desktop.daemon("Status").first?.vardict) ?? [:] }
        #expect(Bench.eventually(2) { status()["alerts"]?.uint32 == 1 })
        #expect(status()["zone"]?.string == "Europe/Berlin")
        // The offset expected is the zone's at that instant: the test holds in any season.
        func expectedSuffix(_ zone: String) -> String {
            guard case .uint64(let usec)? = status()["next-due-usec"] else { return "no next-due-usec" }
            let instant = Date(timeIntervalSince1970: Double(usec) / 1e6)
            return "T12:00:00" + InstantFormat.offset(TimeZone(identifier: zone)!.secondsFromGMT(for: instant))
        }
        #expect(status()["next-due"]?.string?.hasSuffix(expectedSuffix("Europe/Berlin")) == true)
        // The way timedatectl changes it: a new link renamed over the old one.
        try FileManager.default.createSymbolicLink(atPath: folder + "/localtime.new", withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        #expect(rename(folder + "/localtime.new", folder + "/localtime") == 0)
        #expect(Bench.eventually(2) { status()["zone"]?.string == "Asia/Tokyo" })
        #expect(status()["next-due"]?.string?.hasSuffix(expectedSuffix("Asia/Tokyo")) == true)
    }
}

extension DaemonTests {
    @Test func callingTheInterfaceStartsTheDaemon() throws {
        let desktop = try Desktop(activatable: true)
        let id = try desktop.add("Activated", "--at", "23:59:59")
        let status = try desktop.call("io.github.nudge.Nudge", "/io/github/nudge/Nudge", "io.github.nudge.Nudge1", "Status",
                                      timeout: .seconds(10), autoStart: true).first?.vardict
        #expect(status?["alerts"]?.uint32 == 1)
        let pid = try #require(status?["pid"]?.uint32)
        #expect(kill(pid_t(pid), 0) == 0)
        #expect(try desktop.daemon("Ack", [.string(id)]).isEmpty)
        kill(pid_t(pid), SIGTERM)
        #expect(Bench.eventually(3) { kill(pid_t(pid), 0) != 0 })
    }
}
