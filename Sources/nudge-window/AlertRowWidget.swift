import CAdwaita
import NudgeKit
import Presentation

/// One alert in the list, as GNOME Clocks shows an alarm: a card with its title, its
/// schedule in words and next showing beneath, then what waits (×2, snoozed…), an edit and
/// a delete button and its switch; under it the answers, made the first time something
/// waits. Every control says which reminder it acts on to a screen reader. The list makes
/// one for each place on screen and shows in it whichever reminder scrolls there
/// (``bind(_:snoozeMinutes:)``).
///
/// The row is a dozen plain widgets, not an AdwActionRow in a list box: GTK 4.8's list view
/// keeps about 200 rows alive, and with libadwaita's rows (some 35 widgets each, answers
/// included) 1,000 reminders started at three times GNOME Clocks' start.
@MainActor final class AlertRowWidget {
    /// The reminder shown, read by the buttons' handlers when pressed.
    private final class Shown { var id: String; init(_ id: String) { self.id = id } }
    private let current: Shown
    var id: String { current.id }
    /// The card: the line, and under it the answers while something waits.
    let widget: Widget
    private let title: Widget, schedule: Widget, next: Widget, state: Widget, toggle: Widget
    private let deleteButton: Widget, editButton: Widget
    private let line: Widget
    /// The controls under the words (a narrow list), not beside them.
    private(set) var narrow = false
    private var answers: Answers?
    private var shown: AlertRow?
    private var snoozeMinutes: Int
    private let actions: Actions
    /// Set while the row itself moves the switch, so that is not taken for the person's.
    private var updating = false

    struct Actions {
        /// Switches the alert on or off; false when refused (the switch goes back).
        var toggle: @MainActor (String, Bool) -> Bool
        /// The keyboard's focus stays on this alert's switch once the list has moved it.
        var keepFocus: @MainActor (String) -> Void
        var done: @MainActor (String) -> Void
        var snooze: @MainActor (String) -> Void
        var doneForToday: @MainActor (String) -> Void
        /// A drink of the cup, and the pop-up answered (a drink-water reminder's answer).
        var drank: @MainActor (String) -> Void
        /// The cup's words on that button ("Drank 250 ml").
        var drankWords: @MainActor () -> String
        var edit: @MainActor (String) -> Void
        var delete: @MainActor (String) -> Void
    }

    /// Done, Snooze and Done for today, in a row of their own under the line (alert-answers.ui).
    private struct Answers {
        let widget: Widget, done: Widget, snooze: Widget, today: Widget, drank: Widget, drankCell: Widget
    }

    init(_ model: AlertRow, snoozeMinutes: Int, actions: Actions) {
        self.snoozeMinutes = snoozeMinutes
        self.actions = actions
        current = Shown(model.id)
        (widget, line, title, schedule, next, state, editButton, deleteButton, toggle) = Self.make()
        togglesByKeys(toggle)
        let current = self.current
        on(editButton.raw, "clicked") { actions.edit(current.id) }
        on(deleteButton.raw, "clicked") { actions.delete(current.id) }
        onNotify(toggle.raw, "active") { [unowned self] in
            guard !updating else { return }
            // Switched off it goes last, on first: the focus goes with it, not to the row
            // that takes its place.
            if toggle.hasFocus { actions.keepFocus(self.id) }
            guard !actions.toggle(self.id, toggle.isOn) else { return }
            // Refused: back as the store has it, state and all (a screen reader reads the
            // state), once GTK is done: the rest of this change would tell it the other way.
            afterThisEvent { [weak self] in
                guard let self, let shown else { return }
                showSwitch(on: shown.on)
            }
        }
        update(model, snoozeMinutes: snoozeMinutes)
    }

    /// The row's widgets, made in code, not described in a .ui: GtkBuilder parsing the
    /// description again for each of the list's 30 places took 9.5 ms of a start, where
    /// making the same widgets takes a fraction of that. The card: the line, the words (a
    /// line each, cut with "…"), then the controls beside them (under them in a narrow list,
    /// ``setNarrow(_:)``), measured as libadwaita's rows: 12 px at the sides, a 50 px line at
    /// least. The tooltips say what the buttons do, once; the names say which reminder
    /// (``update(_:snoozeMinutes:)``).
    private static func make() -> (card: Widget, line: Widget, title: Widget, schedule: Widget, next: Widget, state: Widget,
                                   edit: Widget, delete: Widget, toggle: Widget) {
        func label(_ classes: [String], ellipsized: Bool = true) -> Widget {
            let label = Make.label(classes)
            if ellipsized { label.setLines(wraps: false, ellipsizes: true) }
            return label
        }
        func button(_ icon: String, _ tooltip: String) -> Widget {
            let button = Make.iconButton(icon)
            // Named by what it acts on alone (``update``): GTK 4.8 labels it by its icon too,
            // which has no name, and Orca said "GtkImage Delete Tea push button".
            button.forgetLabelledBy()
            button.align(down: GTK_ALIGN_CENTER)
            setTooltip(button, tooltip)
            button.addClass("flat")
            return button
        }
        let title = label([]), schedule = label(["dim-label", "caption"]), next = label(["dim-label", "caption"])
        // A long title takes two lines, broken between words, before it is cut with "…";
        // cut, its tooltip is the whole title (the switch is named by it too). At 360 px one
        // line held 38 characters, and at 640 px a 77-character title was cut.
        title.setLines(wraps: true, insideWords: true, lines: 2, ellipsizes: true)
        showsWholeTitleWhenCut(title)
        let state = label(["dim-label", "numeric"], ellipsized: false)
        state.align(down: GTK_ALIGN_CENTER)
        // TRANSLATORS: the tooltip of a reminder's edit button in the window's list.
        let edit = button("document-edit-symbolic", tr("Edit"))
        // TRANSLATORS: the tooltip of a reminder's delete button in the window's list.
        let delete = button("user-trash-symbolic", tr("Delete"))
        let toggle = Make.switch()
        toggle.align(down: GTK_ALIGN_CENTER)
        let words = Make.box(vertical: true, spacing: 2, [title, schedule, next])
        words.expandsAcross = true
        words.align(down: GTK_ALIGN_CENTER)
        let controls = Make.box(vertical: false, spacing: 6, [state, edit, delete, toggle])
        controls.align(across: GTK_ALIGN_END)
        let line = Make.box(vertical: false, spacing: 6, [words, controls])
        line.margins(start: 12, end: 12, top: 8, bottom: 8)
        line.minimumHeight = 34
        // The row's own reference (a floating one taken), let go by the list at teardown.
        let card = Make.held(Make.box(vertical: true, spacing: 0, [line]))
        card.margins(start: 18, end: 18, bottom: 6)
        card.addClass("card")
        return (card, line, title, schedule, next, state, edit, delete, toggle)
    }

    /// Shows another reminder, or the same one anew.
    func bind(_ model: AlertRow, snoozeMinutes: Int) {
        if model.id != id { (current.id, shown) = (model.id, nil) }
        update(model, snoozeMinutes: snoozeMinutes)
    }

    /// Shows the row's words anew; nothing is touched when nothing changed.
    func update(_ model: AlertRow, snoozeMinutes: Int) {
        if snoozeMinutes != self.snoozeMinutes {
            self.snoozeMinutes = snoozeMinutes
            if let answers {
                setButtonText(answers.snooze, Catalog.shared.language.snooze(minutes: snoozeMinutes))
                AccessibleNames.fill(in: answers.widget, fallback: tr("Answers"))
                if let title = shown?.title { name(answers, by: title) }
            }
        }
        // The switch as the store has it, even when nothing else changed: a change refused,
        // or made and undone elsewhere, leaves no other trace.
        if toggle.isOn != model.on || toggle.switchState != model.on {
            showSwitch(on: model.on)
        }
        guard model != shown else { return }
        let title = model.title
        // On two lines where it needs them, Korean broken between words only.
        if title.utf8.allSatisfy({ $0 < 0x80 }) { setText(self.title, title) } else { setWordsKept(self.title, title) }
        setText(schedule, model.schedule)
        // TRANSLATORS: the window's reminder row, its last line: %s is the next showing.
        setNext(format(tr("next: %s"), model.next))
        setText(state, model.state)
        state.isVisible = !model.state.isEmpty
        let waiting = model.state.hasPrefix("×")
        if waiting, answers == nil { answers = makeAnswers() }
        if let answers {
            answers.widget.isVisible = waiting
            answers.drankCell.isVisible = model.water
            if model.water { setButtonText(answers.drank, actions.drankWords()) }
        }
        // Described by its schedule and next showing: "Stretch, on: every day at 09:30, next: …".
        if shown?.schedule != model.schedule || shown?.next != model.next || shown?.state != model.state {
            setAccessibleDescription(toggle, ([model.schedule, format(tr("next: %s"), model.next)] + (model.state.isEmpty ? [] : [model.state]))
                .joined(separator: "; "))
        }
        if shown?.title != title {
            // The switch is named by the row's title: a screen reader says "Drink water, on".
            setAccessibleName(toggle, title)
            // TRANSLATORS: the accessible name of a reminder's delete button; %s is its title.
            setAccessibleName(deleteButton, format(tr("Delete %s"), title))
            // TRANSLATORS: the accessible name of a reminder's edit button; %s is its title.
            setAccessibleName(editButton, format(tr("Edit %s"), title))
            if let answers { name(answers, by: title) }
        }
        shown = model
    }

    /// Narrow (below ``AlertListView``'s breakpoint): the controls under the words and the
    /// next showing on as many lines as it needs, broken between words only; wide: one
    /// line each, cut with "…" (a label that wraps is measured again for every width offered).
    func setNarrow(_ narrow: Bool) {
        guard narrow != self.narrow else { return }
        self.narrow = narrow
        line.isVertical = narrow
        next.setLines(wraps: narrow, ellipsizes: !narrow)
        if let shown { setNext(format(tr("next: %s"), shown.next), force: true) }
    }

    private var nextText = ""
    private func setNext(_ text: String, force: Bool = false) {
        guard force || text != nextText else { return }
        nextText = text
        if narrow { setWordsKept(next, text) } else { next.labelText = text }
    }

    private func showSwitch(on: Bool) {
        updating = true
        toggle.isOn = on
        toggle.switchState = on
        nudge_accessible_set_checked(toggle.raw, on ? 1 : 0)
        updating = false
    }

    private func makeAnswers() -> Answers {
        let current = self.current, actions = self.actions
        let ui = Builder("alert-answers")
        defer { ui.release() }
        let answers = Answers(widget: ui("answers"), done: ui("done"), snooze: ui("snooze"), today: ui("today"), drank: ui("drank"),
                              drankCell: ui("drank-cell"))
        let language = Catalog.shared.language
        for (button, text) in [(answers.done, language.done), (answers.snooze, language.snooze(minutes: snoozeMinutes)),
                               (answers.today, language.doneForToday)] {
            setButtonText(button, text)
        }
        on(answers.done.raw, "clicked") { actions.done(current.id) }
        on(answers.snooze.raw, "clicked") { actions.snooze(current.id) }
        on(answers.today.raw, "clicked") { actions.doneForToday(current.id) }
        on(answers.drank.raw, "clicked") { actions.drank(current.id) }
        widget.append(answers.widget)
        AccessibleNames.fill(in: answers.widget, fallback: tr("Answers"))
        // Named by name(_:by:) with the alert's title ("Done: Stretch"), read once.
        if let title = shown?.title { name(answers, by: title) }
        return answers
    }

    private func name(_ answers: Answers, by title: String) {
        // TRANSLATORS: the accessible name of a reminder's Done button; %s is its title.
        setAccessibleName(answers.done, format(tr("Done: %s"), title))
        // TRANSLATORS: the accessible name of a reminder's Snooze button; %1$s is the button's words (Snooze 10 min), %2$s the title.
        setAccessibleName(answers.snooze, format(tr("%1$s: %2$s"), Catalog.shared.language.snooze(minutes: snoozeMinutes), title))
        // TRANSLATORS: the accessible name of a reminder's Done for today button; %s is its title.
        setAccessibleName(answers.today, format(tr("Done for today: %s"), title))
        // TRANSLATORS: the accessible name of a water reminder's drink button; %1$s is its words (Drank 250 ml), %2$s the title.
        setAccessibleName(answers.drank, format(tr("%1$s: %2$s"), actions.drankWords(), title))
    }

    /// Moves keyboard focus to the row's switch (the window opened at this reminder).
    func focus() {
        toggle.grabFocus()
    }
}

