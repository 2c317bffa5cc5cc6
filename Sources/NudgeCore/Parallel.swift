import Dispatch
import Foundation

/// Work split over the CPUs in contiguous chunks, for the few places that touch every
/// alert of a big store at once (reading 100,000 alerts, writing them as JSON).
public enum Parallel {
    /// Runs `body` over `0..<count` cut into one contiguous range per CPU (no chunk
    /// smaller than `minimumChunk`) and returns the results in order.
    public static func chunks<T: Sendable>(_ count: Int, minimumChunk: Int = 4096,
                                           _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / minimumChunk))
        if workers == 1 { return [body(0..<count)] }
        let results = Slots<T>(workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            results.put(worker, body(count * worker / workers ..< count * (worker + 1) / workers))
        }
        return results.values
    }

    /// One result slot per worker; each worker writes only its own.
    private final class Slots<T>: @unchecked Sendable {
        private var slots: [T?]
        private let lock = NSLock()
        init(_ count: Int) { slots = Array(repeating: nil, count: count) }
        func put(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }
        var values: [T] { lock.withLock { slots.map { $0! } } }
    }
}
