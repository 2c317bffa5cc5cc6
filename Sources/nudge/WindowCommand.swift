import NudgeKit
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Localization
import NudgeCore

/// `nudge window`: the window, where it is installed; the desktop entry runs this, so the
/// one entry serves a machine with the window and one without it.
struct WindowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window",
        abstract: "Open the window (nudge-window); a window already open comes to the front.",
        discussion: """
        The window is its own program, nudge-window (Debian: the nudge-window package), so \
        that nudge itself never loads GTK. Where it is not installed and nudge was started \
        from the desktop rather than a terminal, nudge ui opens in the desktop's terminal \
        (x-terminal-emulator) instead.

        Examples:
          nudge window
          nudge window --show 3f2a9c1e
        """
    )

    @Option(name: .long, help: ArgumentHelp("Open it at this reminder (an id or the start of one).", valueName: "id"))
    var show: String?

    func run() throws {
        let own = try Autostart.ownPath()
        let folder = (own as NSString).deletingLastPathComponent
        var arguments: [String] = []
        if let show { arguments = ["--show", show] }
        let window = folder + "/nudge-window"
        if FileManager.default.isExecutableFile(atPath: window) {
            try replaceProcess(with: window, arguments)
        }
        // From the app grid: no terminal of ours, so the desktop's.
        if isatty(0) != 1, let terminal = Self.inPath("x-terminal-emulator") {
            try replaceProcess(with: terminal, ["-e", own, "ui"])
        }
        // TRANSLATORS: nudge window where nudge-window is not installed.
        throw OperationError(.unavailable, tr("the window is not installed (Debian: apt install nudge-window); nudge ui is the terminal's"))
    }

    private static func inPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func replaceProcess(with program: String, _ arguments: [String]) throws(OperationError) -> Never {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        // TRANSLATORS: %1$s is a program's path, %2$s why it did not start.
        throw OperationError(.unavailable, format(tr("cannot start %1$s: %2$s"), program, reason))
    }
}
