#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import NudgeKit

/// The service, at the top of the list (service-card.ui), shown only when something is
/// missing: the daemon not running, with a button that starts it; starting with the session
/// off, with its switch (kept on screen once switched here).
@MainActor final class ServiceCard {
    let widget: Widget
    private let serviceRow: Widget, autostartRow: Widget, autostartSwitch: Widget
    /// Set while the switch is moved to match the session (not a person's change).
    private var showingAutostart = false, autostartTouched = false
    private let host: HostedLoop
    private let run: ActionRunner
    /// Called when the card shows or hides: the list shows it only while it has something to say.
    var visibilityChanged: @MainActor () -> Void = {}
    /// Where the focus goes when Start, which had it, goes once the service runs and the
    /// card goes with it (the focus fell to the card's inner list, where keys did nothing).
    var focusElsewhere: @MainActor () -> Void = {}

    init(host: HostedLoop, run: ActionRunner) {
        self.host = host
        self.run = run
        let owner = Owner<ServiceCard>()
        let ui = Builder("service-card", handlers: ["start": owner.handler { $0.startDaemon() },
                                                    "autostart": owner.handler { $0.autostartSwitched() }])
        defer { ui.release() }
        widget = ui.keep("group")
        (serviceRow, autostartRow, autostartSwitch) = (ui("service"), ui("autostart"), ui("autostart-switch"))
        // Broken between words only, as Korean is written (the .ui's words, translated).
        setSubtitleWordsKept(serviceRow, serviceRow.subtitle)
        owner.object = self
        showAutostart()
    }

    /// The switch "Start with your session" turned (service-card.ui).
    private func autostartSwitched() {
        guard !showingAutostart else { return }
        let on = autostartSwitch.isOn
        let places = AutostartPlaces(environment: .current)
        let program = MainWindow.sibling("nudge")
        do throws(OperationError) {
            run.toast(on ? try places.enable(program: program) : try places.disable(program: program))
        } catch {
            run.toast(error.message)
        }
        autostartTouched = true
        showAutostart()
    }

    /// Whether it has something to say.
    var isShown: Bool { widget.isVisible }

    /// The daemon running or not (the Start row).
    func show(serviceRunning: Bool) {
        let hadFocus = serviceRunning && Self.holdsFocus(serviceRow)
        serviceRow.isVisible = !serviceRunning
        if self.serviceRunning != serviceRunning {
            self.serviceRunning = serviceRunning
            showAutostart()
        }
        updateVisibility()
        // Start went: the focus to the next thing to do, the autostart switch where it shows.
        guard hadFocus else { return }
        if widget.isVisible, autostartRow.isVisible {
            autostartSwitch.grabFocus()
        } else {
            focusElsewhere()
        }
    }

    /// Whether the keyboard's focus is on `widget` or inside it.
    private static func holdsFocus(_ widget: Widget) -> Bool {
        return widget.focusInWindow?.isInside(widget) ?? false
    }

    /// Whether the service runs now (the autostart row says what that means).
    private var serviceRunning = false

    /// The autostart row as the session will do it; hidden while on, unless switched here.
    private func showAutostart() {
        let state = AutostartPlaces(environment: .current).state()
        showingAutostart = true
        autostartSwitch.isOn = state.enabled
        // The state too: after a change that failed, GTK 4.8 kept the state the person asked
        // for, which is what a screen reader reads.
        autostartSwitch.switchState = state.enabled
        showingAutostart = false
        setSubtitleWordsKept(autostartRow, state.enabled
            // TRANSLATORS: the window's autostart row when on.
            ? tr("Nudge's service starts when you log in.")
            : serviceRunning
            // TRANSLATORS: the window's autostart row when off while the service runs now.
            ? tr("Off: reminders show now, but not after your next login until the service is started.")
            // TRANSLATORS: the window's autostart row when off.
            : tr("Off: reminders wait until Nudge's service is started."))
        autostartRow.isVisible = !state.enabled || autostartTouched
        updateVisibility()
    }

    private func updateVisibility() {
        let visible = serviceRow.isVisible || autostartRow.isVisible
        widget.isVisible = visible
        visibilityChanged()
    }

    /// `nudge daemon`, the program beside this one, in a process group of its own: it
    /// keeps running when the window closes. Its end is reaped and, when it failed, said.
    private func startDaemon() {
        do throws(OperationError) {
            try DaemonLink.start(MainWindow.sibling("nudge"), on: host.loop) { [unowned self] failed in
                MainActor.assumeIsolated {
                    if failed {
                        // TRANSLATORS: the window: the service it started ended at once.
                        run.toast(tr("Nudge's service stopped right after it started: nudge doctor says why."))
                    }
                    run.feed.refreshStatus()
                }
            }
        } catch {
            run.toast(error.message)
        }
    }
}
