import CAdwaita
import NudgeKit
import Presentation

/// The window's header bar (window-header.ui): + (the window's `add` action, Ctrl+N), the
/// settings (`preferences`, Ctrl+comma), and under the name what the daemon is doing, as
/// the status line every face shows it.
@MainActor final class WindowHeader {
    let widget: Widget
    private let title: Widget
    /// The search button, bound to the search bar's state by the window.
    let searchToggle: Widget

    init() {
        let ui = Builder("window-header")
        defer { ui.release() }
        widget = ui.keep("header")
        title = ui("title")
        searchToggle = ui("search-toggle")
        // The primary menu's popover, its list and scroll bars (GTK names them by their class).
        if let popover = gtk_menu_button_get_popover(ui("menu").opaque) {
            // TRANSLATORS: the accessible name of the primary menu (F10), as its button's.
            AccessibleNames.fillBuiltWhole(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self), fallback: tr("Main Menu"))
        }
    }

    /// The daemon's state and what waits, from the feed's snapshot.
    func show(_ snapshot: AlertFeed.Snapshot, language: Language) {
        let service = snapshot.service
        let line = StatusLine.text(daemonRunning: service != nil, awayReason: service?.awayReason,
                                   unanswered: snapshot.unanswered, water: nil, hasWaterReminder: false, language: language,
                                   plainWords: true)
        adw_window_title_set_subtitle(title.opaque, line)
    }
}
