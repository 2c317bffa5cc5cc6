import Foundation
import NudgeCore
import NudgeStore

/// What the daemon has to write to the delivery log and has not yet: log entries, drinks
/// chosen on pop-ups, and the server's ids for rows written before they came back. A
/// pop-up's row is written with the daemon's own handle as soon as it fires (a crash then
/// repeats at most that one pop-up); the notification server's id, which `nudge ack` and
/// `dunstctl history` know it by, is filled in with the next write once it arrives.
final class PendingLog {
    private var entries: [LogEntry] = []
    private var drinks: [(millilitres: Int, at: Date)] = []
    /// Rows written before the server's id for their pop-up came back, by our handle; and
    /// ids that came back, to write into those rows with the next write.
    private var rowsAwaitingID: [UInt32: [Int64]] = [:]
    private var idsForRows: [Int64: UInt32] = [:]

    /// Nothing to write.
    var isEmpty: Bool { entries.isEmpty && drinks.isEmpty && idsForRows.isEmpty }

    /// Rows still waiting for their server id, for `Status`'s bookkeeping.
    var awaitingIDs: Int { rowsAwaitingID.count }

    /// A log entry to write.
    func add(_ entry: LogEntry) { entries.append(entry) }

    /// A drink chosen on a pop-up, written with its answer.
    func addDrink(_ millilitres: Int, at instant: Date) { drinks.append((millilitres, instant)) }

    /// The server's id for a pop-up came back: the rows written with its handle get it.
    func shown(handle: UInt32, serverID: UInt32?) {
        guard let rows = rowsAwaitingID.removeValue(forKey: handle), let serverID else { return }
        for row in rows { idsForRows[row] = serverID }
    }

    /// The pop-up never showed: no id will come for its rows.
    func failed(handle: UInt32) { rowsAwaitingID[handle] = nil }

    /// Writes the changed `states` and everything pending in one transaction, each handle
    /// put as the server's id where that is known (`serverID`); forgets what was written.
    func write(to store: AppDatabase, states: [UUID: AlertState], serverID: (UInt32) -> UInt32?) throws {
        let handles = entries.map(\.deliveryID)
        let written = entries.map { entry in
            var entry = entry
            entry.deliveryID = entry.deliveryID.flatMap(serverID)
            return entry
        }
        let rows = try store.save(states: states, log: written, notificationIDs: idsForRows, drinks: drinks)
        for (row, (handle, entry)) in zip(rows, zip(handles, written)) where entry.deliveryID == nil {
            if let handle { rowsAwaitingID[handle, default: []].append(row) }
        }
        discard()
    }

    /// Forgets what is pending (there is no store to write it to).
    func discard() {
        entries.removeAll()
        idsForRows.removeAll()
        drinks.removeAll()
    }
}
