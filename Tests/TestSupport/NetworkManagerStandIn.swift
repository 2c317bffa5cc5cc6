import DBus
import Foundation

/// Stands in for NetworkManager, which needs the machine's network devices and does not run
/// here: it owns `org.freedesktop.NetworkManager` on a bus of the test's own (the "system
/// bus") and serves the objects a laptop's NetworkManager has, with the names, signatures,
/// properties and signals of NetworkManager 1.42's published interface definitions
/// (`/usr/share/dbus-1/interfaces/org.freedesktop.NetworkManager*.xml`, Debian's
/// `network-manager-dev` 1.42.4), as far as Nudge and `nmcli` read them:
/// - `/org/freedesktop`: `org.freedesktop.DBus.ObjectManager` (libnm, so `nmcli`, reads
///   everything through `GetManagedObjects` and follows `InterfacesAdded`/`Removed`);
/// - `/org/freedesktop/NetworkManager`, `org.freedesktop.NetworkManager`: every property
///   of the XML (`ActiveConnections`, `PrimaryConnection`, `State`, `Version`…), methods
///   `GetDevices`, `GetAllDevices`, `ActivateConnection`, `DeactivateConnection`,
///   `GetPermissions`, `state`, signal `StateChanged(u)`;
/// - `…/Settings`, `org.freedesktop.NetworkManager.Settings`: `ListConnections`,
///   `GetConnectionByUuid`, properties `Connections`, `Hostname`, `CanModify`; each profile
///   `…/Settings/N`, `org.freedesktop.NetworkManager.Settings.Connection`: `GetSettings`,
///   properties `Unsaved`, `Flags`, `Filename`;
/// - devices `…/Devices/N` (`org.freedesktop.NetworkManager.Device`, and
///   `.Device.Wireless` or `.Device.Wired`), access points `…/AccessPoint/N`
///   (`org.freedesktop.NetworkManager.AccessPoint`, `Ssid` as bytes);
/// - active connections `…/ActiveConnection/N` (`org.freedesktop.NetworkManager.Connection.Active`,
///   `StateChanged(u state, u reason)`), new paths for each activation, never reused.
/// Every change signals what the real one signals: `PropertiesChanged` on each object
/// whose properties changed, the active connection's `StateChanged` (activating, then
/// activated; deactivated), the manager's `StateChanged`.
public final class NetworkManagerStandIn: ObjectTreeStandIn, @unchecked Sendable {
    public static let busName = "org.freedesktop.NetworkManager", path = "/org/freedesktop/NetworkManager"
    static let manager = "org.freedesktop.NetworkManager", settings = "org.freedesktop.NetworkManager.Settings",
               profile = "org.freedesktop.NetworkManager.Settings.Connection", active = "org.freedesktop.NetworkManager.Connection.Active",
               device = "org.freedesktop.NetworkManager.Device", accessPoint = "org.freedesktop.NetworkManager.AccessPoint"

    /// A saved connection: its name, kind and, for Wi-Fi, its network's name.
    public struct Profile: Sendable {
        public var id: String
        public var ssid: String?
        public var wired: Bool { ssid == nil }
        public init(id: String, ssid: String? = nil) { (self.id, self.ssid) = (id, ssid) }
        var type: String { wired ? "802-3-ethernet" : "802-11-wireless" }
    }

    private let profiles: [Profile]
    private var nextActive = 1
    /// The active connection of each profile (by index), while up.
    private var up: [Int: String] = [:]
    static let wifiDevice = path + "/Devices/1", wiredDevice = path + "/Devices/2"

    /// Serves NetworkManager with these saved connections (none active) on the bus at `address`.
    public init(address: String, profiles: [Profile]) throws {
        self.profiles = profiles
        super.init(name: Self.busName, managerPath: "/org/freedesktop")
        writable = ["\(Self.manager).WirelessEnabled", "\(Self.manager).WwanEnabled", "\(Self.manager).WimaxEnabled",
                    "\(Self.manager).ConnectivityCheckEnabled", "\(Self.manager).GlobalDnsConfiguration",
                    "\(Self.device).Managed", "\(Self.device).Autoconnect"]
        methods = [Self.manager: managerMethods(), Self.settings: settingsMethods(), Self.profile: profileMethods()]
        lock.withLock { build() }
        try serve(address: address)
    }

    private func profilePath(_ index: Int) -> String { Self.path + "/Settings/\(index + 1)" }
    private func accessPointPath(_ index: Int) -> String { Self.path + "/AccessPoint/\(index + 1)" }
    private func uuid(_ index: Int) -> String { String(format: "5f0c%04x-0000-4000-8000-%012x", index, index + 1) }

    private func build() {
        let paths = profiles.indices.map(profilePath)
        add(Self.path, [Self.manager: [
            "Devices": .array(element: "o", [.objectPath(Self.wifiDevice), .objectPath(Self.wiredDevice)]),
            "AllDevices": .array(element: "o", [.objectPath(Self.wifiDevice), .objectPath(Self.wiredDevice)]),
            "Checkpoints": .array(element: "o", []), "NetworkingEnabled": .bool(true), "WirelessEnabled": .bool(true),
            "WirelessHardwareEnabled": .bool(true), "WwanEnabled": .bool(false), "WwanHardwareEnabled": .bool(false),
            "WimaxEnabled": .bool(false), "WimaxHardwareEnabled": .bool(false), "RadioFlags": .uint32(1),
            "ActiveConnections": .array(element: "o", []), "PrimaryConnection": .objectPath("/"), "PrimaryConnectionType": .string(""),
            "Metered": .uint32(0), "ActivatingConnection": .objectPath("/"), "Startup": .bool(false), "Version": .string("1.42.4"),
            "VersionInfo": .array(element: "u", [.uint32(1 << 16 | 42 << 8 | 4)]), "Capabilities": .array(element: "u", []),
            "State": .uint32(20), "Connectivity": .uint32(1), "ConnectivityCheckAvailable": .bool(false),
            "ConnectivityCheckEnabled": .bool(false), "ConnectivityCheckUri": .string(""), "GlobalDnsConfiguration": .vardict([]),
        ]])
        add(Self.path + "/Settings", [Self.settings: [
            "Connections": .array(element: "o", paths.map(Value.objectPath)), "Hostname": .string("laptop"), "CanModify": .bool(false),
        ]])
        for (index, profile) in profiles.enumerated() {
            add(profilePath(index), [Self.profile: ["Unsaved": .bool(false), "Flags": .uint32(0),
                                                    "Filename": .string("/etc/NetworkManager/system-connections/\(profile.id).nmconnection")]])
            if let ssid = profile.ssid {
                add(accessPointPath(index), [Self.accessPoint: [
                    "Flags": .uint32(1), "WpaFlags": .uint32(0), "RsnFlags": .uint32(0x188),
                    "Ssid": .array(element: "y", Array(ssid.utf8).map(Value.byte)), "Frequency": .uint32(5180),
                    "HwAddress": .string(String(format: "02:00:00:00:00:%02X", index + 1)), "Mode": .uint32(2), "MaxBitrate": .uint32(540_000),
                    "Strength": .byte(80), "LastSeen": .int32(100),
                ]])
            }
        }
        let wifiProfiles = profiles.indices.filter { !profiles[$0].wired }, wiredProfiles = profiles.indices.filter { profiles[$0].wired }
        for (devicePath, iface, kind, available) in [(Self.wifiDevice, "wlan0", UInt32(2), wifiProfiles), (Self.wiredDevice, "eth0", UInt32(1), wiredProfiles)] {
            var interfaces: Properties = [Self.device: [
                "Udi": .string("/sys/devices/virtual/net/\(iface)"), "Path": .string(""), "Interface": .string(iface), "IpInterface": .string(""),
                "Driver": .string(kind == 2 ? "iwlwifi" : "e1000e"), "DriverVersion": .string(""), "FirmwareVersion": .string(""),
                "Capabilities": .uint32(7), "Ip4Address": .uint32(0), "State": .uint32(30), "StateReason": .structure([.uint32(30), .uint32(0)]),
                "ActiveConnection": .objectPath("/"), "Ip4Config": .objectPath("/"), "Dhcp4Config": .objectPath("/"), "Ip6Config": .objectPath("/"),
                "Dhcp6Config": .objectPath("/"), "Managed": .bool(true), "Autoconnect": .bool(true), "FirmwareMissing": .bool(false),
                "NmPluginMissing": .bool(false), "DeviceType": .uint32(kind), "AvailableConnections": .array(element: "o", available.map { .objectPath(profilePath($0)) }),
                "PhysicalPortId": .string(""), "Mtu": .uint32(1500), "Metered": .uint32(0), "LldpNeighbors": .array(element: "a{sv}", []),
                "Real": .bool(true), "Ip4Connectivity": .uint32(1), "Ip6Connectivity": .uint32(1), "InterfaceFlags": .uint32(0x10003),
                "HwAddress": .string(kind == 2 ? "02:00:00:00:01:01" : "02:00:00:00:02:02"), "Ports": .array(element: "o", []),
            ]]
            if kind == 2 {
                interfaces[Self.device + ".Wireless"] = [
                    "HwAddress": .string("02:00:00:00:01:01"), "PermHwAddress": .string("02:00:00:00:01:01"), "Mode": .uint32(2),
                    "Bitrate": .uint32(0), "AccessPoints": .array(element: "o", wifiProfiles.map { .objectPath(accessPointPath($0)) }),
                    "ActiveAccessPoint": .objectPath("/"), "WirelessCapabilities": .uint32(0x3ff), "LastScan": .int64(100),
                ]
            } else {
                interfaces[Self.device + ".Wired"] = ["HwAddress": .string("02:00:00:00:02:02"), "PermHwAddress": .string("02:00:00:00:02:02"),
                                                      "Speed": .uint32(1000), "S390Subchannels": .strings([]), "Carrier": .bool(true)]
            }
            add(devicePath, interfaces)
        }
    }

    // MARK: What the test does

    /// Connects a saved connection, as NetworkManager does on joining its network:
    /// activating, then activated.
    public func connect(_ id: String) {
        lock.withLock {
            guard let index = profiles.firstIndex(where: { $0.id == id }), up[index] == nil else { return }
            activate(index)
        }
    }

    /// Disconnects it (the network is gone): deactivated, and its object removed.
    public func disconnect(_ id: String) {
        lock.withLock {
            guard let index = profiles.firstIndex(where: { $0.id == id }) else { return }
            deactivate(index)
        }
    }

    /// The names of the connections up now.
    public var active: [String] { lock.withLock { up.keys.sorted().map { profiles[$0].id } } }

    private func activate(_ index: Int) {
        let profile = profiles[index], path = Self.path + "/ActiveConnection/\(nextActive)"
        nextActive += 1
        up[index] = path
        let device = profile.wired ? Self.wiredDevice : Self.wifiDevice
        add(path, [Self.active: [
            "Connection": .objectPath(profilePath(index)), "SpecificObject": .objectPath(profile.wired ? "/" : accessPointPath(index)),
            "Id": .string(profile.id), "Uuid": .string(uuid(index)), "Type": .string(profile.type),
            "Devices": .array(element: "o", [.objectPath(device)]), "State": .uint32(1), "StateFlags": .uint32(0), "Default": .bool(false),
            "Ip4Config": .objectPath("/"), "Dhcp4Config": .objectPath("/"), "Default6": .bool(false), "Ip6Config": .objectPath("/"),
            "Dhcp6Config": .objectPath("/"), "Vpn": .bool(false), "Controller": .objectPath("/"), "Master": .objectPath("/"),
        ]])
        set(Self.path, Self.manager, ["ActiveConnections": activeList(), "ActivatingConnection": .objectPath(path)])
        set(device, Self.device, ["ActiveConnection": .objectPath(path), "State": .uint32(70)])
        send(path, Self.active, "StateChanged", [.uint32(1), .uint32(0)])
        // Activated: the connection is up.
        set(path, Self.active, ["State": .uint32(2), "Default": .bool(true)])
        send(path, Self.active, "StateChanged", [.uint32(2), .uint32(0)])
        set(device, Self.device, ["State": .uint32(100)])
        if !profile.wired { set(device, Self.device + ".Wireless", ["ActiveAccessPoint": .objectPath(accessPointPath(index))]) }
        updateManager()
    }

    private func deactivate(_ index: Int) {
        guard let path = up.removeValue(forKey: index) else { return }
        let profile = profiles[index], device = profile.wired ? Self.wiredDevice : Self.wifiDevice
        set(path, Self.active, ["State": .uint32(4), "Default": .bool(false)])
        // NM_ACTIVE_CONNECTION_STATE_REASON_DEVICE_DISCONNECTED.
        send(path, Self.active, "StateChanged", [.uint32(4), .uint32(3)])
        set(device, Self.device, ["ActiveConnection": .objectPath("/"), "State": .uint32(30)])
        if !profile.wired { set(device, Self.device + ".Wireless", ["ActiveAccessPoint": .objectPath("/")]) }
        remove(path)
        set(Self.path, Self.manager, ["ActiveConnections": activeList()])
        updateManager()
    }

    private func activeList() -> Value {
        .array(element: "o", up.keys.sorted().map { .objectPath(up[$0]!) })
    }

    /// NM_STATE: 70 connected (global) with a connection up, 20 disconnected without.
    private func updateManager() {
        let primary = up.keys.sorted().first.map { up[$0]! } ?? "/"
        let state: UInt32 = up.isEmpty ? 20 : 70
        let before = value(Self.path, Self.manager, "State")
        set(Self.path, Self.manager, ["PrimaryConnection": .objectPath(primary), "ActivatingConnection": .objectPath("/"),
                                      "PrimaryConnectionType": .string(up.keys.sorted().first.map { profiles[$0].type } ?? ""),
                                      "State": .uint32(state), "Connectivity": .uint32(up.isEmpty ? 1 : 4)])
        if before != .uint32(state) { send(Self.path, Self.manager, "StateChanged", [.uint32(state)]) }
    }

    // MARK: Methods

    private func managerMethods() -> [Method] {
        let devices: Method = ("GetDevices", "", "ao", { _, _, _ in [.array(element: "o", [.objectPath(Self.wifiDevice), .objectPath(Self.wiredDevice)])] })
        return [
            devices, ("GetAllDevices", "", "ao", devices.handler),
            ("ActivateConnection", "ooo", "o", { [unowned self] _, args, _ throws(BusError) in
                let result = lock.withLock { () -> String? in
                    guard let path = args[0].string, let index = profiles.indices.first(where: { profilePath($0) == path }) else { return nil }
                    if up[index] == nil { activate(index) }
                    return up[index]
                }
                guard let result else { throw BusError(.init(rawValue: "org.freedesktop.NetworkManager.UnknownConnection"), "Connection not found") }
                return [.objectPath(result)]
            }),
            ("DeactivateConnection", "o", "", { [unowned self] _, args, _ throws(BusError) in
                let found = lock.withLock { () -> Bool in
                    guard let index = up.first(where: { $0.value == args[0].string })?.key else { return false }
                    deactivate(index)
                    return true
                }
                guard found else { throw BusError(.init(rawValue: "org.freedesktop.NetworkManager.ConnectionNotActive"), "The connection was not active.") }
                return []
            }),
            ("GetPermissions", "", "a{ss}", { _, _, _ in
                [.array(element: "{ss}", ["network-control", "enable-disable-wifi", "settings.modify.own"].map {
                    .dictEntry(.string("org.freedesktop.NetworkManager." + $0), .string("yes"))
                })]
            }),
            ("state", "", "u", { [unowned self] _, _, _ in [lock.withLock { value(Self.path, Self.manager, "State") } ?? .uint32(0)] }),
        ]
    }

    private func settingsMethods() -> [Method] {
        [
            ("ListConnections", "", "ao", { [unowned self] _, _, _ in [.array(element: "o", profiles.indices.map { .objectPath(profilePath($0)) })] }),
            ("GetConnectionByUuid", "s", "o", { [unowned self] _, args, _ throws(BusError) in
                guard let index = profiles.indices.first(where: { uuid($0) == args[0].string }) else {
                    throw BusError(.init(rawValue: "org.freedesktop.NetworkManager.Settings.InvalidConnection"), "No connection with the UUID was found.")
                }
                return [.objectPath(profilePath(index))]
            }),
        ]
    }

    private func profileMethods() -> [Method] {
        [("GetSettings", "", "a{sa{sv}}", { [unowned self] path, _, _ throws(BusError) in
            guard let index = profiles.indices.first(where: { profilePath($0) == path }) else {
                throw BusError(.init(rawValue: "org.freedesktop.DBus.Error.UnknownObject"), "No such object")
            }
            let profile = profiles[index]
            var settings: Properties = ["connection": ["id": .string(profile.id), "uuid": .string(uuid(index)), "type": .string(profile.type),
                                                       "autoconnect": .bool(true), "timestamp": .uint64(1_700_000_000)],
                                        "ipv4": ["method": .string("auto")], "ipv6": ["method": .string("auto")]]
            if let ssid = profile.ssid {
                settings["802-11-wireless"] = ["ssid": .array(element: "y", Array(ssid.utf8).map(Value.byte)), "mode": .string("infrastructure")]
            } else {
                settings["802-3-ethernet"] = [:]
            }
            return [Self.interfaceMap(settings)]
        })]
    }
}
