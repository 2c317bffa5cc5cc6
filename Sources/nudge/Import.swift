import NudgeKit
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ICalendar
import NudgeCalendar
import Localization
import NudgeCore
import Platform

/// `nudge import`: reminders from an iCalendar file.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add reminders from an iCalendar (.ics) file: events and to-dos with an alarm or a rule.",
        discussion: """
        Each VEVENT or VTODO with a VALARM or an RRULE becomes a reminder at its start \
        (in its TZID, a zone database name or a Windows one as Outlook writes it, in UTC, \
        or in floating time, which follows the system's zone), moved by its first alarm's \
        TRIGGER, repeating as its RRULE says (every N days, weeks, months or years, the \
        first Monday or the last day of the month, until a date or for a number of times, \
        with dates left out, with dates added by RDATE, and with occurrences moved or \
        cancelled by a RECURRENCE-ID). A file exported by Nudge comes back exactly (its \
        X-NUDGE-* properties). What Nudge's schedules cannot say (BYSETPOS, EXRULE, the \
        20th Monday of the year, an alarm that moves a reminder to another day, a rule \
        that never happens such as February 30) is refused with one line \
        naming the component and the property, and the rest is imported (exit 65); \
        --strict imports nothing then.

        An event's UID makes the reminder's id, so importing a file again adds nothing \
        twice. A UID is read once per file: a later component with it is refused. A \
        reminder stored already is "already there" when the file says the same; when the \
        file says something else, one line names it and the stored one is kept, and \
        --replace takes the file's content instead (the reminder keeps its id and state; \
        from another calendar, its title, body, schedule and zone, the rest as you set \
        it). Use - to read stdin.

        Examples:
          nudge import ~/Downloads/calendar.ics
          curl -s https://example.org/team.ics | nudge import --strict -
          nudge import --replace ~/Downloads/calendar.ics   # take the file's changes
        """
    )

    @Argument(help: ArgumentHelp("The iCalendar file, or - for stdin.", valueName: "FILE"))
    var file: String

    @Flag(help: "Refuse the whole file when any part of it cannot be imported.")
    var strict = false

    @Flag(help: "Take the file's content for reminders stored already whose content differs (each keeps its id and state).")
    var replace = false

    /// Files larger than this are not calendars anyone exported.
    static let maxBytes = 64 << 20

    func run() throws {

        let world = World.live
        let name = file == "-" ? "stdin" : file
        let outcome = try Importing.calendar(try Self.read(file), named: name, strict: strict, replace: replace, world, now: world.now,
                                             refused: { writeError("nudge: \(name): \($0)".escapingControls + "\n") })
        for component in outcome.kept {
            // TRANSLATORS: nudge import without --replace: %1$s is the file, %2$s the component (VEVENT “Stand-up” (UID x)), whose reminder is stored with other content.
            writeError(format(tr("nudge: %1$s: %2$s: changed in the file; the stored reminder is kept as it is (--replace takes the file's)"), name, component).escapingControls + "\n")
        }
        print(outcome.summary)
        if outcome.refused > 0 { throw ExitCode(ExitStatus.dataError.rawValue) }
    }

    /// The file's bytes (stdin for -), refusing what is too big to be a calendar.
    static func read(_ path: String) throws(OperationError) -> [UInt8] {
        let name = path == "-" ? "stdin" : path
        do {
            let fd = path == "-" ? 0 : try systemCall("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
            defer { if path != "-" { close(fd) } }
            var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
            while let n = try readAvailable(fd, into: &buffer, count: buffer.count), n > 0 {
                bytes += buffer[..<n]
                if bytes.count > maxBytes {
                    // TRANSLATORS: %1$s is the file, %2$d the most it may hold in MiB.
                    throw OperationError(.dataError, format(tr("%1$s is not iCalendar: it is larger than %2$d MiB"), name, maxBytes >> 20))
                }
            }
            return bytes
        } catch let error as OperationError {
            throw error
        } catch let error as SystemError {
            throw OperationError(.ioError, format(tr("cannot read %1$s: %2$s"), name, error.reason))
        } catch {
            throw OperationError(.ioError, "\(error)")
        }
    }
}
