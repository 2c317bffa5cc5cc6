import NudgeKit
import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// `nudge snooze`: come back once after a while.
struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Close a reminder's pop-up and show it again once after DURATION.",
        discussion: """
        Examples:
          nudge snooze 3f25 10m
          nudge snooze 3f25 1h30m
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String

    @Argument(help: ArgumentHelp("How long: 10m, 1h, 90s.", valueName: "DURATION"))
    var duration: SnoozeLength

    func run() throws {

        let world = World.live
        try Answer.snooze(seconds: duration.seconds).apply(to: [id], world, now: world.now)
    }
}
