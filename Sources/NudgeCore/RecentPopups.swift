import Foundation

/// What is remembered of pop-ups whose answer is not complete: at most `capacity` of them,
/// the oldest forgotten first, so nothing grows with the number of pop-ups ever shown.
struct RecentPopups {
    struct Entry {
        var alert: UUID
        /// An action came; the close that usually follows is part of the same answer.
        var answered = false
        /// It closed; an action may still follow.
        var closed = false
        /// It closed because the person dismissed it.
        var dismissed = false
        /// Its delivery got no reply in time; the reply may still come.
        var failed = false
    }

    let capacity: Int
    private var entries: [UInt32: Entry] = [:]
    private var order: [UInt32] = []

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { entries.count }

    subscript(id: UInt32) -> Entry? { entries[id] }

    /// Remembers (or replaces) what came for a pop-up; returns the oldest one forgotten to
    /// make room, if one was.
    mutating func remember(_ entry: Entry, for id: UInt32) -> UInt32? {
        if entries.updateValue(entry, forKey: id) == nil { order.append(id) }
        var evicted: UInt32?
        if entries.count > capacity, let oldest = order.first(where: { entries[$0] != nil }) {
            forget(oldest)
            evicted = oldest
        }
        if order.count > 2 * capacity { order.removeAll { entries[$0] == nil } }
        return evicted
    }

    mutating func forget(_ id: UInt32) {
        entries[id] = nil
        if order.count > 2 * capacity { order.removeAll { entries[$0] == nil } }
    }
}
