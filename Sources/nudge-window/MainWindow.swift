#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import Presentation
import Foundation
import NudgeKit

/// The window (main-window.ui): the header, then in one scrolling list the service (when
/// something is missing), the day's water, and every alert with its switch, as the
/// ``AlertFeed`` hands them out (it never polls). Each piece does one job in a file of its
/// own; the window follows the feed, shows them and opens the form and the settings.
@MainActor final class MainWindow {
    let window: Widget
    private let world: World
    /// The alerts, the water and the daemon, followed.
    private let feed: AlertFeed
    private var list: AlertList
    private let run: ActionRunner
    private let header: WindowHeader
    private let service: ServiceCard
    private let water: WaterCard
    private let rowActions: AlertRowActions
    private var alertList: AlertListView!
    /// The alerts in the list's order, and where each is in `list.alerts`.
    private var shownIDs: [String] = []
    private var indexByID: [String: Int] = [:]
    /// The alert to show once the list is read (the window opened from its pop-up).
    private var pendingFocus: String?
    /// The add or edit form, while it is open.
    private var form: AlertFormDialog?
    /// The settings, while open.
    private var settings: SettingsWindow?

    init(application: UnsafeMutablePointer<AdwApplication>, host: HostedLoop, world: World, instance: WindowInstance) {
        self.world = world
        list = AlertList(timeStyle: TimeStyle.person(), language: world.language)
        // The store is held (see AlertFeed): an idle window wakes for nothing.
        feed = AlertFeed(world: world, loop: host.loop, bus: instance.bus, weekChart: true, letsStoreGo: false)

        // A box under a raised header (libadwaita 1.2), or an AdwToolbarView's flat top bar.
        let ui = Builder(AdwaitaGeneration.mainWindow)
        defer { ui.release() }
        window = ui("window")
        let gtkApplication = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self)
        gtk_window_set_application(window.as(GtkWindow.self), gtkApplication)
        gtk_window_set_icon_name(window.as(GtkWindow.self), Notification.appID)
        run = ActionRunner(world: world, feed: feed, toasts: ui("toasts"))
        header = WindowHeader()
        if AdwaitaGeneration.hasToolbarView {
            AdwaitaGeneration.addChild(header.widget, to: ui("page"), type: "top")
        } else {
            gtk_box_prepend(ui("page").as(GtkBox.self), header.widget)
        }
        service = ServiceCard(host: host, run: run)
        water = WaterCard(run: run)
        rowActions = AlertRowActions(run: run)

        // Undo a delete (the toast's button, or Ctrl+Z while there is one to undo); add an
        // alert (the header's + button, or Ctrl+N); the settings (the header's button, or
        // Ctrl+comma as in GNOME's apps).
        // GNOME's keys and primary menu (F10): the keyboard shortcuts (Ctrl+?, GTK's own
        // win.show-help-overlay once the window has one), the guide (F1), About; Ctrl+W closes
        // the window, which ends the program as the close button does (the app's Ctrl+Q too).
        let add = g_simple_action_new("add", nil)!, preferences = g_simple_action_new("preferences", nil)!
        let help = g_simple_action_new("help", nil)!, about = g_simple_action_new("about", nil)!
        let close = g_simple_action_new("close", nil)!
        for action in [rowActions.undoDelete, add, preferences, help, about, close] { g_action_map_add_action(OpaquePointer(window.raw), action) }
        let shortcuts = Builder("shortcuts-window")
        gtk_application_window_set_help_overlay(window.as(GtkApplicationWindow.self), OpaquePointer(shortcuts("shortcuts").raw))
        shortcuts.release()
        for (action, key) in [("win.undo-delete", "<Control>z"), ("win.add", "<Control>n"), ("win.preferences", "<Control>comma"),
                              ("win.show-help-overlay", "<Control>question"), ("win.help", "F1"), ("win.close", "<Control>w")] {
            var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
            gtk_application_set_accels_for_action(gtkApplication, action, &accels)
            free(UnsafeMutableRawPointer(mutating: accels[0]))
        }
        onActivate(UnsafeMutableRawPointer(add)) { [unowned self] in openForm(nil) }
        onActivate(UnsafeMutableRawPointer(preferences)) { [unowned self] in
            if settings == nil { settings = SettingsWindow(parent: window, world: world) { [unowned self] in settings = nil } }
            settings?.present()
        }
        onActivate(UnsafeMutableRawPointer(help)) { [unowned self] in showGuide() }
        onActivate(UnsafeMutableRawPointer(about)) { [unowned self] in AboutNudge.present(over: window) }
        onActivate(UnsafeMutableRawPointer(close)) { [unowned self] in gtk_window_close(window.as(GtkWindow.self)) }
        rowActions.alert = { [unowned self] id in list.alerts.first { $0.id.hex == id } }
        rowActions.edit = { [unowned self] id in openForm(id) }

        alertList = AlertListView(actions: rowActions.forRows)
        alertList.add(piece: service.widget, named: "#service")
        alertList.add(piece: water.widget, named: "#water")
        adw_toast_overlay_set_child(ui("toasts").opaque, alertList.widget)
        service.visibilityChanged = { [unowned self] in showList() }
        showList()
        feed.onChange = { [unowned self] snapshot, change in MainActor.assumeIsolated { show(snapshot, change) } }
        feed.start()
    }

    // MARK: Following changes

    /// The store read again: the rows, the water, the title; or the daemon's state.
    private func show(_ snapshot: AlertFeed.Snapshot, _ change: AlertFeed.Change) {
        if change.service {
            service.show(serviceRunning: snapshot.service != nil)
            return header.show(snapshot, language: world.language)
        }
        if let trouble = snapshot.trouble { run.toast(trouble) }
        list.set(snapshot.alerts, showings: snapshot.showings, order: snapshot.order)
        shownIDs = list.order.map { list.alerts[$0].id.hex }
        indexByID = Dictionary(zip(shownIDs, list.order), uniquingKeysWith: { first, _ in first })
        water.show(snapshot, shown: list.alerts.contains { $0.kind == .water })
        showList()
        header.show(snapshot, language: world.language)
        settings?.show()
        if let id = pendingFocus, alertList.focus(id) { pendingFocus = nil }
    }

    /// The pieces that have something to say, then the alerts (or, with none, how to add one).
    private func showList() {
        let alerts = Dictionary(list.alerts.map { ($0.id.hex, $0) }, uniquingKeysWith: { first, _ in first })
        var pieces: [String] = []
        if service.isShown { pieces.append("#service") }
        if water.isShown { pieces.append("#water") }
        pieces.append(AlertListView.heading)
        if shownIDs.isEmpty { pieces.append(AlertListView.empty) }
        let minutes = alerts.mapValues { max($0.snoozeSeconds / 60, 1) }
        // Worded only as they come on screen: a thousand alerts cost a screenful of words.
        alertList.show(pieces: pieces, alerts: shownIDs, model: { [unowned self] id in
            indexByID[id].map { list.row(at: $0, system: world.zone) }
        }, snoozeMinutes: minutes)
    }

    // MARK: The form

    /// The form over the window: a new alert (`id` nil), or the one `id` names.
    private func openForm(_ id: String?) {
        if let form { return form.present() }
        var alert: Alert?
        if let id {
            alert = list.alerts.first { $0.id.hex == id }
            guard alert != nil else { return }
        }
        let host = AlertFormDialog.Host(
            world: world,
            feed: feed,
            saved: { [unowned self] alert, added in
                // TRANSLATORS: the window's toast after the form added / saved a reminder; %s is its title.
                run.toast(format(added ? tr("Added “%s”") : tr("Saved “%s”"), alert.title))
                pendingFocus = alert.id.hex
                feed.reload()
            },
            closed: { [unowned self] in form = nil })
        form = AlertFormDialog(editing: alert, parent: window, host: host)
        form?.present()
    }

    /// Nudge's guide, in the person's browser: the metainfo's help address. (The guide is
    /// not installed: Nudge installs its man pages, which GNOME's Help does not open from an
    /// app, and docs/guide.md, Markdown, would open in a text editor.)
    private func showGuide() {
        gtk_show_uri(window.as(GtkWindow.self), NudgeService.help, guint32(GDK_CURRENT_TIME))
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

    /// Brings the window up, at an alert when one is named.
    func present(at id: String?) {
        if let id {
            let full = list.alerts.first { $0.id.hex == id || $0.id.hex.hasPrefix(id) }?.id.hex ?? id
            if !alertList.focus(full) {
                pendingFocus = full
                // Not listed (finished): listed from now on.
                if indexByID[full] == nil, feed.alsoListed.insert(full).inserted { feed.reload() }
            }
        }
        gtk_window_present(window.as(GtkWindow.self))
    }
}
