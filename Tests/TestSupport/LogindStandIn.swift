import DBus
import Foundation

/// Stands in for systemd-logind, which needs systemd as the machine's init and does not run
/// here: it owns `org.freedesktop.login1` on a bus of the test's own (the "system bus")
/// and speaks the part of its interface Nudge reads, with the names, signatures and
/// signals of systemd's `org.freedesktop.login1(5)`:
/// - `/org/freedesktop/login1`, `org.freedesktop.login1.Manager`: `GetSession(s session_id)
///   → o`, `GetUser(u uid) → o`, signal `PrepareForSleep(b start)`;
/// - the session, `org.freedesktop.login1.Session`: properties `Id` (s), `LockedHint` (b),
///   `IdleHint` (b), both emitting `PropertiesChanged` with their value;
///   `SetLockedHint(b)`, `SetIdleHint(b)` (what lockers and session managers call);
/// - the user, `org.freedesktop.login1.User`: property `Display` (so), the user's
///   graphical session.
/// The test sends `PrepareForSleep` through ``prepareForSleep(_:)``.
public final class LogindStandIn: @unchecked Sendable {
    public static let name = "org.freedesktop.login1", path = "/org/freedesktop/login1"
    /// The one session, as logind would name it for `XDG_SESSION_ID=c1`.
    public static let sessionID = "c1", sessionPath = "/org/freedesktop/login1/session/c1"
    public static let userPath = "/org/freedesktop/login1/user/_\(getuid())"

    private let lock = NSLock()
    private var hints = ["LockedHint": false, "IdleHint": false]
    private var pending: [(path: String, interface: String, member: String, arguments: [Value])] = []
    private var server: ServerThread?

    /// Connects to the bus at `address`, owns the name, and serves from a thread of its own.
    public init(address: String) throws {
        server = try ServerThread(address: address, tick: { [unowned self] connection in
            let signals = lock.withLock { () -> [(path: String, interface: String, member: String, arguments: [Value])] in
                defer { pending.removeAll() }
                return pending
            }
            for signal in signals {
                try? connection.emit(path: signal.path, interface: signal.interface, member: signal.member, arguments: signal.arguments)
            }
            if !signals.isEmpty { connection.flush() }
        }) { [unowned self] connection in
            for object in objects() { try connection.export(object) }
            _ = try connection.requestName(Self.name)
        }
    }

    /// The machine is about to sleep (`true`) or has woken (`false`).
    public func prepareForSleep(_ start: Bool) {
        lock.withLock { pending.append((Self.path, "org.freedesktop.login1.Manager", "PrepareForSleep", [.bool(start)])) }
    }

    public func stop() { server?.stop() }

    private func set(_ hint: String, _ value: Bool) {
        lock.withLock {
            guard hints[hint] != value else { return }
            hints[hint] = value
            pending.append((Self.sessionPath, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                            [.string("org.freedesktop.login1.Session"), .vardict([(hint, .bool(value))]), .strings([])]))
        }
    }

    private func objects() -> [ExportedObject] {
        typealias A = ExportedObject.Argument
        let manager = ExportedObject(path: Self.path, interfaces: [
            .init("org.freedesktop.login1.Manager", methods: [
                .init("GetSession", inputs: [A("session_id", "s")], outputs: [A("object_path", "o")]) { args, _ throws(BusError) in
                    guard args.first?.string == Self.sessionID else {
                        throw BusError(.init(rawValue: "org.freedesktop.login1.NoSuchSession"), "No session '\(args.first?.string ?? "")' known")
                    }
                    return [.objectPath(Self.sessionPath)]
                },
                .init("GetUser", inputs: [A("uid", "u")], outputs: [A("object_path", "o")]) { args, _ throws(BusError) in
                    guard args.first?.uint32 == getuid() else {
                        throw BusError(.init(rawValue: "org.freedesktop.login1.NoSuchUser"), "No user known")
                    }
                    return [.objectPath(Self.userPath)]
                },
            ], signals: [.init("PrepareForSleep", arguments: [A("start", "b")])]),
        ])
        let session = ExportedObject(path: Self.sessionPath, interfaces: [
            .init("org.freedesktop.login1.Session", methods: [
                .init("SetLockedHint", inputs: [A("locked", "b")]) { [unowned self] args, _ in
                    set("LockedHint", args.first?.bool ?? false)
                    return []
                },
                .init("SetIdleHint", inputs: [A("idle", "b")]) { [unowned self] args, _ in
                    set("IdleHint", args.first?.bool ?? false)
                    return []
                },
            ], signals: [.init("Lock"), .init("Unlock")]),
            properties { [unowned self] in
                lock.withLock { [("Id", .string(Self.sessionID)), ("LockedHint", .bool(hints["LockedHint"]!)), ("IdleHint", .bool(hints["IdleHint"]!))] }
            },
        ])
        let user = ExportedObject(path: Self.userPath, interfaces: [
            .init("org.freedesktop.login1.User"),
            properties { [("Display", .structure([.string(Self.sessionID), .objectPath(Self.sessionPath)]))] },
        ])
        return [manager, session, user]
    }

    /// `org.freedesktop.DBus.Properties` `Get` and `GetAll` over what `values` says now.
    private func properties(_ values: @escaping () -> [(String, Value)]) -> ExportedObject.Interface {
        typealias A = ExportedObject.Argument
        return .init("org.freedesktop.DBus.Properties", methods: [
            .init("Get", inputs: [A("interface_name", "s"), A("property_name", "s")], outputs: [A("value", "v")]) { args, _ throws(BusError) in
                guard let name = args.last?.string, let value = values().first(where: { $0.0 == name })?.1 else {
                    throw BusError(.invalidArgs, "no such property")
                }
                return [.variant(value)]
            },
            .init("GetAll", inputs: [A("interface_name", "s")], outputs: [A("props", "a{sv}")]) { _, _ in
                [.vardict(values())]
            },
        ], signals: [.init("PropertiesChanged", arguments: [A("interface_name", "s"), A("changed_properties", "a{sv}"),
                                                             A("invalidated_properties", "as")])])
    }
}
