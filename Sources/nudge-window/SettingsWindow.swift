import CAdwaita
import Foundation
import NudgeKit

/// Nudge's settings, as GNOME's preferences windows keep them: each change is kept at once
/// (through the operations `nudge config` runs, with their checks and messages), and a
/// change made elsewhere shows here when the window reads the store again.
@MainActor final class SettingsWindow {
    let window: Widget
    private let cup: Widget, goal: Widget, logDays: Widget
    private let dayStart: TimePicker
    private let autostart: Widget
    /// Set while the window shows the stored values (not a person's change).
    private var showing = false
    private let closed: @MainActor () -> Void
    private let world: World

    init(parent: Widget, world: World, closed: @escaping @MainActor () -> Void) {
        self.closed = closed
        self.world = world
        window = adw_preferences_window_new()
        gtk_window_set_transient_for(window.as(GtkWindow.self), parent.as(GtkWindow.self))
        gtk_window_set_modal(window.as(GtkWindow.self), 1)
        // TRANSLATORS: the title of the window's settings.
        gtk_window_set_title(window.as(GtkWindow.self), tr("Settings"))
        adw_preferences_window_set_search_enabled(window.as(AdwPreferencesWindow.self), 0)
        let page = adw_preferences_page_new()!

        let water = adw_preferences_group_new()!
        adw_preferences_group_set_title(water.as(AdwPreferencesGroup.self), tr("Water"))
        // TRANSLATORS: the settings: the cup size "Drank" logs, in millilitres.
        cup = Self.spin(Setting.cup, step: 50, named: tr("Cup, ml"))
        // TRANSLATORS: the settings row with the cup size; the unit follows the number.
        Self.row(tr("Cup (ml)"), subtitle: tr("What Drank logs"), suffix: cup, in: water)
        // TRANSLATORS: the settings: the day's water goal, in millilitres.
        goal = Self.spin(Setting.goal, step: 250, named: tr("Daily goal, ml"))
        // TRANSLATORS: the settings row with the day's water goal; the unit follows the number.
        Self.row(tr("Daily goal (ml)"), suffix: goal, in: water)
        // TRANSLATORS: the settings: when a day starts for the water total (04:00 for night owls).
        dayStart = TimePicker(named: tr("A day starts at"), clock: ClockStyle.person())
        // TRANSLATORS: the settings row's note on when a day starts.
        Self.row(tr("A day starts at"), subtitle: tr("When the day's water starts over (04:00 for night owls)"), suffix: dayStart.widget, in: water)

        let log = adw_preferences_group_new()!
        // TRANSLATORS: the settings: the heading over the delivery log's settings.
        adw_preferences_group_set_title(log.as(AdwPreferencesGroup.self), tr("History"))
        // TRANSLATORS: the settings: how many days the log keeps an entry.
        logDays = Self.spin(Setting.logDays, step: 1, named: tr("Keep the log, days"))
        // TRANSLATORS: the settings row with how many days the log keeps an entry; the unit follows the number.
        Self.row(tr("Keep the log (days)"), suffix: logDays, in: log)

        let session = adw_preferences_group_new()!
        // TRANSLATORS: the settings: the heading over starting with the session.
        adw_preferences_group_set_title(session.as(AdwPreferencesGroup.self), tr("Session"))
        autostart = gtk_switch_new()
        gtk_widget_set_valign(autostart, GTK_ALIGN_CENTER)
        let row = Self.row(tr("Start with your session"), subtitle: tr("Nudge's service starts when you log in."), suffix: autostart, in: session)
        adw_action_row_set_activatable_widget(row.as(AdwActionRow.self), autostart)

        for group in [water, log, session] { adw_preferences_page_add(page.as(AdwPreferencesPage.self), group.as(AdwPreferencesGroup.self)) }
        adw_preferences_window_add(window.as(AdwPreferencesWindow.self), page.as(AdwPreferencesPage.self))

        for (spin, setting) in [(cup, Setting.cup), (goal, .goal), (logDays, .logDays)] {
            on(spin.raw, "value-changed") { [unowned self] in
                keep(setting, Int(gtk_spin_button_get_value_as_int(spin.opaque)))
            }
        }
        dayStart.changed = { [unowned self] in keep(.dayStart, dayStart.minutes) }
        onNotify(autostart.raw, "active") { [unowned self] in
            guard !showing else { return }
            let places = AutostartPlaces(environment: .current)
            let program = MainWindow.sibling("nudge")
            do throws(OperationError) {
                toast(gtk_switch_get_active(autostart.opaque) != 0 ? try places.enable(program: program) : try places.disable(program: program))
            } catch {
                toast(error.message)
            }
            show()
        }
        onStopping(window.raw, "close-request") { [unowned self] in
            gtk_window_destroy(window.as(GtkWindow.self))
            self.closed()
        }
        show()
    }

    func present() { gtk_window_present(window.as(GtkWindow.self)) }

    @discardableResult
    private static func row(_ title: String, subtitle: String? = nil, suffix: Widget, in group: Widget) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(row.as(AdwPreferencesRow.self), title)
        if let subtitle { adw_action_row_set_subtitle(row.as(AdwActionRow.self), subtitle) }
        adw_action_row_add_suffix(row.as(AdwActionRow.self), suffix)
        adw_preferences_group_add(group.as(AdwPreferencesGroup.self), row)
        return row
    }

    /// A spin button over the setting's own range.
    private static func spin(_ setting: Setting, step: Double, named name: String) -> Widget {
        let spin = gtk_spin_button_new_with_range(Double(setting.range.lowerBound), Double(setting.range.upperBound), step)!
        gtk_spin_button_set_numeric(spin.opaque, 1)
        gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
        setAccessibleName(spin, name)
        ignoreScroll(spin)
        return spin
    }

    /// The stored values (a change made elsewhere included) and the session's autostart.
    func show() {
        showing = true
        defer { showing = false }
        if let values = try? Preferences.values(world) {
            for (spin, setting) in [(cup, Setting.cup), (goal, .goal), (logDays, .logDays)] {
                let value = Double(values[setting] ?? setting.defaultValue)
                if gtk_spin_button_get_value(spin.opaque) != value { gtk_spin_button_set_value(spin.opaque, value) }
            }
            let start = values[.dayStart] ?? 0
            if dayStart.minutes != start { dayStart.minutes = start }
        }
        let enabled = AutostartPlaces(environment: .current).state().enabled
        if (gtk_switch_get_active(autostart.opaque) != 0) != enabled { gtk_switch_set_active(autostart.opaque, enabled ? 1 : 0) }
        // The state too: after a change that failed, GTK 4.8 kept the state the person asked
        // for, which is what a screen reader reads.
        gtk_switch_set_state(autostart.opaque, enabled ? 1 : 0)
    }

    private func keep(_ setting: Setting, _ value: Int) {
        guard !showing else { return }
        do throws(OperationError) {
            try Preferences.set(setting, to: value, world)
        } catch {
            toast(error.message)
            show()
        }
    }

    private func toast(_ text: String) {
        adw_preferences_window_add_toast(window.as(AdwPreferencesWindow.self), adw_toast_new(markup(text.escapingControls)))
    }
}
