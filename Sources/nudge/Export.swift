import NudgeKit
import ArgumentParser
import FreedesktopDelivery
import Foundation
import ICalendar
import NudgeCalendar
import Localization
import NudgeCore
import Platform

/// `nudge export`: the reminders as an iCalendar file other calendars open.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write reminders as an iCalendar (.ics) file other calendars open.",
        discussion: """
        One VEVENT per reminder (more when its times need more than one RRULE): its title \
        and body, its start in its own zone (with a VTIMEZONE) or in floating local time \
        when it follows the system's, its schedule as an RRULE, a VALARM that shows it and \
        one that plays its sound. Nudge's own settings (snooze, catch-up, urgency, kind…) \
        go in X-NUDGE-* properties. UIDs come from the reminders' ids, so exporting again \
        gives the same UIDs, and nothing else changes either. Reminders that are off are \
        written without alarms.

        Examples:
          nudge export > reminders.ics
          nudge export 3f25 9a01 -o ~/water.ics
        """
    )

    @Flag(help: "iCalendar (RFC 5545), the only format so far.")
    var ics = false

    @Argument(help: "Alert ids or unique prefixes (4 or more hex digits); default every reminder.")
    var ids: [String] = []

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to FILE instead of stdout (- is stdout): replaced whole (never half-written), its permissions kept; a new FILE is made 0600 (yours alone).", valueName: "FILE"))
    var output: String?

    func run() throws {

        let world = World.live
        // TRANSLATORS: nudge export -o with an empty path.
        if output == "" { throw OperationError(.usage, tr("invalid -o '': give a file's path, or - for stdout")) }
        let store = try world.store.forReading()
        var unreadable = false
        let alerts = ids.isEmpty ? try StoreAccess.alerts(in: store, world, unreadable: &unreadable) : try AlertIDs.resolve(ids, in: store, world)
        let environment = Environment.current
        let write = { (fd: Int32) throws(SystemError) in
            try CalendarExport.write(alerts, system: world.zone, soundFile: { SoundPlayer.themeFile(named: $0, environment: environment) },
                                     emit: { bytes throws(SystemError) in try writeAll(fd, bytes) })
        }
        // `-o -` is stdout, as for every tool that writes files.
        guard let output, output != "-" else {
            do { try write(1) } catch { throw OperationError(.ioError, format(tr("cannot write %1$s: %2$s"), "stdout", error.reason)) }
            return
        }
        do { try writeFile(output, write) } catch { throw OperationError(writing: output, error) }
    }
}
