import Foundation
import Testing
@testable import NudgeCore

/// The table keeps each state packed; what goes in comes out the same.
struct AlertTableTests {
    @Test func aStateComesBackAsItWentIn() {
        let at = Date(timeIntervalSinceReferenceDate: 786_000_000.25)
        var full = AlertState(checkedUntil: at)
        full.lastFired = at.addingTimeInterval(-60)
        full.pendingCount = 7
        full.shownID = 0
        full.snoozedUntil = at.addingTimeInterval(600.5)
        full.doneForDay = CivilDay(daysSinceEpoch: -3)
        full.lastAnswer = at.addingTimeInterval(-1e-3)
        full.shownAt = Date(timeIntervalSinceReferenceDate: -1e9)
        full.goalMetUntil = at.addingTimeInterval(86_400)
        full.heldCount = Int32.max
        full.heldSince = at
        full.nagAt = at.addingTimeInterval(30)
        full.nagCount = 3
        let empty = AlertState(checkedUntil: .distantPast)
        var shown = empty
        shown.shownID = UInt32.max
        shown.doneForDay = CivilDay(daysSinceEpoch: 0)
        for state in [full, empty, shown] {
            #expect(AlertTable.PackedState(state).state == state)
        }
        #expect(MemoryLayout<AlertTable.PackedState>.stride < MemoryLayout<AlertState>.stride)
    }
}
