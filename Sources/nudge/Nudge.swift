import NudgeKit
import NudgeCore
import ArgumentParser
#if canImport(Glibc)
import Glibc
import Platform
import Localization
#endif

/// The `nudge` command: reminders as desktop pop-ups.
@main
struct Nudge: ParsableCommand {
    static let version = NudgeService.version

    static let configuration = CommandConfiguration(
        commandName: "nudge",
        abstract: "Reminders as desktop pop-ups, on time, one tidy pop-up with a count.",
        discussion: """
        Nudge shows reminders through the freedesktop notification service on the \
        session D-Bus (GNOME, KDE, dunst, mako, xfce4-notifyd and others).
        """,
        version: version,
        subcommands: [Add.self, List.self, Show.self, Edit.self, On.self, Off.self, Remove.self, Next.self,
                      Ack.self, Done.self, Snooze.self, DrinkCommand.self, Stats.self, Log.self, Config.self, Send.self, Doctor.self, PlacesCommand.self, DaemonCommand.self, Autostart.self, UI.self, WindowCommand.self, Export.self, Import.self, SyncCommand.self]
    )

    /// Runs the command line, turning every failure into one line on stderr and a
    /// sysexits code; help and version go to stdout as usual.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            writeOut(Array("\(version)\n".utf8))
            finish()
        }
        // send, notify-send's drop-in, read without ArgumentParser where it can be; its
        // --version (-v) as notify-send's.
        if arguments.first == "send", arguments.count == 2, ["--version", "-v"].contains(arguments[1]) {
            writeOut(Array("nudge \(version)\n".utf8))
            finish()
        }
        // sync is its own program (nudge-sync): handed over whole, its help too.
        if arguments.first == "sync" {
            run { try SyncCommand.hand(Array(arguments.dropFirst())) }
        }
        if arguments.count >= 2, ["help", "--help", "-h"].contains(arguments[0]), arguments[1] == "sync" {
            run { try SyncCommand.hand(Array(arguments.dropFirst(2)) + ["--help"]) }
        }
        if arguments.first == "send", let request = SendRequest.read(arguments.dropFirst()) {
            run { try request.run() }
        }
        var command: ParsableCommand
        do {
            command = try parse(arguments)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            if let refused = RefusedValue.reason(for: message(for: error)) { fail(refused.message, code: refused.code.rawValue) }
            fail(ParserMessage.translated(message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"),
                 code: code.rawValue)
        }
        run { try command.run() }
    }

    /// Runs a command, turning its failure into one line on stderr and a sysexits code.
    static func run(_ body: () throws -> Void) -> Never {
        do {
            try body()
            finish()
        } catch let error as OperationError {
            fail(error.message, code: error.code.rawValue)
        } catch let error as ExitCode {
            Glibc.exit(error.rawValue)
        } catch {
            // `--help` comes back from parseAsRoot as a command whose run() throws a clean exit.
            if exitCode(for: error) == .success { exit(withError: error) }
            fail(message(for: error), code: exitCode(for: error).rawValue)
        }
    }

    /// Parses with the named subcommand alone when no help is asked for: building the
    /// whole command tree reflects over every command, the larger part of start-up.
    static func parse(_ arguments: [String]) throws -> ParsableCommand {
        // A word that names no command is a usage error, with --help too (the parser would
        // print the root's help for `nudge sync --help` and exit 0, as if sync were there).
        // The word where a command is named: the first, or the one after `help`, `--help` or `-h`.
        let named = ["help", "--help", "-h"].contains(arguments.first ?? "") ? arguments.dropFirst().first : arguments.first
        if let name = named, !name.hasPrefix("-"), name != "help",
           !configuration.subcommands.contains(where: { $0.configuration.commandName == name }) {
            // TRANSLATORS: %s is the word given where a command's name was expected.
            fail(format(tr("unknown command %s: see 'nudge --help' for the commands"), name.quotedForMessage()),
                 code: ExitStatus.usage.rawValue)
        }
        // An option the top level does not know is refused, --help or not (`nudge --bogus
        // --help` printed the help and exited 0): read without the help, the parser says which.
        if let first = arguments.first, first.hasPrefix("-"), !["-h", "--help", "--version"].contains(first) {
            _ = try parseAsRoot(arguments.filter { $0 != "-h" && $0 != "--help" })
        }
        guard let name = arguments.first,
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
              !arguments.contains(where: { $0 == "-h" || $0 == "--help" || $0.hasPrefix("--generate-completion") || $0 == "--experimental-dump-help" })
        else { return try parseAsRoot(arguments) }
        return try command.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Exits 0 once everything meant for stdout is written; 74 and one line when it could
    /// not be (a full disk, a closed stdout).
    static func finish() -> Never {
        if let failure = stdoutFailure() {
            fail(format(tr("cannot write %1$s: %2$s"), "stdout", String(cString: strerror(failure))), code: ExitStatus.ioError.rawValue)
        }
        Glibc.exit(0)
    }

    static func fail(_ message: String, code: Int32) -> Never {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        writeError("nudge: \(text)\n")
        Glibc.exit(code)
    }
}
