import Testing
import TestSupport
@testable import Presentation

/// ListEdits: the few splices between two lists of ids, or none past the limit.
struct ListEditsTests {
    private func ids(_ range: ClosedRange<Int>) -> [String] { range.map { "r\($0)" } }
    private func ids(count: Int) -> [String] { (0..<count).map { "r\($0 + 1)" } }

    @Test func oneMovedIsTwoSplicesOfOneNotTheStretchBetween() throws {
        let old = ids(1...10_000)
        var new = old
        new.append(new.remove(at: 3))
        let splices = try #require(ListEdits.splices(from: old, to: new))
        #expect(splices == [.init(position: 3, removing: 1, added: []), .init(position: 9_999, removing: 0, added: ["r4"])])
        #expect(ListEdits.applying(splices, to: old) == new)
    }

    @Test func aRunChangedIsOneSplice() throws {
        let old = ids(1...20)
        let new = Array(old[..<5]) + ["x", "y"] + Array(old[8...])
        let splices = try #require(ListEdits.splices(from: old, to: new))
        #expect(splices == [.init(position: 5, removing: 3, added: ["x", "y"])])
    }

    @Test func sameAndEmptyLists() throws {
        #expect(ListEdits.splices(from: ids(1...5), to: ids(1...5)) == [])
        #expect(ListEdits.splices(from: [String](), to: [String]()) == [])
        #expect(ListEdits.splices(from: [], to: ["a", "b"]) == [.init(position: 0, removing: 0, added: ["a", "b"])])
        #expect(ListEdits.splices(from: ["a", "b"], to: []) == [.init(position: 0, removing: 2, added: [])])
    }

    @Test func pastTheLimitThereIsNone() {
        let old = ids(1...200)
        #expect(ListEdits.splices(from: old, to: Array(old.reversed()), limit: 64) == nil)
        #expect(ListEdits.splices(from: old, to: Array(old.prefix(100)), limit: 64) == nil)
        #expect(ListEdits.splices(from: old, to: Array(old.prefix(140)), limit: 64) != nil)
    }

    /// Random lists and a few random moves, removals and additions: applied, the splices make
    /// the new list, and they never remove and add more than the edits made.
    @Test func randomEditsApplyToTheNewList() throws {
        var generator = SeededRandom(seed: 52)
        for round in 0..<500 {
            let old = ids(count: Int.random(in: 0...300, using: &generator))
            var new = old
            let edits = Int.random(in: 0...6, using: &generator)
            for edit in 0..<edits {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !new.isEmpty:
                    let moved = new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                    new.insert(moved, at: Int.random(in: 0...new.count, using: &generator))
                case 1 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                default: new.insert("n\(round)-\(edit)", at: Int.random(in: 0...new.count, using: &generator))
                }
            }
            let splices = try #require(ListEdits.splices(from: old, to: new), "round \(round)")
            #expect(ListEdits.applying(splices, to: old) == new, "round \(round): \(splices)")
            #expect(splices.reduce(0) { $0 + $1.removing + $1.added.count } <= 2 * edits, "round \(round): \(splices)")
        }
    }
}
