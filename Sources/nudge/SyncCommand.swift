import ArgumentParser
import Foundation
import Localization
import NudgeKit

/// `nudge sync`: runs nudge-sync, the program that holds it (see there), with the words
/// after `sync`. Only here for `nudge --help`'s list: `Nudge.main` hands `sync` over
/// before anything is parsed.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep reminders on a calendar server (CalDAV) that your phone shares.",
        shouldDisplay: true
    )

    @Argument(parsing: .captureForPassthrough)
    var arguments: [String] = []

    func run() throws { try Self.hand(arguments) }

    /// Replaces this process with nudge-sync, beside this program.
    static func hand(_ arguments: [String]) throws(OperationError) -> Never {
        let own = (try? Autostart.ownPath()) ?? CommandLine.arguments[0]
        let program = (own as NSString).deletingLastPathComponent + "/nudge-sync"
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        // TRANSLATORS: %1$s is a program's path, %2$s why it did not start.
        throw OperationError(.unavailable, format(tr("cannot start %1$s: %2$s"), program, reason))
    }
}
