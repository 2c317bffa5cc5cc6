import DBus
import Foundation

/// Stands in for GeoClue 2, which needs a position source this machine has not (Wi-Fi
/// positioning through Mozilla's closed service, a modem, GPS): it owns
/// `org.freedesktop.GeoClue2` on a bus of the test's own (the "system bus") and serves the
/// interfaces exactly as GeoClue 2.6's published definitions declare them
/// (`/usr/share/dbus-1/interfaces/org.freedesktop.GeoClue2.{Manager,Client,Location}.xml`,
/// Debian's `geoclue-2.0` 2.6.0):
/// - `/org/freedesktop/GeoClue2/Manager`, `org.freedesktop.GeoClue2.Manager`: `GetClient()
///   → o` (one client per caller, as GeoClue keeps it), `CreateClient() → o`,
///   `DeleteClient(o)`, `AddAgent(s)`; properties `InUse` (b), `AvailableAccuracyLevel` (u);
/// - clients `…/Client/N`, `org.freedesktop.GeoClue2.Client`: properties `Location` (o,
///   "/" until the first fix), `DistanceThreshold`, `TimeThreshold`, `DesktopId`,
///   `RequestedAccuracyLevel` (readwrite), `Active` (b); `Start()`, `Stop()`; signal
///   `LocationUpdated(o old, o new)`;
/// - locations `…/Client/N/Location/M`, `org.freedesktop.GeoClue2.Location`: `Latitude`,
///   `Longitude`, `Accuracy`, `Altitude`, `Speed`, `Heading` (d), `Description` (s),
///   `Timestamp` ((tt)).
/// The desktop's agent is played by ``allowed``: a client that starts without it is
/// refused `AccessDenied`, as GeoClue refuses an app its agent did not let in. A client
/// hears of a move at least its `DistanceThreshold` away from the last it heard.
public final class GeoClueStandIn: ObjectTreeStandIn, @unchecked Sendable {
    public static let busName = "org.freedesktop.GeoClue2", managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let manager = "org.freedesktop.GeoClue2.Manager", client = "org.freedesktop.GeoClue2.Client",
               location = "org.freedesktop.GeoClue2.Location"

    private var allowedApps = true
    private var nextClient = 1, nextLocation = 1
    /// Each caller's client, and what each client last heard.
    private var clients: [String: String] = [:]
    private var heard: [String: (latitude: Double, longitude: Double)] = [:]
    private var here: (latitude: Double, longitude: Double, accuracy: Double)?
    /// What was asked of it, for the test: starts, stops, and the levels clients asked for.
    private var log: [String] = []

    /// Serves GeoClue on the bus at `address`; `level` is the best accuracy it can give
    /// (GeoClue's `AvailableAccuracyLevel`: 8, exact, with GPS).
    public init(address: String, level: UInt32 = 8) throws {
        super.init(name: Self.busName, managerPath: nil)
        writable = ["\(Self.client).DistanceThreshold", "\(Self.client).TimeThreshold", "\(Self.client).DesktopId",
                    "\(Self.client).RequestedAccuracyLevel"]
        methods = [Self.manager: managerMethods(), Self.client: clientMethods()]
        lock.withLock { add(Self.managerPath, [Self.manager: ["InUse": .bool(false), "AvailableAccuracyLevel": .uint32(level)]]) }
        try serve(address: address)
    }

    /// Whether the desktop's agent lets applications have the position.
    public var allowed: Bool {
        get { lock.withLock { allowedApps } }
        set { lock.withLock { allowedApps = newValue } }
    }

    /// What clients did: `start LEVEL THRESHOLD`, `stop`, `refused`.
    public var requests: [String] { lock.withLock { log } }

    /// Whether some client is started.
    public var inUse: Bool { lock.withLock { value(Self.managerPath, Self.manager, "InUse") == .bool(true) } }

    /// The person is now here: every started client whose threshold the move passes is told.
    public func move(latitude: Double, longitude: Double, accuracy: Double = 20) {
        lock.withLock {
            here = (latitude, longitude, accuracy)
            for path in clients.values.sorted() where value(path, Self.client, "Active") == .bool(true) { tell(path) }
        }
    }

    private func tell(_ path: String, force: Bool = false) {
        guard let here else { return }
        let threshold = Double(value(path, Self.client, "DistanceThreshold")?.uint32 ?? 0)
        if !force, let last = heard[path], Self.metres(last, (here.latitude, here.longitude)) < threshold { return }
        heard[path] = (here.latitude, here.longitude)
        let old = value(path, Self.client, "Location") ?? .objectPath("/")
        let location = path + "/Location/\(nextLocation)"
        nextLocation += 1
        add(location, [Self.location: [
            "Latitude": .double(here.latitude), "Longitude": .double(here.longitude), "Accuracy": .double(here.accuracy),
            "Altitude": .double(-.greatestFiniteMagnitude), "Speed": .double(-1), "Heading": .double(-1), "Description": .string("stand-in"),
            "Timestamp": .structure([.uint64(UInt64(Date().timeIntervalSince1970)), .uint64(0)]),
        ]])
        set(path, Self.client, ["Location": .objectPath(location)])
        send(path, Self.client, "LocationUpdated", [old, .objectPath(location)])
        if case .objectPath(let previous) = old, previous != "/" { remove(previous) }
    }

    static func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.0 - a.0) * rad, dLon = (b.1 - a.1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * rad) * cos(b.0 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    private func newClient() -> String {
        let path = "/org/freedesktop/GeoClue2/Client/\(nextClient)"
        nextClient += 1
        add(path, [Self.client: ["Location": .objectPath("/"), "DistanceThreshold": .uint32(0), "TimeThreshold": .uint32(0),
                                 "DesktopId": .string(""), "RequestedAccuracyLevel": .uint32(0), "Active": .bool(false)]])
        return path
    }

    private func updateInUse() {
        let used = clients.values.contains { value($0, Self.client, "Active") == .bool(true) }
        set(Self.managerPath, Self.manager, ["InUse": .bool(used)])
    }

    private func managerMethods() -> [Method] {
        [
            ("GetClient", "", "o", { [unowned self] _, _, sender in
                [.objectPath(lock.withLock {
                    if let path = clients[sender], has(path) { return path }
                    let path = newClient()
                    clients[sender] = path
                    return path
                })]
            }),
            ("CreateClient", "", "o", { [unowned self] _, _, sender in
                [.objectPath(lock.withLock {
                    let path = newClient()
                    clients[sender + "#" + path] = path
                    return path
                })]
            }),
            ("DeleteClient", "o", "", { [unowned self] _, args, _ in
                lock.withLock {
                    if let key = clients.first(where: { $0.value == args[0].string })?.key, let path = clients.removeValue(forKey: key) { remove(path) }
                    updateInUse()
                }
                return []
            }),
            ("AddAgent", "s", "", { _, _, _ in [] }),
        ]
    }

    private func clientMethods() -> [Method] {
        [
            ("Start", "", "", { [unowned self] path, _, _ throws(BusError) in
                let refusal = lock.withLock { () -> BusError? in
                    let id = value(path, Self.client, "DesktopId")?.string ?? ""
                    guard !id.isEmpty else {
                        log.append("refused")
                        return BusError(.init(rawValue: "org.freedesktop.DBus.Error.AccessDenied"), "'DesktopId' property must be set")
                    }
                    guard allowedApps else {
                        log.append("refused")
                        return BusError(.init(rawValue: "org.freedesktop.DBus.Error.AccessDenied"), "'\(id)' disallowed, no agent for UID \(getuid())")
                    }
                    let level = value(path, Self.client, "RequestedAccuracyLevel")?.uint32 ?? 0
                    log.append("start \(level) \(value(path, Self.client, "DistanceThreshold")?.uint32 ?? 0)")
                    set(path, Self.client, ["Active": .bool(true)])
                    updateInUse()
                    tell(path, force: true)
                    return nil
                }
                if let refusal { throw refusal }
                return []
            }),
            ("Stop", "", "", { [unowned self] path, _, _ in
                lock.withLock {
                    log.append("stop")
                    set(path, Self.client, ["Active": .bool(false)])
                    heard[path] = nil
                    updateInUse()
                }
                return []
            }),
        ]
    }
}
