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
    /// The window's loop (the settings run `nudge sync` on it).
    private let loop: EventLoop
    private var list: AlertList
    private let run: ActionRunner
    private let header: WindowHeader
    private let service: ServiceCard
    private let water: WaterCard
    private let storeCard: StoreCard
    private let rowActions: AlertRowActions
    private var alertList: AlertListView!
    private var quickAdd: QuickAdd!
    /// The alerts in the list's order (their ids, and the same as hex for the list view).
    private var shownOrder: [UUID] = []
    private var shownIDs: [String] = []
    /// The alert to show once the list is read (the window opened from its pop-up).
    private var pendingFocus: String?
    /// The add or edit form, while it is open.
    private var form: AlertFormDialog?
    /// The settings, while open.
    private var settings: SettingsWindow?
    /// The search bar, and the words searched for (lowercased; empty: every reminder).
    private let searchBar: Widget, searchEntry: Widget
    private var searched = ""

    init(application: UnsafeMutablePointer<AdwApplication>, host: HostedLoop, world: World, instance: WindowInstance) {
        list = AlertList(timeStyle: TimeStyle.person(), language: world.language)
        // The store is held (see AlertFeed): an idle window wakes for nothing.
        loop = host.loop
        feed = AlertFeed(world: world, loop: host.loop, bus: instance.bus, weekChart: true, letsStoreGo: false)
        // The daemon is reached on the feed's connection, never waited for; the store
        // through the feed's session, never opened again.
        self.world = feed.world

        // A box under a raised header (libadwaita 1.2), or an AdwToolbarView's flat top bar.
        let ui = Builder(AdwaitaGeneration.mainWindow)
        defer { ui.release() }
        window = ui("window")
        gtk_window_set_application(window.as(GtkWindow.self), UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self))
        window.iconNameOfWindow = Notification.appID
        run = ActionRunner(world: self.world, feed: feed, toasts: ui("toasts"))
        header = WindowHeader()
        AdwaitaGeneration.addTopBar(header.widget, to: ui("page"), after: nil)
        // Search, under the header: its words go to search(_:), named in search-bar.ui.
        let owner = Owner<MainWindow>()
        let searchUI = Builder("search-bar", handlers: ["search": owner.handler { $0.search() }])
        (searchBar, searchEntry) = (searchUI.keep("search-bar"), searchUI("search"))
        AdwaitaGeneration.addTopBar(searchBar, to: ui("page"), after: header.widget)
        searchBar.release()
        searchUI.release()
        service = ServiceCard(host: host, run: run)
        water = WaterCard(run: run)
        storeCard = StoreCard(run: run)
        rowActions = AlertRowActions(run: run)
        owner.object = self

        addActions(application)
        followSearch()
        placeList(in: ui("toasts"))
        followFeed()
        // The first read shows the list (an empty list shown before it would be made for nothing).
        feed.start()
    }

    /// The window's actions and their keys. Undo a delete (the toast's button, or Ctrl+Z
    /// while there is one to undo); add an alert (the header's + button, or Ctrl+N); the
    /// settings (the header's button, or Ctrl+comma as in GNOME's apps). GNOME's keys and
    /// primary menu (F10): the keyboard shortcuts (Ctrl+?), the guide (F1), About; Ctrl+W
    /// closes the window, which ends the program as the close button does (the app's Ctrl+Q
    /// too); Ctrl+F searches.
    private func addActions(_ application: UnsafeMutablePointer<AdwApplication>) {
        rowActions.undoDelete.add(to: window.raw)
        let actions: [(String, @MainActor () -> Void)] = [
            ("add", { [unowned self] in openForm(nil) }),
            ("preferences", { [unowned self] in
                if settings == nil { settings = SettingsWindow(parent: window, world: world, feed: feed, loop: loop) { [unowned self] in settings = nil } }
                settings?.present()
            }),
            ("help", { [unowned self] in showGuide() }),
            ("about", { [unowned self] in AboutNudge.present(over: window) }),
            ("close", { [unowned self] in window.close() }),
            // The keyboard shortcuts' window is made when first asked for (it took 3 ms of every
            // start): GTK adds no win.show-help-overlay of its own where the window has one.
            ("show-help-overlay", { [unowned self] in showShortcuts() }),
        ]
        for (name, body) in actions {
            Action(name, body).add(to: window.raw)
        }
        // Search: Ctrl+F, the header's button, or typing into the window.
        Action.addProperty("search", of: searchBar.raw, "search-mode-enabled", to: window.raw)
        for (action, key) in [("win.undo-delete", "<Control>z"), ("win.add", "<Control>n"), ("win.preferences", "<Control>comma"),
                              ("win.show-help-overlay", "<Control>question"), ("win.help", "F1"), ("win.close", "<Control>w"),
                              ("win.search", "<Control>f")] {
            Action.setKey(key, for: action, in: application)
        }
    }

    private func showShortcuts() {
        let applicationWindow = window.as(GtkApplicationWindow.self)
        if gtk_application_window_get_help_overlay(applicationWindow) == nil {
            let shortcuts = Builder("shortcuts-window")
            // TRANSLATORS: the accessible names of the keyboard shortcuts' window and its search field.
            let title = tr("Keyboard Shortcuts")
            // Its title is its name to a screen reader (untitled, GTK named it "GtkShortcutsWindow").
            shortcuts("shortcuts").windowTitle = title
            AccessibleNames.fillBuiltWhole(shortcuts("shortcuts"), fallback: title, search: tr("Search the shortcuts"))
            gtk_application_window_set_help_overlay(applicationWindow, OpaquePointer(shortcuts("shortcuts").raw))
            shortcuts.release()
        }
        UnsafeMutableRawPointer(gtk_application_window_get_help_overlay(applicationWindow)).assumingMemoryBound(to: GtkWidget.self).present()
    }

    /// The search bar follows the header's button and the keys typed into the window.
    private func followSearch() {
        gtk_search_bar_connect_entry(searchBar.opaque, searchEntry.opaque)
        // Words, not a pasted book: a search is a title's length at most (100 KB in it kept GTK
        // measuring for minutes).
        searchEntry.limitLength(Limits.Field.title.limit)
        gtk_search_bar_set_key_capture_widget(searchBar.opaque, window)
    }

    /// The search field's words changed (search-bar.ui's search-changed).
    private func search() {
        searched = AlertList.searchable(searchEntry.text.trimmingCharacters(in: .whitespaces))
        showList()
    }

    /// The quick-add line above the list, the list with the service's, the store's and the
    /// water's places in it, in the toast overlay; and what a row's buttons do.
    private func placeList(in toasts: Widget) {
        rowActions.alert = { [unowned self] id in list.alerts.first { $0.id.hex == id } }
        rowActions.edit = { [unowned self] id in openForm(id) }
        rowActions.keepFocus = { [unowned self] id in pendingFocus = id }
        rowActions.cupWords = { [unowned self] in world.language.drank(feed.snapshot.water?.cup ?? Setting.cup.defaultValue) }
        alertList = AlertListView(actions: rowActions.forRows)
        // TRANSLATORS: the accessible names of the places at the top of the window's list: the store's trouble,
        // the service (not running, not started with the session).
        let pieces = [(storeCard.widget, "#store", tr("Your reminders’ file")), (service.widget, "#service", tr("Nudge's service"))]
        for (piece, name, label) in pieces {
            AccessibleNames.fill(in: piece, fallback: label)
            alertList.add(piece: piece, named: name, label: label)
        }
        // The water's card is made when first shown.
        water.madeCard = { [unowned self] piece in
            // TRANSLATORS: the accessible name of the place of the day's water at the top of the window's list.
            let label = tr("Water today")
            AccessibleNames.fill(in: piece, fallback: label)
            alertList.add(piece: piece, named: "#water", label: label)
        }
        quickAdd = QuickAdd(run: run)
        // TRANSLATORS: the accessible name of the place of the window's quick add line.
        AccessibleNames.fill(in: quickAdd.widget, fallback: tr("Remind me"))
        toasts.toastOverlayChild = Make.box(vertical: true, spacing: 0, [quickAdd.widget, alertList.widget])
        quickAdd.widget.release()
        quickAdd.added = { [unowned self] alert in
            run.toast(format(tr("Added “%s”"), alert.title.isolatedForSentence))
            feed.reload()
        }
        quickAdd.leave = { [unowned self] in
            if let first = shownIDs.first { _ = alertList.focus(first) }
        }
        // The scrolling list and its scroll bars (the list itself is named in alert-list.ui).
        AccessibleNames.fill(in: alertList.widget, fallback: tr("Reminders"))
        alertList.followTab(in: window)
    }

    /// The feed's reads shown; the service's card says when it comes and goes.
    private func followFeed() {
        service.visibilityChanged = { [unowned self] in showList() }
        service.focusElsewhere = { [unowned self] in
            if let first = shownIDs.first { _ = alertList.focus(first) }
        }
        // The list's copy of the alerts goes while the feed reads: changed in place, not copied.
        feed.willRead = { [unowned self] in MainActor.assumeIsolated { list.set([], showings: [], order: []) } }
        feed.onChange = { [unowned self] snapshot, change in MainActor.assumeIsolated { show(snapshot, change) } }
        // A read-only store made writable again (chattr, a folder's mode: the folder's watch
        // sees neither) is found when the person comes back to the window.
        onNotify(window.raw, "is-active") { [unowned self] in
            if window.isActiveWindow, feed.snapshot.readOnly != nil { feed.reload() }
        }
    }

    // MARK: Following changes

    /// The store read again: the rows, the water, the title; or the daemon's state.
    private func show(_ snapshot: AlertFeed.Snapshot, _ change: AlertFeed.Change) {
        if change.service {
            service.show(serviceRunning: snapshot.service != nil)
            return header.show(snapshot, language: world.language)
        }
        // The card's button had the keyboard and the card says something else now (a store
        // seen half made): the keyboard stays on the card, on its first button. (The card
        // gone, the list moves the keyboard to the first reminder.)
        let cardHadFocus = window.focusInWindow?.isInside(storeCard.widget) ?? false
        storeCard.show(snapshot, zone: world.zone)
        if cardHadFocus, storeCard.widget.isVisible, let focus = window.focusInWindow, !focus.isInside(storeCard.widget) || gtk_widget_is_visible(focus) == 0 {
            _ = storeCard.widget.focusChild(forward: true)
        }
        list.set(snapshot.alerts, showings: snapshot.showings, order: snapshot.order, now: snapshot.now, origins: snapshot.origins)
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

    /// The pieces that have something to say; what waits for an answer, first, under its
    /// heading; the water; then the other alerts (or, with none, how to add one); the rows
    /// of `changed` (all on screen: `nil`) shown anew.
    private func showList(changed: Set<String>? = nil) {
        var items: [String] = []
        if storeCard.isShown { items.append("#store") }
        if service.isShown { items.append("#service") }
        // What waits, found in the showings (a scan of numbers, no id looked up); listed there
        // and not again below.
        var waiting = list.order.filter { list.showings[$0].pending > 0 }.map { list.alerts[$0].id.hex }
        var rest = shownIDs
        if !waiting.isEmpty {
            let skipped = Set(waiting)
            rest.removeAll { skipped.contains($0) }
        }
        // A search narrows the reminders, waiting or not (not the pieces), to those whose
        // title or schedule holds it.
        if !searched.isEmpty {
            let holds = { [unowned self] (id: String) in
                index(of: id).map { AlertList.row(list.row(at: $0, system: world.zone), holds: searched) } ?? false
            }
            waiting = waiting.filter(holds)
            rest = rest.filter(holds)
        }
        if !waiting.isEmpty { items += [AlertListView.due] + waiting }
        if water.isShown { items.append("#water") }
        // The heading holds the count: there while searching, what matches waiting or not.
        if !rest.isEmpty || waiting.isEmpty || !searched.isEmpty { items.append(AlertListView.heading) }
        // With trouble told above, an empty list is not "No reminders yet".
        if shownIDs.isEmpty, !storeCard.isShown { items.append(AlertListView.empty) }
        if !searched.isEmpty, !shownIDs.isEmpty, rest.isEmpty, waiting.isEmpty { items.append(AlertListView.noMatch) }
        items += rest
        let total = shownIDs.count
        alertList.show(count: searched.isEmpty
            // TRANSLATORS: beside the window's list heading: how many reminders there are (%s: a number, grouped: 10,000).
            ? format(trn("%s reminder", "%s reminders", total), Water.number(total))
            // TRANSLATORS: beside the window's list heading while searching: %1$s match of %2$s reminders (numbers, grouped).
            : format(trn("%1$s of %2$s reminder", "%1$s of %2$s reminders", total), Water.number(rest.count + waiting.count), Water.number(total)),
            // TRANSLATORS: the window's list when a search finds no reminder; %s is what was searched for.
            noMatch: format(tr("No reminder’s title or schedule holds “%s”"), (searched.count > 60 ? searched.prefix(60) + "…" : searched).isolatedForSentence))
        // Worded only as they come on screen: a thousand alerts cost a screenful of words.
        alertList.show(items: items, model: { [unowned self] id in
            index(of: id).map { list.row(at: $0, system: world.zone) }
        }, snoozeMinutes: { [unowned self] id in
            index(of: id).map { max(list.alerts[$0].snoozeSeconds / 60, 1) } ?? 10
        }, changed: changed)
    }

    /// Where an alert (by its hex id) is in the feed's snapshot.
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
                run.toast(format(added ? tr("Added “%s”") : tr("Saved “%s”"), alert.title.isolatedForSentence))
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
    /// Where no program opens web addresses (none installed, or none set for https), a
    /// toast says so with the address, which F1 showed nothing for.
    private func showGuide() {
        let said = Unmanaged.passRetained(GuideFailure { [unowned self] in guideNotOpened() }).toOpaque()
        gtk_show_uri_full(window.as(GtkWindow.self), NudgeService.help, guint32(GDK_CURRENT_TIME), nil, { source, result, data in
            let failure = Unmanaged<GuideFailure>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let opened = gtk_show_uri_full_finish(UnsafeMutableRawPointer(source).map { $0.assumingMemoryBound(to: GtkWindow.self) },
                                                  result, &error) != 0
            if let error { g_error_free(error) }
            if !opened { MainActor.assumeIsolated { failure.say() } }
        }, said)
    }

    /// F1 found no program to open the guide: the address whole, in words that wrap at any
    /// width (a toast cut it at 360 px), with a button that copies it.
    private func guideNotOpened() {
        // TRANSLATORS: the question's heading when F1 (Help) found no program to open the guide's web address.
        let heading = tr("The Guide Could Not Be Opened")
        // TRANSLATORS: the window, when F1 (Help) found no program to open the guide's web address; %s is the address.
        let body = format(tr("The guide’s address could not be opened: %s"), NudgeService.help)
        Question.ask(over: window, heading: heading, body: body, answers: [
            // TRANSLATORS: the answer that closes the note about the guide's address.
            .init("close", tr("_Close")),
            // TRANSLATORS: the answer that copies the guide's address, to paste where it can be opened.
            .init("copy", tr("_Copy Address"), .suggested),
        ], default: "copy", close: "close") { [unowned self] answer in
            guard answer == "copy" else { return }
            gdk_clipboard_set_text(gtk_widget_get_clipboard(window), NudgeService.help)
            // TRANSLATORS: the window's toast once the guide's address is copied.
            run.toast(tr("The guide’s address is copied."))
        }
    }

    /// What F1 says when the guide could not be opened, kept until GTK answers.
    private final class GuideFailure: @unchecked Sendable {
        let say: @MainActor () -> Void
        init(_ say: @escaping @MainActor () -> Void) { self.say = say }
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
    func present(at id: String?, searching text: String? = nil) {
        if let text {
            // The desktop's search handed over what was typed there: the search bar holds it.
            gtk_search_bar_set_search_mode(searchBar.opaque, 1)
            searchEntry.text = String(text.prefix(Limits.Field.title.limit))
            searchEntry.moveCursorToEnd()
        }
        if let id {
            let found = list.alerts.first { $0.id.hex == id || $0.id.hex.lowercased().hasPrefix(id.lowercased()) }
            if let found {
                let full = found.id.hex
                // Not in the list: finished (the list leaves those out).
                let finished = !shownIDs.contains(full)
                if !alertList.focus(full) {
                    pendingFocus = full
                    // Not listed (finished): listed from now on.
                    if finished, feed.alsoListed.insert(full).inserted { feed.reload() }
                }
                if finished {
                    // TRANSLATORS: the window opened at a reminder that will not show again (a one-shot answered); %s is its title.
                    run.toast(format(tr("“%s” is done: it will not show again"), found.title.isolatedForSentence))
                }
            } else {
                // TRANSLATORS: the window opened at a reminder that is not there (--show, or a pop-up's click); %s is the id asked for.
                run.toast(format(tr("No reminder %s: it was deleted, or the id is not Nudge's"), id))
            }
        }
        window.present()
    }
}
