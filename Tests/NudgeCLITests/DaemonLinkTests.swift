import DBus
import Foundation
import NudgeCore
import Testing
import TestSupport

/// The CLI tells a running daemon about changes and hands it the answers; with nobody
/// owning the daemon's name it works on the store alone. A stand-in owns the name on a
/// private bus and records the calls it gets.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct DaemonLinkTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        func add(_ call: String) { lock.withLock { calls.append(call) } }
        var all: [String] { lock.withLock { calls } }
    }

    /// `status`: what `Status()` answers (it is recorded too).
    static func standIn(on bus: PrivateBus, recording calls: Calls, status: [(String, Value)] = []) throws -> ServerThread {
        try ServerThread(address: bus.address) { connection in
            let record: (String) -> ExportedObject.Method = { name in
                .init(name, inputs: name == "Reload" ? [] : name == "Snooze" ? [.init("id", "s"), .init("seconds", "u")] : [.init("id", "s")]) { args, _ in
                    calls.add(([name] + args.map { "\($0.string ?? $0.uint32.map(String.init) ?? "?")" }).joined(separator: " "))
                    return []
                }
            }
            let statusMethod = ExportedObject.Method("Status", outputs: [.init("status", "a{sv}")]) { _, _ in
                calls.add("Status")
                return [.vardict(status)]
            }
            try connection.export(ExportedObject(path: NudgeService.objectPath, interfaces: [
                .init(NudgeService.interface, methods: ["Reload", "Ack", "Done", "Snooze"].map(record) + [statusMethod]),
            ]))
            _ = try connection.requestName(NudgeService.busName)
        }
    }

    @Test func changesAreAnnouncedAndAnswersHandedOver() throws {
        let bus = try PrivateBus()
        let calls = Calls()
        let home = try Home()
        let environment: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let id = try home.add("Before", "--at", "08:00")
        let standIn = try Self.standIn(on: bus, recording: calls)
        defer { standIn.stop() }
        #expect(try home.nudge(["add", "Water", "--at", "9:00"], environment: environment).status == 0)
        #expect(try home.nudge(["list"], environment: environment).status == 0)
        #expect(try home.nudge(["off", id], environment: environment).status == 0)
        #expect(try home.nudge(["edit", id, "--title", "After"], environment: environment).status == 0)
        #expect(try home.nudge(["rm", id], environment: environment).status == 0)
        #expect(calls.all == ["Reload", "Reload", "Reload", "Reload"], "reading commands stay quiet")
        let other = try home.add("Other", "--at", "10:00")
        let full = try #require(try home.list().first { $0["shortId"] as? String == other }?["id"] as? String)
        let hex = full.replacingOccurrences(of: "-", with: "")
        #expect(try home.nudge(["ack", other], environment: environment).status == 0)
        #expect(try home.nudge(["done", other], environment: environment).status == 0)
        #expect(try home.nudge(["snooze", other, "15m"], environment: environment).status == 0)
        #expect(calls.all.suffix(3) == ["Ack \(hex)", "Done \(hex)", "Snooze \(hex) 900"])
        #expect(try home.log().isEmpty, "the daemon logs the answers it applies, not the CLI")
    }

    @Test func withoutADaemonTheStoreIsEnough() throws {
        let bus = try PrivateBus()
        let home = try Home()
        let environment: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let added = try home.nudge(["add", "Alone", "--at", "9:00"], environment: environment)
        #expect(added.status == 0)
        #expect(added.stderr.isEmpty)
        let id = try #require(try home.list().first?["shortId"] as? String)
        #expect(try home.nudge(["snooze", id, "5m"], environment: environment).status == 0)
        #expect(try home.log().map { $0["event"] as? String } == ["snoozed"])
    }
}
