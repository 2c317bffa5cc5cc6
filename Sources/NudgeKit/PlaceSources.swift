import DBus
import Foundation
import Localization
import NudgeCore
import Platform

/// What this machine can say of places, asked on the system bus: the networks
/// NetworkManager knows (its saved connections, and which are up), and whether GeoClue is
/// there and lets Nudge have a position. `nudge places` and `doctor` ask it; the daemon
/// follows the same services by their signals.
public enum PlaceSources {
    /// A saved connection.
    public struct Network: Sendable, Hashable {
        /// Its name (NetworkManager's connection id).
        public var name: String
        /// `wifi`, `wired`, `vpn`, or NetworkManager's own type name for others.
        public var kind: String
        /// Its Wi-Fi network's name (SSID), for Wi-Fi.
        public var ssid: String?
        /// Whether it is up now.
        public var connected: Bool
    }

    /// Why networks cannot be listed.
    public enum Unavailable: Error, Sendable {
        /// No system bus to reach.
        case noSystemBus
        /// NetworkManager is not on it (or does not answer): the D-Bus error.
        case noNetworkManager(String)

        /// One line, in the person's language.
        public var phrase: Phrase {
            switch self {
            // TRANSLATORS: nudge places and doctor: the machine has no system D-Bus to ask NetworkManager on.
            case .noSystemBus: Phrase("no system bus to ask NetworkManager on")
            case .noNetworkManager(let error) where error.hasSuffix(".NoReply") || error.hasSuffix(".Timeout"):
                // TRANSLATORS: nudge places and doctor: NetworkManager is there but does not answer in time; %s is the D-Bus error.
                Phrase("NetworkManager does not answer (%s)", error)
            // TRANSLATORS: nudge places and doctor: NetworkManager is not there; %s is the D-Bus error.
            case .noNetworkManager(let error): Phrase("NetworkManager is not on the system bus (%s)", error)
            }
        }
    }

    static let nm = "org.freedesktop.NetworkManager"

    /// The system bus, or why not.
    static func systemBus(_ environment: Environment) throws(Unavailable) -> Connection {
        guard let address = environment.systemBusAddress, let bus = try? Connection.bus(address: address) else { throw .noSystemBus }
        return bus
    }

    /// NetworkManager's saved connections, the ones up first, each once.
    public static func networks(environment: Environment = .current) throws(Unavailable) -> [Network] {
        let bus = try systemBus(environment)
        func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) throws(BusError) -> [Value] {
            try bus.call(destination: nm, path: path, interface: interface, member: member, arguments: arguments, timeout: .seconds(2), autoStart: false)
        }
        do {
            let activePaths = try bus.property("ActiveConnections", of: nm, at: nm, path: "/org/freedesktop/NetworkManager", timeout: .seconds(2))?
                .elements?.compactMap(\.string) ?? []
            var up = Set<String>()
            for path in activePaths {
                if let id = (try? bus.property("Id", of: nm + ".Connection.Active", at: nm, path: path, timeout: .seconds(2)))??.string { up.insert(id) }
            }
            let paths = try call("/org/freedesktop/NetworkManager/Settings", nm + ".Settings", "ListConnections").first?.elements?.compactMap(\.string) ?? []
            var result: [Network] = []
            for path in paths {
                guard let settings = try? call(path, nm + ".Settings.Connection", "GetSettings").first else { continue }
                let groups = Dictionary(settings.elements?.compactMap { entry -> (String, [String: Value])? in
                    guard case .dictEntry(.string(let key), let value) = entry, let dict = value.vardict else { return nil }
                    return (key, dict)
                } ?? [], uniquingKeysWith: { a, _ in a })
                guard let id = groups["connection"]?["id"]?.string else { continue }
                let type = groups["connection"]?["type"]?.string ?? ""
                let ssid = groups["802-11-wireless"]?["ssid"]?.elements?.compactMap { if case .byte(let b) = $0 { b } else { nil } }
                let kind = switch type {
                case "802-11-wireless": "wifi"
                case "802-3-ethernet": "wired"
                case "vpn", "wireguard": "vpn"
                default: type
                }
                result.append(Network(name: id, kind: kind, ssid: ssid.map { String(decoding: $0, as: UTF8.self) }, connected: up.contains(id)))
            }
            return result.enumerated().sorted { ($0.element.connected ? 0 : 1, $0.offset) < ($1.element.connected ? 0 : 1, $1.offset) }.map(\.element)
        } catch {
            throw .noNetworkManager(error.name.rawValue)
        }
    }

    /// GeoClue as Nudge meets it.
    public enum GeoClue: Sendable, Equatable {
        /// Not on the system bus, nor started by it.
        case absent
        /// There; `level` is the best accuracy it offers (1 country … 8 exact).
        case present(level: UInt32)
        /// There, and it gave Nudge a client that started (asked only when a reminder needs it).
        case allowed(level: UInt32)
        /// There, and it refused Nudge (the desktop's location setting or agent): its message.
        case refused(String)
    }

    /// Whether GeoClue is there; with `tryStart`, whether it lets Nudge in (a client is
    /// started and stopped at once: on GNOME this may ask the person).
    public static func geoClue(environment: Environment = .current, tryStart: Bool) -> GeoClue {
        let name = "org.freedesktop.GeoClue2", manager = "/org/freedesktop/GeoClue2/Manager"
        guard let bus = try? systemBus(environment) else { return .absent }
        let owned = (try? bus.nameHasOwner(name)) ?? false
        let activatable = (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                         member: "ListActivatableNames").first?.strings?.contains(name)) ?? false
        guard owned || activatable else { return .absent }
        let level = ((try? bus.call(destination: name, path: manager, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                    arguments: [.string(name + ".Manager"), .string("AvailableAccuracyLevel")], timeout: .seconds(5)))?.first?.unwrapped.uint32) ?? 0
        guard tryStart else { return .present(level: level) }
        do {
            guard let client = try bus.call(destination: name, path: manager, interface: name + ".Manager", member: "GetClient", timeout: .seconds(5)).first?.string else {
                return .present(level: level)
            }
            _ = try bus.call(destination: name, path: client, interface: "org.freedesktop.DBus.Properties", member: "Set",
                             arguments: [.string(name + ".Client"), .string("DesktopId"), .variant(.string("io.github.nudge.Nudge"))], timeout: .seconds(5))
            _ = try bus.call(destination: name, path: client, interface: name + ".Client", member: "Start", timeout: .seconds(10))
            _ = try? bus.call(destination: name, path: client, interface: name + ".Client", member: "Stop", timeout: .seconds(5))
            return .allowed(level: level)
        } catch {
            return .refused(error.message)
        }
    }
}

extension PlaceSources {
    /// GeoClue's accuracy level in words.
    public static func accuracy(_ level: UInt32) -> String {
        switch level {
        // TRANSLATORS: GeoClue's accuracy levels, in nudge places and doctor.
        case 0: tr("none")
        case 1...3: tr("country")
        case 4: tr("city")
        case 5: tr("neighbourhood")
        case 6...7: tr("street")
        default: tr("exact")
        }
    }
}
