#if canImport(Glibc)
import Glibc
#endif
import DBus
import Platform

/// The person's login session as systemd-logind sees it, on the system bus: whether its
/// screen is locked (`LockedHint`) and whether it is idle (`IdleHint`), both followed
/// through `PropertiesChanged`, and whether the machine is about to sleep
/// (`PrepareForSleep`). The session is `XDG_SESSION_ID`'s (`GetSession`), else the user's
/// graphical one (`GetUser`, then the user's `Display`). A logind that appears is asked
/// at once; one that goes away says nothing; a system bus that goes away is let go.
final class Logind {
    static let name = "org.freedesktop.login1", path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager", session = "org.freedesktop.login1.Session",
               user = "org.freedesktop.login1.User"

    private let connection: Connection
    /// The connection on the daemon's loop.
    private var source: EventLoop.Source?
    private let sessionID: String?
    /// The session's object, once found.
    private var sessionPath: String?
    /// What the session says: its screen locked, and idle; `nil` when it cannot be read.
    private(set) var locked: Bool?, idle: Bool?
    /// Whether logind answers for a session of this user.
    var hasSession: Bool { sessionPath != nil }
    /// Between `PrepareForSleep(true)` and `PrepareForSleep(false)`.
    private(set) var sleeping = false
    /// The session must be found and read again (logind came or went, a property was
    /// invalidated without its value).
    private(set) var needsRefresh = true
    /// Calls sent whose replies have not come yet.
    private(set) var asking = 0
    /// Called when anything it says changes.
    var onChange: (() -> Void)?

    /// Connects to the system bus at `address` and follows it on `loop`; throws when it
    /// cannot connect.
    init(address: String, sessionID: String?, loop: EventLoop) throws(BusError) {
        connection = try Connection.bus(address: address)
        self.sessionID = sessionID
        try connection.subscribe(MatchRule(sender: Self.name, interface: Self.manager, member: "PrepareForSleep", path: Self.path),
                                 confirmed: false) { [unowned self] message in
            guard let start = (try? message.arguments())?.first?.bool else { return }
            change { sleeping = start }
        }
        try connection.subscribe(MatchRule(sender: Self.name, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                           arg0: Self.session), confirmed: false) { [unowned self] message in
            guard message.path == sessionPath, let args = try? message.arguments(), args.count >= 3 else { return }
            let changed = args[1].vardict ?? [:]
            change {
                if let value = changed["LockedHint"] { locked = value.unwrapped.bool }
                if let value = changed["IdleHint"] { idle = value.unwrapped.bool }
            }
            if let invalidated = args[2].strings, invalidated.contains(where: { $0 == "LockedHint" || $0 == "IdleHint" }) {
                needsRefresh = true
            }
        }
        try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                           member: "NameOwnerChanged", arg0: Self.name), confirmed: false) { [unowned self] _ in
            // A logind that restarts has not said the machine is going to sleep.
            change { sleeping = false }
            needsRefresh = true
        }
        source = loop.add(bus: connection) { [unowned self] in
            // The system bus is gone: logind says nothing any more.
            source = nil
            asking = 0
            change { (sessionPath, locked, idle, sleeping) = (nil, nil, nil, false) }
        }
    }

    /// Whether the system bus is still there.
    var isConnected: Bool { source != nil }

    /// Finds the session and reads its hints, without waiting (half a second per call):
    /// a logind that does not answer says nothing.
    func refresh() {
        needsRefresh = false
        findSession { [unowned self] found in
            guard let found else { return change { (sessionPath, locked, idle) = (nil, nil, nil) } }
            var hints: [String: Bool] = [:]
            var left = 2
            for name in ["LockedHint", "IdleHint"] {
                ask { reply in
                    connection.property(name, of: Self.session, at: Self.name, path: found, timeout: .milliseconds(500)) { result in
                        hints[name] = (try? result.get())??.bool
                        left -= 1
                        if left == 0 { self.change { (self.sessionPath, self.locked, self.idle) = (found, hints["LockedHint"], hints["IdleHint"]) } }
                        reply()
                    }
                }
            }
        }
    }

    /// Counts a call in ``asking`` until its reply runs `done`.
    private func ask(_ call: (_ done: @escaping () -> Void) -> Void) {
        asking += 1
        call { [unowned self] in asking = max(asking - 1, 0) }
    }

    private func call(_ member: String, _ arguments: [Value], _ reply: @escaping (Value?) -> Void) {
        ask { done in
            connection.call(destination: Self.name, path: Self.path, interface: Self.manager, member: member, arguments: arguments,
                            timeout: .milliseconds(500), autoStart: false) { result in
                reply((try? result.get())?.first)
                done()
            }
        }
    }

    private func findSession(_ found: @escaping (String?) -> Void) {
        if let id = sessionID { return call("GetSession", [.string(id)]) { found($0?.string) } }
        // A daemon started by systemd or D-Bus activation is in no session: the user's
        // graphical session is the one whose screen and desk count.
        call("GetUser", [.uint32(getuid())]) { [unowned self] user in
            guard let user = user?.string else { return found(nil) }
            ask { done in
                connection.property("Display", of: Self.user, at: Self.name, path: user, timeout: .milliseconds(500)) { result in
                    if case .structure(let display)? = try? result.get(), display.count == 2, let path = display[1].string, path != "/" {
                        found(path)
                    } else {
                        found(nil)
                    }
                    done()
                }
            }
        }
    }

    private func change(_ body: () -> Void) {
        let before = (locked, idle, sleeping)
        body()
        if before != (locked, idle, sleeping) { onChange?() }
    }
}
