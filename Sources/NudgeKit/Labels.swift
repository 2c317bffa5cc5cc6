import Foundation
import Localization
import NudgeCore

/// What a person calls a stored value: log events, list headers, alert states. The
/// stored and `--json` forms (`fired`, `done-for-today`) never change; these are what a
/// person reads, in their language.
public enum Labels {
    /// A log event as a person reads it; an event this version does not know stays as stored.
    public static func event(_ event: String) -> String {
        switch event {
        // TRANSLATORS: log events (nudge log): a reminder was shown.
        case "fired": tr("fired")
        // TRANSLATORS: log event: the server answered late, the pop-up was shown all the same.
        case "shown-late": tr("shown late")
        // TRANSLATORS: log event: the person said Done.
        case "acknowledged": tr("acknowledged")
        // TRANSLATORS: log event: the person chose Snooze.
        case "snoozed": tr("snoozed")
        // TRANSLATORS: log event: a snoozed reminder came back.
        case "snooze-fired": tr("snooze ended")
        // TRANSLATORS: log event: the person chose Done for today.
        case "done-for-today": tr("done for today")
        // TRANSLATORS: log event: the person closed the pop-up without answering.
        case "dismissed": tr("dismissed")
        // TRANSLATORS: log event: the reminder's alarm was answered on another device (a phone), read from its calendar.
        case "answered-elsewhere": tr("answered elsewhere")
        // TRANSLATORS: log event: the pop-up expired unanswered.
        case "expired": tr("expired")
        // TRANSLATORS: log event: showings passed while nothing ran and were not shown.
        case "missed": tr("missed")
        // TRANSLATORS: log event: showings that passed were shown as one pop-up.
        case "caught-up": tr("caught up")
        // TRANSLATORS: log event: the person chose "Drank" on a water reminder.
        case "drank": tr("drank")
        // TRANSLATORS: log event: the day's water goal was met; the water reminder rests until the next day.
        case "goal-met": tr("goal met")
        // TRANSLATORS: log event: showings came due while the person was away and wait for their return.
        case "held": tr("held")
        // TRANSLATORS: log event: the person is back; what was held is shown as one pop-up.
        case "shown-on-return": tr("shown on return")
        // TRANSLATORS: log event: an unanswered pop-up shown again (--nag); the number is the try.
        case "nagged": tr("shown again unanswered")
        // TRANSLATORS: log event: the notification server could not show it.
        case "failed": tr("failed")
        // TRANSLATORS: log event: shown again once a notification server was back.
        case "redelivered": tr("shown again")
        default: event
        }
    }

    /// A log entry's stored detail as a person reads it: the forms the daemon writes
    /// (`until …`, `since …`) in their language, anything else as stored.
    public static func detail(_ text: String) -> String {
        // TRANSLATORS: nudge log: a snooze lasts until %s (a date and time).
        if text.hasPrefix("until ") { return format(tr("until %s"), String(text.dropFirst(6))) }
        // TRANSLATORS: nudge log: showings missed since %s (a date and time).
        if text.hasPrefix("since ") { return format(tr("since %s"), String(text.dropFirst(6))) }
        // TRANSLATORS: nudge log: when a reminder was answered on another device; %s is a date and time.
        if text.hasPrefix("at ") { return format(tr("at %s"), String(text.dropFirst(3))) }
        return text
    }

    /// An urgency as a person reads it (`--urgency` takes the English words).
    public static func urgency(_ urgency: Urgency) -> String {
        switch urgency {
        // TRANSLATORS: an alert's urgency (nudge show).
        case .low: tr("low")
        case .normal: tr("normal")
        case .critical: tr("critical")
        }
    }

    /// `nudge list`'s column headings, also `nudge ui`'s: id, state, next, schedule, title.
    // TRANSLATORS: column headers of nudge list.
    public static var listHeaders: [String] { [tr("ID"), tr("STATE"), tr("NEXT"), tr("SCHEDULE"), tr("TITLE")] }

    /// The state of an alert switched on, when nothing more is to be said (also what
    /// `nudge on` announces).
    // TRANSLATORS: an alert's state (nudge list, nudge show).
    public static var on: String { tr("on") }
    /// The state of an alert switched off (also what `nudge off` announces).
    // TRANSLATORS: an alert's state: switched off.
    public static var off: String { tr("off") }
    /// The state of an alert whose pop-up is snoozed and comes back later.
    // TRANSLATORS: an alert's state: snoozed.
    public static var snoozed: String { tr("snoozed") }
    /// The state of an alert done for the rest of its day.
    // TRANSLATORS: an alert's state: done for the rest of today.
    public static var doneToday: String { tr("done today") }
    /// The state of a water reminder resting because the day's water goal is met.
    // TRANSLATORS: a water reminder's state: the day's water goal is met.
    public static var goalMet: String { tr("goal met") }
}

extension Labels {
    /// What stands for a place reminder's next showing, where other reminders have a time:
    /// "on arrival", "on leaving"; `nil` for a schedule of times.
    public static func placeNext(_ schedule: Schedule) -> String? {
        guard case .place(let trigger) = schedule else { return nil }
        switch trigger.edge {
        // TRANSLATORS: a place reminder's next showing, in list's NEXT column: when the person arrives.
        case .arrive: return tr("on arrival")
        // TRANSLATORS: a place reminder's next showing, in list's NEXT column: when the person leaves.
        case .leave: return tr("on leaving")
        }
    }

    /// Why a place reminder has no next time: "no time can be known: it comes up on
    /// arriving at office-wifi"; `nil` for a schedule of times.
    public static func noTime(_ schedule: Schedule, zone: TimeZone, timeStyle: TimeStyle = .iso) -> String? {
        guard case .place = schedule else { return nil }
        // TRANSLATORS: nudge next (and show) for a place reminder: %s is its schedule in words (on arriving at office-wifi).
        return format(tr("no time can be known: it comes up %s"), schedule.summary(in: zone, timeStyle: timeStyle, language: Catalog.shared.language))
    }
}
