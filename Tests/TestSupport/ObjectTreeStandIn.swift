import DBus
import Foundation

/// The common part of the system services' stand-ins (NetworkManager, GeoClue): a tree of
/// objects whose interfaces hold properties, served from a thread of its own with
/// `org.freedesktop.DBus.Properties` (`Get`, `GetAll`, `Set` on properties the service
/// declares writable; `PropertiesChanged` with the values) and, when the service has one,
/// `org.freedesktop.DBus.ObjectManager` (`GetManagedObjects`, `InterfacesAdded`,
/// `InterfacesRemoved`). The stand-in says which methods each interface has; everything
/// runs under one lock, and what a change must signal is sent from the server's own
/// connection, as the real service's signals come from the name's owner.
public class ObjectTreeStandIn: @unchecked Sendable {
    public typealias Properties = [String: [String: Value]]
    public typealias Method = (name: String, inputs: String, outputs: String,
                               handler: (_ path: String, _ arguments: [Value], _ sender: String) throws(BusError) -> [Value])

    let lock = NSLock()
    private var tree: [String: Properties] = [:]
    private var exported: Set<String> = []
    private var outbox: [(path: String, interface: String, member: String, arguments: [Value], destination: String?)] = []
    private var server: ServerThread?
    /// The name owned, and where the ObjectManager sits (`nil`: none).
    let busName: String, managerPath: String?
    /// The methods of each interface, by interface name.
    var methods: [String: [Method]] = [:]
    /// Writable properties, as `interface.property`.
    var writable: Set<String> = []

    init(name: String, managerPath: String?) {
        busName = name
        self.managerPath = managerPath
    }

    /// Connects to the bus at `address`, serves what ``add(_:_:)`` put in the tree, and owns the name.
    func serve(address: String) throws {
        server = try ServerThread(address: address, tick: { [unowned self] connection in pump(connection) }) { [unowned self] connection in
            let paths = lock.withLock { () -> [String] in
                exported = Set(tree.keys)
                outbox.removeAll()
                return Array(tree.keys)
            }
            for path in paths { try connection.export(object(path)) }
            if let managerPath, !paths.contains(managerPath) { try connection.export(object(managerPath)) }
            _ = try connection.requestName(busName)
            serving = connection
        }
    }

    /// The server's connection, used on its thread only.
    nonisolated(unsafe) private var serving: Connection?

    /// Exports the objects added and sends the signals queued: between two turns, and
    /// before a method's reply (as the service does: a client told of a new object finds it).
    private func pump(_ connection: Connection) {
        let (send, fresh) = lock.withLock { () -> ([(path: String, interface: String, member: String, arguments: [Value], destination: String?)], [String]) in
            defer { outbox.removeAll() }
            let fresh = tree.keys.filter { !exported.contains($0) }
            exported.formUnion(fresh)
            return (outbox, fresh)
        }
        for path in fresh { try? connection.export(object(path)) }
        for signal in send {
            try? connection.emit(path: signal.path, interface: signal.interface, member: signal.member, arguments: signal.arguments,
                                 destination: signal.destination)
        }
        if !send.isEmpty {
            connection.flush()
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            lock.withLock { sent = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 }
        }
    }

    private var sent = 0.0
    private var slowGetAll = 0.0
    /// How long each `GetAll` takes to answer (a busy service): 0, at once.
    public var getAllDelay: Double {
        get { lock.withLock { slowGetAll } }
        set { lock.withLock { slowGetAll = newValue } }
    }
    /// When the last signals left (seconds since 1970, CLOCK_REALTIME as dbus-monitor
    /// stamps): what a latency is measured from.
    public var lastSent: Double { lock.withLock { sent } }

    /// Stops serving and leaves the bus (the name is let go at once).
    public func stop() {
        server?.stop()
        serving = nil
    }

    // MARK: The tree (call with the lock held)

    /// Adds an object (announced with `InterfacesAdded` when the service has an ObjectManager).
    func add(_ path: String, _ interfaces: Properties) {
        tree[path] = interfaces
        if let managerPath {
            send(managerPath, "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", [.objectPath(path), Self.interfaceMap(interfaces)])
        }
    }

    /// Removes an object; calls to it fail as calls to no object do.
    func remove(_ path: String) {
        guard let interfaces = tree.removeValue(forKey: path) else { return }
        if let managerPath {
            send(managerPath, "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved", [.objectPath(path), .strings(interfaces.keys.sorted())])
        }
    }

    func value(_ path: String, _ interface: String, _ name: String) -> Value? { tree[path]?[interface]?[name] }

    func has(_ path: String) -> Bool { tree[path] != nil }

    /// Sets properties, and signals the ones that changed (`PropertiesChanged`).
    func set(_ path: String, _ interface: String, _ values: [String: Value]) {
        var changed: [(String, Value)] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where tree[path]?[interface]?[name] != value {
            tree[path, default: [:]][interface, default: [:]][name] = value
            changed.append((name, value))
        }
        guard !changed.isEmpty else { return }
        send(path, "org.freedesktop.DBus.Properties", "PropertiesChanged", [.string(interface), .vardict(changed), .strings([])])
    }

    func send(_ path: String, _ interface: String, _ member: String, _ arguments: [Value], to destination: String? = nil) {
        outbox.append((path, interface, member, arguments, destination))
    }

    static func interfaceMap(_ interfaces: Properties) -> Value {
        .array(element: "{sa{sv}}", interfaces.keys.sorted().map { name in
            .dictEntry(.string(name), .vardict(interfaces[name]!.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        })
    }

    // MARK: Serving

    private func object(_ path: String) -> ExportedObject {
        typealias A = ExportedObject.Argument
        let unknown = BusError(.init(rawValue: "org.freedesktop.DBus.Error.UnknownObject"), "No such object path '\(path)'")
        var interfaces: [ExportedObject.Interface] = [
            .init("org.freedesktop.DBus.Properties", methods: [
                .init("Get", inputs: [A("interface_name", "s"), A("property_name", "s")], outputs: [A("value", "v")]) { [unowned self] args, _ throws(BusError) in
                    let found = lock.withLock { () -> Value?? in
                        guard has(path) else { return .none }
                        return .some(value(path, args[0].string ?? "", args[1].string ?? ""))
                    }
                    guard let found else { throw unknown }
                    guard let value = found else { throw BusError(.init(rawValue: "org.freedesktop.DBus.Error.UnknownProperty"), "No such property '\(args[1].string ?? "")'") }
                    return [.variant(value)]
                },
                .init("GetAll", inputs: [A("interface_name", "s")], outputs: [A("props", "a{sv}")]) { [unowned self] args, _ throws(BusError) in
                    let delay = lock.withLock { slowGetAll }
                    if delay > 0 { usleep(UInt32(delay * 1e6)) }
                    let found = lock.withLock { () -> [String: Value]? in
                        guard let object = tree[path] else { return nil }
                        return object[args[0].string ?? ""] ?? [:]
                    }
                    guard let found else { throw unknown }
                    return [.vardict(found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })]
                },
                .init("Set", inputs: [A("interface_name", "s"), A("property_name", "s"), A("value", "v")]) { [unowned self] args, _ throws(BusError) in
                    let interface = args[0].string ?? "", name = args[1].string ?? ""
                    let error = lock.withLock { () -> BusError? in
                        guard has(path) else { return unknown }
                        guard let old = value(path, interface, name) else { return BusError(.init(rawValue: "org.freedesktop.DBus.Error.UnknownProperty"), "No such property '\(name)'") }
                        guard writable.contains(interface + "." + name) else { return BusError(.init(rawValue: "org.freedesktop.DBus.Error.PropertyReadOnly"), "Property '\(name)' is not writable") }
                        let new = args[2].unwrapped
                        guard new.signature == old.signature else { return BusError(.invalidArgs, "\(name) is of type \(old.signature)") }
                        set(path, interface, [name: new])
                        return nil
                    }
                    if let error { throw error }
                    return []
                },
            ], signals: [.init("PropertiesChanged", arguments: [A("interface_name", "s"), A("changed_properties", "a{sv}"), A("invalidated_properties", "as")])]),
        ]
        if path == managerPath {
            interfaces.append(.init("org.freedesktop.DBus.ObjectManager", methods: [
                .init("GetManagedObjects", outputs: [A("object_paths_interfaces_and_properties", "a{oa{sa{sv}}}")]) { [unowned self] _, _ in
                    let all = lock.withLock { tree }
                    return [.array(element: "{oa{sa{sv}}}", all.keys.sorted().map { .dictEntry(.objectPath($0), Self.interfaceMap(all[$0]!)) })]
                },
            ], signals: [.init("InterfacesAdded", arguments: [A("object_path", "o"), A("interfaces_and_properties", "a{sa{sv}}")]),
                         .init("InterfacesRemoved", arguments: [A("object_path", "o"), A("interfaces", "as")])]))
        }
        let names = lock.withLock { tree[path].map { Array($0.keys) } ?? [] }
        for name in names.sorted() {
            let methods = (self.methods[name] ?? []).map { method in
                ExportedObject.Method(name: method.name, inputs: method.inputs, outputs: method.outputs) { [unowned self] args, call throws(BusError) in
                    guard lock.withLock({ has(path) }) else { throw unknown }
                    let result = try method.handler(path, args, call.sender ?? "")
                    if let serving { pump(serving) }
                    return result
                }
            }
            interfaces.append(.init(name, methods: methods))
        }
        return ExportedObject(path: path, interfaces: interfaces)
    }
}

extension ExportedObject.Method {
    /// A method from its signatures alone (argument names `arg0`, `arg1`…).
    init(name: String, inputs: String, outputs: String, handler: @escaping (_ arguments: [Value], _ call: Message) throws(BusError) -> [Value]) {
        func arguments(_ signature: String) -> [ExportedObject.Argument] {
            Self.splitSignature(signature).enumerated().map { ExportedObject.Argument("arg\($0.offset)", $0.element) }
        }
        self.init(name, inputs: arguments(inputs), outputs: arguments(outputs), handler: handler)
    }

    /// A signature's complete types: `oa{sv}s` → `o`, `a{sv}`, `s`.
    static func splitSignature(_ signature: String) -> [String] {
        var result: [String] = [], current = "", depth = 0
        for ch in signature {
            current.append(ch)
            if ch == "(" || ch == "{" { depth += 1 } else if ch == ")" || ch == "}" { depth -= 1 }
            if depth == 0 && ch != "a" {
                result.append(current)
                current = ""
            }
        }
        return result
    }
}
