import DBus
import Foundation
import Localization
import NudgeCore
import NudgeStore
import Platform

/// What the operations act in, given to them as one value (as GRDB's demo passes its
/// `AppDatabase`): the store, held open (``HeldStore``: no operation opens one itself),
/// the clock, the zone and the language a person reads, the environment, and the session
/// bus a running daemon is reached on. The command line passes ``live``; a face passes its
/// feed's (``AlertFeed/world``), holding the feed's session and channel; a test passes a
/// store of its own, a fixed clock and zone, and no bus.
public struct World: Sendable {
    /// The store the operations act on, opened when first asked for and kept.
    public var store: HeldStore
    /// The store's file.
    public var storePath: String { store.path }
    /// The system's zone, which alerts without a zone of their own follow.
    public var zone: TimeZone
    /// The language texts that become data are written in (a water reminder's title).
    public var language: Language
    /// The session bus's address, where a running daemon is told of changes and asked for
    /// answers; `nil`: no daemon, and pop-ups are nobody's to close.
    public var busAddress: String?
    /// The process's environment as the operations read it (the data folders, the session,
    /// the locale): `nudge doctor` checks this one. A test gives its own.
    public var environment: Environment
    /// Now.
    public var clock: @Sendable () -> Date
    /// A face's way to the daemon, on the connection its feed follows (``DaemonChannel``):
    /// with it nothing the operations do waits for the daemon. `nil` on the command line,
    /// which asks the bus and the daemon directly and may wait for them.
    public var channel: DaemonChannel?

    /// A world with every part given; a test gives its own store (by path, opened when
    /// first used, or `store` already open), a fixed clock and zone, and a `nil` bus (no
    /// daemon).
    public init(storePath: String, zone: TimeZone, language: Language, busAddress: String?, clock: @escaping @Sendable () -> Date,
                channel: DaemonChannel? = nil, store: HeldStore? = nil, environment: Environment = [:]) {
        self.store = store ?? HeldStore(path: storePath)
        self.zone = zone
        self.language = language
        self.busAddress = busAddress
        self.clock = clock
        self.channel = channel
        self.environment = environment
    }

    /// This world as a face has it: the daemon reached through its feed's channel, the
    /// store through its feed's session (see ``AlertFeed/world``).
    public func face(channel: DaemonChannel?, store: HeldStore) -> World {
        var world = self
        world.channel = channel
        world.store = store
        return world
    }

    /// This process's world: `$XDG_DATA_HOME/nudge/nudge.sqlite`, the system's zone
    /// (``LocalZone``), the person's language, the session bus, the real clock, the
    /// process's environment. A new one each time: the store it holds is let go with it.
    public static var live: World {
        let environment = Environment.current
        return World(storePath: AppDatabase.defaultPath(environment: environment), zone: LocalZone.current,
                     language: Catalog.shared.language, busAddress: environment.sessionBusAddress, clock: { Date() },
                     environment: environment)
    }

    /// The time now, by this world's clock.
    public var now: Date { clock() }

    /// Runs a store operation, mapping its failures (and marking a damaged store).
    public func run<T>(_ body: () throws -> T) throws(OperationError) -> T {
        do {
            return try body()
        } catch {
            throw OperationError(StoreError(error, path: storePath))
        }
    }

    /// A connection of the caller's own to the session bus, for a face that follows the
    /// daemon (``AlertFeed``); `nil` without a bus.
    public func connectToBus() -> Connection? { busAddress.flatMap { try? Connection.bus(address: $0) } }

    /// The link to the daemon when it runs now, else `nil` (the command line's: it asks the
    /// bus, and waits).
    public var daemon: DaemonLink? { busAddress.flatMap(DaemonLink.running(address:)) }

    /// Tells a running daemon that the store changed (see ``DaemonLink/storeChanged(address:)``,
    /// or on a face's channel without waiting); returns whether it runs (on a channel, as the
    /// bus last said; not known yet is not running).
    @discardableResult
    public func storeChanged() -> Bool {
        if let channel {
            channel.reload()
            return channel.isRunning == true
        }
        guard let busAddress else { return false }
        return DaemonLink.storeChanged(address: busAddress)
    }

    /// Closes pop-ups when no daemon runs to do it (alerts switched off or removed); with a
    /// daemon, it is told, and closes them itself.
    public func storeChanged(closing shown: [UInt32]) {
        if !storeChanged() && !shown.isEmpty {
            let closer = popupCloser
            for id in shown { try? closer.withdraw(id) }
        }
    }

    /// Closes pop-ups the daemon left, when it is not there to do it.
    public var popupCloser: PopupCloser { PopupCloser(busAddress: busAddress, channel: channel) }
}
