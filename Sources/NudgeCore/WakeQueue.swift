import Foundation

/// When the scheduler wants to run for each alert: a min-heap of wake-ups with lazy
/// invalidation, O(log n) per change.
///
/// A wake-up carries a generation, and the alert's slot in the ``AlertTable`` keeps the
/// generation of the one it waits for; a replaced wake-up stays in the heap and is skipped
/// when it surfaces, so a change never searches the heap. Equal instants come out in the
/// order they were queued.
struct WakeQueue {
    /// One alert's wake-up.
    struct Wake: Comparable {
        var at: Date
        var id: UUID
        var generation: Int
        static func < (a: Wake, b: Wake) -> Bool { a.at < b.at || (a.at == b.at && a.generation < b.generation) }
    }

    private var heap = MinHeap<Wake>()
    private var generation = 0

    init(capacity: Int) { heap.reserveCapacity(capacity) }

    /// Queues a wake-up and returns its generation, for the alert's slot to keep.
    mutating func push(_ id: UUID, at instant: Date) -> Int {
        generation += 1
        heap.push(Wake(at: instant, id: id, generation: generation))
        return generation
    }

    /// The earliest wake-up still waited for, dropping replaced ones on the way.
    mutating func next(isCurrent: (Wake) -> Bool) -> Date? {
        while let top = heap.min, !isCurrent(top) { heap.popMin() }
        return heap.min?.at
    }

    /// Takes the earliest wake-up if it is due by `now`, whether or not it was replaced
    /// since (the caller checks).
    mutating func popDue(_ now: Date) -> Wake? {
        guard let top = heap.min, top.at <= now else { return nil }
        return heap.popMin()
    }

    /// Replaced wake-ups stay in the heap until they surface; when they outnumber the `live`
    /// ones (a reload that changed everything), they are dropped in one pass.
    mutating func compact(live: Int, isCurrent: (Wake) -> Bool) {
        if heap.count > 2 * live + 64 { heap.retain(where: isCurrent) }
    }
}
