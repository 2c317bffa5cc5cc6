import NudgeKit
import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// `nudge done`: acknowledge and skip the rest of today.
struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Acknowledge a reminder and skip the rest of today (its local day).",
        discussion: "Example:\n  nudge done 3f25"
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    func run() throws {

        let world = World.live
        try Answer.doneForToday.apply(to: [id], world, now: world.now)
    }
}
