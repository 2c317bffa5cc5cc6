import DBus
import Foundation
import Testing
import TestSupport

/// `nudge send` puts the same Notify on the wire as notify-send 0.8 for the same arguments:
/// both run against one private bus and dunst, a monitor connection sees both calls as
/// typed values, and they are compared field by field. Set aside, as the guide (docs/guide.md) says:
/// the app name when none is given (notify-send's own name vs "Nudge") and notify-send's
/// `sender-pid` hint; hint order is ignored. Neither sends `desktop-entry` unless asked.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct SendParityTests {
    static let invocations: [[String]] = [
        ["T"], ["T", "B"], ["T", ""], ["-u", "low", "T"], ["-u", "normal", "T"], ["-u", "critical", "T", "B"],
        ["--urgency=low", "T"], ["-t", "5000", "T"], ["-t", "0", "T"], ["-t", "-1", "T"], ["--expire-time=250", "T"],
        ["-a", "MyApp", "T"], ["--app-name", "Other App", "T"], ["-i", "dialog-warning", "T"], ["-i", "/tmp/x.png", "T"],
        ["-c", "email.arrived", "T"], ["-c", "a", "-c", "b", "T"], ["-h", "int:x:5", "T"], ["-h", "string:foo:bar", "T"],
        ["-h", "double:d:1.5", "T"], ["-h", "boolean:b:true", "T"], ["-h", "byte:urgency:2", "T"],
        ["-u", "critical", "-h", "byte:urgency:0", "T"], ["-c", "x", "-h", "string:category:y", "T"],
        ["-h", "int:a:1", "-h", "int:a:2", "T"], ["-e", "T"], ["-e", "-h", "boolean:transient:false", "T"],
        ["T", "line1\\nline2"], ["T", "B1\\tB2 \\\\ B3 \\x41"], ["S1\\nS2", "B"], ["T", "octal \\101\\102"],
        ["T", "trailing \\"], ["T", "<b>bold</b> & <i>co</i>"], ["Ünïcödé ☕", "본문 💧 — ok"], ["--", "-T", "-B"],
        ["T", "-u", "low"], ["-r", "7", "T"], ["-r", "0", "T"], ["-c", "", "T"], ["-pe", "T"], ["-u", "low", "-u", "critical", "T"], ["-p", "T"],
        ["-A", "Yes", "-A", "no=No", "T"], ["-w", "T", "B"], ["-A", "a=A", "-w", "-t", "1000", "T"],
        // A NUL (`\\0`) ends the body, as GLib's C string ends there; an expiry below -1 goes as it is.
        ["T", "a\\0b"], ["T", "nul \\000 end"], ["-t", "-5", "T"],
    ]

    /// Invocations that wait for an answer: both are stopped once their Notify is seen.
    static func waits(_ arguments: [String]) -> Bool { arguments.contains("-A") || arguments.contains("-w") }

    /// The Notify calls a monitor saw while `body` ran.
    static func notifyCalls(on desktop: Desktop, _ body: () throws -> Void) throws -> [[Value]] {
        let monitor = try Connection.bus(address: desktop.address)
        var calls: [[Value]] = []
        try monitor.monitor(["type='method_call',interface='org.freedesktop.Notifications',member='Notify'"]) { message in
            if let arguments = try? message.arguments() { calls.append(arguments) }
        }
        try body()
        // One message is handled per round; both calls are in the socket by now.
        let deadline = Date().addingTimeInterval(3)
        while calls.count < 2 && Date() < deadline { monitor.process(timeout: .milliseconds(50)) }
        return calls
    }

    static func comparable(_ call: [Value], givenAppName: Bool) -> [String] {
        guard call.count == 8 else { return ["not a Notify: \(call)"] }
        var hints = call[6].vardict ?? [:]
        hints["sender-pid"] = nil
        let fields = [givenAppName ? "\(call[0])" : "(default app name)", "\(call[1])", "\(call[2])", "\(call[3])", "\(call[4])", "\(call[5])"]
        return fields + hints.sorted { $0.key < $1.key }.map { "hint \($0.key) = \($0.value)" } + ["\(call[7])"]
    }

    @Test(arguments: invocations) func theSameNotifyAsNotifySend(arguments: [String]) throws {
        let desktop = try Desktop()
        let environment = desktop.environment()
        var exits: [Int32] = []
        let waiting = Self.waits(arguments)
        let calls = try Self.notifyCalls(on: desktop) {
            exits.append(try Bench.run("/usr/bin/notify-send", arguments, environment: environment, timeout: waiting ? 1 : 30).status)
            exits.append(try Bench.run(Bench.nudgePath, ["send"] + arguments, environment: environment, timeout: waiting ? 1 : 30).status)
        }
        if !waiting { #expect(exits == [0, 0], "\(arguments)") }
        try #require(calls.count == 2, "\(arguments): \(calls.count) Notify calls")
        let givenAppName = arguments.contains { $0 == "-a" || $0.hasPrefix("--app-name") }
        #expect(Self.comparable(calls[0], givenAppName: givenAppName) == Self.comparable(calls[1], givenAppName: givenAppName),
                "\(arguments)")
    }

    @Test func badInputIsSysexitsWhereNotifySendSays1() throws {
        let desktop = try Desktop()
        for arguments in [["-u", "urgent", "T"], ["-h", "nonsense", "T"], ["-t", "soon", "T"]] {
            let theirs = try Bench.run("/usr/bin/notify-send", arguments, environment: desktop.environment())
            let ours = try Bench.run(Bench.nudgePath, ["send"] + arguments, environment: desktop.environment())
            #expect(theirs.status == 1, "\(arguments)")
            #expect(ours.status == 64, "\(arguments)")
            #expect(ours.stderr.split(separator: "\n").count == 1)
        }
    }
}
