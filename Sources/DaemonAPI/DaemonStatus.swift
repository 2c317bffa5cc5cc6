import DBus
import Foundation
import NudgeCore

/// What the daemon's `Status()` says (`a{sv}`): written by the daemon, read by `doctor`,
/// `nudge ui` and the window. The keys and their types are defined here once, for both
/// sides; a field the reader does not know is kept in ``extra``.
public struct DaemonStatus: Sendable, Equatable {
    /// The daemon's version.
    public var version: String
    /// Its process id.
    public var pid: UInt32
    /// How many alerts it holds.
    public var alerts: UInt32
    /// Pop-ups waiting for an answer, counted as the badge counts them.
    public var pending: UInt32
    /// Whether a notification server is on the bus.
    public var server: Bool
    /// The system's zone, as the daemon follows it.
    public var zone: String
    /// Why the person counts as away now; empty when not away.
    public var awayReason: String
    /// The services the daemon follows to know it.
    public var awaySources: [String]
    /// Where the person is, as the place sources said (`network office-wifi`).
    public var places: [String]
    /// The place sources the daemon follows, and what is wrong with one that fails
    /// (`NetworkManager`, `GeoClue: refused (…)`).
    public var placeSources: [String]
    /// Today's water and the goal, when there are water reminders.
    public var water: (today: UInt32, goal: UInt32)?
    /// When it wakes next, if anything is due.
    public var nextDue: Date?
    /// The rest: the pop-up bookkeeping (`popups-shown`…), for the soak benchmark.
    public var extra: [String: UInt32]

    /// A status from its values.
    public init(version: String, pid: UInt32, alerts: UInt32, pending: UInt32, server: Bool = false, zone: String = "",
                awayReason: String = "", awaySources: [String] = [], places: [String] = [], placeSources: [String] = [],
                water: (today: UInt32, goal: UInt32)? = nil, nextDue: Date? = nil, extra: [String: UInt32] = [:]) {
        (self.places, self.placeSources) = (places, placeSources)
        (self.version, self.pid, self.alerts, self.pending, self.server, self.zone) = (version, pid, alerts, pending, server, zone)
        (self.awayReason, self.awaySources, self.water, self.nextDue, self.extra) = (awayReason, awaySources, water, nextDue, extra)
    }

    /// The keys on the bus.
    public enum Key {
        public static let version = "version", pid = "pid", alerts = "alerts", pending = "pending", server = "server",
                          zone = "zone", away = "away", awayReason = "away-reason", awaySources = "away-sources",
                          waterToday = "water-today", waterGoal = "water-goal", nextDue = "next-due", nextDueMicroseconds = "next-due-usec",
                          places = "places", placeSources = "place-sources"
    }

    /// As `Status()` returns it; `next-due` in `zone` (ISO 8601) besides its microseconds.
    public func fields(in zone: TimeZone) -> Value {
        var entries: [(String, Value)] = [
            (Key.version, .string(version)), (Key.pid, .uint32(pid)), (Key.alerts, .uint32(alerts)),
            (Key.pending, .uint32(pending)), (Key.server, .bool(server)), (Key.zone, .string(self.zone)),
            (Key.away, .bool(!awayReason.isEmpty)), (Key.awayReason, .string(awayReason)), (Key.awaySources, .strings(awaySources)),
            (Key.places, .strings(places)), (Key.placeSources, .strings(placeSources)),
        ]
        if let water { entries += [(Key.waterToday, .uint32(water.today)), (Key.waterGoal, .uint32(water.goal))] }
        entries += extra.sorted { $0.key < $1.key }.map { ($0.key, .uint32($0.value)) }
        if let nextDue {
            entries.append((Key.nextDue, .string(InstantFormat.iso8601(nextDue, in: zone))))
            entries.append((Key.nextDueMicroseconds, .uint64(UInt64(max(nextDue.timeIntervalSince1970, 0) * 1_000_000))))
        }
        return .vardict(entries)
    }

    /// Read from `Status()`'s dictionary; what is missing reads as empty.
    public init(fields: [String: Value]) {
        let known: Set<String> = [Key.version, Key.pid, Key.alerts, Key.pending, Key.server, Key.zone, Key.away, Key.awayReason,
                                  Key.awaySources, Key.waterToday, Key.waterGoal, Key.nextDue, Key.nextDueMicroseconds,
                                  Key.places, Key.placeSources]
        let water = fields[Key.waterToday]?.uint32.flatMap { today in fields[Key.waterGoal]?.uint32.map { (today, $0) } }
        let next: Date? = if case .uint64(let usec)? = fields[Key.nextDueMicroseconds] { Date(timeIntervalSince1970: Double(usec) / 1e6) } else { nil }
        self.init(version: fields[Key.version]?.string ?? "?", pid: fields[Key.pid]?.uint32 ?? 0, alerts: fields[Key.alerts]?.uint32 ?? 0,
                  pending: fields[Key.pending]?.uint32 ?? 0, server: fields[Key.server]?.bool ?? false,
                  zone: fields[Key.zone]?.string ?? "",
                  awayReason: fields[Key.away]?.bool == true ? fields[Key.awayReason]?.string ?? "" : "",
                  awaySources: fields[Key.awaySources]?.strings ?? [], places: fields[Key.places]?.strings ?? [],
                  placeSources: fields[Key.placeSources]?.strings ?? [], water: water, nextDue: next,
                  extra: fields.filter { !known.contains($0.key) }.compactMapValues(\.uint32))
    }

    public static func == (a: DaemonStatus, b: DaemonStatus) -> Bool {
        a.fields(in: TimeZone(identifier: "UTC")!) == b.fields(in: TimeZone(identifier: "UTC")!)
    }
}
