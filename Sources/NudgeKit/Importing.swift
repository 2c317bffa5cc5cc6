import Foundation
import ICalendar
import NudgeCalendar
import Localization
import NudgeCore
import NudgeStore

/// Reminders from an iCalendar file, for every face: the file read as real calendars
/// write it, each component mapped or refused (one line each), and the store changed once:
/// new reminders added, ones already there as the file has them counted, ones stored with
/// other content kept (or, with `replace`, given the file's content, their id and state
/// kept).
public enum Importing {
    /// What an import did.
    public struct Outcome: Sendable {
        /// Reminders added, already there, and replaced with the file's content.
        public var added = 0, present = 0, replaced = 0
        /// Components refused (each said through `refused` as it was found).
        public var refused = 0
        /// Components whose stored reminder has other content and was kept (no `replace`).
        public var kept: [String] = []
        /// Reminders with nothing left to fire (over, ended), not imported.
        public var over = 0

        /// "imported 12, already there 0, refused 2; …", in the person's language.
        public var summary: String {
            // TRANSLATORS: nudge import's summary; %1$d reminders added, %2$d already there, %3$d refused.
            var summary = format(tr("imported %1$d, already there %2$d, refused %3$d"), added, present, refused)
            // TRANSLATORS: after nudge import's summary, with --replace: %d stored reminders took the file's content.
            if replaced > 0 { summary += format(trn("; %d replaced with the file's content", "; %d replaced with the file's content", replaced), replaced) }
            // TRANSLATORS: after nudge import's summary, without --replace: %d stored reminders differ from the file's and were kept.
            if !kept.isEmpty { summary += format(trn("; %d changed in the file, kept as stored", "; %d changed in the file, kept as stored", kept.count), kept.count) }
            // TRANSLATORS: after nudge import's summary: %d reminders of the file had nothing left to fire (over, ended).
            if over > 0 { summary += format(trn("; %d over already, not imported", "; %d over already, not imported", over), over) }
            return summary
        }
    }

    /// Imports the calendar in `bytes` (named `name` in messages); each component refused
    /// is said to `refused` (one line, its text not yet escaped for a terminal). A file
    /// that is not iCalendar, and any refusal with `strict`, change nothing and throw.
    public static func calendar(_ bytes: [UInt8], named name: String, strict: Bool, replace: Bool, _ world: World, now: Date,
                                refused report: (String) -> Void) throws(OperationError) -> Outcome {
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
        let outcomes = CalendarImport.alerts(in: calendars, system: world.zone, now: now)
        var alerts: [(alert: Alert, component: String, complete: Bool)] = [], refused: [String] = [], over = 0
        for outcome in outcomes {
            switch outcome {
            case .alert(let alert, let component, let complete): alerts.append((alert, component, complete))
            case .refused(let component, let reason): refused.append(component + ": " + reason.text(world.language))
            case .over: over += 1
            case .skipped: break
            }
        }
        for line in refused { report(line) }
        if strict && !refused.isEmpty {
            // TRANSLATORS: --strict and some components refused; %d is how many.
            throw OperationError(.dataError, format(trn("%d part refused with --strict: nothing imported", "%d parts refused with --strict: nothing imported", refused.count), refused.count))
        }
        // Each reminder: new, there already as the file has it, or there with other content
        // (kept, or replaced with --replace: its id and its state stay).
        var outcome = Outcome()
        if !alerts.isEmpty {
            let store = try world.store.forWriting()
            // Read, compared and written in one transaction: another import at the same
            // time waits, then finds what this one wrote.
            let changed = try world.run {
                try store.merge(ids: alerts.map(\.alert.id)) { stored in
                    var changes: [Alert] = []
                    for (alert, component, complete) in alerts {
                        guard let old = stored[alert.id] else {
                            changes.append(alert)
                            outcome.added += 1
                            continue
                        }
                        if !CalendarImport.differs(old, from: alert, complete: complete, now: now) {
                            outcome.present += 1
                        } else if replace {
                            changes.append(CalendarImport.replacing(old, with: alert, complete: complete))
                            outcome.replaced += 1
                        } else {
                            outcome.kept.append(component)
                        }
                    }
                    return (changes, !changes.isEmpty)
                }
            }
            if changed { world.storeChanged() }
        }
        outcome.refused = refused.count
        outcome.over = over
        return outcome
    }
}
