import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore
import Localization

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete reminders; a pop-up still shown closes. Their log stays.",
        discussion: "Examples:\n  nudge rm 3f25\n  nudge rm 3f25 b195")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws {
        for alert in try Self.remove(ids) {
            // TRANSLATORS: nudge rm; %1$s is the alert's id, %2$s its title.
            print(format(tr("removed %1$s: %2$s"), alert.id.shortHex, alert.title.escapingControls))
        }
    }

    /// Deletes the alerts the ids name (every id resolved first), closes their pop-ups, and
    /// returns what was removed.
    static func remove(_ ids: [String]) throws(CLIError) -> [(id: UUID, title: String)] {
        let store = try StoreAccess.open()
        // By id and title only: an alert whose row cannot be read can still be removed.
        var alerts: [(id: UUID, title: String)] = []
        for id in ids { alerts.append(try StoreAccess.run { try store.alertID(matching: id) }) }
        let states = try StoreAccess.run { try store.states() }
        let shown = alerts.compactMap { states[$0.id]?.shownID }
        try StoreAccess.run { try store.delete(alerts.map(\.id)) }
        AlertIDs.storeChanged(closing: shown)
        return alerts
    }
}
