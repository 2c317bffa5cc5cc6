import CAdwaita
import AlertScreen
import NudgeCore
import Localization

/// One reminder in the list, as GNOME Clocks shows an alarm: its title, its schedule in
/// words and next showing beneath, then what waits (×2, snoozed…), the answers when
/// something waits, a delete button and its switch. Every control says which reminder it
/// acts on to a screen reader. The list makes one for each place on screen and shows in
/// it whichever reminder scrolls there (``bind(_:snoozeMinutes:)``).
@MainActor final class ReminderRow {
    /// The reminder shown, read by the buttons' handlers when pressed.
    private final class Shown { var id: String; init(_ id: String) { self.id = id } }
    private let current: Shown
    var id: String { current.id }
    /// What the list shows: the row, and under it the answers while something waits.
    let widget: Widget
    private let row: Widget
    private let state: Widget, toggle: Widget, answers: Widget
    private var shown: ScreenModel.Row?
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

    init(_ model: ScreenModel.Row, snoozeMinutes: Int, actions: Actions) {
        self.snoozeMinutes = snoozeMinutes
        current = Shown(model.id)
        row = adw_action_row_new()
        adw_preferences_row_set_use_markup(row.as(AdwPreferencesRow.self), 0)
        adw_action_row_set_subtitle_lines(row.as(AdwActionRow.self), 2)
        state = label("", classes: ["dim-label", "numeric"])
        gtk_widget_set_valign(state, GTK_ALIGN_CENTER)
        toggle = gtk_switch_new()
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        // Named by update() with the reminder's title ("Done: Stretch"), read once.
        let done = button(Catalog.shared.language.done, named: "", classes: ["suggested-action"]) { [current] in actions.done(current.id) }
        let snooze = button(Catalog.shared.language.snooze(minutes: snoozeMinutes), named: "") { [current] in actions.snooze(current.id) }
        let today = button(Catalog.shared.language.doneForToday, named: "") { [current] in actions.doneForToday(current.id) }
        // Under the row, in a row of their own while something waits: beside the title
        // they kept a narrow window from shrinking. They wrap when there is no room.
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
            side(buttons, 6)
        }
        answers = gtk_list_box_row_new()
        gtk_list_box_row_set_child(answers.as(GtkListBoxRow.self), buttons)
        gtk_list_box_row_set_activatable(answers.as(GtkListBoxRow.self), 0)
        gtk_widget_set_focusable(answers, 0)
        let edit = iconButton("document-edit-symbolic", name: "") { [current] in actions.edit(current.id) }
        gtk_widget_add_css_class(edit, "flat")
        gtk_widget_set_valign(edit, GTK_ALIGN_CENTER)
        let delete = iconButton("user-trash-symbolic", name: "") { [current] in actions.delete(current.id) }
        gtk_widget_add_css_class(delete, "flat")
        gtk_widget_set_valign(delete, GTK_ALIGN_CENTER)
        for suffix in [state, edit, delete, toggle] { adw_action_row_add_suffix(row.as(AdwActionRow.self), suffix) }
        adw_action_row_set_activatable_widget(row.as(AdwActionRow.self), toggle)
        self.deleteButton = delete
        self.doneButton = done
        self.snoozeButton = snooze
        self.todayButton = today
        self.editButton = edit
        widget = gtk_list_box_new()
        gtk_list_box_set_selection_mode(widget.opaque, GTK_SELECTION_NONE)
        gtk_widget_add_css_class(widget, "boxed-list")
        gtk_list_box_append(widget.opaque, row)
        gtk_list_box_append(widget.opaque, answers)
        onNotify(toggle.raw, "active") { [unowned self] in
            guard !updating else { return }
            actions.toggle(self.id, gtk_switch_get_active(toggle.opaque) != 0)
        }
        update(model, snoozeMinutes: snoozeMinutes)
    }

    private var snoozeMinutes: Int
    private let deleteButton: Widget, doneButton: Widget, snoozeButton: Widget, todayButton: Widget, editButton: Widget

    /// Shows another reminder, or the same one anew.
    func bind(_ model: ScreenModel.Row, snoozeMinutes: Int) {
        if model.id != id { (current.id, shown) = (model.id, nil) }
        update(model, snoozeMinutes: snoozeMinutes)
    }

    /// Shows the row's words anew; nothing is touched when nothing changed.
    func update(_ model: ScreenModel.Row, snoozeMinutes: Int) {
        if snoozeMinutes != self.snoozeMinutes {
            self.snoozeMinutes = snoozeMinutes
            setButtonText(snoozeButton, Catalog.shared.language.snooze(minutes: snoozeMinutes))
        }
        guard model != shown else { return }
        let title = model.title
        adw_preferences_row_set_title(row.as(AdwPreferencesRow.self), title)
        // TRANSLATORS: the window's reminder row: %1$s the schedule in words, %2$s the next showing.
        adw_action_row_set_subtitle(row.as(AdwActionRow.self), format(tr("%1$s · next: %2$s"), model.schedule, model.next))
        setText(state, model.state)
        gtk_widget_set_visible(state, model.state.isEmpty ? 0 : 1)
        gtk_widget_set_visible(answers, model.state.hasPrefix("×") ? 1 : 0)
        updating = true
        gtk_switch_set_active(toggle.opaque, model.on ? 1 : 0)
        updating = false
        if shown?.title != title {
            // The switch is named by the row's title (AdwActionRow labels its activatable
            // widget with it): a screen reader says "Drink water, on".
            // TRANSLATORS: the accessible name of a reminder's delete button; %s is its title.
            setAccessibleName(deleteButton, format(tr("Delete %s"), title))
            gtk_widget_set_tooltip_text(deleteButton, tr("Delete"))
            // TRANSLATORS: the accessible name of a reminder's Done button; %s is its title.
            setAccessibleName(doneButton, format(tr("Done: %s"), title))
            // TRANSLATORS: the accessible name of a reminder's Snooze button; %s is its title.
            setAccessibleName(snoozeButton, format(tr("Snooze: %s"), title))
            // TRANSLATORS: the accessible name of a reminder's Done for today button; %s is its title.
            setAccessibleName(todayButton, format(tr("Done for today: %s"), title))
            // TRANSLATORS: the accessible name of a reminder's edit button; %s is its title.
            setAccessibleName(editButton, format(tr("Edit %s"), title))
            gtk_widget_set_tooltip_text(editButton, tr("Edit"))
        }
        shown = model
    }

    /// Moves keyboard focus to the row's switch (the window opened at this reminder).
    func focus() {
        gtk_widget_grab_focus(toggle)
    }
}
