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
    /// The connection's part in the daemon's poll(2).
    let io: LoopIntegration
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
    /// Called when anything it says changes.
    var onChange: (() -> Void)?

    /// Connects to the system bus at `address`; throws when it cannot.
    init(address: String, sessionID: String?) throws(BusError) {
        connection = try Connection.bus(address: address)
        self.sessionID = sessionID
        io = connection.integrateWithLoop()
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
    }

    /// Runs what arrived; `false` once the system bus is gone.
    func dispatch() -> Bool {
        guard connection.dispatch() else {
            change { (sessionPath, locked, idle, sleeping) = (nil, nil, nil, false) }
            return false
        }
        return true
    }

    /// Finds the session and reads its hints, briefly (half a second per call): a logind
    /// that does not answer says nothing.
    func refresh() {
        needsRefresh = false
        let found = findSession()
        let hints = found.map { path in
            ["LockedHint", "IdleHint"].map {
                try? connection.property($0, of: Self.session, at: Self.name, path: path, timeout: .milliseconds(500))?.bool
            }
        }
        change {
            sessionPath = found
            locked = hints?[0] ?? nil
            idle = hints?[1] ?? nil
        }
    }

    private func findSession() -> String? {
        guard (try? connection.nameHasOwner(Self.name)) == true else { return nil }
        func call(_ member: String, _ arguments: [Value]) -> Value? {
            try? connection.call(destination: Self.name, path: Self.path, interface: Self.manager, member: member,
                                 arguments: arguments, timeout: .milliseconds(500), autoStart: false).first
        }
        if let id = sessionID {
            return call("GetSession", [.string(id)])?.string
        }
        // A daemon started by systemd or D-Bus activation is in no session: the user's
        // graphical session is the one whose screen and desk count.
        guard let user = call("GetUser", [.uint32(getuid())])?.string,
              case .structure(let display)? = try? connection.property("Display", of: Self.user, at: Self.name, path: user,
                                                                       timeout: .milliseconds(500)),
              display.count == 2, let path = display[1].string, path != "/" else { return nil }
        return path
    }

    private func change(_ body: () -> Void) {
        let before = (locked, idle, sleeping)
        body()
        if before != (locked, idle, sleeping) { onChange?() }
    }
}
