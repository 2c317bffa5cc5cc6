import Localization
import NudgeCore

/// The words around the list: the bar's heading and status, the keys, and what is said
/// with no rows.
public enum Chrome {
    /// "Nudge — 12 reminders", or under a filter "Nudge — 3 of 12 reminders".
    public static func heading(shown: Int, total: Int) -> String {
        // TRANSLATORS: nudge ui's title bar; %d is how many reminders.
        shown == total ? format(trn("Nudge — %d reminder", "Nudge — %d reminders", total), total)
            // TRANSLATORS: nudge ui's title bar under a filter; %1$d reminders match of %2$d.
            : format(trn("Nudge — %1$d of %2$d reminder", "Nudge — %1$d of %2$d reminders", total), shown, total)
    }

    /// The bar's right part: whether the daemon runs, why it holds reminders, how many
    /// pop-ups wait, and the day's water when there is any to say.
    public static func status(daemonRunning: Bool, awayReason: String?, unanswered: Int, water: WaterProgress?, hasWaterReminder: Bool,
                              language: Language) -> String {
        var parts = [daemonRunning ? tr("daemon running") : tr("daemon not running")]
        if let awayReason, !awayReason.isEmpty {
            // TRANSLATORS: nudge ui's status bar while the daemon holds reminders; %s says
            // why ("screen locked", "do not disturb").
            parts.append(format(tr("holding: %s"), awayReason))
        }
        // TRANSLATORS: nudge ui's status bar: how many pop-ups wait for an answer.
        if unanswered > 0 { parts.append(format(trn("%d unanswered", "%d unanswered", unanswered), unanswered)) }
        if let water, water.intake > 0 || hasWaterReminder { parts.append(language.waterProgress(water.intake, goal: water.goal)) }
        return parts.joined(separator: " · ")
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
