/// A person's language: how a message is translated (`tr`) and chosen by count (`trn`),
/// and the words NudgeCore writes in it (the pop-up's buttons, the catch-up line, the
/// drink-water reminder). NudgeCore never reads the locale or calls gettext: the daemon
/// and the CLI pass in the one their catalog gives (`Localization.Catalog.language`);
/// `.english` is the source text. One name per idea: a `Language` translates, a ``Phrase``
/// is a sentence kept until it is shown, a ``TimeStyle`` writes times, the `Catalog` is
/// gettext's file, and NudgeKit's `Labels` name stored values. Messages are marked
/// `tr("…")` and `trn("…", "…", n)` for `scripts/update-pot`, with printf placeholders
/// filled by ``format(_:_:)``.
public struct Language: Sendable {
    /// A message's translation.
    public let tr: @Sendable (String) -> String
    /// A message's form for a count, by the language's plural rule.
    public let trn: @Sendable (_ singular: String, _ plural: String, _ count: Int) -> String

    public init(tr: @escaping @Sendable (String) -> String,
                trn: @escaping @Sendable (_ singular: String, _ plural: String, _ count: Int) -> String) {
        self.tr = tr
        self.trn = trn
    }

    /// The source text.
    public static let english = Language(tr: { $0 }, trn: { $2 == 1 ? $0 : $1 })

    /// The Done button.
    public var done: String {
        // TRANSLATORS: the pop-up's button that acknowledges the reminder.
        tr("Done")
    }

    /// The Done-for-today button.
    public var doneForToday: String {
        // TRANSLATORS: the pop-up's button that acknowledges it and skips the rest of the day.
        tr("Done for today")
    }

    /// The Snooze button, for a snooze of so many minutes.
    public func snooze(minutes: Int) -> String {
        // TRANSLATORS: the pop-up's button; %d is a number of minutes.
        format(trn("Snooze %d min", "Snooze %d min", minutes), minutes)
    }

    /// The body of a catch-up pop-up: how many showings were missed since a local time.
    public func missed(_ count: Int, since: String) -> String {
        // TRANSLATORS: a catch-up pop-up's body; %1$d is how many showings were missed, %2$s a time of day (09:30).
        format(trn("Missed %1$d reminder since %2$s", "Missed %1$d reminders since %2$s", count), count, since)
    }

    /// The body of the pop-up shown on the person's return: how many showings were held
    /// (or passed) while they were away.
    public func whileAway(_ count: Int) -> String {
        // TRANSLATORS: the pop-up shown when the person is back; %d is how many showings waited.
        format(trn("While you were away: %d reminder", "While you were away: %d reminders", count), count)
    }

    /// The drink-water reminder's title, used when an alert is added without one.
    public var waterTitle: String {
        // TRANSLATORS: the title of the drink-water reminder, added when no title is given.
        tr("Time to drink water 💧")
    }

    /// The drink-water reminder's body.
    public var waterBody: String {
        // TRANSLATORS: the body of the drink-water reminder.
        tr("The WHO recommends 1.5–2 litres of water a day.")
    }

    /// A water reminder's button that logs a drink of the cup size.
    public func drank(_ millilitres: Int) -> String {
        // TRANSLATORS: a water reminder's button; %s is the cup size (250 ml).
        format(tr("Drank %s"), Water.text(millilitres))
    }

    /// A water reminder's progress line: "750 of 2,000 ml today".
    public func waterProgress(_ intake: Int, goal: Int) -> String {
        // TRANSLATORS: the day's water: %1$s drunk (a number), %2$s the goal (2,000 ml).
        format(tr("%1$s of %2$s today"), Water.number(intake), Water.text(goal))
    }
}
