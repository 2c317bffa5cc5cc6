import CAdwaita
import NudgeKit
import Presentation

/// One reminder in the list, as GNOME Clocks shows an alarm: a card with its title, its
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
    private var answers: Answers?
    private var shown: AlertRow?
    private var snoozeMinutes: Int
    private let actions: Actions
    /// Set while the row itself moves the switch, so that is not taken for the person's.
    private var updating = false

    struct Actions {
        var toggle: @MainActor (String, Bool) -> Void
        var done: @MainActor (String) -> Void
        var snooze: @MainActor (String) -> Void
        var doneForToday: @MainActor (String) -> Void
        var edit: @MainActor (String) -> Void
        var delete: @MainActor (String) -> Void
    }

    /// Done, Snooze and Done for today, in a row of their own under the line: beside the
    /// title they kept a narrow window from shrinking. They wrap when there is no room.
    private struct Answers {
        let widget: Widget, done: Widget, snooze: Widget, today: Widget
    }

    init(_ model: AlertRow, snoozeMinutes: Int, actions: Actions) {
        self.snoozeMinutes = snoozeMinutes
        self.actions = actions
        current = Shown(model.id)
        // A line each, cut short with "…" where the window is narrow: a label that wraps is
        // measured again for every width offered, and 30 rows of them took 45 ms of a
        // start. The words are whole to a screen reader, and in the form.
        title = label("")
        schedule = label("", classes: ["dim-label", "caption"])
        next = label("", classes: ["dim-label", "caption"])
        for line in [title, schedule, next] { gtk_label_set_ellipsize(line.opaque, PANGO_ELLIPSIZE_END) }
        let text = box(GTK_ORIENTATION_VERTICAL, spacing: 2, [title, schedule, next])
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        state = label("", classes: ["dim-label", "numeric"])
        gtk_widget_set_valign(state, GTK_ALIGN_CENTER)
        toggle = gtk_switch_new()
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        let current = self.current
        // Named by update() with the reminder's title ("Delete Stretch"); the tooltips say
        // what they do, set once (a tooltip set again costs as much as the label).
        editButton = iconButton("document-edit-symbolic", name: tr("Edit")) { actions.edit(current.id) }
        deleteButton = iconButton("user-trash-symbolic", name: tr("Delete")) { actions.delete(current.id) }
        for button in [editButton, deleteButton] {
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        }
        let line = box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [text, state, editButton, deleteButton, toggle])
        // libadwaita's row measures: 12 px at the sides, a 50 px line at least.
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(line, 12) }
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(line, 8) }
        gtk_widget_set_size_request(line, -1, 34)
        widget = box(GTK_ORIENTATION_VERTICAL, spacing: 0, [line])
        gtk_widget_add_css_class(widget, "card")
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(widget, 18) }
        gtk_widget_set_margin_bottom(widget, 6)
        onNotify(toggle.raw, "active") { [unowned self] in
            guard !updating else { return }
            actions.toggle(self.id, gtk_switch_get_active(toggle.opaque) != 0)
        }
        update(model, snoozeMinutes: snoozeMinutes)
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
            if let answers { setButtonText(answers.snooze, Catalog.shared.language.snooze(minutes: snoozeMinutes)) }
        }
        guard model != shown else { return }
        let title = model.title
        setText(self.title, title)
        setText(schedule, model.schedule)
        // TRANSLATORS: the window's reminder row, its last line: %s is the next showing.
        setText(next, format(tr("next: %s"), model.next))
        setText(state, model.state)
        gtk_widget_set_visible(state, model.state.isEmpty ? 0 : 1)
        let waiting = model.state.hasPrefix("×")
        if waiting, answers == nil { answers = makeAnswers() }
        if let answers { gtk_widget_set_visible(answers.widget, waiting ? 1 : 0) }
        updating = true
        gtk_switch_set_active(toggle.opaque, model.on ? 1 : 0)
        updating = false
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

    private func makeAnswers() -> Answers {
        let current = self.current, actions = self.actions
        // Named by name(_:by:) with the reminder's title ("Done: Stretch"), read once.
        let done = button(Catalog.shared.language.done, named: "", classes: ["suggested-action"]) { actions.done(current.id) }
        let snooze = button(Catalog.shared.language.snooze(minutes: snoozeMinutes), named: "") { actions.snooze(current.id) }
        let today = button(Catalog.shared.language.doneForToday, named: "") { actions.doneForToday(current.id) }
        let buttons = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(buttons.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(buttons.opaque, 3)
        gtk_flow_box_set_column_spacing(buttons.opaque, 6)
        gtk_flow_box_set_row_spacing(buttons.opaque, 6)
        for (index, answer) in [done, snooze, today].enumerated() {
            gtk_flow_box_append(buttons.opaque, answer)
            // The flow box's own child would be a second stop for Tab.
            if let child = gtk_flow_box_get_child_at_index(buttons.opaque, Int32(index)) {
                gtk_widget_set_focusable(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkWidget.self), 0)
            }
        }
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(buttons, 12)
        }
        gtk_widget_set_margin_top(buttons, 6)
        let separator = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
        let answers = Answers(widget: box(GTK_ORIENTATION_VERTICAL, spacing: 0, [separator, buttons]), done: done, snooze: snooze, today: today)
        gtk_box_append(widget.as(GtkBox.self), answers.widget)
        if let title = shown?.title { name(answers, by: title) }
        return answers
    }

    private func name(_ answers: Answers, by title: String) {
        // TRANSLATORS: the accessible name of a reminder's Done button; %s is its title.
        setAccessibleName(answers.done, format(tr("Done: %s"), title))
        // TRANSLATORS: the accessible name of a reminder's Snooze button; %s is its title.
        setAccessibleName(answers.snooze, format(tr("Snooze: %s"), title))
        // TRANSLATORS: the accessible name of a reminder's Done for today button; %s is its title.
        setAccessibleName(answers.today, format(tr("Done for today: %s"), title))
    }

    /// Moves keyboard focus to the row's switch (the window opened at this reminder).
    func focus() {
        gtk_widget_grab_focus(toggle)
    }
}
