import CAdwaita
import Foundation
import NudgeKit
import NudgeStore
import Platform

/// The settings' calendar accounts (`nudge sync`): each account with its calendars, what
/// Nudge does with each (not synced, its alarms pop up here, Nudge's reminders go there),
/// Sync Now and Remove; and a new account's address, user and password. Everything is done
/// by `nudge sync` run as a child on the window's loop, as the command line does it (its
/// checks, its keyring, its messages): the window never waits on the network, and the
/// password goes to the child on a pipe, never into its arguments or environment. What the
/// store says is shown again after each, and when the store changes elsewhere.
@MainActor final class SyncSettings {
    private let group: Widget, address: Widget, user: Widget, password: Widget, addRow: Widget, addButton: Widget
    private let world: World, loop: EventLoop
    private let toast: @MainActor (String) -> Void
    private let ask: @MainActor (String, String, @escaping @MainActor () -> Void) -> Void
    /// Each account shown: its rows, and its calendars' rows by address.
    private final class AccountRows {
        let id: String, row: Widget, actions: Widget, syncNow: Widget, remove: Widget
        var calendars: [(url: String, row: Widget)] = []
        init(id: String, row: Widget, actions: Widget, syncNow: Widget, remove: Widget) {
            (self.id, self.row, self.actions, self.syncNow, self.remove) = (id, row, actions, syncNow, remove)
        }
    }
    private var shown: [AccountRows] = []
    /// What the rows were made for: the accounts' ids and their calendars' addresses.
    private var shape: [String] = []
    /// Set while the rows show the stored values (a choice set by the code is no person's).
    private var filling = false
    /// The window's `nudge sync` runs, which outlive a closed Settings.
    private let queue = SyncQueue.shared
    /// Closed: what ends afterwards shows nothing here.
    private var detached = false

    /// What a calendar's choice means, in the order of sync-calendar.ui's words.
    static let roles: [SyncCalendar.Role] = [.none, .follow, .own]

    init(group: Widget, newAccount ui: Builder, world: World, loop: EventLoop, toast: @escaping @MainActor (String) -> Void,
         ask: @escaping @MainActor (String, String, @escaping @MainActor () -> Void) -> Void) {
        (self.group, self.world, self.loop, self.toast, self.ask) = (group, world, loop, toast, ask)
        (address, user, password, addRow, addButton) = (ui("sync-address"), ui("sync-user"), ui("sync-password"), ui("sync-add-row"), ui("sync-add"))
        for field in [address, user] { field.limitLength(2048) }
        password.limitLength(1024)
        queue.view = self
    }

    /// The settings closed: their widgets go, and a run that ends later shows nothing.
    func detach() {
        detached = true
        if queue.view === self { queue.view = nil }
    }

    // MARK: Showing

    /// The accounts and calendars as the store has them.
    func show() {
        guard let store = try? world.store.forReading() else { return }
        let accounts = (try? store.syncAccounts()) ?? []
        let calendars = accounts.map { (try? store.syncCalendars(account: $0.id)) ?? [] }
        let shape = zip(accounts, calendars).flatMap { account, list in [account.id] + list.map(\.url) }
        if shape != self.shape { rebuild(accounts, calendars) }
        self.shape = shape
        filling = true
        defer { filling = false }
        let desktop = DesktopRinging(environment: world.environment)
        for (rows, (account, list)) in zip(shown, zip(accounts, calendars)) {
            rows.row.rowTitle = account.address
            setAccessibleName(rows.row, account.address)
            // TRANSLATORS: the settings: an account whose sync runs now (Sync Now, or a choice).
            rows.row.subtitle = queue.syncing.contains(account.id) ? tr("Syncing…") : Self.state(of: account, list)
            setAccessibleDescription(rows.row, rows.row.subtitle)
            for (calendar, (_, row)) in zip(list, rows.calendars) {
                row.rowTitle = calendar.name
                row.subtitle = Self.state(of: calendar, leftTo: desktop.leaves(calendar)?.desktop)
                // Said with the choice: a screen reader reads a combo row's title and value only.
                setAccessibleDescription(row, row.subtitle)
                let index = Self.roles.firstIndex(of: calendar.role) ?? 0
                // A choice made while `nudge sync` ran waits its turn: shown as chosen till then.
                if row.chosen != index, !queue.holds(calendar.url) { row.chosen = index }
            }
        }
        nameChoices()
    }

    /// The value a combo row shows is a widget made anew when the choice changes: named
    /// again once it is there (else a screen reader meets an unnamed item).
    private func nameChoices() {
        afterThisEvent { [weak self] in
            guard let self, !self.detached else { return }
            for rows in shown { AccessibleNames.fill(in: rows.row, fallback: rows.row.rowTitle) }
        }
    }

    private func rebuild(_ accounts: [SyncAccount], _ calendars: [[SyncCalendar]]) {
        // Where the keyboard was, among the rows made again: it goes back there (the same
        // calendar, else the same account, else the first account, else the address field).
        let focus = group.focusInWindow
        let hadFocus = focus.map { $0.isInside(group) } ?? false
        let focusedAccount = focus.flatMap { focus in shown.first { focus.isInside($0.row) }?.id }
        let focusedCalendar = focus.flatMap { focus in shown.lazy.flatMap(\.calendars).first { focus.isInside($0.row) }?.url }
        for rows in shown { group.removeFromGroup(rows.row) }
        shown = []
        defer {
            if hadFocus {
                let calendar = shown.lazy.flatMap(\.calendars).first { $0.url == focusedCalendar }?.row
                let target = calendar ?? shown.first { $0.id == focusedAccount }?.row ?? shown.first?.row ?? address
                target.grabFocus()
            }
        }
        let owner = Owner<SyncSettings>()
        owner.object = self
        for (account, list) in zip(accounts, calendars) {
            let id = account.id
            let ui = Builder("sync-account", handlers: [
                "sync-now": owner.handler { $0.syncNow(id) },
                "remove": owner.handler { $0.remove(id) },
            ])
            let rows = AccountRows(id: id, row: ui("row"), actions: ui("actions"), syncNow: ui("sync-now"), remove: ui("remove"))
            // Titled before they are named: a screen reader's names come from the titles.
            rows.row.rowTitle = account.address
            // The buttons named with the account, its user too (two accounts on one server).
            let who = account.user.isEmpty ? account.address : account.user + " @ " + account.address
            // TRANSLATORS: the settings: the buttons of an account, named for a screen reader with the account (%s: user @ address).
            for (button, words) in [(rows.syncNow, tr("Sync Now: %s")), (rows.remove, tr("Remove Account: %s"))] {
                setAccessibleName(button, format(words, who))
            }
            for calendar in list {
                let url = calendar.url
                let calendarUI = Builder("sync-calendar", handlers: ["role": owner.handler { $0.roleChosen(account: id, url: url) }])
                let row = calendarUI("row")
                row.rowTitle = calendar.name
                rows.row.addToExpander(row)
                rows.calendars.append((url, row))
                calendarUI.release()
            }
            // The account's actions last, under its calendars.
            rows.row.moveToExpanderEnd(rows.actions)
            group.addToGroup(rows.row)
            // The expander's own lists, arrow and rows named for a screen reader, as the page's are.
            AccessibleNames.fill(in: rows.row, fallback: account.address)
            ui.release()
            shown.append(rows)
        }
    }

    /// `ann · synced 14:02`, or why the last sync failed.
    static func state(of account: SyncAccount, _ calendars: [SyncCalendar]) -> String {
        let used = calendars.filter { $0.role != .none }
        var words: [String] = account.user.isEmpty ? [] : [account.user]
        if let failed = used.first(where: { $0.lastError != nil }), let error = failed.lastError {
            // TRANSLATORS: the settings: an account's calendar whose last sync failed; %1$s the calendar, %2$s why.
            words.append(format(tr("%1$s did not sync: %2$s"), failed.name, error))
        } else if used.isEmpty {
            // TRANSLATORS: the settings: an account none of whose calendars is used yet.
            words.append(tr("choose what each calendar is for"))
        } else if let last = used.compactMap(\.lastSynced).max() {
            // To the minute, as the list says its times.
            let minute = Date(timeIntervalSince1970: (last.timeIntervalSince1970 / 60).rounded(.down) * 60)
            // TRANSLATORS: the settings: when an account last synced; %s is a date and time.
            words.append(format(tr("synced %s"), TimeStyle.person().instant(minute, TimeZone.current)))
        } else {
            // TRANSLATORS: the settings: an account whose calendars have not synced yet.
            words.append(tr("not synced yet"))
        }
        return words.joined(separator: " · ")
    }

    /// `events and tasks · rung by GNOME, so not here`.
    static func state(of calendar: SyncCalendar, leftTo desktop: String?) -> String {
        let parts = calendar.components.split(separator: ",")
        // TRANSLATORS: the settings: what a calendar holds ("events", "tasks", or both joined by ", ").
        var words = [((parts.contains("VEVENT") ? [tr("events")] : []) + (parts.contains("VTODO") ? [tr("tasks")] : [])).joined(separator: ", ")]
        // TRANSLATORS: the settings: a calendar Nudge may only read.
        if !calendar.writable { words.append(tr("read-only")) }
        if let desktop {
            // TRANSLATORS: the settings: a followed calendar the desktop rings, so Nudge does not; %s is the desktop (GNOME (evolution-data-server)).
            words.append(format(tr("rung by %s, so not here"), desktop))
        } else if calendar.role != .none, let error = calendar.lastError {
            // TRANSLATORS: the settings: a calendar's last sync failed; %s is why.
            words.append(format(tr("did not sync: %s"), error))
        }
        return words.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    // MARK: Acting

    /// Runs `nudge sync ARGUMENTS` (with `input` on its stdin), in its turn; `done` gets
    /// whether it succeeded and its last line (the reason, when it failed), only while these
    /// settings are open.
    private func run(_ arguments: [String], input: String? = nil, for url: String? = nil, done: @escaping @MainActor (Bool, String) -> Void) {
        queue.run(arguments, input: input, for: url, on: loop) { [weak self] ok, line in
            guard let self, !self.detached else { return }
            done(ok, line)
        }
    }

    /// Add Account (or Enter in the password): finds the calendars and keeps the password.
    func add() {
        guard !queue.adding else { return }
        let url = address.text.trimmingCharacters(in: .whitespacesAndNewlines), name = user.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !url.isEmpty else {
            // TRANSLATORS: the settings: Add Account with no address typed.
            addRow.subtitle = tr("Type the server's address first.")
            address.grabFocus()
            return
        }
        let secret = password.text
        guard !(name.isEmpty && !secret.isEmpty) else {
            // TRANSLATORS: the settings: a password typed without a user name.
            addRow.subtitle = tr("Type the user name the password is for.")
            user.grabFocus()
            return
        }
        // TRANSLATORS: the settings: while a new account's calendars are looked for.
        addRow.subtitle = tr("Finding the calendars…")
        queue.adding = true
        password.text = ""
        run(["add", url] + (name.isEmpty ? [] : ["--user", name, "--password-stdin"]), input: name.isEmpty ? nil : secret) { [self] ok, line in
            if ok {
                address.text = ""
                user.text = ""
                // TRANSLATORS: the settings: an account added; its calendars are listed above.
                addRow.subtitle = tr("Added. Choose above what each calendar is for.")
            } else {
                addRow.subtitle = line
            }
        }
    }

    private func roleChosen(account: String, url: String) {
        guard !filling, let row = shown.first(where: { $0.id == account })?.calendars.first(where: { $0.url == url })?.row else { return }
        let role = Self.roles[min(max(row.chosen, 0), Self.roles.count - 1)]
        let flag = switch role { case .own: "--own"; case .follow: "--follow"; case .none: "--stop" }
        nameChoices()
        run(["choose", account, flag, url], for: url) { [self] ok, line in
            guard ok else { return toast(line) }
            // Chosen: synced at once, as `nudge sync add --follow` does.
            syncNow(account)
        }
    }

    private func syncNow(_ account: String) {
        queue.syncing.insert(account)
        show()
        run(["now", account]) { [self] ok, line in
            // TRANSLATORS: the settings: a sync asked for by Sync Now (or a choice) finished.
            toast(ok ? tr("Synced") : line)
        }
    }

    private func remove(_ account: String) {
        guard let named = (try? world.store.forReading().syncAccounts())?.first(where: { $0.id == account })?.address else { return }
        // TRANSLATORS: the settings: the question before removing a calendar account; %s is its address.
        ask(format(tr("Remove %s?"), named),
            // TRANSLATORS: the settings: what removing an account does.
            tr("Its password leaves the keyring, and the reminders its calendars brought leave Nudge. Nothing is removed from the server.")) { [self] in
            run(["remove", account]) { [self] ok, line in
                // TRANSLATORS: the settings: an account removed.
                toast(ok ? tr("Account removed") : line)
                // Its rows go: the keyboard goes to the first account left, or to a new one's address.
                guard ok else { return }
                show()
                (shown.first?.row ?? address).grabFocus()
            }
        }
    }
}

/// The window's `nudge sync` runs, one at a time, the others waiting in order; kept for the
/// window's life, so that Settings closed and opened again still knows what runs (and a
/// second Sync Now waits for the first).
@MainActor final class SyncQueue {
    static let shared = SyncQueue()
    /// The settings shown now, told when a run ends.
    weak var view: SyncSettings?
    private var running = false
    /// The calendar whose choice runs now, if it is one, and those waiting.
    private var runningFor: String?
    private var waiting: [(url: String?, start: @MainActor () -> Void)] = []
    /// Whether an account is being added (Add pressed twice adds it once).
    var adding = false
    /// The accounts a sync runs or waits for.
    var syncing: Set<String> = []

    /// Whether a choice of this calendar runs or waits (shown as chosen till then).
    func holds(_ url: String) -> Bool { runningFor == url || waiting.contains { $0.url == url } }

    func run(_ arguments: [String], input: String?, for url: String?, on loop: EventLoop, done: @escaping @MainActor (Bool, String) -> Void) {
        guard !running else {
            waiting.append((url, { [unowned self] in run(arguments, input: input, for: url, on: loop, done: done) }))
            return
        }
        (running, runningFor) = (true, url)
        ChildProcess.run(MainWindow.sibling("nudge"), ["sync"] + arguments, on: loop, timeout: 120_000, input: input, errorsToo: true) { result in
            MainActor.assumeIsolated {
                self.running = false
                self.runningFor = nil
                if arguments.first == "add" { self.adding = false }
                if arguments.first == "now", arguments.count > 1 { self.syncing.remove(arguments[1]) }
                let lines = (result?.output ?? "").split(separator: "\n").map { $0.hasPrefix("nudge: ") ? String($0.dropFirst(7)) : String($0) }
                // TRANSLATORS: the settings: nudge sync could not be run, or ran past two minutes.
                let last = result == nil ? tr("nudge sync did not finish") : lines.last ?? ""
                done(result?.status == 0, last)
                self.view?.show()
                if !self.running, !self.waiting.isEmpty { self.waiting.removeFirst().start() }
            }
        }
    }
}
