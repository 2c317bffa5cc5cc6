import NudgeKit
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
        let world = World.live
        // Those from a followed calendar, known before they go.
        let origins = (try? world.store.forReading().syncOrigins()) ?? [:]
        for alert in try Operations.remove(ids, world) {
            if let calendar = origins[alert.id.hex] {
                // TRANSLATORS: nudge rm of a reminder from a followed calendar; %s is the calendar's name.
                FileHandle.standardError.write(Data((format(tr("note: it comes from the calendar %s, which Nudge follows and does not write: it is removed here only, and comes back if it changes there"),
                                                            calendar.escapingControls) + "\n").utf8))
            }
            // TRANSLATORS: nudge rm; %1$s is the alert's id, %2$s its title.
            print(format(tr("removed %1$s: %2$s"), alert.id.shortHex, alert.title.escapingControls))
        }
    }
}
