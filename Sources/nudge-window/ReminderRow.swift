import CAdwaita
import AlertScreen
import NudgeCore
import Localization

/// One reminder in the list, as GNOME Clocks shows an alarm: its title, its schedule in
/// words and next showing beneath, then what waits (×2, snoozed…), the answers when
/// something waits, a delete button and its switch. Every control says which reminder it
/// acts on to a screen reader.
@MainActor final class ReminderRow {
    let id: String
    let row: Widget
    private let state: Widget, toggle: Widget, answers: Widget
    private var shown: ScreenModel.Row?
    /// Set while the row itself moves the switch, so that is not taken for the person's.
    private var updating = false

    struct Actions {
        var toggle: @MainActor (String, Bool) -> Void
        var done: @MainActor (String) -> Void
        var snooze: @MainActor (String) -> Void
        var delete: @MainActor (String) -> Void
    }

    init(_ model: ScreenModel.Row, snoozeMinutes: Int, actions: Actions) {
        self.snoozeMinutes = snoozeMinutes
        id = model.id
        row = adw_action_row_new()
        adw_preferences_row_set_use_markup(row.as(AdwPreferencesRow.self), 0)
        adw_action_row_set_subtitle_lines(row.as(AdwActionRow.self), 2)
        state = label("", classes: ["dim-label", "numeric"])
        gtk_widget_set_valign(state, GTK_ALIGN_CENTER)
        toggle = gtk_switch_new()
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        let id = model.id
        // Named by update() with the reminder's title ("Done: Stretch"), read once.
        let done = button(Catalog.shared.language.done, named: "", classes: ["flat"]) { actions.done(id) }
        let snooze = button(Catalog.shared.language.snooze(minutes: snoozeMinutes), named: "", classes: ["flat"]) { actions.snooze(id) }
        answers = box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [snooze, done])
        gtk_widget_set_valign(answers, GTK_ALIGN_CENTER)
        let delete = iconButton("user-trash-symbolic", name: "") { actions.delete(id) }
        gtk_widget_add_css_class(delete, "flat")
        gtk_widget_set_valign(delete, GTK_ALIGN_CENTER)
        for suffix in [state, answers, delete, toggle] { adw_action_row_add_suffix(row.as(AdwActionRow.self), suffix) }
        adw_action_row_set_activatable_widget(row.as(AdwActionRow.self), toggle)
        self.deleteButton = delete
        self.doneButton = done
        self.snoozeButton = snooze
        onNotify(toggle.raw, "active") { [unowned self] in
            guard !updating else { return }
            actions.toggle(self.id, gtk_switch_get_active(toggle.opaque) != 0)
        }
        update(model, snoozeMinutes: snoozeMinutes)
    }

    private var snoozeMinutes: Int
    private let deleteButton: Widget, doneButton: Widget, snoozeButton: Widget

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
        }
        shown = model
    }

    /// Moves keyboard focus to the row's switch (the window opened at this reminder).
    func focus() {
        gtk_widget_grab_focus(toggle)
    }
}
