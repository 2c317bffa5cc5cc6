/// A binary min-heap: O(log n) push and pop, O(1) peek. The scheduler's wake-up queue.
struct MinHeap<Element: Comparable> {
    private(set) var items: [Element] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var min: Element? { items.first }

    mutating func reserveCapacity(_ n: Int) { items.reserveCapacity(n) }

    /// Keeps only the elements that pass, and restores the heap order (O(n)).
    mutating func retain(where keep: (Element) -> Bool) {
        items.removeAll { !keep($0) }
        for start in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(start) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && items[left] < items[smallest] { smallest = left }
            if right < items.count && items[right] < items[smallest] { smallest = right }
            if smallest == parent { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }

    mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func popMin() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        siftDown(0)
        return top
    }
}
