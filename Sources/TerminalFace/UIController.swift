import NudgeKit
import DaemonAPI
import Presentation
import DBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Localization
import NudgeCore
import NudgeStore
import Platform

/// `nudge ui`'s loop: one ``EventLoop`` over the keyboard, signals (signalfd), the alerts
/// as they change (an ``AlertFeed``: the store's folder, the daemon on the session bus)
/// and what the program itself would write to stderr (shown on the message line, never
/// over the screen). It wakes on its own only for the countdown: once a second in the
/// last minute, else once a minute.
/// Every change goes through the operations every face shares (NudgeKit's `Operations`,
/// `AlertIDs`, `Answer`): the same checks, messages and store changes as the command line.
public final class UIController {
    /// The feed's world once it is made (``AlertFeed/world``): the daemon reached on its
    /// connection, the store through its session.
    private var world = World.live
    private let terminal: Terminal
    private let signals: SignalReceiver
    private let loop = EventLoop()
    /// The alerts, the water and the daemon, followed.
    private let feed: AlertFeed
    /// Wakes the loop when the countdown changes.
    /// When the countdown's words change next: on the wall clock, so a resume or a clock
    /// set redraws it at once.
    private var countdownTimer: WallClockTimer?
    /// stderr while the screen is up; what arrives is shown.
    private let stderrCapture: StderrCapture
    private var screen: CursesScreen?

    /// What the store says, in list order, and the rows it is shown as.
    private var list: AlertList
    private var model = ScreenModel()
    /// What is on the terminal now.
    private var drawn: (model: ScreenModel, width: Int, height: Int)?
    private var form: AlertForm?
    /// The reminder being edited as the form found it, and the stored one the person
    /// chose to save over after a conflict (see ``AlertDraft/save(with:over:now:words:)``).
    private var formBase: Alert?, formOverride: Alert?
    /// The reminder the form edits was deleted elsewhere, said once: the next Enter keeps
    /// the edit as a new reminder.
    private var formKeepsAsNew = false
    /// Enter was pressed once in the form while the store was gone: a second starts anew.
    private var formStartsAnew = false
    /// The reminder to select once the store is read again (one just saved).
    private var selectAfterReload: String?
    /// The filter changed with the keys just read: applied once they are all handled.
    private var filterChanged = false
    /// The schedule of the alert being edited, in words, when a calendar narrowed it
    /// (every 2 weeks, until…): the form has no fields for that, so it says what is kept.
    private var formRestriction: String?
    /// Delete asked for this alert; `y` confirms.
    private var confirming: Alert?
    private var quit = false

    /// Opens the store (the error when it cannot be), takes stderr and the signals, and
    /// takes over the terminal: the screen is up once it returns. stdin and stdout must be
    /// a terminal.
    public init(environment: Environment) throws(OperationError) {
        terminal = Terminal(environment: environment, isTerminal: true)
        list = AlertList(timeStyle: terminal.timeStyle, language: world.language)
        // Asked at most once a minute besides: why the daemon holds reminders has no signal.
        feed = AlertFeed(world: world, loop: loop, bus: world.connectToBus(), statusEvery: 60)
        world = feed.world
        _ = try feed.store()
        do {
            // USR1, USR2 and ALRM too: left to their default, they ended the program with
            // the terminal still raw and on the other screen.
            signals = try SignalReceiver([SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2, SIGALRM])
            stderrCapture = try StderrCapture()
        } catch {
            throw OperationError(.ioError, "\(error)")
        }
        restoreTerminalOnCrash(stderr: stderrCapture.original)
        screen = CursesScreen(colour: terminal.colour)
    }

    deinit { restore() }

    /// The terminal and stderr given back (once).
    private func restore() {
        screen?.stop()
        screen = nil
        stderrCapture.restore()
    }

    // MARK: The loop

    /// The signal that ended the loop (SIGINT, SIGTERM, SIGHUP), for the command to end by
    /// it once the terminal is given back (``Platform/endBy(signal:)``): a script that sent
    /// it sees it, not a clean exit.
    public private(set) var endingSignal: Int32?

    /// Runs until the person quits or a signal ends it (SIGINT, SIGTERM, SIGHUP, SIGQUIT),
    /// then gives the terminal and stderr back; throws (exit 74) when the loop fails.
    public func run() throws(OperationError) {
        defer { restore() }
        loop.add(descriptor: 0) { [unowned self] events in
            if events & Int16(POLLHUP | POLLERR) != 0 { return quit = true }
            guard let screen else { return }
            // Everything waiting is handled before anything is checked or laid out: a
            // paste of 100 KB is one check of the form, not one per character.
            for input in screen.read() { handle(input) }
            if filterChanged {
                filterChanged = false
                applyFilter()
            }
            updateChrome()
        }
        loop.add(descriptor: signals.fd) { [unowned self] _ in handle(signals: signals.read()) }
        countdownTimer = try? loop.addWallClockTimer { _ in }
        loop.add(descriptor: stderrCapture.fd) { [unowned self] _ in readStderr() }
        feed.onChange = { [unowned self] snapshot, change in show(snapshot, change) }
        feed.start()
        loop.addBeforeWait { [unowned self] in
            if quit { return loop.exit() }
            try? countdownTimer?.arm(atEpochSeconds: updateCountdown(now: world.now).map { Date().timeIntervalSince1970 + Double($0) / 1000 })
            draw()
        }
        do {
            try loop.run()
        } catch {
            throw OperationError(.ioError, "\(error)")
        }
    }

    /// Lays out and draws the screen, unless it shows this model at this size already (the
    /// loop wakes for changes that may change nothing on screen).
    private func draw() {
        guard let screen else { return }
        model.keepSelectionVisible(height: Layout.listHeight(screen.height) - 1)
        if let last = drawn, last.width == screen.width, last.height == screen.height, last.model == model { return }
        screen.draw(Layout.render(model, width: screen.width, height: screen.height))
        drawn = (model, screen.width, screen.height)
    }

    /// The terminal's size read again and everything sent again on the next draw (a
    /// resize, Ctrl-L, back from Ctrl-Z).
    private func repaint(suspendingFirst: Bool = false) {
        if suspendingFirst { screen?.suspend() } else { screen?.resumed() }
        drawn = nil
    }

    private func handle(signals received: [Int32]) {
        for signal in received {
            switch signal {
            case SIGWINCH, SIGCONT: repaint()
            case SIGTSTP: repaint(suspendingFirst: true)
            case SIGINT, SIGTERM, SIGHUP:
                quit = true
                if endingSignal == nil { endingSignal = signal }
            default: quit = true
            }
        }
    }

    /// Lines a library or our own code wrote to stderr: the last one on the message line.
    private func readStderr() {
        let lines = stderrCapture.readAll().split(separator: "\n")
        if let last = lines.last { say(String(last).escapingControls, error: true) }
    }

    // MARK: What is shown

    /// A new snapshot: the rows worded again where they changed, the selection kept on the
    /// same alert, and what the store said when it could not be read.
    private func show(_ snapshot: AlertFeed.Snapshot, _ change: AlertFeed.Change) {
        // The daemon's state alone: the bar.
        guard !change.service else { return updateChrome() }
        if snapshot.removed, snapshot.lastGood != nil {
            // TRANSLATORS: nudge ui when the store file was deleted; %s is its path; `nudge doctor --restore` is a command.
            say(format(tr("%s was removed: nudge doctor --restore puts back the last good copy; a reminder added here starts anew"), world.storePath), error: true)
        } else if snapshot.removed {
            // TRANSLATORS: nudge ui when the store file was deleted with its folder, the last good copy too; %s is its path (said last: a line too narrow cuts it).
            say(format(tr("your reminders’ file was removed, its last good copy too: a reminder added here starts anew (%s)"), world.storePath), error: true)
        } else if let trouble = snapshot.trouble {
            say(trouble, error: true)
        } else if let readOnly = snapshot.readOnly {
            // TRANSLATORS: nudge ui when the store can be read but not written; %s is why (the path and the system's words).
            say(format(tr("Read only, changes are refused: %s"), readOnly), error: true)
        } else if change.trouble {
            // What the store said when it could not be read is over once it can.
            model.message = nil
        }
        let selectedID = selectAfterReload ?? (model.rows.indices.contains(model.selected) ? model.rows[model.selected].id : nil)
        selectAfterReload = nil
        list.set(snapshot.alerts, showings: snapshot.showings, order: snapshot.order, now: snapshot.now, origins: snapshot.origins)
        applyFilter()
        if let selectedID, let row = list.row(of: selectedID) { model.selected = row }
    }

    private func applyFilter() {
        model.rows = list.rows(filter: model.filter, system: world.zone)
        let headings = Labels.listHeaders
        model.columns = [headings[1], headings[2], headings[4], headings[3]]
        model.empty = Chrome.empty(hasAlerts: !list.alerts.isEmpty)
        updateChrome()
    }

    /// The bar, the keys line, and what is open over the list.
    private func updateChrome() {
        let snapshot = feed.snapshot
        model.status = StatusLine.text(daemonRunning: snapshot.service != nil, answering: snapshot.service?.answering ?? true,
                                     awayReason: snapshot.service?.awayReason,
                                     unanswered: snapshot.unanswered, water: snapshot.water,
                                     hasWaterReminder: list.alerts.contains { $0.kind == .water }, language: world.language)
        model.heading = Chrome.heading(shown: list.shown.count, total: list.alerts.count)
        if let form {
            model.overlay = .form(formView(form))
            model.footer = Chrome.formKeys
        } else {
            if case .form? = model.overlay { model.overlay = nil }
            model.footer = Array(Chrome.listKeys.prefix(11))
        }
    }

    /// Sets the status line's countdown to the next showing (of every alert, whatever the
    /// filter); returns milliseconds until it changes (`nil` when nothing counts down).
    /// Past its instant the feed reads the store again by itself.
    private func updateCountdown(now: Date) -> Int32? {
        guard let (alert, instant) = list.next else {
            model.countdown = nil
            return nil
        }
        let line = Countdown.line(title: alert.title, next: instant, now: now)
        model.countdown = line.text
        return line.changesIn
    }

    private func say(_ text: String, error: Bool = false) {
        model.message = text
        model.messageIsError = error
    }

    private var selectedAlert: Alert? {
        list.alert(atRow: model.selected)
    }

    // MARK: Keys

    private func handle(_ input: CursesScreen.Input) {
        switch input {
        case .control("c"): return quit = true
        case .control("z"): return repaint(suspendingFirst: true)
        case .control("l"), .resize: return repaint()
        default: break
        }
        if form != nil { return handleForm(input) }
        if let alert = confirming {
            confirming = nil
            model.overlay = nil
            if input == .character("y") || input == .character("Y") { remove(alert) } else { say(tr("not deleted")) }
            return
        }
        if model.overlay != nil {
            model.overlay = nil
            return
        }
        if model.filterEditing { return handleFilter(input) }
        model.message = nil
        if case .paste = input {
            // TRANSLATORS: nudge ui, when text is pasted over the list (it is not taken as keys); a and / are keys.
            return say(tr("a paste goes into a field: a adds a reminder, / searches"))
        }
        let page = max(Layout.listHeight(screen?.height ?? 24) - 2, 1)
        switch input {
        case .up, .character("k"): model.selected -= 1
        case .down, .character("j"): model.selected += 1
        case .pageUp: model.selected -= page
        case .pageDown: model.selected += page
        case .home, .character("g"): model.selected = 0
        case .end, .character("G"): model.selected = model.rows.count - 1
        case .wheel(let step): model.selected += step
        case .click(let line, let column, _):
            let index = model.top + line - Layout.firstRow
            guard line >= Layout.firstRow, model.rows.indices.contains(index) else { break }
            model.selected = index
            if column <= Layout.switchWidth { toggle() }
        case .character(" "): toggle()
        case .character("a"): openForm(AlertForm(today: CivilZone(world.zone).local(world.now).day))
        case .character("e"):
            if let alert = selectedAlert {
                let zone = alert.zone(system: world.zone)
                openForm(AlertForm(editing: alert.id.hex, title: alert.title, body: alert.body, schedule: alert.schedule, zone: zone))
                formBase = alert
                if case .restricted = alert.schedule {
                    formRestriction = alert.schedule.summary(in: zone, timeStyle: terminal.timeStyle, language: world.language)
                }
            }
        case .character("d"), .delete:
            if let alert = selectedAlert {
                confirming = alert
                // TRANSLATORS: nudge ui asks before deleting; %s is the alert's title.
                model.overlay = .confirm(format(tr("Delete “%s”? y deletes, any other key keeps it"), alert.title.escapingControls))
            }
        case .character("s"):
            if let alert = selectedAlert { answer(.snooze(seconds: alert.snoozeSeconds), alert) }
        case .enter:
            if let alert = selectedAlert { answer(.acknowledge, alert) }
        case .character("n"):
            if let alert = selectedAlert { showOccurrences(alert) }
        case .character("/"):
            model.filterEditing = true
            if model.filter == nil { model.filter = "" }
        case .escape:
            model.filter = nil
            filterChanged = true
        case .character("?"):
            model.overlay = .help(Chrome.help)
        case .character("q"), .character("Q"): quit = true
        default: break
        }
    }

    private func handleFilter(_ input: CursesScreen.Input) {
        model.message = nil
        switch input {
        case .character(let c):
            // Nothing longer than a title can match one.
            let filter = model.filter ?? ""
            guard filter.utf8.count + c.utf8.count <= Limits.Field.title.limit else {
                return say(format(tr("this field holds at most %d bytes: the rest was left out"), Limits.Field.title.limit), error: true)
            }
            model.filter = filter + String(c)
        case .paste(let text):
            for c in Self.oneLine(text) { handleFilter(.character(c)) }
            return
        case .backspace: model.filter = String((model.filter ?? "").dropLast())
        case .enter, .down, .up: model.filterEditing = false
        case .escape:
            model.filterEditing = false
            model.filter = nil
        default: break
        }
        if model.filter == "" && !model.filterEditing { model.filter = nil }
        model.selected = 0
        filterChanged = true
    }

    /// Pasted text for a one-line field: lines joined by one space (empty lines, and line
    /// breaks at either end, dropped; CRLF is one break), tabs spaces, other control
    /// characters left out.
    static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        return String(lines.joined(separator: " ").unicodeScalars.compactMap { scalar -> Character? in
            if scalar == "\t" { return " " }
            return scalar.value < 32 || scalar.value == 127 ? nil : Character(scalar)
        })
    }

    // MARK: Changes, through the CLI's code

    private func toggle() {
        guard let alert = selectedAlert else { return }
        act { () throws(OperationError) in
            try AlertIDs.update([alert.id.hex], world, announce: { say($0) }) { alert in
                alert.enabled.toggle()
                return alert.enabled ? Labels.on : Labels.off
            }
        }
    }

    private func remove(_ alert: Alert) {
        act { () throws(OperationError) in
            for removed in try Operations.remove([alert.id.hex], world) {
                say(format(tr("removed %1$s: %2$s"), removed.id.shortHex, removed.title.escapingControls))
            }
        }
    }

    private func answer(_ answer: Answer, _ alert: Alert) {
        act { () throws(OperationError) in try answer.apply(toShown: [alert], world, now: world.now, announce: { [unowned self] in say($0) },
                                                           failed: { [unowned self] in say($0.message, error: true) }) }
    }

    private func act(_ body: () throws(OperationError) -> Void) {
        do {
            try feed.perform(body)
        } catch {
            say(error.message, error: true)
        }
    }

    private func showOccurrences(_ alert: Alert) {
        let now = world.now, zone = alert.zone(system: world.zone)
        let state = try? world.run { try feed.store().state(of: alert.id) }
        let instants = AlertView.upcoming(alert, state: state ?? nil, water: feed.snapshot.water, after: now, count: 10, system: world.zone, zone: zone)
        // TRANSLATORS: nudge ui's list of the next times; %s is the alert's title.
        model.overlay = .occurrences(title: format(tr("Next for “%s”"), alert.title.escapingControls),
                                     lines: instants.isEmpty ? [Labels.noTime(alert.schedule, zone: zone, timeStyle: terminal.timeStyle) ?? tr("never")] : instants.map { terminal.timeStyle.instant($0, zone) })
    }

    // MARK: The form

    private func openForm(_ new: AlertForm) {
        form = new
        (formRestriction, formBase, formOverride, formKeepsAsNew, formStartsAnew) = (nil, nil, nil, false, false)
        // The overlay follows at once: the next key in the same read goes to the form.
        updateChrome()
    }

    private func handleForm(_ input: CursesScreen.Input) {
        guard var edited = form else { return }
        var full = false
        switch input {
        case .escape:
            form = nil
            say(tr("not saved"))
            return updateChrome()
        case .enter:
            return save(edited)
        case .tab, .down: edited.focus(1)
        case .backTab, .up: edited.focus(-1)
        case .left: edited.move(-1)
        case .right: edited.move(1)
        case .home, .control("a"): edited.moveToEnd(false)
        case .end, .control("e"): edited.moveToEnd(true)
        case .backspace: edited.backspace()
        case .delete: edited.delete()
        case .control("u"): edited.clear()
        case .character(let c):
            full = !edited.insert(c)
        case .paste(let text):
            for c in Self.oneLine(text) where !full { full = !edited.insert(c) }
        default: break
        }
        // What Enter was refused for is gone once the form changes: the form's own line
        // says what is wrong now.
        if edited != form, model.messageIsError { model.message = nil }
        if full {
            // TRANSLATORS: nudge ui's form, when typing or pasting past a field's limit; %d is the limit.
            say(format(tr("this field holds at most %d bytes: the rest was left out"), AlertForm.maxBytes(edited.focusedField)), error: true)
        }
        form = edited
    }

    /// What the form would make, checked as `nudge add` and `nudge edit` check it.
    /// What the form would save (see ``AlertDraft``).
    private func draft(_ form: AlertForm) -> AlertDraft {
        var draft = AlertDraft(editing: formBase)
        (draft.title, draft.body) = (form[.title], form[.body])
        (draft.schedule, draft.scheduleChanged) = (form.flags, formBase == nil || form.scheduleChanged)
        return draft
    }

    private func formView(_ form: AlertForm) -> FormView {
        let now = world.now
        var draft = draft(form)
        // A new form not written in yet is not wrong: its title waits (saving without one
        // says it is needed). The rest is checked as if it had one, so a schedule's words
        // are read and its showings stand there already.
        if formBase == nil, draft.title.isEmpty { draft.title = "…" }
        let checked = draft.check(with: feed, now: now)
        var preview: [String] = []
        if case .success(let alert) = checked {
            let zone = alert.zone(system: world.zone)
            preview = alert.schedule.occurrences(after: now, count: 5, in: zone).map { terminal.timeStyle.instant($0, zone) }
        }
        return FormView(form, checked: checked, preview: preview, kept: formRestriction, world: world, timeStyle: terminal.timeStyle,
                        defaultTime: feed.defaultTime)
    }

    private func save(_ form: AlertForm) {
        // The store was removed: a new store is started only on the person's word, asked
        // here as the window asks with its card (a second Enter), never by a save alone.
        if feed.snapshot.removed, feed.refusal() != nil {
            guard formStartsAnew else {
                formStartsAnew = true
                guard feed.snapshot.lastGood != nil else {
                    // TRANSLATORS: nudge ui's form while the store's file is gone and no last good copy is left.
                    return say(tr("your reminders’ file is gone: Enter again starts a new one with this reminder, Esc keeps things as they are"), error: true)
                }
                // TRANSLATORS: nudge ui's form while the store's file is gone; `nudge doctor --restore` is a command.
                return say(tr("your reminders’ file is gone: Enter again starts a new one with this reminder, Esc keeps things as they are (nudge doctor --restore puts back the last good copy)"), error: true)
            }
            do throws(OperationError) { try feed.startAnew() } catch { return say(error.message, error: true) }
        }
        let outcome = draft(form).save(with: feed, over: formOverride, now: world.now, keepingAsNew: formKeepsAsNew) { [terminal, world] alert in
            alert.schedule.summary(in: alert.zone(system: world.zone), timeStyle: terminal.timeStyle, language: world.language)
        }
        switch outcome {
        case .deletedMeanwhile:
            formKeepsAsNew = true
            // TRANSLATORS: nudge ui's form, when the reminder being edited was deleted elsewhere meanwhile.
            say(tr("this reminder was deleted meanwhile elsewhere: Enter keeps your edit as a new reminder, Esc lets it go"), error: true)
        case .changedMeanwhile(let changed, let stored):
            // Said once; a second Enter saves over what is stored now (and only that).
            formOverride = stored
            // TRANSLATORS: nudge ui's form, when a field it changed was also changed elsewhere
            // since it opened; %s names the fields with their new values.
            say(format(tr("changed meanwhile elsewhere: %s; Enter saves yours over it, Esc keeps it"), changed.joined(separator: ", ")), error: true)
        case .refused(let error):
            say(error.message, error: true)
        case .saved(let alert):
            // TRANSLATORS: nudge ui after the form is saved; %1$s is the alert's id, %2$s its title.
            say(format(form.editing == nil || formKeepsAsNew ? tr("added %1$s: %2$s") : tr("edited %1$s: %2$s"), alert.shortID, alert.title.escapingControls))
            self.form = nil
            (formBase, formOverride, formKeepsAsNew, formStartsAnew) = (nil, nil, false, false)
            updateChrome()
            // Selected by its id once the store is read again: its place may change, and
            // under a filter the rows are not the list's order.
            selectAfterReload = alert.id.hex
            feed.reloadSoon()
        }
    }
}
