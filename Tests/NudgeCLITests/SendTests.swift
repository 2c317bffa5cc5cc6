import DBus
import Foundation
import Testing
import TestSupport

/// `nudge send` and `nudge doctor` end to end: the built binary, the bench's dunst, and
/// dbus-monitor as the witness of what arrived.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct SendTests {
    @Test func everyFieldArrivesAsSent() throws {
        try Bench.withDunst {
            let monitor = try BusMonitor()
            let result = try Bench.nudge("send", "-u", "critical", "-a", "Hydration", "-i", "dialog-information",
                                         "-c", "x-nudge.reminder", "-t", "0", "-e", "--sound", "alarm-clock-elapsed",
                                         "--count", "3", "-h", "int:x-level:7", "-h", "boolean:resident:true",
                                         "-h", "string:x-note:hi:there", "-h", "double:x-d:0.5", "-h", "byte:x-b:9",
                                         "Drink water", "A glass now.")
            let capture = monitor.stop()
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty && result.stderr.isEmpty)
            for line in [#"string "Hydration""#, #"string "dialog-information""#, #"string "Drink water ×3""#,
                         #"string "A glass now.""#, #"string "urgency""#, "byte 2", #"string "x-nudge.reminder""#,
                         #"string "sound-name""#, #"string "alarm-clock-elapsed""#,
                         #"string "x-nudge-count""#, "int32 3", #"string "transient""#, "boolean true",
                         #"string "x-level""#, "int32 7", #"string "hi:there""#, "double 0.5", "byte 9", "int32 0"] {
                #expect(capture.contains(line), "missing \(line)")
            }
            // As notify-send: no desktop-entry (GNOME 48 and later take an app's pop-ups down
            // with the connection that first sent one, and this one goes at once).
            #expect(!capture.contains("desktop-entry"))
            #expect(try Bench.displayedCount() == 1)
            try Bench.dunstctl("close-all")
            let entry = try #require(try Bench.history().first)
            #expect(entry["summary"] as? String == "Drink water ×3")
            #expect(entry["body"] as? String == "A glass now.")
            #expect(entry["appname"] as? String == "Hydration")
            #expect(entry["category"] as? String == "x-nudge.reminder")
        }
    }

    /// A server the bus starts on demand (dunst or mako on i3 and sway) is started by a
    /// send, as notify-send starts it; before, send said nothing owned the name (exit 69).
    @Test func aServerTheBusStartsOnDemandIsStarted() throws {
        let desktop = try Desktop(server: false, activatableServer: true)
        let sent = try desktop.nudge("send", "Started on demand")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 1 })
    }

    @Test func userTextShowsLiterally() throws {
        try Bench.withDunst {
            #expect(try Bench.nudge("send", "--literal", "5 < 6", "<b>not bold</b> & co").status == 0)
            try Bench.dunstctl("close-all")
            let entry = try #require(try Bench.history().first)
            #expect(entry["body"] as? String == "&lt;b&gt;not bold&lt;/b&gt; &amp; co")
            #expect((entry["message"] as? String)?.contains("&lt;b&gt;not bold") == true)
        }
    }

    @Test func replacingKeepsOnePopUp() throws {
        try Bench.withDunst {
            let first = try Bench.nudge("send", "-p", "Water", "--count", "1")
            let id = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(UInt32(id) != nil)
            for n in 2...3 {
                let again = try Bench.nudge("send", "-p", "-r", id, "Water", "--count", "\(n)")
                #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id)
            }
            #expect(try Bench.displayedCount() == 1)
            try Bench.dunstctl("close-all")
            #expect(try Bench.history().first?["summary"] as? String == "Water ×3")
        }
    }

    @Test func waitPrintsTheDefaultAction() throws {
        try Bench.withDunst {
            let running = try Bench.start(["send", "-w", "-A", "default=Open", "Click me"])
            #expect(Bench.eventually { (try? Bench.displayedCount()) == 1 })
            try Bench.dunstctl("action", "0")
            let result = running.finish(timeout: 5)
            #expect(result.status == 0)
            #expect(result.stdout == "default\n")
        }
    }

    @Test func aNamedActionFromTheContextMenu() throws {
        try Bench.withDunst {
            let dir = try #require(Bench.directory)
            try "Snooze 10 min".write(toFile: "\(dir)/dmenu-choice", atomically: true, encoding: .utf8)
            let running = try Bench.start(["send", "-A", "done=Done", "-A", "snooze=Snooze 10 min", "Stand up"])
            #expect(Bench.eventually { (try? Bench.displayedCount()) == 1 })
            try Bench.dunstctl("context")
            let result = running.finish(timeout: 5)
            #expect(result.status == 0)
            #expect(result.stdout == "snooze\n")
            #expect(Bench.eventually { (try? Bench.displayedCount()) == 0 }, "an answered pop-up is closed")
        }
    }

    @Test func waitEndsSilentlyWhenThePopUpCloses() throws {
        try Bench.withDunst {
            let result = try Bench.nudge("send", "-w", "-t", "300", "Short-lived", timeout: 10)
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func theSoundIsPlayedLocallyWhenTheServerCannot() throws {
        try Bench.withDunst {
            let dir = try #require(Bench.directory)
            let log = "\(dir)/player-args"
            let player = "\(dir)/fake-player"
            try "#!/bin/sh\necho \"$@\" > \(log)\n".write(toFile: player, atomically: true, encoding: .utf8)
            chmod(player, 0o755)
            try? FileManager.default.removeItem(atPath: log)
            let result = try Bench.nudge("send", "--sound", "bell", "Ding", environment: ["NUDGE_SOUND_PLAYER": player])
            #expect(result.status == 0)
            #expect(Bench.eventually { FileManager.default.fileExists(atPath: log) })
            let args = try String(contentsOfFile: log, encoding: .utf8)
            #expect(args == "/usr/share/sounds/freedesktop/stereo/bell.oga\n")
        }
    }

    /// A desktop-entry given as a hint is sent, as notify-send sends it.
    @Test func aDesktopEntryHintIsSent() throws {
        try Bench.withDunst {
            let monitor = try BusMonitor()
            let result = try Bench.nudge("send", "-h", "string:desktop-entry:org.example.App", "Hello")
            let capture = monitor.stop()
            #expect(result.status == 0)
            #expect(capture.contains(#"string "desktop-entry""#) && capture.contains(#"string "org.example.App""#))
        }
    }

    /// A server that takes a pop-up down at once (GNOME 48 did so to send's, as its
    /// connection went): never seen, so an error, not a success.
    @Test func aPopUpTakenDownAtOnceIsAnError() throws {
        let bus = try PrivateBus()
        let server = try ServerThread(address: bus.address, tick: { connection in
            for id in Closer.shared.take() {
                try? connection.emit(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                                     member: "NotificationClosed", arguments: [.uint32(id), .uint32(2)])
            }
        }) { connection in
            try connection.export(ExportedObject(path: "/org/freedesktop/Notifications", interfaces: [
                .init("org.freedesktop.Notifications", methods: [
                    .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                             .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                          outputs: [.init("id", "u")]) { _, _ in
                        Closer.shared.add(5)
                        return [.uint32(5)]
                    },
                    .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["body"])] },
                ]),
            ]))
            _ = try connection.requestName("org.freedesktop.Notifications")
        }
        defer { server.stop() }
        // As notify-send: the server took it, and that is all send waits for.
        let plain = try Bench.nudge("send", "Taken", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(plain.status == 0)
        #expect(plain.stderr.isEmpty)
        let result = try Bench.nudge("send", "--check-shown", "Gone", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("nudge: the notification server took pop-up 5 down "))
        #expect(result.stderr.hasSuffix(" ms after showing it (dismissed)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        // Asked to be gone sooner than that: no error, and no wait.
        let short = try Bench.nudge("send", "--check-shown", "-t", "300", "Brief", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(short.status == 0)
    }

    /// The server ends while send waits: its pop-ups went with it. Said at once, for an
    /// answer waited for too (notify-send -w waits forever there).
    @Test(arguments: [["--check-shown"], ["-w"], ["-A", "yes=Yes"]])
    func aServerThatEndsWithThePopUpIsAnError(_ flags: [String]) throws {
        let bus = try PrivateBus()
        let notified = DispatchSemaphore(value: 0)
        let server = try ServerThread(address: bus.address) { connection in
            try connection.export(ExportedObject(path: "/org/freedesktop/Notifications", interfaces: [
                .init("org.freedesktop.Notifications", methods: [
                    .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                             .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                          outputs: [.init("id", "u")]) { _, _ in
                        notified.signal()
                        return [.uint32(9)]
                    },
                    .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["body"])] },
                ]),
            ]))
            _ = try connection.requestName("org.freedesktop.Notifications")
        }
        let running = try Bench.start(["send"] + flags + ["Gone with it"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(notified.wait(timeout: .now() + 10) == .success)
        server.stop()
        let result = running.finish(timeout: 10)
        #expect(result.status == 69)
        #expect(result.stderr == "nudge: the notification server (org.freedesktop.Notifications) went away with pop-up 9\n")
    }

    /// What notify-send refuses (no summary) or would show as something else (bytes that are
    /// not UTF-8) is a usage error, before anything is sent.
    @Test func anEmptySummaryAndBytesThatAreNotUTF8AreRefused() throws {
        let bus = try PrivateBus()
        let environment: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let empty = try Bench.nudge("send", "", environment: environment)
        #expect(empty.status == 64)
        #expect(empty.stderr == "nudge: invalid summary '': give the pop-up a title\n")
        for arguments in [["send", "bad\u{FFFD}"], ["send", "ok", "body \u{FFFD}"]] {
            let result = try Bench.nudge(arguments, environment: environment)
            #expect(result.status == 64)
            #expect(result.stderr.hasSuffix(": it is not valid UTF-8 text\n"), "\(result.stderr)")
        }
    }

    @Test func noNotificationServerIsExit69Fast() throws {
        let bus = try PrivateBus()
        let result = try Bench.nudge("send", "x", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(result.status == 69)
        // Said at once, not after the 25 s a busy server is waited for: a bound far from
        // both, so that a loaded machine does not fail it.
        #expect(result.seconds < 20)
        #expect(result.stderr.contains("org.freedesktop.Notifications"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        let doctor = try Bench.nudge("doctor", environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(doctor.status == 69)
        #expect(doctor.stdout.contains("FAIL notification server"))
    }

    @Test func noSessionBusIsExit69() throws {
        let result = try Bench.nudge("send", "x", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("nudge: cannot reach the session bus"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (["send", "-u", "urgent", "x"], "urgency 'urgent'"),
        (["send", "-t", "soon", "x"], "soon"),
        (["send", "-h", "float:x:1", "x"], "hint type 'float'"),
        (["send", "-h", "int:x:many", "x"], "int value 'many'"),
        (["send", "-h", "nocolons", "x"], "TYPE:NAME:VALUE"),
        (["send", "-A", "=Label", "x"], "NAME before '='"),
        (["send", "-r", "many", "x"], "replace-id"),
        (["send", "-r", "-1", "x"], "value '-1' is invalid for '-r"),
        (["send", "--count", "-2", "x"], "invalid count"),
        (["send"], "summary"),
        (["frobnicate"], "frobnicate"),
    ])
    func badOptionsAreExit64WithOneLine(arguments: [String], mentions: String) throws {
        let result = try Bench.run(Bench.nudgePath, arguments)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func doctorReportsTheServer() throws {
        let text = try Bench.nudge("doctor")
        #expect(text.status == 0)
        #expect(text.stdout.contains("ok   notification server: dunst 1.9"))
        #expect(text.stdout.contains("body-markup"))
        let json = try Bench.nudge("doctor", "--json", environment: ["NUDGE_SOUND_PLAYER": "/bin/true"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == true)
        let server = try #require(object["notificationServer"] as? [String: Any])
        #expect(server["name"] as? String == "dunst")
        #expect(server["specVersion"] as? String == "1.2")
        #expect((server["capabilities"] as? [String])?.contains("actions") == true)
        #expect((object["sound"] as? [String: Any])?["program"] as? String == "/bin/true")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")))
    func sendLeaksNothing() throws {
        try Bench.withDunst {
            let result = try Bench.run("/usr/bin/valgrind", ["--leak-check=full", "--error-exitcode=0", Bench.nudgePath,
                                                              "send", "-h", "string:x:y", "--count", "2", "Leak check", "body"],
                                       timeout: 120)
            #expect(result.status == 0)
            #expect(result.stderr.contains("definitely lost: 0 bytes") || result.stderr.contains("no leaks are possible"),
                    "\(result.stderr.suffix(800))")
        }
    }
}

/// Ids a stand-in server closes on its next turn.
final class Closer: @unchecked Sendable {
    static let shared = Closer()
    private let lock = NSLock()
    private var ids: [UInt32] = []
    func add(_ id: UInt32) { lock.withLock { ids.append(id) } }
    func take() -> [UInt32] { lock.withLock { defer { ids = [] }; return ids } }
}
