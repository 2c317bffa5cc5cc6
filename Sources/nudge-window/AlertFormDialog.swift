import CAdwaita
import Presentation
import Foundation
import NudgeKit

/// Adding and editing an alert, in a dialog over the window (alert-form-dialog.ui): what it says, when it
/// shows (at a time on chosen days, every few minutes, once at a date or in a while, a
/// cron expression, or in words: "every weekday at 9:30", "매일 오전 9시") and how it behaves. Every change is checked at once by the same
/// operations `nudge add` and `nudge edit` run: their message stands under the schedule
/// and Save waits until there is none; otherwise the next three showings stand there.
/// An edit saves only what it changed, so a change made elsewhere meanwhile to anything
/// else stays; a schedule the form has no fields for is kept unless a new one is made.
@MainActor final class AlertFormDialog {
    struct Host {
        /// Where the operations act.
        var world: World
        /// The alerts as the window follows them, and the store it reads them from.
        var feed: AlertFeed
        /// Saved: the alert, and whether it is new.
        var saved: @MainActor (Alert, Bool) -> Void
        /// The dialog went (saved or not).
        var closed: @MainActor () -> Void
    }

    let window: Widget
    private let host: Host
    /// The alert as it was when the form opened; `nil` for a new one.
    private let base: Alert?
    private var schedule: FormSchedule
    /// The stored schedule in words, when the form has no fields for it.
    private let kept: String?
    /// The schedule's fields as the form opened: what they mean is compared, so fields
    /// changed and changed back (a day toggled off and on) keep the stored schedule.
    private let openedSchedule: FormSchedule
    private var scheduleTouched: Bool { schedule.flags != openedSchedule.flags }
    /// The durations as the form opened (an option is saved only when changed).
    private var openedSnooze = "", openedNag = ""
    private enum Option { case water, sound, urgency, catchUp, away }
    private var touched: Set<Option> = []
    /// The stored alert a conflict was said for: a second Save saves over it.
    private var conflictSeen: Alert?
    /// The reminder was deleted elsewhere, said once: the next Save keeps the edit as a new one.
    private var keepAsNew = false
    /// Set while the form fills its own controls.
    private var filling = false
    private let clock = ClockStyle.person()
    private let timeStyle = TimeStyle.person()
    private let urgencies: [Urgency] = [.low, .normal, .critical]
    /// The sounds offered, in the sound row's order.
    private var sounds: [SoundChoices.Choice] = []

    private let titleRow: Widget, bodyRow: Widget, waterSwitch: Widget
    private var kindChecks: [Widget] = []
    private let time: TimePicker, from: TimePicker, until: TimePicker
    private let timeRow: Widget, dateRow: Widget, everyRow: Widget, everySpin: Widget, betweenRow: Widget, betweenSwitch: Widget
    private let fromRow: Widget, untilRow: Widget, afterDoneRow: Widget, afterDoneSwitch: Widget
    private let delayRow: Widget, delaySpin: Widget, cronRow: Widget, wordsRow: Widget, keptRow: Widget
    private let daysGroup: Widget
    private var dayToggles: [(Weekday, Widget)] = []
    private let checkRow: Widget, saveButton: Widget
    private let soundRow: Widget, urgencyRow: Widget, snoozeRow: Widget, catchUpSwitch: Widget, catchUpRow: Widget, awaySwitch: Widget
    private let nagRow: Widget
    /// The date's calendar, in its popover.
    private let calendar: Widget
    /// The rows around the schedule's text fields, shown with their kind: the fields
    /// themselves, but on libadwaita 1.2 the action rows they sit in (``EntryRows``).
    private let fieldRows: (date: Widget, cron: Widget, words: Widget)

    init(editing base: Alert?, parent: Widget, host: Host) {
        self.base = base
        self.host = host
        let zone = base?.zone(system: host.world.zone) ?? host.world.zone
        let today = CivilZone(zone).local(host.world.now).day
        let shown = base.flatMap { FormSchedule($0.schedule, zone: zone, today: today) }
        schedule = shown ?? FormSchedule(today: today)
        openedSchedule = schedule
        kept = base != nil && shown == nil
            ? base!.schedule.summary(in: zone, timeStyle: timeStyle, language: host.world.language) : nil

        // What the form's controls do is named in alert-form-dialog.ui.
        let owner = Owner<AlertFormDialog>()
        let ui = Builder("alert-form-dialog", handlers: [
            "close": owner.answer { form, _ in
                form.closeAsking()
                return true
            },
            "cancel": owner.handler { $0.window.close() },
            "save": owner.handler { $0.save() },
            "text-changed": owner.handler { if !$0.filling { $0.refresh() } },
            "schedule-changed": owner.handler { $0.scheduleChanged() },
            "option": owner.handler(values: { $0.optionChanged($1.object(0)) }),
            "calendar-shown": owner.handler { $0.calendarShown() },
            "day-picked": owner.handler { $0.dayPicked() },
            "preview": owner.handler { $0.preview() },
        ])
        defer { ui.release() }
        window = ui("window")
        window.keepAbove(parent)
        // TRANSLATORS: the window's form: its title when adding / editing.
        let heading = base == nil ? tr("Add a Reminder") : tr("Edit Reminder")
        window.windowTitle = heading
        ui("heading").headingTitle = heading
        // TRANSLATORS: the window's form: the button that saves a new / an edited reminder.
        ui("save-label").setMnemonicText(base == nil ? tr("_Add") : tr("_Save"))
        saveButton = ui("save")

        (titleRow, bodyRow, waterSwitch) = (ui("title"), ui("body"), ui("water"))
        // The kinds of schedule, in the vocabulary's words.
        let choices = ui("kinds")
        for (index, name) in ScheduleKind.allCases.map(\.name).enumerated() {
            // A radio button to a screen reader, checked while down (the group is a radio group, in the .ui).
            let toggle = nudge_radio_toggle_button_new(name)!
            on(toggle.raw, "toggled") { nudge_accessible_set_checked(toggle.raw, toggle.isPressed ? 1 : 0) }
            if let first = kindChecks.first { toggle.joinGroup(of: first) }
            choices.appendToFlowBox(toggle)
            // The flow box's own child would be a second stop for Tab.
            choices.flowBoxCell(index)?.isFocusable = false
            kindChecks.append(toggle)
        }

        keptRow = ui("kept")
        (timeRow, fromRow, untilRow) = (ui("time-row"), ui("from-row"), ui("until-row"))
        // TRANSLATORS: the window's form: the time of day a reminder shows.
        time = TimePicker(named: tr("Time"), clock: clock, in: timeRow)
        // TRANSLATORS: the window's form: the start of the times a repeating reminder shows between.
        from = TimePicker(named: tr("From"), clock: clock, in: fromRow)
        // TRANSLATORS: the window's form: the end of the times a repeating reminder shows between.
        until = TimePicker(named: tr("Until"), clock: clock, in: untilRow)
        (dateRow, everyRow, everySpin, betweenRow, betweenSwitch) = (ui("date"), ui("every-row"), ui("every"), ui("between-row"), ui("between"))
        (afterDoneRow, afterDoneSwitch, delayRow, delaySpin) = (ui("after-done-row"), ui("after-done"), ui("delay-row"), ui("delay"))
        (cronRow, wordsRow) = (ui("cron"), ui("words"))
        fieldRows = (ui.row("date"), ui.row("cron"), ui.row("words"))
        calendar = ui("calendar")
        // TRANSLATORS: the tooltip of the window's form's button that opens a calendar to pick the date.
        setTooltip(ui("date-pick"), tr("Pick the date from a calendar"))
        // TRANSLATORS: the tooltip of the window's form's button that plays the sound chosen.
        setTooltip(ui("sound-preview"), tr("Play the Sound"))
        for spin in [everySpin, delaySpin] { ignoreScroll(spin) }
        // A paste of any size costs no more than a phrase: it is cut one character past the
        // most a phrase may have, so what was cut is refused as too long, never read as the
        // shorter phrase it was cut to.
        wordsRow.limitLength(SchedulePhrase.maxLength + 1)

        daysGroup = ui("days")
        let language = host.world.language
        for (day, id) in zip([Weekday.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday],
                             ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]) {
            let toggle = ui(id)
            setButtonText(toggle, day.shortName(language))
            dayToggles.append((day, toggle))
        }
        checkRow = ui("check")
        (soundRow, urgencyRow, snoozeRow) = (ui("sound"), ui("urgency"), ui("snooze"))
        // The sounds offered, in words; the reminder's own among them.
        sounds = SoundChoices.choices(current: base?.sound)
        soundRow.setChoices(sounds.map(\.name))
        (catchUpSwitch, catchUpRow, awaySwitch, nagRow) = (ui("catch-up"), ui("catch-up-row"), ui("away"), ui("nag"))
        owner.object = self
        fill()
        connect()
        refresh()
        AccessibleNames.fill(in: window, fallback: heading)
        titleRow.grabFocus()
    }

    private var presented = false

    /// Shows the form, the title field focused and said (``sayFocusOnceShown(_:)``).
    func present() {
        window.present()
        guard !presented else { return }
        presented = true
        sayFocusOnceShown(titleRow)
    }

    // MARK: Showing and reading

    private static func text(_ editable: Widget) -> String { editable.text }

    /// A date as the field takes it, YYYY-MM-DD; `nil` when it is not a day.
    private static func day(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              CivilDay(year: year, month: month, day: day) != nil else { return nil }
        return (year, month, day)
    }

    private static func isOn(_ toggle: Widget) -> Bool { toggle.isOn }

    private static func value(_ spin: Widget) -> Int { spin.number }

    /// The controls filled from the alert (or a new one's defaults).
    private func fill() {
        filling = true
        defer { filling = false }
        let alert = base
        titleRow.text = alert?.title ?? ""
        bodyRow.text = alert?.body ?? ""
        waterSwitch.isOn = alert?.kind == .water
        showSchedule()
        let sound = alert == nil ? Sound.reminder : alert?.sound
        soundRow.chosen = sounds.firstIndex { $0.sound == sound } ?? 0
        urgencyRow.chosen = urgencies.firstIndex(of: alert?.urgency ?? .normal) ?? 1
        // Lengths of time in the person's words (10 min, 10분): what the fields read back.
        let language = host.world.language
        openedSnooze = Schedule.duration(alert?.snoozeSeconds ?? 600, language: language)
        snoozeRow.text = openedSnooze
        var grace = 12 * 3600
        if case .once(let seconds) = alert?.catchUp { grace = seconds }
        let catchesUp = if case .skip = alert?.catchUp { false } else { true }
        catchUpSwitch.isOn = catchesUp
        // TRANSLATORS: the window's form: what catching up does; %s is how late a showing may still be shown (12h).
        catchUpRow.subtitle = format(tr("Shown once when Nudge comes back within %s"), Schedule.duration(grace, language: language))
        openedNag = alert?.nag.map { Schedule.duration($0.seconds, language: language) } ?? ""
        nagRow.text = openedNag
    }

    private func showSchedule() {
        let was = filling
        filling = true
        defer { filling = was }
        for (index, check) in kindChecks.enumerated() {
            check.isPressed = index == schedule.kind.rawValue
        }
        time.minutes = schedule.time
        dateRow.text = schedule.date
        everySpin.value = Double(schedule.everyMinutes)
        betweenSwitch.isOn = schedule.between
        from.minutes = schedule.from
        until.minutes = schedule.until
        afterDoneSwitch.isOn = schedule.afterDone
        delaySpin.value = Double(schedule.delayMinutes)
        cronRow.text = schedule.cron
        wordsRow.text = schedule.phrase
        for (day, toggle) in dayToggles {
            toggle.isPressed = schedule.days.contains(day)
        }
        showKind()
    }

    /// The fields the kind chosen needs, and no others.
    private func showKind() {
        let kind = schedule.kind
        let visible: [(Widget, Bool)] = [
            (timeRow, kind == .time || kind == .date), (fieldRows.date, kind == .date), (everyRow, kind == .every),
            (betweenRow, kind == .every), (fromRow, kind == .every && schedule.between), (untilRow, kind == .every && schedule.between),
            (afterDoneRow, kind == .every), (delayRow, kind == .delay), (fieldRows.cron, kind == .cron), (fieldRows.words, kind == .words),
            (daysGroup, kind == .time || kind == .every), (keptRow, kept != nil),
        ]
        for (widget, shown) in visible { widget.isVisible = shown }
    }

    /// The kinds' toggles and the time pickers, made in code, tell the form of a change
    /// too (the .ui's controls name their handlers there; Escape, Cancel and the window's
    /// own close all come to closeAsking()).
    private func connect() {
        for check in kindChecks { on(check.raw, "toggled") { [unowned self] in scheduleChanged() } }
        for picker in [time, from, until] { picker.changed = { [unowned self] in scheduleChanged() } }
    }

    private func scheduleChanged() {
        guard !filling else { return }
        readSchedule()
        showKind()
        refresh()
    }

    /// An option set by the person: kept as they set it.
    private func optionChanged(_ control: gpointer?) {
        guard !filling, let control = control?.assumingMemoryBound(to: GtkWidget.self) else { return }
        let options: [(Widget, Option)] = [(waterSwitch, .water), (soundRow, .sound), (urgencyRow, .urgency),
                                           (catchUpSwitch, .catchUp), (awaySwitch, .away)]
        guard let option = options.first(where: { $0.0 == control })?.1 else { return }
        touched.insert(option)
        refresh()
    }

    /// The calendar opens at the date typed.
    private func calendarShown() {
        // The calendar's arrows, named ("Previous", "Next") rather than by their class.
        AccessibleNames.nameButtons(in: calendar)
        guard let day = Self.day(Self.text(dateRow)) else { return }
        calendar.pick(year: day.year, month: day.month, day: day.day)
    }

    /// A day picked is written into the field at once; the calendar stays open for the
    /// arrow keys (Escape or a click outside closes it).
    private func dayPicked() {
        let picked = calendar.pickedDay
        let text = String(format: "%04d-%02d-%02d", picked.year, picked.month, picked.day)
        if Self.text(dateRow) != text { dateRow.text = text }
    }

    /// Plays the sound chosen.
    private func preview() {
        let chosen = sounds[min(soundRow.chosen, sounds.count - 1)]
        // TRANSLATORS: the window's form, Play the Sound with no player program on this machine.
        if let sound = chosen.sound, !SoundChoices.preview(sound) { say(tr("No sound player here: install canberra-gtk-play, pw-play or paplay")) }
    }

    private func readSchedule() {
        if let index = kindChecks.firstIndex(where: \.isPressed) {
            schedule.kind = ScheduleKind(rawValue: index)!
        }
        schedule.time = time.minutes
        schedule.date = Self.text(dateRow)
        schedule.everyMinutes = Self.value(everySpin)
        schedule.between = Self.isOn(betweenSwitch)
        (schedule.from, schedule.until) = (from.minutes, until.minutes)
        schedule.afterDone = Self.isOn(afterDoneSwitch)
        schedule.delayMinutes = Self.value(delaySpin)
        schedule.cron = Self.text(cronRow)
        schedule.phrase = Self.text(wordsRow)
        schedule.days = Set(dayToggles.filter { $0.1.isPressed }.map(\.0))
    }

    // MARK: Checking

    /// The options the person changed, each read by its own type.
    private func settings() throws(OperationError) -> AlertSettings {
        var settings = AlertSettings()
        // A new reminder is water only when the person says so (the water card adds the usual one).
        if touched.contains(.water) || base == nil { settings.kind = Self.isOn(waterSwitch) ? .water : .reminder }
        if touched.contains(.sound) {
            let chosen = sounds[min(soundRow.chosen, sounds.count - 1)]
            settings.sound = chosen.sound.map { .sound($0) } ?? .silent
        }
        if touched.contains(.urgency) {
            settings.urgency = urgencies[min(urgencyRow.chosen, urgencies.count - 1)]
        }
        let snooze = Self.text(snoozeRow).trimmingCharacters(in: .whitespaces)
        if snooze != openedSnooze { settings.snooze = try SnoozeLength(parsing: snooze) }
        if touched.contains(.catchUp) { settings.catchUp = Self.isOn(catchUpSwitch) ? .once : .skip }
        if touched.contains(.away) { settings.whenAway = Self.isOn(awaySwitch) ? .hold : .show }
        let nag = Self.text(nagRow).trimmingCharacters(in: .whitespaces)
        if nag != openedNag { settings.nag = nag.isEmpty ? .never : try NagInterval(parsing: nag) }
        return settings
    }

    /// What the form would save (see ``AlertDraft``).
    private func draft() throws(OperationError) -> AlertDraft {
        if scheduleTouched || base == nil, [.time, .every].contains(schedule.kind), schedule.days.isEmpty {
            // TRANSLATORS: the window's form, with every weekday toggled off.
            throw OperationError(.usage, tr("choose at least one day"))
        }
        if scheduleTouched || base == nil, schedule.kind == .date, Self.day(schedule.date) == nil {
            // TRANSLATORS: the window's form: the date field holds no day; %s is what it holds.
            throw OperationError(.usage, format(tr("“%s” is not a date: write it as YYYY-MM-DD (2026-12-01), or pick it from the calendar"),
                                                schedule.date.trimmingCharacters(in: .whitespaces)))
        }
        var draft = AlertDraft(editing: base)
        draft.settings = try settings()
        (draft.title, draft.body) = (Self.text(titleRow), Self.text(bodyRow))
        (draft.schedule, draft.scheduleChanged) = (schedule.flags, scheduleTouched || base == nil)
        return draft
    }

    /// What Save would keep, checked as `nudge add` and `nudge edit` check it.
    private func check(now: Date) -> Result<Alert, OperationError> {
        do throws(OperationError) {
            return try draft().check(with: host.feed, now: now)
        } catch {
            return .failure(error)
        }
    }

    /// The check's outcome shown: the next showings, or why not (and Save waits).
    private func refresh() {
        let now = host.world.now
        let checked = check(now: now)
        filling = true
        if case .success(let alert) = checked {
            // What is not the person's own choice follows what Save would keep.
            if !touched.contains(.water) { waterSwitch.isOn = alert.kind == .water }
            if !touched.contains(.away) { awaySwitch.isOn = alert.holdsWhileAway }
        }
        filling = false
        if let kept {
            keptRow.subtitle = (scheduleTouched
                // TRANSLATORS: the window's form: the person changed the schedule of a reminder whose schedule
                // the form has no fields for; %s is the stored schedule in words.
                ? format(tr("On saving, the schedule below replaces %s. Cancel keeps it."), kept)
                // TRANSLATORS: the window's form, editing a reminder whose schedule it has no fields for; %s is the schedule in words.
                : format(tr("Kept as is: %s. A schedule made below replaces it."), kept))
        }
        switch checked {
        case .success(let alert):
            let zone = alert.zone(system: host.world.zone)
            let next = alert.schedule.occurrences(after: now, count: 3, in: zone).map { timeStyle.instant($0, zone) }
            // TRANSLATORS: the window's form: the heading of the next showings.
            checkRow.rowTitle = tr("Next showings")
            var lines = next.isEmpty ? [Labels.noTime(alert.schedule, zone: zone, timeStyle: timeStyle) ?? tr("never")] : next
            // Words are said back: what they were read as, before the showings.
            if schedule.kind == .words, scheduleTouched || base == nil {
                let reading = try? host.feed.defaultTime.read(schedule.phrase, now: now, zone: zone)
                let words = alert.schedule.summary(in: zone, timeStyle: timeStyle, language: host.world.language)
                // TRANSLATORS: the window's form: what a schedule in words was read as; %s is the schedule in words as list says it.
                lines = [format(tr("Read as: %s"), words)] + (reading?.notes ?? []).map { $0.text(host.world.language) } + lines
            }
            checkRow.subtitle = lines.map(\.escapingControls).joined(separator: "\n")
            checkRow.removeClass("error")
            saveButton.isSensitive = true
            announce(nil)
        case .failure(let error):
            // TRANSLATORS: the window's form: the heading of what is wrong with it.
            checkRow.rowTitle = tr("Not saved yet")
            checkRow.subtitle = error.message.escapingControls
            saveButton.isSensitive = false
            // A new form not yet written in is not wrong: it says what it waits for, calmly.
            if base == nil, Self.text(titleRow).isEmpty {
                checkRow.removeClass("error")
                announce(nil)
            } else {
                checkRow.addClass("error")
                announce(error.message)
            }
        }
    }

    /// What is wrong, told to a screen reader where the person is: the accessible
    /// description of the field being typed in (read when it changes) and of Save.
    private var described: Widget?
    private func announce(_ message: String?) {
        let text = message.map { format(tr("Not saved yet: %s"), $0) } ?? ""
        if let described { setAccessibleDescription(described, "") }
        described = nil
        if let message = message, !message.isEmpty, let focus = window.focusInWindow {
            // The field, not GTK's text inside it: what a screen reader names is the entry
            // row, or on libadwaita 1.2 the entry in its row (``EntryRows``).
            func isField(_ widget: Widget) -> Bool { widget.is(.preferencesRow) || widget.is(.entry) }
            var field: Widget? = focus
            while let current = field, current != window, !isField(current) { field = current.parent }
            described = field.flatMap { $0 == window ? nil : $0 } ?? focus
            setAccessibleDescription(described!, text)
        }
        setAccessibleDescription(saveButton, text)
    }

    // MARK: Saving

    private func save() {
        let draft: AlertDraft
        do throws(OperationError) { draft = try self.draft() } catch { return say(error.message) }
        let world = host.world, style = timeStyle
        switch draft.save(with: host.feed, over: conflictSeen, now: world.now, keepingAsNew: keepAsNew, words: { stored in
            stored.schedule.summary(in: stored.zone(system: world.zone), timeStyle: style, language: world.language)
        }) {
        case .deletedMeanwhile:
            keepAsNew = true
            // TRANSLATORS: the window's form, when the reminder being edited was deleted elsewhere meanwhile.
            say(tr("This reminder was deleted elsewhere meanwhile. Save again to keep your edit as a new reminder, or Cancel to let it go."))
        case .changedMeanwhile(let changed, let stored):
            conflictSeen = stored
            // TRANSLATORS: the window's form, when a field it changed was also changed elsewhere since it
            // opened; %s names the fields with their new values.
            say(format(tr("Changed elsewhere meanwhile: %s. Save again to keep yours, or Cancel to keep that."), changed.joined(separator: ", ")))
        case .refused(let error):
            say(error.message)
        case .saved(let alert):
            host.saved(alert, base == nil || keepAsNew)
            close()
        }
    }

    private func say(_ message: String) {
        checkRow.rowTitle = tr("Not saved yet")
        checkRow.subtitle = message.escapingControls
        checkRow.addClass("error")
        announce(message)
    }

    private func close() {
        window.destroy()
        host.closed()
    }

    /// Whether anything was typed or chosen since the form opened.
    private var hasChanges: Bool {
        Self.text(titleRow) != (base?.title ?? "") || Self.text(bodyRow) != (base?.body ?? "") || scheduleTouched || !touched.isEmpty
            || Self.text(snoozeRow).trimmingCharacters(in: .whitespaces) != openedSnooze
            || Self.text(nagRow).trimmingCharacters(in: .whitespaces) != openedNag
    }

    /// The question asked before changes are thrown away, while it is open.
    private var discardQuestion: Widget?

    /// Closes a form with nothing changed; one with changes asks first, as GNOME's apps do
    /// (Escape and Alt+F4 threw a half-typed form away, issue 52): Keep Editing, the
    /// default and what Escape answers, or Discard.
    private func closeAsking() {
        guard hasChanges else { return close() }
        guard discardQuestion == nil else { return }
        // TRANSLATORS: the window's form, closed with changes not saved: the question's heading.
        let heading = tr("Discard Changes?")
        // TRANSLATORS: the window's form, closed with changes not saved: what would be lost (a new reminder / an edit).
        let body = base == nil ? tr("The reminder you were writing has not been added.") : tr("Your changes to this reminder have not been saved.")
        discardQuestion = Question.ask(over: window, heading: heading, body: body, answers: [
            // TRANSLATORS: the window's form, closed with changes not saved: the answer that goes back to the form.
            .init("keep", tr("_Keep Editing")),
            // TRANSLATORS: the window's form, closed with changes not saved: the answer that throws them away.
            .init("discard", tr("_Discard"), .destructive),
        ], default: "keep", close: "keep") { [unowned self] answer in
            discardQuestion = nil
            // Once the question's answer is done: the form goes with the question over it (a
            // transient window on libadwaita 1.2), and destroyed inside its own "response" it
            // left GObject four warnings and four criticals of a finalised instance.
            if answer == "discard" { afterThisEvent { [weak self] in self?.close() } }
        }
    }
}
