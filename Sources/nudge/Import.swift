import NudgeKit
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ICalendar
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
        (in its TZID, in UTC, or in floating time, which follows the system's zone), moved \
        by its first alarm's TRIGGER, repeating as its RRULE says (every N days, weeks, \
        months or years, the first Monday or the last day of the month, until a date or \
        for a number of times, with dates left out). A file exported by Nudge comes back \
        exactly (its X-NUDGE-* properties). What Nudge's schedules cannot say (BYSETPOS, \
        RDATE, the 20th Monday of the year…) is refused with one line naming the component and the property, and the rest is \
        imported (exit 65); --strict imports nothing then. Importing a file again adds nothing twice: an \
        event's UID makes the reminder's id. Use - to read stdin.

        Examples:
          nudge import ~/Downloads/calendar.ics
          curl -s https://example.org/team.ics | nudge import --strict -
        """
    )

    @Argument(help: ArgumentHelp("The iCalendar file, or - for stdin.", valueName: "FILE"))
    var file: String

    @Flag(help: "Refuse the whole file when any part of it cannot be imported.")
    var strict = false

    /// Files larger than this are not calendars anyone exported.
    static let maxBytes = 64 << 20

    func run() throws {
        let name = file == "-" ? "stdin" : file
        let bytes = try Self.read(file)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // TRANSLATORS: %s is the file; an .ics file must be UTF-8 text.
            throw OperationError(.dataError, format(tr("%s is not iCalendar: it is not UTF-8 text"), name))
        }
        let calendars: [Component]
        do { calendars = try Component.read(text) } catch {
            // TRANSLATORS: %1$s is the file, %2$d a line, %3$s what is wrong there.
            throw OperationError(.dataError, format(tr("%1$s, line %2$d: %3$s"), name, error.line, error.reason))
        }
        guard calendars.contains(where: { $0.name == "VCALENDAR" }) else {
            throw OperationError(.dataError, format(tr("%s is not iCalendar: it holds no VCALENDAR"), name))
        }
        let outcomes = CalendarImport.alerts(in: calendars, system: LocalZone.current, now: Date())
        var alerts: [Alert] = [], refused: [String] = [], over = 0
        for outcome in outcomes {
            switch outcome {
            case .alert(let alert): alerts.append(alert)
            case .refused(let line): refused.append(line)
            case .over: over += 1
            case .skipped: break
            }
        }
        for line in refused { writeError("nudge: \(name): \(line)\n") }
        if strict && !refused.isEmpty {
            // TRANSLATORS: --strict and some components refused; %d is how many.
            throw OperationError(.dataError, format(trn("%d part refused with --strict: nothing imported", "%d parts refused with --strict: nothing imported", refused.count), refused.count))
        }
        var added = 0, present = 0
        if !alerts.isEmpty {
            let store = try StoreAccess.open()
            var unreadable = false
            let known = Set(try StoreAccess.alerts(in: store, unreadable: &unreadable).map(\.id))
            let new = alerts.filter { !known.contains($0.id) }
            (added, present) = (new.count, alerts.count - new.count)
            if !new.isEmpty {
                try StoreAccess.run { try store.save(new) }
                DaemonLink.storeChanged()
            }
        }
        // TRANSLATORS: nudge import's summary; %1$d reminders added, %2$d already there, %3$d refused.
        var summary = format(tr("imported %1$d, already there %2$d, refused %3$d"), added, present, refused.count)
        // TRANSLATORS: after nudge import's summary: %d reminders of the file had nothing left to fire (over, ended).
        if over > 0 { summary += format(trn("; %d over already, not imported", "; %d over already, not imported", over), over) }
        print(summary)
        if !refused.isEmpty { throw ExitCode(65) }
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
