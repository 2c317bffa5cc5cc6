import NudgeKit
import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore
import Localization

/// `nudge on`, `nudge off`, `nudge rm`: act on alerts by id or unique prefix.
struct On: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on",
        abstract: "Switch reminders on.", discussion: "Examples:\n  nudge on 3f25\n  nudge on 3f25 b195")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws { let world = World.live; try AlertIDs.update(ids, world) { $0.enabled = true; return Labels.on } }
}

struct Off: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off",
        abstract: "Switch reminders off (they keep their settings); a pop-up still shown closes.",
        discussion: "Examples:\n  nudge off 3f25\n  nudge off $(nudge list --json | jq -r '.[].shortId')")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws { let world = World.live; try AlertIDs.update(ids, world) { $0.enabled = false; return Labels.off } }
}
