import Presentation
import Foundation
import Localization
import NudgeCore

/// The status line's countdown to the next showing: in seconds for the last minute, else
/// in minutes, and the screen wakes only when the words change: once a second in the last
/// minute, else once a minute.
public enum Countdown {
    /// "Next: Stretch, in 12 min", and the milliseconds until the words change; `due` once
    /// the instant has come (the list's order changes: read the store again).
    public static func line(title: String, next: Date, now: Date) -> (text: String, changesIn: Int32, due: Bool) {
        // TRANSLATORS: nudge ui's status line; %1$s is the next reminder's title, %2$s when
        // ("in 12 min", "now").
        func status(_ when: String) -> String { format(tr("Next: %1$s, %2$s"), title.escapingControls, when) }
        let left = next.timeIntervalSince(now)
        if left <= 0 { return (status(tr("now")), 1000, true) }
        let seconds = Int(left.rounded(.up))
        // Seconds in the last minute, else each time the minutes change (the words in the
        // second minute say "in 2 min" for sixty seconds: no wake-up for each).
        let wait = seconds <= 60 ? left - Double(seconds - 1) : left - Double((seconds - 1) / 60 * 60)
        return (status(words(seconds)), Int32(clamping: Int((wait * 1000).rounded(.up)) + 1), false)
    }

    /// "in 42 s", "in 12 min", "in 3 h 5 min", "in 2 days".
    public static func words(_ seconds: Int) -> String {
        // TRANSLATORS: nudge ui's countdown to the next reminder, in seconds.
        if seconds < 60 { return format(tr("in %d s"), seconds) }
        let minutes = (seconds + 59) / 60
        // TRANSLATORS: nudge ui's countdown to the next reminder, in minutes.
        if minutes < 60 { return format(tr("in %d min"), minutes) }
        // TRANSLATORS: nudge ui's countdown, in hours and minutes.
        if minutes < 24 * 60 { return format(tr("in %1$d h %2$d min"), minutes / 60, minutes % 60) }
        // TRANSLATORS: nudge ui's countdown, in days.
        return format(trn("in %d day", "in %d days", minutes / 1440), minutes / 1440)
    }
}
