/// The few splices that turn one list of ids into another, when a few are enough: a face's list
/// model (the window's GtkStringList) told "these 2 moved" keeps the rows it laid out, where told
/// "these 10,000 changed" it drops them all (GTK 4.8's grid view then lost its place and was left
/// blank: issue 52).
public enum ListEdits {
    /// One splice: at `position` in the list as the splices before it left it, remove `removing`
    /// items and put `added` there.
    public struct Splice: Equatable, Sendable {
        public var position: Int
        public var removing: Int
        public var added: [String]
        public init(position: Int, removing: Int, added: [String]) {
            (self.position, self.removing, self.added) = (position, removing, added)
        }
    }

    /// The splices, in order, that turn `old` into `new` with the fewest items removed and added
    /// (Myers' shortest edit script), adjacent ones joined; nil when that takes more than
    /// `limit` items removed and added (the search stops there: its cost is the lists' length
    /// times the edits).
    public static func splices<Old: RandomAccessCollection<String>, New: RandomAccessCollection<String>>(
        from old: Old, to new: New, limit: Int = 64) -> [Splice]? {
        let a = Array(old), b = Array(new)
        let (n, m) = (a.count, b.count)
        guard abs(n - m) <= limit else { return nil }
        // v[k + offset]: the furthest x reached on diagonal k (x - y == k) with d edits; one copy
        // of it kept per d, to walk back along.
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset]) ? v[k + 1 + offset] : v[k - 1 + offset] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[k + offset] = x
                if x >= n, y >= m { found = true; break search }
            }
        }
        guard found else { return nil }
        // Back from the end: each edit, as (x, y) before it and whether it removes a[x] or adds b[y].
        var edits: [(x: Int, y: Int, remove: Bool)] = []
        var (x, y) = (n, m)
        for d in stride(from: trace.count - 1, through: 1, by: -1) {
            let v = trace[d]
            let k = x - y
            let down = k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset])
            let previousK = down ? k + 1 : k - 1
            let previousX = v[previousK + offset], previousY = previousX - previousK
            // The edit from there (down: b[previousY] added; right: a[previousX] removed); the
            // snake after it is passed over.
            edits.append((previousX, previousY, !down))
            (x, y) = (previousX, previousY)
        }
        // Forward: at (x, y) the list holds b[..<y] then a[x...], so either edit happens at y.
        var splices: [Splice] = []
        for edit in edits.reversed() {
            // Right after the last splice's added items: one splice (what it removes follows
            // what the last one removed, in the list before them).
            if var last = splices.last, last.position + last.added.count == edit.y {
                if edit.remove { last.removing += 1 } else { last.added.append(b[edit.y]) }
                splices[splices.count - 1] = last
            } else {
                splices.append(Splice(position: edit.y, removing: edit.remove ? 1 : 0, added: edit.remove ? [] : [b[edit.y]]))
            }
        }
        return splices
    }

    /// `list` with `splices` applied, as a list model would be.
    public static func applying(_ splices: [Splice], to list: [String]) -> [String] {
        var list = list
        for splice in splices {
            list.replaceSubrange(splice.position..<(splice.position + splice.removing), with: splice.added)
        }
        return list
    }
}
