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
        for alert in try Operations.remove(ids, world) {
            // TRANSLATORS: nudge rm; %1$s is the alert's id, %2$s its title.
            print(format(tr("removed %1$s: %2$s"), alert.id.shortHex, alert.title.escapingControls))
        }
    }
}
