import TerminalFace
import NudgeKit
import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Localization
import NudgeCore
import Platform

/// `nudge ui`: the alerts on one terminal screen, with switches.
struct UI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "The reminders on one terminal screen: switch, add, edit, delete and answer them.",
        discussion: """
        The next to fire is first, with a countdown. Keys: ↑/↓ or j/k move, space switches \
        on/off, a adds, e edits, d deletes (asks first), s snoozes, Enter acknowledges \
        (Done), n shows the next 10 times, / filters by title, ? lists the keys, q quits. \
        A click selects a row; a click on its switch toggles it. Changes made elsewhere (the \
        CLI, the daemon, another nudge ui) show within a second; changes made here reach a \
        running daemon as the CLI's do. Needs a terminal (not TERM=dumb); NO_COLOR turns \
        colour off. SIGTERM, SIGHUP and SIGINT give the terminal back, then end it as they \
        would have (a shell sees 128 + the signal's number).

        Example:
          nudge ui
        """
    )

    func run() throws {
        let environment = Environment.current
        // Never a screen's escapes into a file or a pipe.
        guard isatty(1) == 1 else {
            // TRANSLATORS: nudge ui run with its output going to a file or a pipe.
            throw OperationError(.usage, tr("nudge ui needs a terminal: its output is not one"))
        }
        guard isatty(0) == 1 else {
            // TRANSLATORS: nudge ui run with its input from a file or a pipe.
            throw OperationError(.usage, tr("nudge ui needs a terminal: its input is not one"))
        }
        guard let term = environment["TERM"], term != "dumb" else {
            // TRANSLATORS: nudge ui in a terminal that cannot move the cursor; %s is $TERM.
            throw OperationError(.usage, format(tr("nudge ui needs a terminal that can move the cursor (TERM is %s); use nudge list"),
                                          environment["TERM"] ?? "unset"))
        }
        let controller = try UIController(environment: environment)
        try controller.run()
        // Ended by a signal: the terminal is back; the signal ends the process as it would have.
        if let signal = controller.endingSignal { endBy(signal: signal) }
    }
}
