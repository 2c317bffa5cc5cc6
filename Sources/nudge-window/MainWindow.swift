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
    /// The alerts in the list's order (their ids, and the same as hex for the list view).
    private var shownOrder: [UUID] = []
    private var shownIDs: [String] = []
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

        let ui = Builder("main-window")
        defer { ui.release() }
        window = ui("window")
        let gtkApplication = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self)
        gtk_window_set_application(window.as(GtkWindow.self), gtkApplication)
        gtk_window_set_icon_name(window.as(GtkWindow.self), Notification.appID)
        run = ActionRunner(world: world, feed: feed, toasts: ui("toasts"))
        header = WindowHeader()
        gtk_box_prepend(ui("page").as(GtkBox.self), header.widget)
        service = ServiceCard(host: host, run: run)
        water = WaterCard(run: run)
        rowActions = AlertRowActions(run: run)

        // Undo a delete (the toast's button, or Ctrl+Z while there is one to undo); add an
        // alert (the header's + button, or Ctrl+N); the settings (the header's button, or
        // Ctrl+comma as in GNOME's apps).
        let add = g_simple_action_new("add", nil)!, preferences = g_simple_action_new("preferences", nil)!
        for action in [rowActions.undoDelete, add, preferences] { g_action_map_add_action(OpaquePointer(window.raw), action) }
        for (action, key) in [("win.undo-delete", "<Control>z"), ("win.add", "<Control>n"), ("win.preferences", "<Control>comma")] {
            var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
            gtk_application_set_accels_for_action(gtkApplication, action, &accels)
            free(UnsafeMutableRawPointer(mutating: accels[0]))
        }
        onActivate(UnsafeMutableRawPointer(add)) { [unowned self] in openForm(nil) }
        onActivate(UnsafeMutableRawPointer(preferences)) { [unowned self] in
            if settings == nil { settings = SettingsWindow(parent: window, world: world) { [unowned self] in settings = nil } }
            settings?.present()
        }
        rowActions.alert = { [unowned self] id in list.alerts.first { $0.id.hex == id } }
        rowActions.edit = { [unowned self] id in openForm(id) }

        alertList = AlertListView(actions: rowActions.forRows)
        alertList.add(piece: service.widget, named: "#service")
        alertList.add(piece: water.widget, named: "#water")
        adw_toast_overlay_set_child(ui("toasts").opaque, alertList.widget)
        service.visibilityChanged = { [unowned self] in showList() }
        showList()
        // The list's copy of the alerts goes while the feed reads: changed in place, not copied.
        feed.willRead = { [unowned self] in MainActor.assumeIsolated { list.set([], showings: [], order: []) } }
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
        if change.order { reorder() }
        water.show(snapshot, shown: list.alerts.withUnsafeBufferPointer { alerts in alerts.indices.contains { alerts[$0].kind == .water } })
        // Only the rows of alerts that changed are shown anew: a change elsewhere costs its rows.
        showList(changed: Set(change.changed.map(\.hex)))
        header.show(snapshot, language: world.language)
        settings?.show()
        if let id = pendingFocus, alertList.focus(id) { pendingFocus = nil }
    }

    /// The ids in the list's new order: the stretch that moved is made again, the ids
    /// around it kept (one alert moved is that stretch turned by one: no id is made anew).
    private func reorder() {
        let order = list.alerts.withUnsafeBufferPointer { alerts in list.order.map { alerts[$0].id } }
        var start = 0
        while start < min(order.count, shownOrder.count), order[start] == shownOrder[start] { start += 1 }
        var end = 0
        while end < min(order.count, shownOrder.count) - start, order[order.count - 1 - end] == shownOrder[shownOrder.count - 1 - end] { end += 1 }
        let before = shownOrder[start..<(shownOrder.count - end)], after = order[start..<(order.count - end)]
        let last = shownIDs.count - end - 1
        if before.count == after.count, before.count > 1, before.first == after.last, before.dropFirst().elementsEqual(after.dropLast()) {
            shownIDs.insert(shownIDs.remove(at: start), at: last)
        } else if before.count == after.count, before.count > 1, before.last == after.first, before.dropLast().elementsEqual(after.dropFirst()) {
            shownIDs.insert(shownIDs.remove(at: last), at: start)
        } else {
            let stretch = start..<(last + 1)
            let kept = Dictionary(zip(before, shownIDs[stretch]), uniquingKeysWith: { first, _ in first })
            shownIDs.replaceSubrange(stretch, with: after.map { kept[$0] ?? $0.hex })
        }
        shownOrder = order
    }

    /// The pieces that have something to say, then the alerts (or, with none, how to add
    /// one); the rows of `changed` (all on screen: `nil`) shown anew.
    private func showList(changed: Set<String>? = nil) {
        var pieces: [String] = []
        if service.isShown { pieces.append("#service") }
        if water.isShown { pieces.append("#water") }
        pieces.append(AlertListView.heading)
        if shownIDs.isEmpty { pieces.append(AlertListView.empty) }
        // Worded only as they come on screen: a thousand alerts cost a screenful of words.
        alertList.show(pieces: pieces, alerts: shownIDs, model: { [unowned self] id in
            index(of: id).map { list.row(at: $0, system: world.zone) }
        }, snoozeMinutes: { [unowned self] id in
            index(of: id).map { max(list.alerts[$0].snoozeSeconds / 60, 1) } ?? 10
        }, changed: changed)
    }

    /// Where an alert (its full hex id) is in `list.alerts`: the feed's place for it.
    private func index(of id: String) -> Int? {
        UUID(hex: id).flatMap { feed.position(of: $0) }
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
                if !shownIDs.contains(full), feed.alsoListed.insert(full).inserted { feed.reload() }
            }
        }
        gtk_window_present(window.as(GtkWindow.self))
    }
}
