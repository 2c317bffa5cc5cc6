import CAdwaita
import Foundation
import NudgeKit

/// Nudge's settings, as GNOME's preferences windows keep them: each change is kept at once
/// (through the operations `nudge config` runs, with their checks and messages), and a
/// change made elsewhere shows here when the window reads the store again. One page
/// (settings-page.ui) in the frame of the libadwaita found: an AdwPreferencesWindow on 1.2, an
/// AdwPreferencesDialog over the window from 1.5 (AdwaitaGeneration).
@MainActor final class SettingsWindow {
    /// The AdwPreferencesWindow or AdwPreferencesDialog.
    let window: Widget
    private let parent: Widget
    private let cup: Widget, goal: Widget, logDays: Widget
    private let dayStart: TimePicker
    /// The default reminder time: its switch, and its picker (shown while on).
    private let defaultTime: TimePicker, defaultTimeSwitch: Widget
    private let autostart: Widget
    /// Set while the window shows the stored values (not a person's change).
    private var showing = false
    private let closed: @MainActor () -> Void
    private let world: World
    /// The window's feed: a setting is a change to the store, refused as any other while the
    /// store refuses changes (``AlertFeed/perform(_:)``).
    private let feed: AlertFeed
    /// The calendar accounts.
    private var sync: SyncSettings!

    init(parent: Widget, world: World, feed: AlertFeed, loop: EventLoop, closed: @escaping @MainActor () -> Void) {
        self.closed = closed
        self.world = world
        self.feed = feed
        self.parent = parent
        let owner = Owner<SettingsWindow>()
        let frame = Builder(AdwaitaGeneration.settings, handlers: ["closed": owner.answer { settings, _ in settings.close() }])
        let ui = Builder("settings-page", handlers: [
            "number": owner.handler(values: { $0.numberChanged($1.object(0)) }),
            "default-time": owner.handler { $0.defaultTimeSwitched() },
            "autostart": owner.handler { $0.autostartSwitched() },
            "sync-add": owner.handler { $0.sync.add() },
        ])
        defer { frame.release(); ui.release() }
        // A dialog is a widget (the builder's until it has a parent): held until it closes.
        window = AdwaitaGeneration.top(frame, "window")
        AdwaitaGeneration.addChild(ui("page"), to: window)
        keepWordsInSubtitles(under: ui("page"))
        (cup, goal, logDays, autostart) = (ui("cup"), ui("goal"), ui("log-days"), ui("autostart"))
        for (spin, setting) in [(cup, Setting.cup), (goal, .goal), (logDays, .logDays)] {
            spin.setRange(Double(setting.range.lowerBound)...Double(setting.range.upperBound))
            ignoreScroll(spin)
        }
        dayStart = TimePicker(named: tr("A day starts at"), clock: ClockStyle.person(), in: ui("day-start"))
        defaultTimeSwitch = ui("default-time-switch")
        // TRANSLATORS: the settings: the default reminder time's picker, as a screen reader names its parts.
        defaultTime = TimePicker(named: tr("Default reminder time"), clock: ClockStyle.person(), in: ui("default-time"), before: defaultTimeSwitch)

        dayStart.changed = { [unowned self] in keep(.dayStart, dayStart.minutes) }
        defaultTime.changed = { [unowned self] in keep(.defaultTime, defaultTime.minutes) }
        sync = SyncSettings(group: ui("sync"), newAccount: ui, world: world, loop: loop, toast: { [weak self] in self?.toast($0) },
                            ask: { [weak self] heading, body, yes in
            guard let self else { return }
            Question.ask(over: window, heading: heading, body: body,
                         // TRANSLATORS: the settings: the answers to "Remove ACCOUNT?".
                         answers: [.init("cancel", tr("_Cancel")), .init("remove", tr("_Remove"), .destructive)],
                         default: "cancel", close: "cancel") { if $0 == "remove" { yes() } }
        })
        owner.object = self
        show()
        // TRANSLATORS: the accessible name of the settings' lists and page, where nothing else names them.
        AccessibleNames.fill(in: window, fallback: tr("Settings"))
    }

    /// A number set: the cup, the goal or the log's days (settings-page.ui).
    private func numberChanged(_ spin: gpointer?) {
        guard let spin = spin?.assumingMemoryBound(to: GtkWidget.self) else { return }
        let setting = spin == cup ? Setting.cup : spin == goal ? .goal : .logDays
        keep(setting, spin.number)
    }

    private func defaultTimeSwitched() {
        // On: 09:00, as Todoist's default; off: none (the words ask at what time).
        let on = defaultTimeSwitch.isOn
        defaultTime.isVisible = on
        keep(.defaultTime, on ? defaultTime.minutes : Setting.none)
    }

    private func autostartSwitched() {
        guard !showing else { return }
        let places = AutostartPlaces(environment: world.environment, language: world.language)
        let program = MainWindow.sibling("nudge")
        do throws(OperationError) {
            toast(autostart.isOn ? try places.enable(program: program) : try places.disable(program: program))
        } catch {
            toast(error.message)
        }
        show()
    }

    /// Closed (the window's close-request, the dialog's closed): let go of, and said.
    private func close() -> Bool {
        sync.detach()
        AdwaitaGeneration.dismiss(window)
        closed()
        return true
    }

    private var presented = false

    /// Shows the settings, the cup size focused and said (``sayFocusOnceShown(_:)``): GTK
    /// gave the focus to the page switcher hidden in the header, before the window showed.
    func present() {
        // Only where GTK does not say a first focus itself (``sayFocusOnceShown(_:)``).
        if !presented, !AdwaitaGeneration.gtkSaysFirstFocus { cup.grabFocus() }
        AdwaitaGeneration.present(window, over: parent)
        guard !presented else { return }
        presented = true
        sayFocusOnceShown(cup)
    }

    /// The stored values (a change made elsewhere included) and the session's autostart.
    func show() {
        showing = true
        defer { showing = false }
        if let values = try? Preferences.values(world) {
            for (spin, setting) in [(cup, Setting.cup), (goal, .goal), (logDays, .logDays)] {
                let value = Double(values[setting] ?? setting.defaultValue)
                if spin.value != value { spin.value = value }
            }
            let start = values[.dayStart] ?? 0
            if dayStart.minutes != start { dayStart.minutes = start }
            let time = values[.defaultTime] ?? Setting.none
            if time != Setting.none, defaultTime.minutes != time { defaultTime.minutes = time }
            if time == Setting.none, defaultTime.minutes != 9 * 60 { defaultTime.minutes = 9 * 60 }
            if (defaultTimeSwitch.isOn) != (time != Setting.none) {
                defaultTimeSwitch.isOn = time != Setting.none
            }
            defaultTime.isVisible = time != Setting.none
        }
        sync.show()
        let enabled = AutostartPlaces(environment: world.environment, language: world.language).state().enabled
        if (autostart.isOn) != enabled { autostart.isOn = enabled }
        // The state too: after a change that failed, GTK 4.8 kept the state the person asked
        // for, which is what a screen reader reads.
        autostart.switchState = enabled
    }

    private func keep(_ setting: Setting, _ value: Int) {
        guard !showing else { return }
        do throws(OperationError) {
            try feed.perform { () throws(OperationError) in try Preferences.set(setting, to: value, world) }
        } catch {
            toast(error.message)
            show()
        }
    }

    private func toast(_ text: String) {
        AdwaitaGeneration.addToast(Toast(markup: markup(text.escapingControls)), toSettings: window)
        // The toast's boxes named by its words, and its buttons, once it is made (a screen
        // reader met its box named by its class), as the window's toasts are.
        let window = window
        afterThisEvent { Self.nameToasts(under: window, saying: text) }
    }

    private static func nameToasts(under widget: Widget, saying text: String) {
        if widget.typeName == "AdwToastWidget" {
            AccessibleNames.nameInnerBoxes(under: widget, as: text)
            AccessibleNames.nameButtons(in: widget, saying: text)
            return
        }
        for child in widget.children { nameToasts(under: child, saying: text) }
    }
}
