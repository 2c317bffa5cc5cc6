import DBus
import Foundation
import Testing
import TestSupport

/// The D-Bus layer against a real dbus-daemon (the bench's private bus).
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct ConnectionTests {
    static let path = "/org/example/Echo"
    static let interface = "org.example.Echo"

    /// An object whose `Echo` returns its arguments, for one complete signature.
    static func echoServer(signature: String) throws -> ServerThread {
        try ServerThread { connection in
            try connection.export(ExportedObject(path: path, interfaces: [
                .init(interface, methods: [
                    .init("Echo", inputs: [.init("value", signature)], outputs: [.init("value", signature)]) { args, _ in args },
                    .init("Fail") { _, _ throws(BusError) in throw BusError(.init(rawValue: "org.example.Error.Broken"), "it broke") },
                    .init("Slow") { _, _ in usleep(1_000_000); return [] },
                ], signals: [.init("Changed", arguments: [.init("what", "s")])]),
            ]))
        }
    }

    static let samples: [Value] = [
        .byte(255), .bool(true), .bool(false), .int16(-7), .uint16(7), .int32(-2_000_000_000), .uint32(4_000_000_000),
        .int64(Int64.min), .uint64(UInt64.max), .double(3.25), .string("héllo 💧 <&>"), .string(""),
        .objectPath("/io/github/nudge/Nudge"), .signature("a{sv}"),
        .strings([]), .strings(["a", "b"]), .array(element: "{sv}", []),
        .vardict([("urgency", .byte(2)), ("count", .int64(3)), ("visible", .bool(true)), ("names", .strings(["x"]))]),
        .variant(.uint32(5)), .structure([.int32(1), .string("two"), .array(element: "i", [.int32(3)])]),
        .array(element: "(iiibiiay)", [.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4),
                                                   .array(element: "y", [.byte(1), .byte(2), .byte(3), .byte(4)])])]),
        .array(element: "a{ss}", [.array(element: "{ss}", [.dictEntry(.string("k"), .string("v"))])]),
    ]

    @Test("every type travels through a real bus and comes back equal", arguments: samples)
    func roundTrip(_ value: Value) throws {
        let server = try Self.echoServer(signature: value.signature)
        defer { server.stop() }
        let client = try Bench.sessionBus()
        let reply = try client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface,
                                    member: "Echo", arguments: [value])
        #expect(reply == [value])
    }

    @Test func errorsKeepTheirDBusName() throws {
        let server = try Self.echoServer(signature: "s")
        defer { server.stop() }
        let client = try Bench.sessionBus()
        func error(_ body: () throws -> Void) -> BusError? {
            do { try body(); return nil } catch let error as BusError { return error } catch { return nil }
        }
        let broken = error { _ = try client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface, member: "Fail") }
        #expect(broken == BusError(.init(rawValue: "org.example.Error.Broken"), "it broke"))
        let unknown = error { _ = try client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface, member: "Nope") }
        #expect(unknown?.name == .unknownMethod)
        let badArgs = error {
            _ = try client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface,
                                member: "Echo", arguments: [.int32(1)])
        }
        #expect(badArgs?.name == .invalidArgs)
        let nobody = error {
            _ = try client.call(destination: "org.example.Nobody", path: "/", interface: "org.example.X", member: "Y", autoStart: false)
        }
        #expect(nobody?.name == .nameHasNoOwner, "no auto-start: the bus says nobody owns it")
    }

    @Test func callsTimeOutWhenAsked() throws {
        let server = try Self.echoServer(signature: "s")
        defer { server.stop() }
        let client = try Bench.sessionBus()
        let start = Date()
        for _ in 0..<2 {
            let error = #expect(throws: BusError.self) {
                _ = try client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface,
                                    member: "Slow", timeout: .milliseconds(200))
            }
            #expect(error?.name == .noReply)
        }
        #expect(Date().timeIntervalSince(start) < 1.9, "two 200 ms timeouts, not libdbus's 25 s")
    }

    @Test func introspectionDescribesTheObject() throws {
        let server = try Self.echoServer(signature: "a{sv}")
        defer { server.stop() }
        let client = try Bench.sessionBus()
        let xml = try client.call(destination: server.uniqueName, path: Self.path,
                                  interface: "org.freedesktop.DBus.Introspectable", member: "Introspect").first?.string ?? ""
        #expect(xml.contains(#"<interface name="org.example.Echo">"#))
        #expect(xml.contains(#"<arg name="value" type="a{sv}" direction="in"/>"#))
        #expect(xml.contains(#"<signal name="Changed">"#))
    }

    @Test func signalsReachSubscribersThroughMatchRules() throws {
        let listener = try Bench.sessionBus()
        let sender = try Bench.sessionBus()
        var received: [Value] = []
        try listener.subscribe(MatchRule(interface: "org.example.Echo", member: "Changed")) { message in
            received = (try? message.arguments()) ?? []
        }
        var other = 0
        try listener.subscribe(MatchRule(interface: "org.example.Other")) { _ in other += 1 }
        try sender.emit(path: "/org/example/Echo", interface: "org.example.Echo", member: "Changed", arguments: [.string("x")])
        sender.flush()
        let deadline = Date().addingTimeInterval(3)
        while received.isEmpty && Date() < deadline { listener.process(timeout: .milliseconds(50)) }
        #expect(received == [.string("x")])
        #expect(other == 0)
    }

    @Test func aNameHasOneOwner() throws {
        let first = try Bench.sessionBus()
        let second = try Bench.sessionBus()
        let name = "org.example.Owned\(getpid())"
        #expect(try first.requestName(name) == .primaryOwner)
        #expect(try first.requestName(name) == .alreadyOwner)
        #expect(try second.requestName(name) == .exists)
        #expect(try second.nameOwner(name) == first.uniqueName)
        #expect(try second.processID(of: name) == UInt32(getpid()))
        try first.releaseName(name)
        #expect(try second.nameHasOwner(name) == false)
        #expect(try second.nameOwner(name) == nil)
    }

    @Test func losingTheBusIsAnEventNotAnExit() throws {
        var bus: PrivateBus? = try PrivateBus()
        let connection = try Connection.bus(address: bus!.address)
        #expect(!connection.uniqueName.isEmpty)
        bus = nil
        let deadline = Date().addingTimeInterval(5)
        while connection.process(timeout: .milliseconds(100)), Date() < deadline {}
        #expect(connection.isDisconnected)
    }

    @Test func badNamesAreErrorsNotAborts() throws {
        #expect(throws: BusError.self) { _ = try Message.methodCall(destination: "not a name", path: "/", interface: nil, member: "X") }
        #expect(throws: BusError.self) { _ = try Message.methodCall(destination: nil, path: "no/slash", interface: nil, member: "X") }
        let message = try Message.signal(path: "/a", interface: "org.example.A", member: "B")
        #expect(throws: BusError.self) { try message.append(.objectPath("bad path")) }
        #expect(throws: BusError.self) { try message.append(.array(element: "s", [.int32(1)])) }
        #expect(throws: BusError.self) { try message.append(.string("nul\u{0}inside")) }
        #expect(throws: BusError.self) { try message.append(.dictEntry(.string("k"), .string("v"))) }
        #expect(message.signature == "")
    }
}
