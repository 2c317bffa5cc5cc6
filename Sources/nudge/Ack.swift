import NudgeKit
import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// `nudge ack`: the pop-up's "Done", from the command line.
struct Ack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledge reminders: the count goes to 0 and the pop-up closes.",
        discussion: """
        Examples:
          nudge ack 3f25
          nudge ack --all
        """
    )

    @Argument(help: "The alert's id, or a unique prefix of it (4 or more hex digits).")
    var id: String?

    @Flag(help: "Every alert with a count, a pop-up or a snooze.")
    var all = false

    func validate() throws {
        if (id == nil) == !all { throw ValidationError("give an id or --all") }
    }

    func run() throws {

        let world = World.live
        try Answer.acknowledge.apply(to: id.map { [$0] }, world, now: world.now)
    }
}
