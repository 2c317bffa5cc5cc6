#if canImport(Glibc)
import Glibc
#endif
import DBus
import Foundation
import NudgeCore
import Platform

/// Where the person is, from the system bus, for place reminders:
/// - NetworkManager (`org.freedesktop.NetworkManager`): the active connections
///   (`ActiveConnections`, each `org.freedesktop.NetworkManager.Connection.Active` with its
///   `Id`, `Type`, `State` and, for Wi-Fi, the access point's `Ssid`), read again when
///   NetworkManager says something changed (`PropertiesChanged` on the manager, an active
///   connection's `StateChanged`, the name coming or going). No polling: while nothing
///   changes, nothing wakes.
/// - GeoClue2 (`org.freedesktop.GeoClue2`), only while an enabled reminder names an area:
///   a client with the desktop id `io.github.nudge.Nudge`, the coarsest accuracy that
///   serves the smallest radius, a distance threshold of a quarter of it, and
///   `LocationUpdated` followed. The desktop's agent may refuse (`AccessDenied`): said in
///   ``sources``, and asked again when GeoClue restarts or the areas change.
/// A source that vanishes says nothing; what it says when it returns is compared with
/// what it said last (``PlaceTracker``). The first thing a source says is where the person
/// is, not an arrival.
final class Places {
    static let networkManager = (name: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
                                 interface: "org.freedesktop.NetworkManager")
    static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"
    static let accessPointInterface = "org.freedesktop.NetworkManager.AccessPoint"
    static let geoClue = (name: "org.freedesktop.GeoClue2", manager: "/org/freedesktop/GeoClue2/Manager",
                          managerInterface: "org.freedesktop.GeoClue2.Manager", client: "org.freedesktop.GeoClue2.Client",
                          location: "org.freedesktop.GeoClue2.Location")
    /// NetworkManager's `NM_ACTIVE_CONNECTION_STATE_ACTIVATED`.
    static let activated: UInt32 = 2
    /// What GeoClue is told the application is.
    static let desktopID = "io.github.nudge.Nudge"

    private let connection: Connection
    private let loop: EventLoop
    private let log: (String) -> Void
    private var source: EventLoop.Source?
    /// Wakes when a departure has settled; no deadline while none waits.
    private var settleTimer: EventLoop.Source?
    private(set) var tracker: PlaceTracker
    /// Called with what happened, at once.
    var onEvents: (([PlaceEvent]) -> Void)?

    /// NetworkManager: there (`true`), gone (`false`), not asked yet (`nil`).
    private(set) var networkManager: Bool?
    /// The networks connected, by every name, as last read.
    private(set) var networks: Set<String> = []
    private var reading = false, readAgain = false

    /// The areas enabled reminders name (GeoClue runs while there are some).
    private var areas: Set<PlaceTrigger.Area> = []
    /// GeoClue's state, for ``sources``.
    enum GeoState: Equatable {
        case notNeeded, starting, absent, denied(String), running(level: UInt32), failed(String)
    }
    private(set) var geo: GeoState = .notNeeded
    private var client: String?
    private var clientLevel: UInt32?
    /// The last position, for ``sources``.
    private(set) var position: (latitude: Double, longitude: Double, accuracy: Double)?

    init(address: String, loop: EventLoop, settle: TimeInterval, log: @escaping (String) -> Void) throws(BusError) {
        connection = try Connection.bus(address: address)
        self.loop = loop
        self.log = log
        tracker = PlaceTracker(settle: settle)
        let nm = Self.networkManager
        try connection.subscribe(MatchRule(sender: nm.name, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                           path: nm.path, arg0: nm.interface), confirmed: false) { [unowned self] message in
            guard let changed = (try? message.arguments())?.dropFirst().first?.vardict else { return }
            if changed["ActiveConnections"] != nil || changed["State"] != nil || changed["PrimaryConnection"] != nil { readNetworks() }
        }
        try connection.subscribe(MatchRule(sender: nm.name, interface: Self.activeInterface, member: "StateChanged"),
                                 confirmed: false) { [unowned self] _ in readNetworks() }
        // An access point's name can change under an active connection (roaming to another SSID).
        try connection.subscribe(MatchRule(sender: nm.name, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                           arg0: Self.accessPointInterface), confirmed: false) { [unowned self] message in
            guard (try? message.arguments())?.dropFirst().first?.vardict?["Ssid"] != nil else { return }
            readNetworks()
        }
        try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                           arg0: nm.name), confirmed: false) { [unowned self] message in
            let owner = (try? message.arguments())?.last?.string ?? ""
            if owner.isEmpty {
                networkManager = false
                log("NetworkManager left the system bus: the places it said are kept until it returns")
            } else {
                readNetworks()
            }
        }
        let geo = Self.geoClue
        try connection.subscribe(MatchRule(sender: geo.name, interface: geo.client, member: "LocationUpdated"),
                                 confirmed: false) { [unowned self] message in
            guard message.path == client, let new = (try? message.arguments())?.last?.string else { return }
            readLocation(new)
        }
        try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                           arg0: geo.name), confirmed: false) { [unowned self] message in
            let owner = (try? message.arguments())?.last?.string ?? ""
            (client, clientLevel) = (nil, nil)
            if owner.isEmpty {
                if !areas.isEmpty { self.geo = .absent }
            } else if !areas.isEmpty {
                startGeoClue()
            }
        }
        source = loop.add(bus: connection) { [unowned self] in
            // The system bus is gone: nothing more is said of places.
            source = nil
            (networkManager, client, clientLevel) = (false, nil, nil)
            if !areas.isEmpty { self.geo = .absent }
            log("the system bus is gone: places are no longer followed")
        }
        settleTimer = loop.addTimer { [unowned self] in
            emit(tracker.settle(now: Date()))
        }
        readNetworks()
    }

    /// Whether the system bus is still there.
    var isConnected: Bool { source != nil }

    /// Whether the first answers are still to come (the daemon's start waits for them, so
    /// the place it starts at is a baseline, not an arrival).
    var isAsking: Bool { reading && failures == 0 }

    /// What the daemon follows, for `Status` and `doctor`.
    var sources: [String] {
        var result: [String] = []
        switch networkManager {
        case true?: result.append("NetworkManager")
        case false?: result.append("NetworkManager: not on the system bus")
        case nil: break
        }
        switch geo {
        case .notNeeded: break
        case .starting: result.append("GeoClue: starting")
        case .absent: result.append("GeoClue: not on the system bus")
        case .denied(let why): result.append("GeoClue: refused (\(why))")
        case .failed(let why): result.append("GeoClue: \(why)")
        case .running(let level): result.append("GeoClue (accuracy level \(level))")
        }
        return result
    }

    /// Where the person is now, as far as the sources said: `network NAME`, `area TEXT`.
    var here: [String] {
        tracker.places.map(Self.describe)
    }

    // MARK: Following what the reminders need

    /// The areas enabled reminders name now: GeoClue is started, changed or stopped to fit.
    func follow(areas wanted: Set<PlaceTrigger.Area>) {
        guard wanted != areas else { return }
        areas = wanted
        tracker.keepAreas(wanted)
        if wanted.isEmpty {
            stopGeoClue()
        } else if isConnected {
            startGeoClue()
        }
    }

    private func emit(_ events: [PlaceEvent]) {
        settleTimer?.deadline = tracker.deadline.map { monotonicSeconds() + max($0.timeIntervalSinceNow, 0) + 0.001 }
        guard !events.isEmpty else { return }
        for event in events { log("\(event.edge == .arrive ? "arrived at" : "left") \(Self.describe(event.spot))") }
        onEvents?(events)
    }

    static func describe(_ spot: PlaceTrigger.Spot) -> String {
        switch spot {
        case .network(let name): "network \(name)"
        case .area(let area): "area \(area.text)"
        }
    }

    // MARK: NetworkManager

    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Value] = [],
                      reply: @escaping (Result<[Value], BusError>) -> Void) {
        connection.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                        timeout: .seconds(1), autoStart: false, reply: reply)
    }

    /// Reads the active connections again, without waiting; a change during a read reads
    /// again after it. A read that fails anywhere (NetworkManager slow to answer, a
    /// connection gone between the list and its properties, an answer of the wrong type)
    /// changes nothing and is tried again, three times at most: a place is never taken for
    /// left because an answer went missing.
    private func readNetworks() {
        guard isConnected else { return }
        if reading {
            readAgain = true
            return
        }
        reading = true
        readAgain = false
        let nm = Self.networkManager
        call(nm.name, nm.path, "org.freedesktop.DBus.Properties", "Get", [.string(nm.interface), .string("ActiveConnections")]) { [unowned self] result in
            let answer: Value?
            switch result {
            case .success(let values): answer = values.first?.unwrapped
            case .failure(let error):
                if error.name.rawValue == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name.rawValue == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    if networkManager != false { log("NetworkManager is not on the system bus: networks are not followed") }
                    networkManager = false
                    return finishRead(nil, failed: nil)
                }
                return finishRead(nil, failed: "ActiveConnections (\(error.name.rawValue))")
            }
            guard case .array("o", let items)? = answer else {
                return finishRead(nil, failed: "ActiveConnections (not a list of objects)")
            }
            let paths = items.compactMap(\.string)
            var names = Set<String>(), waiting = paths.count + 1, failed: String?
            func done() {
                waiting -= 1
                if waiting == 0 { finishRead(failed == nil ? names : nil, failed: failed) }
            }
            for path in paths {
                call(nm.name, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(Self.activeInterface)]) { [unowned self] result in
                    let properties: [String: Value]
                    switch result {
                    case .success(let values):
                        // State, Id and Type as the interface has them, or the answer is no answer.
                        guard let read = values.first?.vardict, read["State"]?.uint32 != nil, case .string? = read["Id"],
                              case .string? = read["Type"] else {
                            failed = "a connection's properties (not as NetworkManager's interface has them)"
                            return done()
                        }
                        properties = read
                    case .failure(let error):
                        failed = "a connection's properties (\(error.name.rawValue))"
                        return done()
                    }
                    guard properties["State"]?.uint32 == Self.activated else { return done() }
                    if let id = properties["Id"]?.string, !id.isEmpty { names.insert(id) }
                    guard properties["Type"]?.string == "802-11-wireless", case .objectPath(let ap)? = properties["SpecificObject"], ap != "/" else { return done() }
                    call(nm.name, ap, "org.freedesktop.DBus.Properties", "Get", [.string(Self.accessPointInterface), .string("Ssid")]) { result in
                        switch result {
                        case .success(let values):
                            // An SSID that is not UTF-8 is no name a person could type: the
                            // connection's own name still counts.
                            if let bytes = values.first?.unwrapped.elements?.compactMap(\.byteValue), !bytes.isEmpty,
                               let ssid = String(validating: bytes, as: UTF8.self) {
                                names.insert(ssid)
                            }
                        case .failure(let error):
                            // An access point gone as the link changes is not a failed read.
                            if error.name.rawValue != "org.freedesktop.DBus.Error.UnknownObject" && error.name.rawValue != "org.freedesktop.DBus.Error.UnknownMethod" {
                                failed = "an access point's Ssid (\(error.name.rawValue))"
                            }
                        }
                        done()
                    }
                }
            }
            done()
        }
    }

    /// Failed reads in a row: the first two are tried again at once, then after 1, 2, 4 …
    /// 60 s (a departure during a hiccup is still seen); a signal reads at once.
    private var failures = 0
    /// The next try after a failed read; no deadline while reads succeed.
    private lazy var retry: EventLoop.Source = loop.addTimer { [unowned self] in readNetworks() }

    private func finishRead(_ names: Set<String>?, failed: String?) {
        reading = false
        if let failed {
            failures += 1
            let wait = failures < 3 ? 0 : min(60, 1 << min(failures - 3, 6))
            log("could not read NetworkManager's \(failed): its places are kept; asking again \(wait == 0 ? "now" : "in \(wait) s")")
            if wait == 0 { readAgain = true } else { retry.deadline = monotonicSeconds() + Double(wait) }
        }
        if readAgain { return readNetworks() }
        guard let names else { return }
        failures = 0
        retry.deadline = nil
        if networkManager != true { log("following NetworkManager") }
        networkManager = true
        if names != networks { log("networks now: \(names.isEmpty ? "none" : names.sorted().joined(separator: ", "))") }
        networks = names
        emit(tracker.networks(names, now: Date()))
    }

    // MARK: GeoClue

    /// The finest level the areas need, which is the coarsest that serves them all.
    private var wantedLevel: UInt32 { areas.map(\.accuracyLevel).max() ?? 1 }

    private func startGeoClue() {
        let geo = Self.geoClue
        let level = wantedLevel, threshold = UInt32(max((areas.map(\.radius).min() ?? 1000) / 4, 1))
        if let client, clientLevel == level {
            // Same accuracy: the areas' first position is the one GeoClue has now.
            call(geo.name, client, "org.freedesktop.DBus.Properties", "Get", [.string(geo.client), .string("Location")]) { [unowned self] result in
                if case .success(let values) = result, let path = values.first?.unwrapped.string, path != "/" { readLocation(path) }
            }
            return
        }
        self.geo = .starting
        func fail(_ error: BusError) {
            switch error.name.rawValue {
            case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
                self.geo = .absent
            case "org.freedesktop.DBus.Error.AccessDenied":
                self.geo = .denied(error.message)
            default:
                self.geo = .failed(error.message)
            }
            log(sources.last ?? "GeoClue failed")
        }
        func set(_ path: String, _ name: String, _ value: Value, then: @escaping () -> Void) {
            call(geo.name, path, "org.freedesktop.DBus.Properties", "Set", [.string(geo.client), .string(name), .variant(value)]) { result in
                if case .failure(let error) = result { return fail(error) }
                then()
            }
        }
        let begin = { [unowned self] (path: String) in
            set(path, "DesktopId", .string(Self.desktopID)) {
                set(path, "RequestedAccuracyLevel", .uint32(level)) {
                    set(path, "DistanceThreshold", .uint32(threshold)) { [unowned self] in
                        // Its first position may come before Start's reply.
                        client = path
                        call(geo.name, path, geo.client, "Start") { [unowned self] result in
                            if case .failure(let error) = result {
                                client = nil
                                return fail(error)
                            }
                            clientLevel = level
                            self.geo = .running(level: level)
                            log("following GeoClue at accuracy level \(level)")
                        }
                    }
                }
            }
        }
        if let client {
            // Another level: stopped, set and started again.
            call(geo.name, client, geo.client, "Stop") { _ in begin(client) }
            return
        }
        call(geo.name, geo.manager, geo.managerInterface, "GetClient") { result in
            switch result {
            case .success(let values):
                guard let path = values.first?.string else { return fail(BusError(.failed, "GetClient gave no client")) }
                begin(path)
            case .failure(let error):
                fail(error)
            }
        }
    }

    private func stopGeoClue() {
        geo = .notNeeded
        position = nil
        guard let client else { return }
        (self.client, clientLevel) = (nil, nil)
        call(Self.geoClue.name, client, Self.geoClue.client, "Stop") { _ in }
    }

    private func readLocation(_ path: String) {
        let geo = Self.geoClue
        call(geo.name, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(geo.location)]) { [unowned self] result in
            guard case .success(let values) = result, let properties = values.first?.vardict,
                  case .double(let latitude)? = properties["Latitude"], case .double(let longitude)? = properties["Longitude"],
                  latitude.isFinite, longitude.isFinite else { return }
            let accuracy: Double = if case .double(let a)? = properties["Accuracy"] { a } else { .infinity }
            position = (latitude, longitude, accuracy)
            emit(tracker.position(latitude: latitude, longitude: longitude, accuracy: accuracy.isFinite ? accuracy : 0, areas: areas, now: Date()))
        }
    }
}

extension Value {
    /// The byte of a `y` value.
    var byteValue: UInt8? {
        if case .byte(let b) = self { b } else { nil }
    }
}
