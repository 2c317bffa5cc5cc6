import Presentation
import Foundation
import Localization
import NudgeCore
import NudgeKit

extension FormView {
    /// The form as shown: its fields in words, what checking it said (`checked`: the
    /// alert it would make, or why not), the next showings it would have (`preview`, in
    /// words), and, for a reminder a calendar narrowed (`kept`: its whole schedule in
    /// words), what becomes of that schedule.
    /// Words are read in `world` (its clock and zone) with `defaultTime` for a day said
    /// without a time, and times written in `timeStyle`.
    public init(_ form: AlertForm, checked: Result<Alert, OperationError>, preview: [String], kept: String?, world: World, timeStyle: TimeStyle,
                defaultTime: DefaultReminderTime = .known(nil)) {
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
            case .kind: Field(label: tr("Schedule"), value: form.kind.name, isChoice: true, hint: tr("←/→ to change"))
            case .times: Field(label: tr("At"), value: form[.times], hint: "09:30, 13:00")
            case .days: Field(label: tr("Days"), value: form[.days], hint: "weekdays, weekends, mon-fri, sat,sun")
            case .every: Field(label: tr("Every"), value: form[.every], hint: "30m, 1h30m")
            case .from: Field(label: tr("From"), value: form[.from], hint: "09:30")
            case .until: Field(label: tr("Until"), value: form[.until], hint: "21:30")
            case .counting: Field(label: tr("Counted"), value: form.afterDone ? tr("from the last Done") : tr("by the clock"),
                                  isChoice: true, hint: tr("←/→ to change"))
            case .when: Field(label: tr("When"), value: form[.when], hint: "2026-12-01 09:00")
            // TRANSLATORS: nudge ui's form: in how long a one-time reminder shows.
            case .delay: Field(label: tr("In"), value: form[.delay], hint: "20m, 1h30m")
            case .cron: Field(label: tr("Cron"), value: form[.cron], hint: "m h dom mon dow: 0 9 * * mon-fri")
            // TRANSLATORS: nudge ui's form: the field with the schedule in words.
            case .phrase: Field(label: tr("In words"), value: form[.phrase],
                                hint: Self.reading(form[.phrase], checked: checked, world: world, timeStyle: timeStyle, defaultTime: defaultTime))
            }
        }
        if let note {
            for (index, field) in form.fields.enumerated() where ![.title, .body].contains(field) { fields[index].hint = note }
        }
        let error: String? = if case .failure(let failure) = checked { failure.message } else { nil }
        var shown = if case .success(let alert) = checked {
            preview.isEmpty ? [Labels.noTime(alert.schedule, zone: alert.zone(system: world.zone), timeStyle: timeStyle) ?? tr("never")] : preview
        } else { [String]() }
        var heading = tr("Next:")
        // Words are said back over the showings: what they were read as, and what was
        // chosen on the person's behalf.
        if form.kind == .words, case .success(let alert) = checked {
            let zone = alert.zone(system: world.zone)
            let words = alert.schedule.summary(in: zone, timeStyle: timeStyle, language: world.language)
            heading = format(tr("Read as: %s"), words.escapingControls)
            let notes = (try? defaultTime.read(form[.phrase], now: world.now, zone: zone))?.notes ?? []
            shown = notes.map { $0.text(world.language) } + shown
        }
        self.init(heading: form.editing == nil ? tr("Add a reminder") : tr("Edit the reminder"), fields: fields,
                  focus: form.focus, cursor: form.cursor, error: error, previewHeading: heading, preview: shown)
    }

    /// The flags a schedule in words was read as, once it is ("→ --at 09:00"); before,
    /// examples of what to say. The words and what was chosen stand over the showings.
    static func reading(_ phrase: String, checked: Result<Alert, OperationError>, world: World, timeStyle: TimeStyle,
                        defaultTime: DefaultReminderTime) -> String {
        guard case .success(let alert) = checked, !phrase.isEmpty else { return "every weekday at 9:30, 매일 오전 9시, in 20 minutes" }
        let zone = alert.zone(system: world.zone)
        let reading = try? defaultTime.read(phrase, now: world.now, zone: zone)
        let words = alert.schedule.summary(in: zone, timeStyle: timeStyle, language: world.language)
        return (reading?.flags ?? alert.schedule.flagsText(in: zone)).map { "→ \($0)" } ?? "→ \(words)"
    }
}
