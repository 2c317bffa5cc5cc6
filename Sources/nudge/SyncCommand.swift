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

    /// Where nudge-sync is: beside this program (a build folder), else in
    /// `../libexec/nudge/` from its folder (`/usr/bin` → `/usr/libexec/nudge`).
    static func program() -> String {
        let own = (try? Autostart.ownPath()) ?? CommandLine.arguments[0]
        let folder = (own as NSString).deletingLastPathComponent
        let beside = folder + "/nudge-sync"
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return ((folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("libexec/nudge/nudge-sync")
    }

    /// Replaces this process with nudge-sync.
    static func hand(_ arguments: [String]) throws(OperationError) -> Never {
        let program = Self.program()
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        // TRANSLATORS: %1$s is a program's path, %2$s why it did not start.
        throw OperationError(.unavailable, format(tr("cannot start %1$s: %2$s"), program, reason))
    }
}
