import ArgumentParser
import FreedesktopDelivery
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ICalendar
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

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to FILE (replaced whole, never half-written) instead of stdout.", valueName: "FILE"))
    var output: String?

    func run() throws {
        let store = try StoreAccess.read()
        var unreadable = false
        let alerts = ids.isEmpty ? try StoreAccess.alerts(in: store, unreadable: &unreadable) : try AlertIDs.resolve(ids, in: store)
        let environment = Environment.current
        let write = { (fd: Int32) throws(SystemError) in
            try CalendarExport.write(alerts, system: LocalZone.current, soundFile: { SoundPlayer.themeFile(named: $0, environment: environment) },
                                     emit: { bytes throws(SystemError) in try writeAll(fd, bytes) })
        }
        guard let output else {
            do { try write(1) } catch { throw CLIError(.ioError, format(tr("cannot write %1$s: %2$s"), "stdout", error.reason)) }
            return
        }
        try Self.replace(output, writing: write)
    }

    /// Writes a file whole: a temporary file beside it, flushed, then renamed over it; on
    /// any failure the temporary file goes and the old file stays as it was. A symbolic
    /// link keeps pointing where it did (its target is replaced); something that is not a
    /// file (a device, a pipe: `-o /dev/stdout`) is written into, never replaced.
    static func replace(_ path: String, writing body: (Int32) throws(SystemError) -> Void) throws(CLIError) {
        var path = path
        var info = stat()
        // stat follows links: what the path finally names.
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                // Replaced where it really is, so a link keeps its place.
                if let resolved = realpath(path, nil) {
                    path = String(cString: resolved)
                    free(resolved)
                }
            case S_IFDIR:
                throw CLIError(.ioError, format(tr("cannot write %1$s: %2$s"), path, String(cString: strerror(EISDIR))))
            default:
                do {
                    let fd = try systemCall("open(\(path))") { open(path, O_WRONLY | O_CLOEXEC) }
                    defer { close(fd) }
                    try body(fd)
                } catch {
                    throw CLIError(.ioError, format(tr("cannot write %1$s: %2$s"), path, error.reason))
                }
                return
            }
        }
        let temporary = path + ".nudge-\(getpid()).tmp"
        do {
            let fd = try systemCall("open(\(temporary))") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
            do {
                defer { close(fd) }
                try body(fd)
                try systemCall("fsync(\(temporary))") { fsync(fd) }
            }
            try systemCall("rename(\(temporary), \(path))") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            // TRANSLATORS: %1$s is a file, %2$s the system's reason.
            throw CLIError(.ioError, format(tr("cannot write %1$s: %2$s"), path, error.reason))
        }
    }
}
