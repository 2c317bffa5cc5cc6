import DBus
import Foundation

/// Stands in for GNOME's idle monitor, which needs a GNOME Shell session that does not run
/// here: it owns `org.gnome.Mutter.IdleMonitor` and serves `/org/gnome/Mutter/IdleMonitor/Core`
/// with the interface exactly as mutter's `org.gnome.Mutter.IdleMonitor.xml` declares it:
/// `GetIdletime() → t`, `AddIdleWatch(t interval) → u`, `AddUserActiveWatch() → u`,
/// `RemoveWatch(u)`, `ResetIdletime()`, signal `WatchFired(u id)`, sent to the watch's
/// owner alone. Idle watches stay and fire each time the idle time reaches them; a
/// user-active watch fires once and is gone, as mutter does. The test says when the
/// person goes idle and comes back.
public final class IdleMonitorStandIn: @unchecked Sendable {
    public static let name = "org.gnome.Mutter.IdleMonitor", path = "/org/gnome/Mutter/IdleMonitor/Core",
                      interface = "org.gnome.Mutter.IdleMonitor"

    private let lock = NSLock()
    private var nextID: UInt32 = 0
    /// Idle watches: interval in milliseconds and owner; user-active watches: owner.
    private var idleWatches: [UInt32: (interval: UInt64, owner: String)] = [:]
    private var activeWatches: [UInt32: String] = [:]
    private var idleSince: Date?
    private var pending: [(id: UInt32, owner: String)] = []
    private var server: ServerThread?

    /// Connects to the bus at `address`, owns the name, and serves from a thread of its own.
    public init(address: String) throws {
        server = try ServerThread(address: address, tick: { [unowned self] connection in
            let fire = lock.withLock { () -> [(id: UInt32, owner: String)] in
                defer { pending.removeAll() }
                return pending
            }
            for watch in fire {
                try? connection.emit(path: Self.path, interface: Self.interface, member: "WatchFired",
                                     arguments: [.uint32(watch.id)], destination: watch.owner)
            }
            if !fire.isEmpty { connection.flush() }
        }) { [unowned self] connection in
            try connection.export(object())
            _ = try connection.requestName(Self.name)
        }
    }

    /// The watches asked for so far: the idle intervals in milliseconds.
    public var idleIntervals: [UInt64] { lock.withLock { idleWatches.values.map(\.interval).sorted() } }

    /// The person stops touching anything: every idle watch fires (as if its interval passed).
    public func goIdle() {
        lock.withLock {
            idleSince = Date()
            pending += idleWatches.map { ($0.key, $0.value.owner) }
        }
    }

    /// The person is back: every user-active watch fires and is gone.
    public func becomeActive() {
        lock.withLock {
            idleSince = nil
            pending += activeWatches.map { ($0.key, $0.value) }
            activeWatches.removeAll()
        }
    }

    public func stop() {
        server?.stop()
    }

    private func object() -> ExportedObject {
        typealias A = ExportedObject.Argument
        let methods: [ExportedObject.Method] = [
            .init("GetIdletime", outputs: [A("idletime", "t")]) { [unowned self] _, _ in
                [.uint64(lock.withLock { idleSince.map { UInt64(Date().timeIntervalSince($0) * 1000) } ?? 0 })]
            },
            .init("AddIdleWatch", inputs: [A("interval", "t")], outputs: [A("id", "u")]) { [unowned self] args, call throws(BusError) in
                guard case .uint64(let interval)? = args.first else { throw BusError(.invalidArgs, "interval is a t") }
                return [.uint32(lock.withLock {
                    nextID += 1
                    idleWatches[nextID] = (interval, call.sender ?? "")
                    return nextID
                })]
            },
            .init("AddUserActiveWatch", outputs: [A("id", "u")]) { [unowned self] _, call in
                [.uint32(lock.withLock {
                    nextID += 1
                    activeWatches[nextID] = call.sender ?? ""
                    return nextID
                })]
            },
            .init("RemoveWatch", inputs: [A("id", "u")]) { [unowned self] args, _ throws(BusError) in
                guard let id = args.first?.uint32 else { throw BusError(.invalidArgs, "id is a u") }
                lock.withLock {
                    idleWatches[id] = nil
                    activeWatches[id] = nil
                }
                return []
            },
            .init("ResetIdletime") { [unowned self] _, _ in
                lock.withLock { idleSince = nil }
                return []
            },
        ]
        return ExportedObject(path: Self.path, interfaces: [
            .init(Self.interface, methods: methods, signals: [.init("WatchFired", arguments: [A("id", "u")])]),
        ])
    }
}
