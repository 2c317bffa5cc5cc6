import ArgumentParser
import NudgeKit
import Platform

/// `nudge doctor`: can reminders be shown here, will they be, and if not, what to do.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that reminders can be shown, and say how to fix what is missing.",
        discussion: """
        Checks the session bus, the notification server (name, vendor, version, spec \
        version) and its capabilities, who plays sounds, do-not-disturb (dunst paused, \
        KDE's Inhibited), the daemon (pid, version), autostart, the systemd user unit, \
        and the store (PRAGMA quick_check, rows that cannot be read, a newer Nudge's \
        store, the last good copy; opened read-only, never created). Damage found is \
        marked beside the store, and no command writes to it until it is restored: \
        `nudge doctor --restore` puts the last good copy in its place.

        Lines start with ok, warn (works, but something is off) or FAIL, each with a fix.

        Exit status: 0 when pop-ups can be shown and the store is sound; 74 when the \
        store is damaged or unreadable; otherwise 69 when no pop-up can be shown (no bus, \
        no server).

        Examples:
          nudge doctor
          nudge doctor --json
          nudge doctor --restore
        """
    )

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(help: "Put the last good copy of the store in place of a damaged one (the damaged file is kept aside).")
    var restore = false

    func run() throws {

        let world = World.live
        if restore { return print(try Checkup.restoreStore(world)) }
        let report = Checkup.run(world)
        print(json ? report.json : report.text)
        // The person's data first: a damaged store outranks a missing server.
        if !report.storeOK { throw ExitCode(ExitStatus.ioError.rawValue) }
        if !report.canShow { throw ExitCode(ExitStatus.unavailable.rawValue) }
    }
}
