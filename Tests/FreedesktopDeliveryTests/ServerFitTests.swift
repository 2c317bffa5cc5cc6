import DBus
import Foundation
@testable import FreedesktopDelivery
import NudgeCore
import Testing
import TestSupport

/// The actions, in the scheduler's order, of a water reminder.
private let waterActions: [NudgeCore.Notification.Action] = [
    .init(key: .default, label: ""), .init(key: .drink, label: "Drank 250 ml"), .init(key: .done, label: "Done"),
    .init(key: .snooze, label: "Snooze 10 min"), .init(key: .skipToday, label: "Done for today"),
]

@Suite(.onTestThreads)
struct ServerFitTests {
    @Test func gnomeShellKeepsTheFirstThreeButtonsAndTheBodyClick() {
        let fit = ServerFit(serverName: "gnome-shell")
        #expect(fit.fit(waterActions).map(\.key) == [.default, .drink, .done, .snooze])
        #expect(fit.fit(Array(waterActions.prefix(1) + waterActions.dropFirst(2))).map(\.key)
                == [.default, .done, .snooze, .skipToday], "a plain reminder keeps all three of its buttons")
        #expect(!fit.replacesInPlace)
    }

    /// GNOME Shell keeps a replaced pop-up whole from 48.6: both sides of the boundary, and
    /// versions written as the shell writes them.
    @Test(arguments: [("43.9", false), ("45.5", false), ("48.5", false), ("48.6", true), ("48.7", true), ("49.rc", true),
                      ("51.0", true), ("", false), ("garbage", false)])
    func gnomeShellReplacesInPlaceFrom48Point6(version: String, inPlace: Bool) {
        let fit = ServerFit(serverName: "gnome-shell", version: version)
        #expect(fit.replacesInPlace == inPlace, "\(version)")
        #expect(fit.maxButtons == 3 && fit.stallsAfterAnswer && fit.closesAnswered)
    }

    @Test func versionsCompareByTheirNumbers() {
        #expect(ServerVersion("48.10") > ServerVersion("48.9"))
        #expect(ServerVersion("48.6") == ServerVersion(48, 6))
        #expect(ServerVersion("48.6.0") == ServerVersion("48.6"))
        #expect(ServerVersion("5.27.5") < ServerVersion("6.3.6"))
        #expect(ServerVersion("51.alpha") == ServerVersion(51))
        #expect(ServerVersion("48.6").description == "48.6")
    }

    @Test(arguments: ["Plasma", "SwayNotificationCenter", "dunst"])
    func theStallIsGnomeShellsAlone(name: String) {
        #expect(!ServerFit(serverName: name, version: "6.3.6").stallsAfterAnswer)
    }

    @Test func swayncGetsALabelledBodyClick() {
        let fitted = ServerFit(serverName: "SwayNotificationCenter").fit(waterActions)
        #expect(fitted.first == .init(key: .default, label: "Done"))
        #expect(Array(fitted.dropFirst()) == Array(waterActions.dropFirst()))
    }

    @Test(arguments: ["dunst", "Xfce Notify Daemon", "mako", "Notification Daemon", ""])
    func otherServersGetWhatTheSchedulerChose(name: String) {
        #expect(ServerFit(serverName: name) == .standard)
        #expect(ServerFit.standard.fit(waterActions) == waterActions)
    }
}

/// What a stand-in server was asked, in order.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, [Value])] = []
    private var refusals: Int
    init(refusals: Int = 0) { self.refusals = refusals }

    func record(_ member: String, _ arguments: [Value]) {
        lock.withLock { entries.append((member, arguments)) }
    }

    /// Whether this Notify is refused (as Plasma refuses a repeat within a second).
    func refuse() -> Bool {
        lock.withLock {
            guard refusals > 0 else { return false }
            refusals -= 1
            return true
        }
    }

    var members: [String] { lock.withLock { entries.map(\.0) } }
    func arguments(_ member: String) -> [[Value]] { lock.withLock { entries.filter { $0.0 == member }.map(\.1) } }
}

/// A stand-in server on a private bus that names itself `name` and hands out ids 1, 2, 3…
func namedServer(_ bus: PrivateBus, name: String, version: String = "1", log: CallLog) throws -> ServerThread {
    try ServerThread(address: bus.address) { connection in
        nonisolated(unsafe) var next: UInt32 = 0
        try connection.export(ExportedObject(path: FreedesktopDelivery.objectPath, interfaces: [
            .init(FreedesktopDelivery.interface, methods: [
                .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                         .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                      outputs: [.init("id", "u")]) { arguments, _ throws(BusError) in
                    log.record("Notify", arguments)
                    if log.refuse() { throw BusError(.init(rawValue: FreedesktopDelivery.refusedForNow)) }
                    next += 1
                    return [.uint32(next)]
                },
                .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["actions", "body"])] },
                .init("GetServerInformation", outputs: [.init("name", "s"), .init("vendor", "s"), .init("version", "s"),
                                                        .init("spec", "s")]) { _, _ in
                    [.string(name), .string("Test"), .string(version), .string("1.2")]
                },
                .init("CloseNotification", inputs: [.init("id", "u")]) { arguments, _ in
                    log.record("CloseNotification", arguments)
                    return []
                },
            ]),
        ]))
        _ = try connection.requestName(FreedesktopDelivery.busName)
    }
}

/// The delivery sends each server what it can show, and answers each server's quirks once.
/// Work put off for `later` is run by the test when it chooses, never on a clock.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct ServerQuirkTests {
    final class Setup {
        let bus: PrivateBus
        let log: CallLog
        let server: ServerThread
        let delivery: FreedesktopDelivery
        var events: [DeliveryEvent] = []
        var putOff: [() -> Void] = []

        init(name: String, version: String = "1", refusals: Int = 0) throws {
            bus = try PrivateBus()
            log = CallLog(refusals: refusals)
            server = try namedServer(bus, name: name, version: version, log: log)
            delivery = try FreedesktopDelivery(connection: try Connection.bus(address: bus.address), replyMode: .queue)
            delivery.onEvent = { [unowned self] in events.append($0) }
            delivery.later = { [unowned self] _, work in putOff.append(work) }
            #expect(delivery.fit == ServerFit(serverName: name, version: version))
        }

        deinit { server.stop() }

        /// Processes the bus until `done` holds (at most 5 s).
        func until(_ done: () -> Bool) {
            for _ in 0..<250 where !done() { delivery.process(timeout: .milliseconds(20)) }
        }

        func show(_ summary: String, replacing: UInt32? = nil) -> UInt32 {
            var notification = NudgeCore.Notification(summary: summary, actions: waterActions)
            notification.replacesID = replacing
            let handle = try! delivery.deliver(notification)
            until { delivery.serverID(of: handle) != nil || !events.isEmpty }
            return handle
        }

        func emit(_ member: String, _ arguments: [Value]) {
            // From the server's own connection: only its signals count.
            try! server.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                             member: member, arguments: arguments)
        }

        func runPutOff() {
            let work = putOff
            putOff = []
            for item in work { item() }
        }
    }

    @Test func onGnomeShellAReplacementIsANewPopUpAndTheOldOneGoesQuietly() throws {
        let s = try Setup(name: "gnome-shell")
        let first = s.show("Water")
        #expect(s.delivery.serverID(of: first) == 1)
        let actions = s.log.arguments("Notify").first?[5].strings
        #expect(actions == ["default", "", "drink", "Drank 250 ml", "done", "Done", "snooze", "Snooze 10 min"])

        let second = s.show("Water ×2", replacing: first)
        #expect(s.delivery.serverID(of: second) == 2)
        #expect(s.log.arguments("Notify").last?[1] == .uint32(0), "not replaced in place")
        s.until { s.log.members.contains("CloseNotification") }
        #expect(s.log.arguments("CloseNotification") == [[.uint32(1)]])
        // The old pop-up's close, and a click on it the shell forwards late, answer nothing.
        s.emit("NotificationClosed", [.uint32(1), .uint32(3)])
        s.emit("ActionInvoked", [.uint32(1), .string("default")])
        s.emit("ActionInvoked", [.uint32(2), .string("done")])
        s.until { !s.events.isEmpty }
        #expect(s.events == [.action(id: second, key: .done)])
    }

    @Test func onGnomeShell48Point6AReplacementKeepsItsPlace() throws {
        let s = try Setup(name: "gnome-shell", version: "48.7")
        let first = s.show("Water")
        let second = s.show("Water ×2", replacing: first)
        #expect(s.log.arguments("Notify").last?[1] == .uint32(1))
        #expect(s.delivery.serverID(of: second) == 2, "the stand-in hands out a new id; the shell keeps the old")
        #expect(!s.log.members.contains("CloseNotification"))
    }

    /// GNOME Shell leaves a pop-up queued behind an answered one unseen: the ones sent after
    /// it are closed and sent again, silently, under the same handle; those sent before it,
    /// and everywhere else, are left alone.
    @Test(arguments: ["done", "default"])
    func onGnomeShellWhatCameAfterAnAnsweredPopUpIsSentAgain(answer: String) throws {
        let s = try Setup(name: "gnome-shell", version: "48.7")
        // As the scheduler does: an answer withdraws its pop-up at once.
        s.delivery.onEvent = { [unowned s] event in
            s.events.append(event)
            if case .action(let id, _) = event { try? s.delivery.withdraw(id) }
        }
        let before = s.show("Before")
        let answered = s.show("Tea")
        let after = s.show("Stretch")
        #expect([before, answered, after].map { s.delivery.serverID(of: $0) } == [1, 2, 3])
        s.emit("ActionInvoked", [.uint32(2), .string(answer)])
        s.until { s.delivery.serverID(of: after) == 4 }
        #expect(s.delivery.serverID(of: after) == 4)
        #expect(s.delivery.serverID(of: before) == 1, "shown before the answered one: its banner came")
        #expect(s.log.arguments("CloseNotification") == [[.uint32(3)]])
        let again = try #require(s.log.arguments("Notify").last)
        #expect(again[3] == .string("Stretch") && again[1] == .uint32(0))
        #expect(again[6].vardict?["suppress-sound"] == .bool(true), "its sound played when it first came")
        // The old copy's close is nothing; the new one's answer reaches the same handle.
        s.emit("NotificationClosed", [.uint32(3), .uint32(3)])
        s.emit("ActionInvoked", [.uint32(4), .string("done")])
        s.until { s.events.last == .action(id: after, key: .done) }
        #expect(s.events.filter { $0.id == after } == [.action(id: after, key: .done)])
    }

    /// Spec 1.2: the token comes just before the click it goes with, and is taken once.
    @Test func theActivationTokenOfAClickIsKeptForItsPopUp() throws {
        let s = try Setup(name: "gnome-shell", version: "48.7")
        let handle = s.show("Tea")
        s.emit("ActivationToken", [.uint32(1), .string("mutter-token-42")])
        s.emit("ActionInvoked", [.uint32(1), .string("default")])
        s.until { !s.events.isEmpty }
        #expect(s.delivery.takeActivationToken(for: handle + 1) == nil, "another pop-up's")
        s.emit("ActivationToken", [.uint32(1), .string("mutter-token-43")])
        s.emit("ActionInvoked", [.uint32(1), .string("default")])
        s.until { s.events.count == 2 }
        #expect(s.delivery.takeActivationToken(for: handle) == "mutter-token-43")
        #expect(s.delivery.takeActivationToken(for: handle) == nil, "taken once")
    }

    /// Dismissals may come many at once (Clear all), each with the others' closes on their
    /// way; and a pop-up withdrawn (`nudge ack`) is done with: neither is sent again.
    @Test func onGnomeShellNeitherADismissalNorAWithdrawnPopUpSendsAgain() throws {
        let s = try Setup(name: "gnome-shell", version: "48.7")
        _ = s.show("Tea")
        let stretch = s.show("Stretch")
        let water = s.show("Water")
        try s.delivery.withdraw(stretch)
        s.emit("ActionInvoked", [.uint32(1), .string("done")])
        s.until { s.delivery.serverID(of: water) == 4 }
        #expect(s.delivery.serverID(of: water) == 4)
        #expect(s.log.arguments("Notify").map { $0[3] } == [.string("Tea"), .string("Stretch"), .string("Water"), .string("Water")],
                "the withdrawn one is not sent again")

        let d = try Setup(name: "gnome-shell", version: "48.7")
        _ = d.show("Tea")
        _ = d.show("Stretch")
        d.emit("NotificationClosed", [.uint32(1), .uint32(2)])
        d.until { !d.events.isEmpty }
        let marker = try d.delivery.deliver(NudgeCore.Notification(summary: "marker"))
        d.until { d.delivery.serverID(of: marker) != nil }
        #expect(d.log.arguments("Notify").count == 3, "Tea, Stretch, the marker: a dismissal sends nothing again")
    }

    /// Replaced in place (GNOME 48.6 and later), a pop-up keeps its place in the shell's
    /// queue: what came after the first copy is still after it.
    @Test func onGnomeShellAReplacedPopUpKeepsItsPlace() throws {
        let s = try Setup(name: "gnome-shell", version: "48.7")
        let tea = s.show("Tea")
        let stretch = s.show("Stretch")
        let teaAgain = s.show("Tea ×2", replacing: tea)
        #expect(s.delivery.serverID(of: teaAgain) == 3)
        s.emit("ActionInvoked", [.uint32(3), .string("done")])
        s.until { s.delivery.serverID(of: stretch) == 4 }
        #expect(s.delivery.serverID(of: stretch) == 4, "Stretch, behind Tea in the queue, is sent again")
    }

    @Test func elsewhereNothingIsSentAgainAfterAnAnswer() throws {
        let s = try Setup(name: "Plasma", version: "6.3.6")
        _ = s.show("Tea")
        _ = s.show("Stretch")
        s.emit("ActionInvoked", [.uint32(1), .string("done")])
        s.until { !s.events.isEmpty }
        let marker = try s.delivery.deliver(NudgeCore.Notification(summary: "marker"))
        s.until { s.delivery.serverID(of: marker) != nil }
        #expect(s.log.arguments("Notify").count == 3)
        #expect(!s.log.members.contains("CloseNotification"))
    }

    @Test func elsewhereAReplacementKeepsItsPlace() throws {
        let s = try Setup(name: "dunst")
        let first = s.show("Water")
        _ = s.show("Water ×2", replacing: first)
        #expect(s.log.arguments("Notify").last?[1] == .uint32(1))
        #expect(!s.log.members.contains("CloseNotification"))
    }

    @Test func aPopUpRefusedForNowIsSentAgainAndArrives() throws {
        let s = try Setup(name: "Plasma", refusals: 2)
        let handle = try s.delivery.deliver(NudgeCore.Notification(summary: "Stretch"))
        s.until { s.putOff.count == 1 }
        s.runPutOff()
        s.until { s.putOff.count == 1 }
        s.runPutOff()
        s.until { s.delivery.serverID(of: handle) != nil || !s.events.isEmpty }
        #expect(s.delivery.serverID(of: handle) == 1)
        #expect(s.events.isEmpty, "no failure reported")
        #expect(s.log.arguments("Notify").count == 3)
    }

    @Test func aPopUpRefusedEveryTimeFailsOnce() throws {
        let s = try Setup(name: "Plasma", refusals: 10)
        let handle = try s.delivery.deliver(NudgeCore.Notification(summary: "Stretch"))
        for _ in 1..<FreedesktopDelivery.notifyAttempts {
            s.until { s.putOff.count == 1 }
            s.runPutOff()
        }
        s.until { !s.events.isEmpty }
        guard case .failed(let id, let error)? = s.events.first else {
            Issue.record("no failure: \(s.events)")
            return
        }
        #expect(id == handle && error.kind == .rejected && s.events.count == 1)
    }

    @Test func aPopUpWithdrawnWhileRefusedIsNotSentAgain() throws {
        let s = try Setup(name: "Plasma", refusals: 1)
        let handle = try s.delivery.deliver(NudgeCore.Notification(summary: "Stretch"))
        s.until { s.putOff.count == 1 }
        try s.delivery.withdraw(handle)
        s.runPutOff()
        _ = s.show("marker")
        #expect(s.log.arguments("Notify").count == 2, "the refused one, then the marker")
        #expect(s.events.isEmpty)
    }

    @Test func anAnsweredPopUpTheServerClosesIsNotClosedAgain() throws {
        let s = try Setup(name: "Plasma")
        let handle = s.show("Stretch")
        s.emit("ActionInvoked", [.uint32(1), .string("done")])
        s.until { !s.events.isEmpty }
        try s.delivery.withdraw(handle)
        #expect(s.putOff.count == 1, "the close waits for the server's own")
        s.emit("NotificationClosed", [.uint32(1), .uint32(3)])
        s.until { s.events.count == 2 }
        s.delivery.release(handle)
        s.runPutOff()
        _ = s.show("marker")
        #expect(!s.log.members.contains("CloseNotification"))
    }

    @Test func anAnsweredPopUpTheServerLeavesUpIsClosedAfterAMoment() throws {
        let s = try Setup(name: "Plasma")
        let handle = s.show("Stretch")
        s.emit("ActionInvoked", [.uint32(1), .string("done")])
        s.until { !s.events.isEmpty }
        try s.delivery.withdraw(handle)
        s.delivery.release(handle)
        s.runPutOff()
        s.until { s.log.members.contains("CloseNotification") }
        #expect(s.log.arguments("CloseNotification") == [[.uint32(1)]])
    }

    /// dunst keeps an answered pop-up up (its menu ran the action): closed at once.
    @Test func anAnsweredPopUpIsClosedAtOnceWhereTheServerKeepsIt() throws {
        let s = try Setup(name: "dunst")
        let handle = s.show("Stretch")
        s.emit("ActionInvoked", [.uint32(1), .string("done")])
        s.until { !s.events.isEmpty }
        try s.delivery.withdraw(handle)
        #expect(s.putOff.isEmpty)
        s.until { s.log.members.contains("CloseNotification") }
        #expect(s.log.arguments("CloseNotification") == [[.uint32(1)]])
    }

    @Test func anUnansweredPopUpIsClosedAtOnce() throws {
        let s = try Setup(name: "Plasma")
        let handle = s.show("Stretch")
        try s.delivery.withdraw(handle)
        #expect(s.putOff.isEmpty)
        s.until { s.log.members.contains("CloseNotification") }
        #expect(s.log.arguments("CloseNotification") == [[.uint32(1)]])
    }
}
