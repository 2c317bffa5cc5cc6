import Foundation
import Localization
import NudgeCore
import NudgeKit

extension FormView {
    /// The form as shown: its fields in words, what checking it said (`checked`: the
    /// alert it would make, or why not), the next showings it would have (`preview`, in
    /// words), and, for a reminder a calendar narrowed (`kept`: its whole schedule in
    /// words), what becomes of that schedule.
    public init(_ form: AlertForm, checked: Result<Alert, OperationError>, preview: [String], kept: String?) {
        let kinds = [tr("daily at"), tr("on chosen days"), tr("every N in a window"), tr("once"), tr("cron")]
        // A calendar's schedule (every 2 weeks, until…) has no fields: the schedule's fields
        // say what becomes of it instead of their usual hints.
        let note: String? = kept.map { stored in
            form.scheduleChanged
                // TRANSLATORS: nudge ui's form: the schedule of a reminder a calendar narrowed (every 2 weeks, until…) was changed.
                ? tr("a new schedule: without the old one's period, end and dates left out")
                // TRANSLATORS: nudge ui's form, editing a reminder a calendar narrowed; %s is its whole schedule in words.
                : format(tr("kept as is: %s"), stored)
        }
        var fields = form.fields.map { field -> Field in
            switch field {
            case .title: Field(label: tr("Title"), value: form[.title], hint: tr("empty: the drink-water reminder"))
            case .body: Field(label: tr("Body"), value: form[.body])
            case .kind: Field(label: tr("Schedule"), value: kinds[form.kind.rawValue], isChoice: true, hint: tr("←/→ to change"))
            case .times: Field(label: tr("At"), value: form[.times], hint: "09:30, 13:00")
            case .days: Field(label: tr("Days"), value: form[.days], hint: "weekdays, weekends, mon-fri, sat,sun")
            case .every: Field(label: tr("Every"), value: form[.every], hint: "30m, 1h30m")
            case .from: Field(label: tr("From"), value: form[.from], hint: "09:30")
            case .until: Field(label: tr("Until"), value: form[.until], hint: "21:30")
            case .counting: Field(label: tr("Counted"), value: form.afterDone ? tr("from the last Done") : tr("by the clock"),
                                  isChoice: true, hint: tr("←/→ to change"))
            case .when: Field(label: tr("When"), value: form[.when], hint: "in 20m, 2026-12-01 09:00")
            case .cron: Field(label: tr("Cron"), value: form[.cron], hint: "m h dom mon dow: 0 9 * * mon-fri")
            }
        }
        if let note {
            for (index, field) in form.fields.enumerated() where ![.title, .body].contains(field) { fields[index].hint = note }
        }
        let error: String? = if case .failure(let failure) = checked { failure.message } else { nil }
        let shown = if case .success = checked { preview.isEmpty ? [tr("never")] : preview } else { [String]() }
        self.init(heading: form.editing == nil ? tr("Add a reminder") : tr("Edit the reminder"), fields: fields,
                  focus: form.focus, cursor: form.cursor, error: error, previewHeading: tr("Next:"), preview: shown)
    }

    /// The fields the form changed that were also changed in the store since it opened
    /// (`base` then, `stored` now), each with what the store holds now; `schedule` words a
    /// schedule.
    public static func conflicts(_ form: AlertForm, base: Alert, stored: Alert, schedule: (Alert) -> String) -> [String] {
        var changed: [String] = []
        // TRANSLATORS: nudge ui's form, a conflict: the title was changed elsewhere; %s is the new one.
        if form.titleChanged && stored.title != base.title { changed.append(format(tr("the title (now “%s”)"), stored.title.escapingControls)) }
        // TRANSLATORS: nudge ui's form, a conflict: the body was changed elsewhere.
        if form.bodyChanged && stored.body != base.body { changed.append(tr("the body")) }
        if form.scheduleChanged && stored.schedule != base.schedule {
            // TRANSLATORS: nudge ui's form, a conflict: the schedule was changed elsewhere; %s is the new one in words.
            changed.append(format(tr("the schedule (now %s)"), schedule(stored).escapingControls))
        }
        return changed
    }
}
