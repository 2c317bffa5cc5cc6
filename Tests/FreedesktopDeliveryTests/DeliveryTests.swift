import DBus
import Foundation
@testable import FreedesktopDelivery
import Platform
import NudgeCore
import Testing
import TestSupport

/// FreedesktopDelivery against dunst on the bench: events and close reasons as they
/// really arrive.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct LiveDeliveryTests {
    /// Pumps the connection until an event for `id` arrives.
    func nextEvent(_ delivery: FreedesktopDelivery, for id: UInt32, within seconds: Double = 5) -> DeliveryEvent? {
        var event: DeliveryEvent?
        delivery.onEvent = { if $0.id == id { event = $0 } }
        let deadline = Date().addingTimeInterval(seconds)
        while event == nil && Date() < deadline { delivery.process(timeout: .milliseconds(50)) }
        return event
    }

    @Test func theThreeCloseReasonsArriveTyped() throws {
        try Bench.withDunst {
            let delivery = try FreedesktopDelivery.session()
            let expiring = try delivery.deliver(Notification(summary: "expires", expiry: .milliseconds(300)))
            #expect(nextEvent(delivery, for: expiring) == .closed(id: expiring, reason: .expired))

            let dismissed = try delivery.deliver(Notification(summary: "dismissed"))
            try Bench.dunstctl("close")
            #expect(nextEvent(delivery, for: dismissed) == .closed(id: dismissed, reason: .dismissed))

            let withdrawn = try delivery.deliver(Notification(summary: "withdrawn"))
            try delivery.withdraw(withdrawn)
            #expect(nextEvent(delivery, for: withdrawn) == .closed(id: withdrawn, reason: .closedByCall))
        }
    }

    @Test func theDefaultActionComesBackAsAnEvent() throws {
        try Bench.withDunst {
            let delivery = try FreedesktopDelivery.session()
            let id = try delivery.deliver(Notification(summary: "click me",
                                                       actions: [.init(key: .default, label: "Open")]))
            try Bench.dunstctl("action", "0")
            #expect(nextEvent(delivery, for: id) == .action(id: id, key: .default))
        }
    }

    @Test func eventsForOtherClientsIdsAreIgnored() throws {
        try Bench.withDunst {
            let ours = try FreedesktopDelivery.session()
            let theirs = try FreedesktopDelivery.session()
            let theirID = try theirs.deliver(Notification(summary: "someone else's"))
            var seen: [DeliveryEvent] = []
            ours.onEvent = { seen.append($0) }
            try theirs.withdraw(theirID)
            // A broadcast of the same signal, as GNOME's service does, must be ignored too.
            try theirs.connection.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                                       member: "NotificationClosed", arguments: [.uint32(theirID), .uint32(2)])
            theirs.connection.flush()
            for _ in 0..<10 { ours.process(timeout: .milliseconds(30)) }
            #expect(seen.isEmpty)
        }
    }

    @Test func serverFactsAreAskedOnce() throws {
        try Bench.withDunst {
            let delivery = try FreedesktopDelivery.session()
            let monitor = try BusMonitor(rule: "type='method_call',interface='org.freedesktop.Notifications'")
            let info = try delivery.serverInformation()
            _ = try delivery.serverInformation()
            let caps = try delivery.capabilities()
            _ = try delivery.deliver(Notification(summary: "one"))
            _ = try delivery.deliver(Notification(summary: "two"))
            let capture = monitor.stop()
            #expect(info.name == "dunst")
            #expect(info.specVersion == "1.2")
            #expect(caps.contains(.actions) && caps.contains(.bodyMarkup))
            #expect(capture.components(separatedBy: "member=GetCapabilities").count - 1 == 1)
            #expect(capture.components(separatedBy: "member=GetServerInformation").count - 1 == 1)
            #expect(capture.components(separatedBy: "member=Notify").count - 1 == 2)
        }
    }

    @Test func noServerIsAnAnswerNotAnAutoStart() throws {
        let bus = try PrivateBus()
        let connection = try Connection.bus(address: bus.address)
        let delivery = try FreedesktopDelivery(connection: connection)
        let start = Date()
        #expect(throws: DeliveryError.self) { _ = try delivery.deliver(Notification(summary: "x")) }
        let error = #expect(throws: DeliveryError.self) { _ = try delivery.capabilities() }
        #expect(error?.kind == .noServer)
        // An answer, not libdbus' 25 s wait for an activation: far under that on a busy machine too.
        #expect(Date().timeIntervalSince(start) < 10)
    }
}

/// The wire format, checked as plain values (no bus needed).
@Suite(.onTestThreads)
struct WireFormatTests {
    @Test func userTextIsEscapedOnlyForMarkupServers() {
        let n = Notification(summary: "a < b", body: "1 < 2 & 3 > <b>bold</b>")
        let escaped = WireFormat.notifyArguments(n, markup: true)
        #expect(escaped[4] == .string("1 &lt; 2 &amp; 3 &gt; &lt;b&gt;bold&lt;/b&gt;"))
        #expect(escaped[3] == .string("a < b"), "servers treat the summary as plain text")
        #expect(WireFormat.notifyArguments(n, markup: false)[4] == .string(n.body))
    }

    @Test func hintsGetTheirSpecTypes() throws {
        let n = Notification(summary: "s", urgency: .critical, category: "x-nudge.reminder", sound: .named("bell"),
                             suppressSound: true, transient: true, resident: true, count: 3,
                             hints: ["x": .double(1.5), "urgency": .byte(0)])
        let hints = try #require(WireFormat.hints(n).vardict)
        #expect(hints["urgency"] == .byte(0), "a hint given by name wins over the typed field, as in notify-send")
        #expect(hints["category"] == .string("x-nudge.reminder"))
        #expect(hints["desktop-entry"] == .string("io.github.nudge.Nudge"))
        #expect(hints["sound-name"] == .string("bell"))
        #expect(hints["suppress-sound"] == .bool(true))
        #expect(hints["transient"] == .bool(true))
        #expect(hints["resident"] == .bool(true))
        #expect(hints["x-nudge-count"] == .int32(3))
        #expect(hints["x"] == .double(1.5))
        #expect(WireFormat.hints(Notification(summary: "s", sound: .file("/tmp/a.oga"))).vardict?["sound-file"] == .string("/tmp/a.oga"))
        #expect(WireFormat.notifyArguments(n, markup: false).map(\.signature).joined() == "susssasa{sv}i")
    }

    @Test func soundPlayersGetTheRightArguments() {
        let env: Environment = ["XDG_DATA_DIRS": "/usr/share", "HOME": "/nonexistent"]
        let canberra = SoundPlayer(program: "/usr/bin/canberra-gtk-play", takesNames: true)
        #expect(canberra.arguments(for: .named("bell"), environment: env) == ["/usr/bin/canberra-gtk-play", "-i", "bell"])
        #expect(canberra.arguments(for: .file("/x.oga"), environment: env) == ["/usr/bin/canberra-gtk-play", "-f", "/x.oga"])
        let paplay = SoundPlayer(program: "/usr/bin/paplay", takesNames: false)
        #expect(paplay.arguments(for: .file("/x.oga"), environment: env) == ["/usr/bin/paplay", "/x.oga"])
        #expect(paplay.arguments(for: .named("no-such-sound-anywhere"), environment: env) == nil)
        #expect(SoundPlayer.find(environment: ["NUDGE_SOUND_PLAYER": "/bin/true"])?.program == "/bin/true")
        #expect(SoundPlayer.find(environment: ["PATH": "/nonexistent"]) == nil)
    }

    @Test func soundThemesAreLookedUpOnlyInAbsoluteDataFolders() throws {
        // A relative XDG_DATA_HOME is ignored (XDG spec): it would depend on where the
        // daemon happened to start.
        let here = FileManager.default.currentDirectoryPath
        let relative = "nudge-sound-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: "\(here)/\(relative)/sounds/freedesktop/stereo", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: "\(here)/\(relative)") }
        _ = FileManager.default.createFile(atPath: "\(here)/\(relative)/sounds/freedesktop/stereo/nudge-test.oga", contents: Data())
        #expect(SoundPlayer.themeFile(named: "nudge-test", environment: ["XDG_DATA_HOME": relative, "HOME": "/nonexistent",
                                                                         "XDG_DATA_DIRS": "/nonexistent"]) == nil)
        #expect(SoundPlayer.themeFile(named: "nudge-test", environment: ["XDG_DATA_HOME": "\(here)/\(relative)",
                                                                         "XDG_DATA_DIRS": "/nonexistent"])
                == "\(here)/\(relative)/sounds/freedesktop/stereo/nudge-test.oga")
    }

    @Test func queuedDeliveryMatchesRepliesAndAnswersInEitherOrder() throws {
        let bus = try PrivateBus()
        let server = try standInServer(bus)
        defer { server.stop() }
        let connection = try Connection.bus(address: bus.address)
        let delivery = try FreedesktopDelivery(connection: connection, replyMode: .queue)
        var events: [DeliveryEvent] = []
        delivery.onEvent = { events.append($0) }
        #expect(delivery.serverPresent)
        let handle = try delivery.deliver(Notification(summary: "queued"))
        for _ in 0..<20 where delivery.serverID(of: handle) == nil { delivery.process(timeout: .milliseconds(20)) }
        #expect(delivery.serverID(of: handle) == 7)

        // NotificationClosed first, then ActionInvoked: both reach us.
        // Another connection saying the same is not the server: nothing.
        let stranger = try Connection.bus(address: bus.address)
        try stranger.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                          member: "ActionInvoked", arguments: [.uint32(7), .string("done")])
        stranger.flush()
        try server.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                        member: "NotificationClosed", arguments: [.uint32(7), .uint32(2)])
        try server.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                        member: "ActionInvoked", arguments: [.uint32(7), .string("snooze")])
        for _ in 0..<20 where events.count < 2 { delivery.process(timeout: .milliseconds(20)) }
        #expect(events == [.closed(id: handle, reason: .dismissed), .action(id: handle, key: .snooze)])
    }
}

/// A burst of pop-ups (a catch-up after a long sleep) waits for places: no more than
/// ``FreedesktopDelivery/notifyWindow`` `Notify` calls wait for the server at once, so none
/// waits behind hundreds past its timeout, and the rest go in order as answers come.
@Test func aBurstWaitsForPlacesAndLosesNothing() throws {
    let bus = try PrivateBus()
    let gate = Gate()
    let server = try ServerThread(address: bus.address) { connection in
        try connection.export(ExportedObject(path: FreedesktopDelivery.objectPath, interfaces: [
            .init(FreedesktopDelivery.interface, methods: [
                .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                         .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                      outputs: [.init("id", "u")]) { arguments, _ in
                    // The server is busy until the test opens the gate.
                    gate.waitOpen()
                    let summary = arguments[3].string ?? ""
                    return [.uint32(UInt32(gate.take(summary)))]
                },
                .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["actions", "body"])] },
            ]),
        ]))
        _ = try connection.requestName(FreedesktopDelivery.busName)
    }
    defer { gate.open(); server.stop() }
    let delivery = try FreedesktopDelivery(connection: try Connection.bus(address: bus.address), replyMode: .queue)
    delivery.timeout = .seconds(120)
    var failures = 0
    delivery.onEvent = { if case .failed = $0 { failures += 1 } }
    let count = 3 * FreedesktopDelivery.notifyWindow
    var handles: [UInt32] = []
    for n in 0..<count {
        #expect(delivery.isBusy == (n >= FreedesktopDelivery.notifyWindow), "before pop-up \(n)")
        handles.append(try delivery.deliver(Notification(summary: "burst \(n)")))
    }
    gate.open()
    for _ in 0..<500 where handles.contains(where: { delivery.serverID(of: $0) == nil }) {
        delivery.process(timeout: .milliseconds(20))
    }
    // Each once, in the order given: the server's n-th Notify was pop-up n.
    #expect(gate.summaries == (0..<count).map { "burst \($0)" })
    #expect(handles.map { delivery.serverID(of: $0) } == (1...count).map { UInt32($0) })
    #expect(!delivery.isBusy)
    #expect(failures == 0)
}

/// A pop-up replaced before the server answered its `Notify` (a count going up while a busy
/// server is slow) is replaced, not shown beside it: the replacement waits for the id. Sent
/// at once it went with no id to replace, and swaync showed two pop-ups for one reminder.
@Test func aReplacementWaitsForTheIdOfWhatItReplaces() throws {
    let bus = try PrivateBus()
    let gate = Gate()
    let replaced = ReplacesLog()
    let server = try ServerThread(address: bus.address) { connection in
        try connection.export(ExportedObject(path: FreedesktopDelivery.objectPath, interfaces: [
            .init(FreedesktopDelivery.interface, methods: [
                .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                         .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                      outputs: [.init("id", "u")]) { arguments, _ in
                    gate.waitOpen()
                    let replaces = arguments[1].uint32 ?? 0
                    replaced.add(replaces)
                    // A replacement keeps its id, as the spec has it.
                    return [.uint32(replaces != 0 ? replaces : UInt32(40 + gate.take(arguments[3].string ?? "")))]
                },
                .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["actions", "body"])] },
            ]),
        ]))
        _ = try connection.requestName(FreedesktopDelivery.busName)
    }
    defer { gate.open(); server.stop() }
    let delivery = try FreedesktopDelivery(connection: try Connection.bus(address: bus.address), replyMode: .queue)
    delivery.timeout = .seconds(120)
    let first = try delivery.deliver(Notification(summary: "Water"))
    let second = try delivery.deliver(Notification(summary: "Water ×2", replacesID: first))
    let third = try delivery.deliver(Notification(summary: "Water ×3", replacesID: second))
    // The server still busy with the first: nothing else has gone.
    for _ in 0..<10 { delivery.process(timeout: .milliseconds(10)) }
    gate.open()
    for _ in 0..<500 where [first, second, third].contains(where: { delivery.serverID(of: $0) == nil }) {
        delivery.process(timeout: .milliseconds(20))
    }
    #expect(replaced.all == [0, 41, 41])
    #expect([first, second, third].map { delivery.serverID(of: $0) } == [nil, nil, 41])
}

/// A pop-up whose `Notify` timed out while its replacement waited for its id: the
/// replacement goes as a pop-up of its own, and the first, when the server shows it late
/// after all, is closed. Before, both stayed (mako under load: two pop-ups for one reminder,
/// one of them left after Done).
@Test func aReplacedPopUpThatComesLateIsClosed() throws {
    let bus = try PrivateBus()
    let gate = Gate()
    let replaced = ReplacesLog(), closed = ReplacesLog()
    let server = try ServerThread(address: bus.address) { connection in
        try connection.export(ExportedObject(path: FreedesktopDelivery.objectPath, interfaces: [
            .init(FreedesktopDelivery.interface, methods: [
                .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                         .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                      outputs: [.init("id", "u")]) { arguments, _ in
                    gate.waitOpen()
                    let replaces = arguments[1].uint32 ?? 0
                    replaced.add(replaces)
                    return [.uint32(replaces != 0 ? replaces : UInt32(40 + gate.take(arguments[3].string ?? "")))]
                },
                .init("CloseNotification", inputs: [.init("id", "u")]) { arguments, _ in
                    closed.add(arguments[0].uint32 ?? 0)
                    return []
                },
                .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["actions", "body"])] },
            ]),
        ]))
        _ = try connection.requestName(FreedesktopDelivery.busName)
    }
    defer { gate.open(); server.stop() }
    let connection = try Connection.bus(address: bus.address)
    // The daemon's poll loop: libdbus runs a reply's timeout only through the loop's timers.
    let io = connection.integrateWithLoop()
    func pump() {
        var fds = io.pollDescriptors
        _ = poll(&fds, nfds_t(fds.count), min(io.nextTimeout ?? 20, 20))
        io.handle(fds)
        _ = connection.dispatch()
    }
    let delivery = try FreedesktopDelivery(connection: connection, replyMode: .queue)
    delivery.timeout = .milliseconds(200)
    var events: [DeliveryEvent] = []
    delivery.onEvent = { events.append($0) }
    let first = try delivery.deliver(Notification(summary: "Water"))
    let second = try delivery.deliver(Notification(summary: "Water ×2", replacesID: first))
    // The server is stalled: the first call times out, and the replacement goes without an id.
    for _ in 0..<500 where !events.contains(where: { if case .failed(first, _) = $0 { true } else { false } }) { pump() }
    try #require(events.contains { if case .failed(first, _) = $0 { true } else { false } })
    delivery.timeout = .seconds(120)
    gate.open()
    // The server wakes and answers both: the first (41) late, then the replacement (42).
    for _ in 0..<500 where closed.all.isEmpty || delivery.serverID(of: second) == nil { pump() }
    #expect(replaced.all == [0, 0])
    #expect(closed.all == [41], "the late first pop-up is closed; its replacement stays")
    #expect(delivery.serverID(of: second) == 42)
    #expect(!events.contains(.appeared(id: first)), "a copy closed at once is not reported as shown")
}

/// The `replaces_id` of each `Notify` a stand-in server received.
private final class ReplacesLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [UInt32] = []
    func add(_ value: UInt32) { lock.withLock { values.append(value) } }
    var all: [UInt32] { lock.withLock { values } }
}

/// A closed gate the stand-in server waits at, and what it was sent.
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var received: [String] = []

    func open() { lock.withLock { isOpen = true } }

    func waitOpen() {
        while !lock.withLock({ isOpen }) { usleep(1000) }
    }

    /// Notes a summary; returns how many came so far.
    func take(_ summary: String) -> Int {
        lock.withLock {
            received.append(summary)
            return received.count
        }
    }

    var summaries: [String] { lock.withLock { received } }
}

/// A stand-in notification server on a private bus: Notify answers 7 every time.
func standInServer(_ bus: PrivateBus) throws -> ServerThread {
    try ServerThread(address: bus.address) { connection in
        try connection.export(ExportedObject(path: FreedesktopDelivery.objectPath, interfaces: [
            .init(FreedesktopDelivery.interface, methods: [
                .init("Notify", inputs: [.init("app", "s"), .init("replaces", "u"), .init("icon", "s"), .init("summary", "s"),
                                         .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire", "i")],
                      outputs: [.init("id", "u")]) { _, _ in [.uint32(7)] },
                .init("GetCapabilities", outputs: [.init("caps", "as")]) { _, _ in [.strings(["actions", "body"])] },
                .init("CloseNotification", inputs: [.init("id", "u")]) { _, _ in [] },
            ]),
        ]))
        _ = try connection.requestName(FreedesktopDelivery.busName)
    }
}

/// Some servers send a click's ActionInvoked after its NotificationClosed. The delivery
/// gives the two no meaning (the scheduler's ledger makes one answer of them): it keeps a
/// closed pop-up's id matched until the client releases it, and then reports nothing more.
@Suite(.onTestThreads)
struct ClosedPopUpTests {
    @Test(arguments: [FreedesktopDelivery.ReplyMode.wait, .queue])
    func aClosedPopUpStaysMatchedUntilReleased(mode: FreedesktopDelivery.ReplyMode) throws {
        let bus = try PrivateBus()
        let server = try standInServer(bus)
        defer { server.stop() }
        let delivery = try FreedesktopDelivery(connection: try Connection.bus(address: bus.address), replyMode: mode)
        var events: [DeliveryEvent] = []
        delivery.onEvent = { events.append($0) }
        let handle = try delivery.deliver(Notification(summary: "closed, then clicked"))
        for _ in 0..<250 where delivery.serverID(of: handle) == nil { delivery.process(timeout: .milliseconds(20)) }
        #expect(delivery.serverID(of: handle) == 7)
        // Another pop-up (one an earlier run left, server id 8): its click marks the end of
        // what was sent, as one sender's signals arrive in order.
        let earlier = delivery.adopt(serverID: 8)
        func send(_ signals: [(String, [Value])], until last: DeliveryEvent) throws {
            // From the server's own connection: only its signals count.
            for (member, arguments) in signals {
                try server.emit(path: FreedesktopDelivery.objectPath, interface: FreedesktopDelivery.interface,
                                member: member, arguments: arguments)
            }
            for _ in 0..<250 where events.last != last { delivery.process(timeout: .milliseconds(20)) }
        }

        // Closed (twice: the repeat is nothing), then the action: both reach the handle.
        try send([("NotificationClosed", [.uint32(7), .uint32(2)]), ("NotificationClosed", [.uint32(7), .uint32(2)]),
                  ("ActionInvoked", [.uint32(7), .string("snooze")]), ("ActionInvoked", [.uint32(8), .string("default")])],
                 until: .action(id: earlier, key: .default))
        #expect(events == [.closed(id: handle, reason: .dismissed), .action(id: handle, key: .snooze),
                           .action(id: earlier, key: .default)])
        #expect(delivery.serverID(of: handle) == nil, "closed: the server may hand its id out again")
        #expect(delivery.trackedCount == 2)

        // Released: nothing more for it, and nothing kept.
        delivery.release(handle)
        delivery.release(handle)
        #expect(delivery.trackedCount == 1)
        events = []
        try send([("ActionInvoked", [.uint32(7), .string("done")]), ("NotificationClosed", [.uint32(7), .uint32(2)]),
                  ("ActionInvoked", [.uint32(8), .string("done")])],
                 until: .action(id: earlier, key: .done))
        #expect(events == [.action(id: earlier, key: .done)])
    }
}
