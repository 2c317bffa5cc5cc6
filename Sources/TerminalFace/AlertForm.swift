import Presentation
import Foundation
import NudgeCore

/// The add/edit form's contents and its editing: fields of text typed as on the command
/// line, the schedule kind chosen with the arrows, and the flags they make for the CLI's
/// own parser (`nudge add`'s `--at`, `--days`, `--every`…). Pure: the screen asks it what
/// to show and hands it keys.
public struct AlertForm: Sendable, Equatable {
    /// The form's fields.
    public enum Field: String, Sendable, CaseIterable {
        /// One per field the form may show; ``fields`` says which the kind chosen shows.
        /// `kind` and `counting` are choices made with the arrows, the others text.
        case title, body, kind, times, days, every, from, until, counting, when, delay, cron, phrase
    }

    /// Each text field's value as typed; one never given a value is absent (read as empty).
    /// Kept for every kind: switching back finds them as they were.
    public var values: [Field: String]
    /// The schedule kind chosen (field `kind`): it decides which fields show.
    public var kind: ScheduleKind
    /// `--every` counts from the last answer instead of the clock (a choice, on `every`).
    public var afterDone: Bool
    /// The focused field, an index into ``fields``.
    public private(set) var focus = 0
    /// The cursor's place in the focused field's value, in characters.
    public private(set) var cursor = 0
    /// The alert being edited; `nil` for a new one.
    public let editing: String?
    /// The schedule fields as they were when the form opened: an edit that leaves them
    /// alone keeps the stored schedule (a one-shot in the past stays valid).
    private let original: [String]
    /// The title and body as they were when the form opened: an edit saves only what it
    /// changed, so a change made elsewhere meanwhile to another field stays.
    private let originalTitle: String, originalBody: String

    /// A new alert's form: at 09:30 every day; a date of tomorrow (after `today`) at 09:00.
    public init(today: CivilDay? = nil) {
        self.init(values: [.times: "09:30", .every: "30m", .from: "09:30", .until: "21:30", .delay: "20m",
                           .when: today.map { "\($0.advanced(by: 1)) 09:00" } ?? "", .cron: "0 9 * * mon-fri"],
                  kind: .time, afterDone: false, editing: nil)
    }

    /// The form for a stored alert, its schedule written back as the flags that make it.
    public init(editing id: String, title: String, body: String, schedule: Schedule, zone: TimeZone) {
        var values: [Field: String] = [.title: title, .body: body]
        var kind = ScheduleKind.time
        var afterDone = false
        // A calendar's restriction (every 2 weeks, until…) is not a field: an edit that
        // keeps the schedule keeps it, one that changes the schedule makes a new one.
        switch schedule.unrestricted {
        case .daily(let times, let days):
            let steps = Set(zip(times.dropFirst(), times).map { $0.secondOfDay - $1.secondOfDay })
            if times.count > 2, steps.count == 1, let step = steps.first {
                kind = .every
                (values[.every], values[.from], values[.until]) = (Limits.compact(step), times.first!.description, times.last!.description)
            } else {
                kind = .time
                values[.times] = times.map(\.description).joined(separator: ", ")
            }
            values[.days] = FormSchedule.daysText(days)
        case .interval(let seconds, _, let days):
            (kind, values[.every], values[.days]) = (.every, Limits.compact(seconds), FormSchedule.daysText(days))
        case .afterAnswer(let seconds, let window, let days):
            (kind, afterDone) = (.every, true)
            (values[.every], values[.days]) = (Limits.compact(seconds), FormSchedule.daysText(days))
            (values[.from], values[.until]) = (window?.start.description ?? "", window?.end.description ?? "")
        case .once(let instant):
            kind = .date
            values[.when] = InstantFormat.iso8601(instant, in: zone).replacingOccurrences(of: "T", with: " ").prefix(19).description
        case .cron(let cron):
            (kind, values[.cron]) = (.cron, cron.text)
        case .restricted:
            break
        case .place(let trigger):
            // A place has no fields: its words, which read back as it (hours, days and rest too).
            (kind, values[.phrase]) = (.words, trigger.summary())
        }
        self.init(values: values, kind: kind, afterDone: afterDone, editing: id)
    }

    private init(values: [Field: String], kind: ScheduleKind, afterDone: Bool, editing: String?) {
        (self.values, self.kind, self.afterDone, self.editing) = (values, kind, afterDone, editing)
        original = Self.scheduleState(values, kind, afterDone)
        (originalTitle, originalBody) = (values[.title, default: ""], values[.body, default: ""])
        cursor = self.values[.title, default: ""].count
    }

    /// The fields shown for the kind chosen, in order.
    public var fields: [Field] {
        let schedule: [Field] = switch kind {
        case .time: [.times, .days]
        case .every: [.every, .from, .until, .days, .counting]
        case .date: [.when]
        case .delay: [.delay]
        case .cron: [.cron]
        case .words: [.phrase]
        }
        return [.title, .body, .kind] + schedule
    }

    /// The field that has the focus.
    public var focusedField: Field { fields[focus] }

    /// A field's value as typed; empty when it was never typed in.
    public subscript(field: Field) -> String { values[field, default: ""] }

    /// Whether the schedule fields differ from those the form opened with.
    public var scheduleChanged: Bool { Self.scheduleState(values, kind, afterDone) != original }

    /// Whether the title differs from the one the form opened with.
    public var titleChanged: Bool { self[.title] != originalTitle }

    /// Whether the body differs from the one the form opened with.
    public var bodyChanged: Bool { self[.body] != originalBody }

    /// The most UTF-8 bytes a field holds: the title and body as ``Limits`` has them, a
    /// schedule field far more than any schedule needs. Text past it is refused as it is
    /// typed or pasted, so a paste of any size costs no more than the limit.
    public static func maxBytes(_ field: Field) -> Int {
        switch field {
        case .title: Limits.Field.title.limit
        case .body: Limits.Field.body.limit
        // One more than a phrase may have: a paste cut here is refused as too long, never
        // read as the shorter phrase it was cut to.
        case .phrase: SchedulePhrase.maxLength + 1
        default: 200
        }
    }

    /// The schedule as `nudge add` flags.
    public var flags: ScheduleFlags {
        func list(_ text: String) -> [String] {
            text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        func given(_ field: Field) -> String? { self[field].trimmingCharacters(in: .whitespaces).isEmpty ? nil : self[field] }
        switch kind {
        case .time: return ScheduleFlags(at: list(self[.times]), days: given(.days))
        case .every:
            return ScheduleFlags(days: given(.days), every: self[.every], from: given(.from), until: given(.until), afterAnswer: afterDone)
        case .date:
            let when = self[.when].trimmingCharacters(in: .whitespaces)
            if when.lowercased().hasPrefix("in ") { return ScheduleFlags(in: String(when.dropFirst(3))) }
            return ScheduleFlags(on: when)
        case .delay: return ScheduleFlags(in: self[.delay].trimmingCharacters(in: .whitespaces))
        case .cron: return ScheduleFlags(cron: self[.cron])
        case .words: return ScheduleFlags(phrase: self[.phrase])
        }
    }

    // MARK: Keys

    /// Types a character where the cursor is (a choice field changes with the arrows).
    /// Returns `false` when the field is full (``maxBytes(_:)``): nothing is typed.
    @discardableResult
    public mutating func insert(_ character: Character) -> Bool {
        guard focusedField != .kind, focusedField != .counting else { return true }
        var text = self[focusedField]
        guard text.utf8.count + character.utf8.count <= Self.maxBytes(focusedField) else { return false }
        text.insert(character, at: text.index(text.startIndex, offsetBy: min(cursor, text.count)))
        values[focusedField] = text
        cursor += 1
        return true
    }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        var text = Array(self[focusedField])
        guard cursor > 0, cursor <= text.count else { return }
        text.remove(at: cursor - 1)
        values[focusedField] = String(text)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func delete() {
        var text = Array(self[focusedField])
        guard cursor < text.count else { return }
        text.remove(at: cursor)
        values[focusedField] = String(text)
    }

    /// ← and →: the cursor in text, the choice in a choice field.
    public mutating func move(_ step: Int) {
        switch focusedField {
        case .kind:
            kind = ScheduleKind(rawValue: (kind.rawValue + step + ScheduleKind.allCases.count) % ScheduleKind.allCases.count)!
        case .counting:
            afterDone.toggle()
        default:
            cursor = min(max(cursor + step, 0), self[focusedField].count)
        }
    }

    /// Home and End.
    public mutating func moveToEnd(_ end: Bool) { cursor = end ? self[focusedField].count : 0 }

    /// Tab and ↓ (1), Shift-Tab and ↑ (-1): the next or previous field, the cursor at its end.
    public mutating func focus(_ step: Int) {
        focus = (focus + step + fields.count) % fields.count
        cursor = self[focusedField].count
    }

    /// Clears the focused field (Ctrl-U).
    public mutating func clear() {
        guard focusedField != .kind, focusedField != .counting else { return }
        values[focusedField] = ""
        cursor = 0
    }

    // MARK: Text

    private static func scheduleState(_ values: [Field: String], _ kind: ScheduleKind, _ afterDone: Bool) -> [String] {
        let fields: [Field] = [.times, .days, .every, .from, .until, .when, .delay, .cron, .phrase]
        return ["\(kind.rawValue)", "\(afterDone)"] + fields.map { values[$0, default: ""] }
    }

}
