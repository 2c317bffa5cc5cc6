import Presentation
import Localization
import NudgeCore

/// The words around `nudge ui`'s list: the bar's heading, the keys, and what is said
/// with no rows (the bar's status is ``StatusLine``).
public enum Chrome {
    /// "Nudge — 12 reminders", or under a filter "Nudge — 3 of 12 reminders".
    public static func heading(shown: Int, total: Int) -> String {
        // TRANSLATORS: nudge ui's title bar; %d is how many reminders.
        shown == total ? format(trn("Nudge — %d reminder", "Nudge — %d reminders", total), total)
            // TRANSLATORS: nudge ui's title bar under a filter; %1$d reminders match of %2$d.
            : format(trn("Nudge — %1$d of %2$d reminder", "Nudge — %1$d of %2$d reminders", total), shown, total)
    }

    /// What the list says with no rows.
    public static func empty(hasAlerts: Bool) -> String {
        // TRANSLATORS: nudge ui with no reminders, or none matching the filter.
        hasAlerts ? tr("Nothing matches the filter.") : tr("No reminders yet: press a to add one.")
    }

    /// The keys of the list, for the footer (the first 11) and `?` (all).
    public static var listKeys: [ScreenModel.Key] {
        [("↑↓", tr("move")), ("space", tr("on/off")), ("a", tr("add")), ("e", tr("edit")), ("d", tr("delete")), ("s", tr("snooze")),
         ("Enter", tr("done")), ("n", tr("next")), ("/", tr("filter")), ("?", tr("help")), ("q", tr("quit")),
         ("j k", tr("move")), ("g G", tr("first, last")), ("PgUp PgDn", tr("page")), ("Esc", tr("clear the filter")),
         (tr("click"), tr("select; on the switch: on/off")), ("Ctrl-L", tr("redraw")), ("Ctrl-Z", tr("suspend"))].map { ScreenModel.Key($0.0, $0.1) }
    }

    /// The keys of the form.
    public static var formKeys: [ScreenModel.Key] {
        [.init("Tab", tr("next field")), .init("←/→", tr("change")), .init("Enter", tr("save")), .init("Esc", tr("cancel"))]
    }

    /// `?`'s lines: each key and what it does.
    public static var help: [String] { listKeys.map { TextWidth.fit($0.key, 10) + " " + $0.action } }
}
