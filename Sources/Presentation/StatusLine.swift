import NudgeKit

/// How reminders are doing, in one line: whether the daemon runs, why it holds
/// reminders, how many pop-ups wait, and the day's water when there is any to say
/// (`nudge ui`'s bar, the window's subtitle).
public enum StatusLine {
    /// The line; `water` is left out where the face shows the water on its own.
    /// `plainWords` says it as the window does, for people who never met a daemon
    /// ("Reminders are on"); `nudge ui` names the daemon, as the command line does.
    /// `answering` false: the daemon runs but did not answer (stopped or busy).
    public static func text(daemonRunning: Bool, answering: Bool = true, awayReason: String?, unanswered: Int, water: WaterProgress?,
                            hasWaterReminder: Bool, language: Language, plainWords: Bool = false) -> String {
        var parts: [String]
        if daemonRunning, !answering {
            parts = [plainWords
                // TRANSLATORS: the window's subtitle while Nudge's service runs but does not answer (stopped or busy): reminders may be late.
                ? tr("Nudge's service is not answering")
                // TRANSLATORS: nudge ui's status bar while the daemon runs but does not answer (stopped or busy), as nudge doctor says it.
                : tr("daemon running but not answering")]
        } else if plainWords {
            // TRANSLATORS: the window's subtitle: reminders are shown at their time (the service runs) / are not.
            parts = [daemonRunning ? tr("Reminders are on") : tr("Reminders are paused")]
        } else {
            parts = [daemonRunning ? tr("daemon running") : tr("daemon not running")]
        }
        if let awayReason, !awayReason.isEmpty {
            // TRANSLATORS: nudge ui's status bar while the daemon holds reminders; %s says
            // why ("screen locked", "do not disturb").
            parts.append(plainWords ? format(tr("they wait: %s"), awayReason) : format(tr("holding: %s"), awayReason))
        }
        // TRANSLATORS: nudge ui's status bar: how many pop-ups wait for an answer.
        if unanswered > 0 { parts.append(format(trn("%d unanswered", "%d unanswered", unanswered), unanswered)) }
        if let water, water.intake > 0 || hasWaterReminder { parts.append(language.waterProgress(water.intake, goal: water.goal)) }
        return parts.joined(separator: " · ")
    }
}
