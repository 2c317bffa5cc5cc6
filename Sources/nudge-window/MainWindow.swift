#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import Presentation
import Foundation
import NudgeKit

/// The window: the daemon's state on top (and what to do when it is not running), the
/// day's water, then every reminder with its switch, as the ``AlertFeed`` hands them out
/// (it never polls). Every change goes through the operations every face shares
/// (NudgeKit), with their messages, shown as toasts.
@MainActor final class MainWindow {
    let window: Widget
    private let host: HostedLoop
    private let world: World
    /// The alerts, the water and the daemon, followed.
    private let feed: AlertFeed
    private var list: AlertList

    private let toasts: Widget, title: Widget
    private let serviceGroup: Widget, serviceRow: Widget
    private var autostartRow: Widget!, autostartSwitch: Widget!
    /// Set while the switch is moved to match the session (not a person's change).
    private var showingAutostart = false, autostartTouched = false
    private let waterGroup: Widget, waterRow: Widget, waterLevel: Widget, drankButton: Widget
    /// The last seven drink days, a bar and a day's name each, today last.
    private var weekBars: [(bar: Widget, day: Widget)] = []
    private let empty: Widget, remindersHeading: Widget
    private var reminderList: ReminderList!
    /// The reminders in the list's order, and where each is in `list.alerts`.
    private var shownIDs: [String] = []
    private var indexByID: [String: Int] = [:]
    /// The reminder to show once the list is read (the window opened from its pop-up).
    private var pendingFocus: String?
    /// The reminders deleted and not yet put back, the last one last: each toast's Undo
    /// puts back its own, Ctrl+Z the last one.
    private var deleted: [Alert] = []
    private let undoDelete = g_simple_action_new("undo-delete", nil)!
    /// The add or edit form, while it is open.
    private var form: ReminderForm?
    /// The settings, while open.
    private var settings: SettingsWindow?

    init(application: UnsafeMutablePointer<AdwApplication>, host: HostedLoop, world: World, instance: WindowInstance) {
        self.host = host
        self.world = world
        list = AlertList(timeStyle: TimeStyle.person(), language: world.language)
        feed = AlertFeed(world: world, loop: host.loop, bus: instance.bus, weekChart: true)

        window = adw_application_window_new(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self))
        gtk_window_set_title(window.as(GtkWindow.self), "Nudge")
        gtk_window_set_default_size(window.as(GtkWindow.self), 640, 720)
        gtk_window_set_icon_name(window.as(GtkWindow.self), Notification.appID)
        // Undo a delete: the toast's button, or Ctrl+Z while there is one to undo.
        g_simple_action_set_enabled(undoDelete, 0)
        g_action_map_add_action(OpaquePointer(window.raw), undoDelete)
        // Add a reminder: the header's + button, or Ctrl+N.
        let add = g_simple_action_new("add", nil)!
        g_action_map_add_action(OpaquePointer(window.raw), add)
        // The settings: the header's button, or Ctrl+comma as in GNOME's apps.
        let preferences = g_simple_action_new("preferences", nil)!
        g_action_map_add_action(OpaquePointer(window.raw), preferences)
        for (action, key) in [("win.undo-delete", "<Control>z"), ("win.add", "<Control>n"), ("win.preferences", "<Control>comma")] {
            var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
            gtk_application_set_accels_for_action(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self),
                                                  action, &accels)
            free(UnsafeMutableRawPointer(mutating: accels[0]))
        }

        let header = adw_header_bar_new()!
        title = adw_window_title_new("Nudge", "")
        adw_header_bar_set_title_widget(header.opaque, title)
        // TRANSLATORS: the window's + button (Ctrl+N), as a screen reader and its tooltip say it.
        let addButton = iconButton("list-add-symbolic", name: tr("Add a Reminder")) {}
        gtk_actionable_set_action_name(OpaquePointer(addButton.raw), "win.add")
        adw_header_bar_pack_start(header.opaque, addButton)
        // TRANSLATORS: the window's settings button (Ctrl+comma), as a screen reader and its tooltip say it.
        let settingsButton = iconButton("emblem-system-symbolic", name: tr("Settings")) {}
        gtk_actionable_set_action_name(OpaquePointer(settingsButton.raw), "win.preferences")
        adw_header_bar_pack_end(header.opaque, settingsButton)

        // The service: shown only when something is missing.
        serviceGroup = adw_preferences_group_new()
        serviceRow = adw_action_row_new()
        adw_preferences_row_set_use_markup(serviceRow.as(AdwPreferencesRow.self), 0)
        adw_action_row_set_subtitle_lines(serviceRow.as(AdwActionRow.self), 3)
        adw_preferences_group_add(serviceGroup.as(AdwPreferencesGroup.self), serviceRow)

        // Water: today's intake against the goal, the cup, and taking the last one back.
        waterGroup = adw_preferences_group_new()
        // TRANSLATORS: the window's heading over the day's water.
        adw_preferences_group_set_title(waterGroup.as(AdwPreferencesGroup.self), tr("Water"))
        waterRow = adw_action_row_new()
        adw_preferences_row_set_use_markup(waterRow.as(AdwPreferencesRow.self), 0)
        waterLevel = gtk_level_bar_new()
        // Under the row, full width: beside the buttons it kept a narrow window from shrinking.
        gtk_widget_set_margin_top(waterLevel, 6)
        // TRANSLATORS: the accessible name of the window's water bar.
        setAccessibleName(waterLevel, tr("Water today"))

        // As libadwaita's status page shows it (an AdwStatusPage scrolls on its own, and in
        // the list it was given a line's height: the icon cut in half).
        // Nudge's icon where it is installed; a stock alarm where it is not (a build tree).
        let theme = gtk_icon_theme_get_for_display(gdk_display_get_default())
        let installed = gtk_icon_theme_has_icon(theme, Notification.appID) != 0
        let emptyIcon = gtk_image_new_from_icon_name(installed ? Notification.appID : "alarm-symbolic")!
        gtk_image_set_pixel_size(emptyIcon.opaque, 128)
        gtk_widget_add_css_class(emptyIcon, "dim-label")
        gtk_widget_set_margin_bottom(emptyIcon, 24)
        // TRANSLATORS: the window with no reminders.
        let emptyTitle = label(tr("No reminders yet"), classes: ["title-1"], wrap: true)
        // TRANSLATORS: the window with no reminders: how to add one.
        let emptyText = label(tr("Add one with the + button or Ctrl+N."), wrap: true)
        for text in [emptyTitle, emptyText] {
            gtk_label_set_xalign(text.opaque, 0.5)
            gtk_label_set_justify(text.opaque, GTK_JUSTIFY_CENTER)
        }
        empty = box(GTK_ORIENTATION_VERTICAL, spacing: 12, [emptyIcon, emptyTitle, emptyText])
        gtk_widget_set_margin_top(empty, 36)
        gtk_widget_set_margin_bottom(empty, 36)

        drankButton = gtk_button_new()
        toasts = adw_toast_overlay_new()

        remindersHeading = label(tr("Reminders"), classes: ["heading"])
        let page = box(GTK_ORIENTATION_VERTICAL, spacing: 0, [header, toasts])
        adw_application_window_set_content(window.as(AdwApplicationWindow.self), page)
        // TRANSLATORS: the accessible name of the window's list of reminders.
        reminderList = ReminderList(actions: actions, accessibleName: tr("Reminders"))
        for (name, piece) in [("#service", serviceGroup), ("#water", waterGroup), ("#heading", remindersHeading), ("#empty", empty)] {
            reminderList.add(piece: piece, named: name)
        }
        adw_toast_overlay_set_child(toasts.opaque, reminderList.widget)
        onActivate(UnsafeMutableRawPointer(undoDelete)) { [unowned self] in undoLastDelete() }
        onActivate(UnsafeMutableRawPointer(add)) { [unowned self] in openForm(nil) }
        onActivate(UnsafeMutableRawPointer(preferences)) { [unowned self] in
            if settings == nil { settings = SettingsWindow(parent: window, world: world) { [unowned self] in settings = nil } }
            settings?.present()
        }

        buildWater()
        buildService()
        feed.onChange = { [unowned self] snapshot, change in MainActor.assumeIsolated { show(snapshot, change) } }
        feed.start()
    }

    // MARK: Pieces built once

    private func buildWater() {
        let language = world.language
        on(drankButton.raw, "clicked") { [unowned self] in
            act { () throws(OperationError) in
                let logged = try Drinking.drink(nil, at: nil, world, now: world.now)
                // TRANSLATORS: the window's note after a drink; %1$s is the amount (250 ml), %2$s the time.
                toast(format(tr("Drank %1$s at %2$s"), Water.text(logged.millilitres), logged.when))
            }
        }
        gtk_button_set_label(drankButton.as(GtkButton.self), language.drank(250))
        gtk_widget_set_valign(drankButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(drankButton, "suggested-action")
        // TRANSLATORS: the window's button that takes back the last drink logged.
        let undo = iconButton("edit-undo-symbolic", name: tr("Take back the last drink")) { [unowned self] in
            act { () throws(OperationError) in
                let logged = try Drinking.undo(world, now: world.now)
                // TRANSLATORS: the window's note after taking a drink back; %1$s is the amount (250 ml), %2$s when it was drunk.
                toast(format(tr("Took back %1$s from %2$s"), Water.text(logged.millilitres), logged.when))
            }
        }
        gtk_widget_add_css_class(undo, "flat")
        gtk_widget_set_valign(undo, GTK_ALIGN_CENTER)
        for suffix in [undo, drankButton] { adw_action_row_add_suffix(waterRow.as(AdwActionRow.self), suffix) }
        adw_preferences_group_add(waterGroup.as(AdwPreferencesGroup.self), waterRow)
        adw_preferences_group_add(waterGroup.as(AdwPreferencesGroup.self), waterLevel)
        // The week: a bar per drink day against the goal, filled from the bottom.
        let week = box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        gtk_box_set_homogeneous(week.as(GtkBox.self), 1)
        gtk_widget_set_margin_top(week, 12)
        // TRANSLATORS: the accessible name of the window's chart of the week's water.
        setAccessibleName(week, tr("Water, the last 7 days"))
        for _ in 0..<7 {
            let bar = gtk_level_bar_new()!
            gtk_orientable_set_orientation(OpaquePointer(bar.raw), GTK_ORIENTATION_VERTICAL)
            gtk_level_bar_set_inverted(bar.opaque, 1)
            gtk_widget_set_size_request(bar, -1, 56)
            gtk_widget_set_halign(bar, GTK_ALIGN_CENTER)
            let day = nudge_label_new_unnamed("")!
            gtk_widget_add_css_class(day, "dim-label")
            gtk_widget_add_css_class(day, "caption")
            gtk_box_append(week.as(GtkBox.self), box(GTK_ORIENTATION_VERTICAL, spacing: 4, [bar, day]))
            weekBars.append((bar, day))
        }
        adw_preferences_group_add(waterGroup.as(AdwPreferencesGroup.self), week)
    }

    private func buildService() {
        // TRANSLATORS: the window's button that starts the reminder service.
        let start = button(tr("_Start"), classes: ["suggested-action"]) { [unowned self] in startDaemon() }
        gtk_widget_set_valign(start, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(serviceRow.as(AdwActionRow.self), start)
        // TRANSLATORS: the window: the reminder service is not running.
        adw_preferences_row_set_title(serviceRow.as(AdwPreferencesRow.self), tr("Reminders are not shown"))
        // TRANSLATORS: the window: why reminders are not shown, and what Start does.
        adw_action_row_set_subtitle(serviceRow.as(AdwActionRow.self), tr("Nudge's service is not running. Start it to see pop-ups at their time."))
        gtk_widget_set_visible(serviceRow, 0)

        // Autostart: shown while it is off, and kept on screen once switched here.
        autostartRow = adw_action_row_new()
        // TRANSLATORS: the window's switch that starts Nudge's service at every login.
        adw_preferences_row_set_title(autostartRow.as(AdwPreferencesRow.self), tr("Start with your session"))
        adw_action_row_set_subtitle_lines(autostartRow.as(AdwActionRow.self), 3)
        autostartSwitch = gtk_switch_new()
        gtk_widget_set_valign(autostartSwitch, GTK_ALIGN_CENTER)
        // Named by the row it activates (AdwActionRow labels it with the title): an own
        // label as well would be read twice in GTK 4.8.
        adw_action_row_add_suffix(autostartRow.as(AdwActionRow.self), autostartSwitch)
        adw_action_row_set_activatable_widget(autostartRow.as(AdwActionRow.self), autostartSwitch)
        adw_preferences_group_add(serviceGroup.as(AdwPreferencesGroup.self), autostartRow)
        onNotify(autostartSwitch.raw, "active") { [unowned self] in
            guard !showingAutostart else { return }
            let on = gtk_switch_get_active(autostartSwitch.opaque) != 0
            let places = AutostartPlaces(environment: .current)
            let program = Self.sibling("nudge")
            do throws(OperationError) {
                toast(on ? try places.enable(program: program) : try places.disable(program: program))
            } catch {
                toast(error.message)
            }
            autostartTouched = true
            showAutostart()
        }
        showAutostart()
    }

    /// The autostart row as the session will do it; hidden while on, unless switched here.
    private func showAutostart() {
        let state = AutostartPlaces(environment: .current).state()
        showingAutostart = true
        gtk_switch_set_active(autostartSwitch.opaque, state.enabled ? 1 : 0)
        // The state too: after a change that failed, GTK 4.8 kept the state the person asked
        // for, which is what a screen reader reads.
        gtk_switch_set_state(autostartSwitch.opaque, state.enabled ? 1 : 0)
        showingAutostart = false
        adw_action_row_set_subtitle(autostartRow.as(AdwActionRow.self), state.enabled
            // TRANSLATORS: the window's autostart row when on.
            ? tr("Nudge's service starts when you log in.")
            // TRANSLATORS: the window's autostart row when off.
            : tr("Off: reminders wait until Nudge's service is started."))
        gtk_widget_set_visible(autostartRow, !state.enabled || autostartTouched ? 1 : 0)
        updateServiceGroup()
    }

    private func updateServiceGroup() {
        let visible = gtk_widget_get_visible(serviceRow) != 0 || gtk_widget_get_visible(autostartRow) != 0
        gtk_widget_set_visible(serviceGroup, visible ? 1 : 0)
        if reminderList != nil { showList() }
    }

    // MARK: Following changes

    /// The store read again: the rows, the water, the title; or the daemon's state.
    private func show(_ snapshot: AlertFeed.Snapshot, _ change: AlertFeed.Change) {
        if change.service {
            gtk_widget_set_visible(serviceRow, snapshot.service == nil ? 1 : 0)
            updateServiceGroup()
            return updateTitle()
        }
        if let trouble = snapshot.trouble { toast(trouble) }
        list.set(snapshot.alerts, showings: snapshot.showings, order: snapshot.order)
        shownIDs = list.order.map { list.alerts[$0].id.hex }
        indexByID = Dictionary(zip(shownIDs, list.order), uniquingKeysWith: { first, _ in first })
        showWater()
        showList()
        updateTitle()
        settings?.show()
        if let id = pendingFocus, reminderList.focus(id) { pendingFocus = nil }
    }

    /// The pieces that have something to say, then the reminders (or, with none, how to add one).
    private func showList() {
        let alerts = Dictionary(list.alerts.map { ($0.id.hex, $0) }, uniquingKeysWith: { first, _ in first })
        var pieces: [String] = []
        if gtk_widget_get_visible(serviceGroup) != 0 { pieces.append("#service") }
        if gtk_widget_get_visible(waterGroup) != 0 { pieces.append("#water") }
        pieces.append("#heading")
        if shownIDs.isEmpty { pieces.append("#empty") }
        let minutes = alerts.mapValues { max($0.snoozeSeconds / 60, 1) }
        // Worded only as they come on screen: a thousand reminders cost a screenful of words.
        reminderList.show(pieces: pieces, reminders: shownIDs, model: { [unowned self] id in
            indexByID[id].map { list.row(at: $0, system: world.zone) }
        }, snoozeMinutes: minutes)
    }

    private func showWater() {
        let hasWater = list.alerts.contains { $0.kind == .water }
        let water = feed.snapshot.water, week = feed.snapshot.week
        guard let water, hasWater || water.intake > 0 else { return gtk_widget_set_visible(waterGroup, 0) }
        gtk_widget_set_visible(waterGroup, 1)
        let language = world.language
        adw_preferences_row_set_title(waterRow.as(AdwPreferencesRow.self), language.waterProgress(water.intake, goal: water.goal))
        gtk_level_bar_set_value(waterLevel.opaque, min(Double(water.intake) / Double(max(water.goal, 1)), 1))
        if let chart = week {
            for ((bar, day), total) in zip(weekBars, chart.totals.suffix(7)) {
                gtk_level_bar_set_value(bar.opaque, min(Double(total.millilitres) / Double(max(chart.goal, 1)), 1))
                let name = total.day.weekday.shortName(language)
                setText(day, name)
                // TRANSLATORS: the accessible name of a day's bar in the window's water chart; %1$s is the
                // weekday (Mon), %2$s the day's total (1,500 ml).
                setAccessibleName(bar, format(tr("%1$s: %2$s"), name, Water.text(total.millilitres)))
            }
        }
        gtk_button_set_label(drankButton.as(GtkButton.self), language.drank(water.cup))
    }

    private func updateTitle() {
        let service = feed.snapshot.service
        let line = StatusLine.text(daemonRunning: service != nil, awayReason: service?.awayReason,
                                 unanswered: feed.snapshot.unanswered, water: nil, hasWaterReminder: false, language: world.language)
        adw_window_title_set_subtitle(title.opaque, line)
    }

    // MARK: Changes, through the operations every face shares

    private var actions: ReminderRow.Actions {
        ReminderRow.Actions(
            toggle: { [unowned self] id, on in
                act { () throws(OperationError) in
                    try AlertIDs.update([id], world, announce: { _ in }) { alert in
                        alert.enabled = on
                        return on ? Labels.on : Labels.off
                    }
                }
            },
            done: { [unowned self] id in
                act { () throws(OperationError) in try Answer.acknowledge.apply(to: [id], world, now: world.now, announce: { _ in }) }
            },
            snooze: { [unowned self] id in
                guard let alert = list.alerts.first(where: { $0.id.hex == id }) else { return }
                act { () throws(OperationError) in
                    let now = world.now
                    try Answer.snooze(seconds: alert.snoozeSeconds).apply(to: [id], world, now: now, announce: { _ in })
                    let until = now.addingTimeInterval(TimeInterval(alert.snoozeSeconds))
                    // TRANSLATORS: the window's note after Snooze; %1$s is the reminder's title, %2$s when it comes back (오후 3:40).
                    toast(format(tr("Snoozed “%1$s” until %2$s"), alert.title,
                                 TimeStyle.person().instant(until, alert.zone(system: world.zone))))
                }
            },
            doneForToday: { [unowned self] id in
                act { () throws(OperationError) in try Answer.doneForToday.apply(to: [id], world, now: world.now, announce: { _ in }) }
            },
            edit: { [unowned self] id in openForm(id) },
            delete: { [unowned self] id in delete(id) })
    }

    /// The form over the window: a new reminder (`id` nil), or the one `id` names.
    private func openForm(_ id: String?) {
        if let form { return form.present() }
        var alert: Alert?
        if let id {
            alert = list.alerts.first { $0.id.hex == id }
            guard alert != nil else { return }
        }
        let host = ReminderForm.Host(
            world: world,
            feed: feed,
            saved: { [unowned self] alert, added in
                // TRANSLATORS: the window's toast after the form added / saved a reminder; %s is its title.
                toast(format(added ? tr("Added “%s”") : tr("Saved “%s”"), alert.title))
                pendingFocus = alert.id.hex
                feed.reload()
            },
            closed: { [unowned self] in form = nil })
        form = ReminderForm(editing: alert, parent: window, host: host)
        form?.present()
    }

    /// Deleted at once, with a toast that puts it back.
    private func delete(_ id: String) {
        guard let alert = list.alerts.first(where: { $0.id.hex == id }) else { return }
        act { () throws(OperationError) in
            _ = try Operations.remove([id], world)
            // TRANSLATORS: the window's toast after a delete; %s is the reminder's title.
            let toast = adw_toast_new(markup(format(tr("Deleted “%s”"), alert.title.escapingControls)))!
            // TRANSLATORS: the toast's button that puts a deleted reminder back (Ctrl+Z does too).
            adw_toast_set_button_label(toast, tr("Undo"))
            on(UnsafeMutableRawPointer(toast), "button-clicked") { [unowned self] in undoDelete(of: alert.id) }
            deleted.removeAll { $0.id == alert.id }
            deleted.append(alert)
            if deleted.count > 100 { deleted.removeFirst() }
            g_simple_action_set_enabled(undoDelete, 1)
            adw_toast_overlay_add_toast(toasts.opaque, toast)
        }
    }

    /// Puts the reminder deleted last back, as it was.
    private func undoLastDelete() {
        guard let alert = deleted.last else { return }
        undoDelete(of: alert.id)
    }

    /// Puts a deleted reminder back, as it was; once (a second Undo of it does nothing).
    private func undoDelete(of id: UUID) {
        guard let index = deleted.firstIndex(where: { $0.id == id }) else { return }
        let alert = deleted.remove(at: index)
        g_simple_action_set_enabled(undoDelete, deleted.isEmpty ? 0 : 1)
        act { () throws(OperationError) in try Operations.save(alert, world) }
    }

    private func act(_ body: () throws(OperationError) -> Void) {
        do {
            try body()
        } catch {
            toast(error.message)
        }
        feed.reload()
    }

    func toast(_ text: String) {
        let toast = adw_toast_new(markup(text.escapingControls))!
        adw_toast_overlay_add_toast(toasts.opaque, toast)
    }

    /// `nudge daemon`, the program beside this one, in a process group of its own: it
    /// keeps running when the window closes. Its end is reaped and, when it failed, said.
    private func startDaemon() {
        do throws(OperationError) {
            try DaemonLink.start(Self.sibling("nudge"), on: host.loop) { [unowned self] failed in
                MainActor.assumeIsolated {
                    if failed {
                        // TRANSLATORS: the window: the service it started ended at once.
                        toast(tr("Nudge's service stopped right after it started: nudge doctor says why."))
                    }
                    feed.refreshStatus()
                }
            }
        } catch {
            toast(error.message)
        }
    }

    /// A program installed beside this one.
    static func sibling(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return name }
        let own = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (own as NSString).deletingLastPathComponent + "/" + name
    }

    // MARK: Presenting

    /// Brings the window up, at a reminder when one is named.
    func present(at id: String?) {
        if let id {
            let full = list.alerts.first { $0.id.hex == id || $0.id.hex.hasPrefix(id) }?.id.hex ?? id
            if !reminderList.focus(full) {
                pendingFocus = full
                // Not listed (finished): listed from now on.
                if indexByID[full] == nil, feed.alsoListed.insert(full).inserted { feed.reload() }
            }
        }
        gtk_window_present(window.as(GtkWindow.self))
    }
}
