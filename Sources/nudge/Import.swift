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
        (in its TZID, a zone database name or a Windows one as Outlook writes it, in UTC, \
        or in floating time, which follows the system's zone), moved by its first alarm's \
        TRIGGER, repeating as its RRULE says (every N days, weeks, months or years, the \
        first Monday or the last day of the month, until a date or for a number of times, \
        with dates left out). A file exported by Nudge comes back exactly (its X-NUDGE-* \
        properties). What Nudge's schedules cannot say (BYSETPOS, RDATE, the 20th Monday \
        of the year, an alarm that moves a reminder to another day, a rule that never \
        happens such as February 30, one changed occurrence) is refused with one line \
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
        let name = file == "-" ? "stdin" : file
        let bytes = try Self.read(file)
        let calendars: [Component]
        do { calendars = try Component.read(bytes: bytes) } catch {
            switch error.kind {
            case .notUTF8:
                // TRANSLATORS: %1$s is the file, %2$d a line; an .ics file must be UTF-8 text.
                throw OperationError(.dataError, format(tr("%1$s is not iCalendar: line %2$d is not UTF-8 text"), name, error.line))
            case .nul:
                // TRANSLATORS: %1$s is the file, %2$d a line holding a zero byte (binary data, or UTF-16 text).
                throw OperationError(.dataError, format(tr("%1$s is not iCalendar: line %2$d holds a NUL byte"), name, error.line))
            case .structure:
                // TRANSLATORS: %1$s is the file, %2$d a line, %3$s what is wrong there.
                throw OperationError(.dataError, format(tr("%1$s, line %2$d: %3$s"), name, error.line, error.reason.escapingControls))
            }
        }
        guard calendars.contains(where: { $0.name == "VCALENDAR" }) else {
            throw OperationError(.dataError, format(tr("%s is not iCalendar: it holds no VCALENDAR"), name))
        }
        let now = Date()
        let outcomes = CalendarImport.alerts(in: calendars, system: LocalZone.current, now: now)
        var alerts: [(alert: Alert, component: String, complete: Bool)] = [], refused: [String] = [], over = 0
        for outcome in outcomes {
            switch outcome {
            case .alert(let alert, let component, let complete): alerts.append((alert, component, complete))
            case .refused(let component, let reason): refused.append(component + ": " + reason.text(Catalog.shared.wording))
            case .over: over += 1
            case .skipped: break
            }
        }
        // A file's text is never written raw to a terminal.
        for line in refused { writeError("nudge: \(name): \(line)".escapingControls + "\n") }
        if strict && !refused.isEmpty {
            // TRANSLATORS: --strict and some components refused; %d is how many.
            throw OperationError(.dataError, format(trn("%d part refused with --strict: nothing imported", "%d parts refused with --strict: nothing imported", refused.count), refused.count))
        }
        // Each reminder: new, there already as the file has it, or there with other content
        // (kept, or replaced with --replace: its id and its state stay).
        var added = 0, present = 0, replaced = 0, kept: [String] = []
        if !alerts.isEmpty {
            let store = try StoreAccess.open()
            var unreadable = false
            let stored = Dictionary(try StoreAccess.alerts(in: store, unreadable: &unreadable).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var changes: [Alert] = []
            for (alert, component, complete) in alerts {
                guard let old = stored[alert.id] else {
                    changes.append(alert)
                    added += 1
                    continue
                }
                if !CalendarImport.differs(old, from: alert, complete: complete, now: now) {
                    present += 1
                } else if replace {
                    changes.append(CalendarImport.replacing(old, with: alert, complete: complete))
                    replaced += 1
                } else {
                    kept.append(component)
                }
            }
            if !changes.isEmpty {
                try StoreAccess.run { try store.save(changes) }
                DaemonLink.storeChanged()
            }
        }
        for component in kept {
            // TRANSLATORS: nudge import without --replace: %1$s is the file, %2$s the component (VEVENT “Stand-up” (UID x)), whose reminder is stored with other content.
            writeError(format(tr("nudge: %1$s: %2$s: changed in the file; the stored reminder is kept as it is (--replace takes the file's)"), name, component).escapingControls + "\n")
        }
        // TRANSLATORS: nudge import's summary; %1$d reminders added, %2$d already there, %3$d refused.
        var summary = format(tr("imported %1$d, already there %2$d, refused %3$d"), added, present, refused.count)
        // TRANSLATORS: after nudge import's summary, with --replace: %d stored reminders took the file's content.
        if replaced > 0 { summary += format(trn("; %d replaced with the file's content", "; %d replaced with the file's content", replaced), replaced) }
        // TRANSLATORS: after nudge import's summary, without --replace: %d stored reminders differ from the file's and were kept.
        if !kept.isEmpty { summary += format(trn("; %d changed in the file, kept as stored", "; %d changed in the file, kept as stored", kept.count), kept.count) }
        // TRANSLATORS: after nudge import's summary: %d reminders of the file had nothing left to fire (over, ended).
        if over > 0 { summary += format(trn("; %d over already, not imported", "; %d over already, not imported", over), over) }
        print(summary)
        if !refused.isEmpty { throw ExitCode(ExitStatus.dataError.rawValue) }
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
