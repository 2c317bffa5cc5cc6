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
        // The name whole in a narrow window (360 px: it read "Nu…"): libadwaita pads a header's
        // title and subtitle 12 px on each side, beside buttons already spaced 6 px from it.
        addStyle("windowtitle.nudge-title .title, windowtitle.nudge-title .subtitle { padding-left: 0; padding-right: 0; }")
        title.addClass("nudge-title")
        // The status under the name takes two lines where one cannot hold it, broken between
        // words (at 360 px it read "Reminde…").
        if let subtitle = Self.label(in: title, class: "subtitle") {
            subtitle.setLines(wraps: true, lines: 2, ellipsizes: subtitle.ellipsizes)
            // Centred; one line asked for: wrapped only where the header cannot give it one.
            subtitle.centreLinesAskingOne()
        }
        searchToggle = ui("search-toggle")
        // TRANSLATORS: the window's + button (Ctrl+N), as a screen reader and its tooltip say it.
        setTooltip(ui("add"), tr("Add a Reminder"))
        // TRANSLATORS: the window's primary menu button (F10), as a screen reader and its tooltip say it, as in GNOME's apps.
        setTooltip(ui("menu"), tr("Main Menu"))
        // TRANSLATORS: the window's search button (Ctrl+F), as a screen reader and its tooltip say it.
        setTooltip(searchToggle, tr("Search"))
        // TRANSLATORS: the window's settings button (Ctrl+comma), as a screen reader and its tooltip say it.
        setTooltip(ui("settings"), tr("Settings"))
        // The header's own boxes and title, named by their class on Debian 12.
        AccessibleNames.fill(in: widget, fallback: "Nudge")
        // The primary menu's popover, its list and scroll bars (GTK names them by their class).
        if let popover = ui("menu").menuPopover {
            // TRANSLATORS: the accessible name of the primary menu (F10), as its button's.
            AccessibleNames.fillBuiltWhole(popover, fallback: tr("Main Menu"))
        }
    }

    /// The first label with a style class under `widget` (libadwaita's window title keeps
    /// its title and subtitle labels to itself).
    private static func label(in widget: Widget, class name: String) -> Widget? {
        if widget.is(.label), widget.hasClass(name) { return widget }
        for current in widget.children {
            if let found = label(in: current, class: name) { return found }
        }
        return nil
    }

    /// The daemon's state and what waits, from the feed's snapshot.
    func show(_ snapshot: AlertFeed.Snapshot, language: Language) {
        let service = snapshot.service
        let line = StatusLine.text(daemonRunning: service != nil, answering: service?.answering ?? true, awayReason: service?.awayReason,
                                   unanswered: snapshot.unanswered, water: nil, hasWaterReminder: false, language: language,
                                   plainWords: true)
        title.headingSubtitle = line
    }
}
