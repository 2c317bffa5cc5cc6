import DBus
import Foundation

/// Stands in for KDE's screen locker (kscreenlocker's `org.freedesktop.ScreenSaver`), which
/// needs a Plasma session that does not run here. It owns `org.freedesktop.ScreenSaver`
/// and serves `/org/freedesktop/ScreenSaver` and `/ScreenSaver` with the interface as
/// kscreenlocker's `org.freedesktop.ScreenSaver.xml` declares it: `Lock()`,
/// `SimulateUserActivity()`, `GetActive() → b`, `GetActiveTime() → u`,
/// `GetSessionIdleTime() → u` (milliseconds: kscreenlocker returns KIdleTime's
/// `idleTime()`), `SetActive(b) → b`, `Inhibit(s, s) → u`, `UnInhibit(u)`, `Throttle(s, s) → u`,
/// `UnThrottle(u)`, signal `ActiveChanged(b)`. The idle time runs from the last input,
/// which the test sets.
public final class ScreenSaverStandIn: @unchecked Sendable {
    public static let name = "org.freedesktop.ScreenSaver", interface = "org.freedesktop.ScreenSaver"

    private let lock = NSLock()
    private var lastInput = Date()
    private var idleAsked = 0
    private var server: ServerThread?

    /// Connects to the bus at `address`, owns the name, and serves from a thread of its own.
    public init(address: String) throws {
        server = try ServerThread(address: address) { [unowned self] connection in
            for path in ["/org/freedesktop/ScreenSaver", "/ScreenSaver"] { try connection.export(object(path)) }
            _ = try connection.requestName(Self.name)
        }
    }

    /// The person last touched anything `seconds` ago.
    public func idle(for seconds: Double) {
        lock.withLock { lastInput = Date(timeIntervalSinceNow: -seconds) }
    }

    /// How many times `GetSessionIdleTime` was asked.
    public var idleTimeAsked: Int { lock.withLock { idleAsked } }

    public func stop() { server?.stop() }

    private func object(_ path: String) -> ExportedObject {
        typealias A = ExportedObject.Argument
        let methods: [ExportedObject.Method] = [
            .init("Lock") { _, _ in [] },
            .init("SimulateUserActivity") { [unowned self] _, _ in
                idle(for: 0)
                return []
            },
            .init("GetActive", outputs: [A("arg_0", "b")]) { _, _ in [.bool(false)] },
            .init("GetActiveTime", outputs: [A("seconds", "u")]) { _, _ in [.uint32(0)] },
            .init("GetSessionIdleTime", outputs: [A("seconds", "u")]) { [unowned self] _, _ in
                lock.withLock {
                    idleAsked += 1
                    return [.uint32(UInt32(Date().timeIntervalSince(lastInput) * 1000))]
                }
            },
            .init("SetActive", inputs: [A("e", "b")], outputs: [A("arg_0", "b")]) { _, _ in [.bool(false)] },
            .init("Inhibit", inputs: [A("application_name", "s"), A("reason_for_inhibit", "s")], outputs: [A("cookie", "u")]) { _, _ in [.uint32(1)] },
            .init("UnInhibit", inputs: [A("cookie", "u")]) { _, _ in [] },
            .init("Throttle", inputs: [A("application_name", "s"), A("reason_for_inhibit", "s")], outputs: [A("cookie", "u")]) { _, _ in [.uint32(1)] },
            .init("UnThrottle", inputs: [A("cookie", "u")]) { _, _ in [] },
        ]
        return ExportedObject(path: path, interfaces: [
            .init(Self.interface, methods: methods, signals: [.init("ActiveChanged", arguments: [A("arg_0", "b")])]),
        ])
    }
}
