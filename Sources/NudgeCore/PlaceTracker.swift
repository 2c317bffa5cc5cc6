import Foundation

/// Turns what the sources say (the networks connected now, the position now) into arrivals
/// and departures, the rules a person expects of them:
///
/// - What is seen first is where you are, not where you arrived: the first networks after
///   the daemon starts (or after NetworkManager is first seen), an area's first position.
/// - A departure counts once the place has been gone for ``settle`` (a Wi-Fi link that
///   drops and comes back within it is not leaving); an arrival while its departure is
///   still settling is the same stay (connect, disconnect, connect: one arrival).
/// - A source that vanishes says nothing: its places are kept as they were last seen, and
///   what it says when it returns is compared with that.
///
/// Pure: the instant comes in; ``deadline`` says when to call ``settle(now:)`` next.
public struct PlaceTracker: Sendable {
    /// How long a place must stay gone before it counts as left.
    public var settle: TimeInterval

    /// Places present, as last seen (networks by every name they go by, areas by the circle).
    private var present: Set<PlaceTrigger.Spot> = []
    /// Places gone from what the source says, since when; not yet left.
    private var going: [PlaceTrigger.Spot: Date] = [:]
    /// Whether the networks have been seen once.
    private var networksKnown = false
    /// The areas that have been placed once (a new area's first position is a baseline).
    private var areasKnown: Set<PlaceTrigger.Area> = []

    public init(settle: TimeInterval = 120) { self.settle = settle }

    /// The networks connected now, by every name they go by (connection names and SSIDs).
    public mutating func networks(_ names: Set<String>, now: Date) -> [PlaceEvent] {
        let seen = Set(names.map { PlaceTrigger.Spot.network($0) })
        let tracked = present.filter { if case .network = $0 { true } else { false } }
        defer { networksKnown = true }
        guard networksKnown else {
            present.formUnion(seen)
            return []
        }
        return update(seen: seen, tracked: tracked, now: now)
    }

    /// A position (degrees) placed in the areas reminders name now. An area wider than the
    /// position's error (`accuracy`, metres) can tell inside from outside; for a narrower one
    /// the fix says nothing (a city-wide guess does not leave a 300 m circle).
    public mutating func position(latitude: Double, longitude: Double, accuracy: Double = 0, areas named: Set<PlaceTrigger.Area>, now: Date) -> [PlaceEvent] {
        let areas = named.filter { accuracy <= $0.radius }
        let fresh = areas.subtracting(areasKnown)
        areasKnown.formUnion(areas)
        let inside = Set(areas.filter { $0.contains(latitude: latitude, longitude: longitude) }.map { PlaceTrigger.Spot.area($0) })
        present.formUnion(inside.filter { if case .area(let a) = $0 { fresh.contains(a) } else { false } })
        let tracked = present.filter { if case .area(let a) = $0 { areas.contains(a) && !fresh.contains(a) } else { false } }
        return update(seen: inside.filter { if case .area(let a) = $0 { !fresh.contains(a) } else { false } }, tracked: tracked, now: now)
    }

    /// Areas no reminder names any more are forgotten (a new one with the same circle
    /// starts from a baseline again).
    public mutating func keepAreas(_ areas: Set<PlaceTrigger.Area>) {
        areasKnown.formIntersection(areas)
        present = present.filter { if case .area(let a) = $0 { areas.contains(a) } else { true } }
        going = going.filter { if case .area(let a) = $0.key { areas.contains(a) } else { true } }
    }

    private mutating func update(seen: Set<PlaceTrigger.Spot>, tracked: Set<PlaceTrigger.Spot>, now: Date) -> [PlaceEvent] {
        var events: [PlaceEvent] = []
        for spot in seen.subtracting(tracked).sorted(by: Self.order) {
            present.insert(spot)
            events.append(PlaceEvent(.arrive, spot))
        }
        for spot in seen where going[spot] != nil {
            going[spot] = nil
        }
        for spot in tracked.subtracting(seen) where going[spot] == nil {
            going[spot] = now
        }
        return events + settle(now: now)
    }

    /// The departures whose time has come.
    public mutating func settle(now: Date) -> [PlaceEvent] {
        let due = going.filter { now.timeIntervalSince($0.value) >= settle }.map(\.key).sorted(by: Self.order)
        for spot in due {
            going[spot] = nil
            present.remove(spot)
        }
        return due.map { PlaceEvent(.leave, $0) }
    }

    /// When a departure settles next; `nil` when none is waiting (nothing to wake for).
    public var deadline: Date? {
        going.values.min().map { $0.addingTimeInterval(settle) }
    }

    /// Where the person is now, as far as the sources said (a place still settling counts).
    public var places: [PlaceTrigger.Spot] { present.sorted(by: Self.order) }

    /// Whether the person is at a place now (as far as the sources said).
    public func isPresent(_ spot: PlaceTrigger.Spot) -> Bool {
        present.contains(spot)
    }

    private static func order(_ a: PlaceTrigger.Spot, _ b: PlaceTrigger.Spot) -> Bool {
        String(describing: a) < String(describing: b)
    }
}
