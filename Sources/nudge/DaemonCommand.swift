import NudgeKit
import Foundation
import ArgumentParser
import FreedesktopDelivery
import Localization
import Logging
import NudgeCore
import NudgeDaemon
import Platform

/// `nudge daemon`: the long-running part that fires reminders.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the reminder daemon for this session (in the foreground).",
        discussion: """
        The daemon owns io.github.nudge.Nudge on the session bus, shows reminders when \
        they are due, replaces a pop-up still on screen with one that counts (x2, x3), \
        takes the answers back (Done, Snooze, Done for today), catches up after \
        downtime or suspend, and sees changes to the store by itself. It logs one line \
        per reminder and answer to stderr (the journal, under systemd).

        Signals: SIGTERM and SIGINT stop it cleanly; SIGHUP re-reads the store.
        One daemon runs per session; a second one exits with status 69.

        Examples:
          nudge daemon
          nudge daemon --replace
        """
    )

    @Flag(help: "Take over from a daemon that already runs in this session.")
    var replace = false

    @Flag(help: "Also log the daemon's inner workings.")
    var verbose = false

    @Option(help: .hidden)
    var localtime = "/etc/localtime"

    @Option(name: .customLong("leave-after"),
            help: ArgumentHelp("How long a place must stay gone before it counts as left (a Wi-Fi link that drops and comes back within it was never left): 2m by default, 1s to 1h.", valueName: "DURATION"))
    var leaveAfter = "2m"

    func run() throws {
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var options = Daemon.Options(environment: .current, version: Nudge.version)
        options.replace = replace
        options.localtime = localtime
        do {
            options.leaveAfter = TimeInterval(try ScheduleParser.duration(leaveAfter, for: .leaveAfter))
        } catch {
            throw OperationError(error)
        }
        options.language = Catalog.shared.language
        // The window, where it is installed beside this program.
        if let own = try? Autostart.ownPath() {
            let window = (own as NSString).deletingLastPathComponent + "/nudge-window"
            if FileManager.default.isExecutableFile(atPath: window) { options.windowProgram = window }
            let sync = SyncCommand.program()
            if FileManager.default.isExecutableFile(atPath: sync) { options.syncProgram = sync }
        }
        let status: ExitStatus
        do {
            status = try Daemon.run(options, log: Logger(label: "nudge"))
        } catch {
            throw OperationError(error.exit, error.message)
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
