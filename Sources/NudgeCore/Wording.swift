/// The words NudgeCore writes for a person: the pop-up's buttons, the catch-up line and the
/// drink-water reminder. NudgeCore never reads the locale or calls gettext: the daemon and
/// the CLI pass in the words of the person's language (`Localization.Catalog.wording`);
/// `.english` is the source text.
public struct Wording: Sendable {
    /// The Done button.
    public var done: String
    /// The Done-for-today button.
    public var doneForToday: String
    /// The Snooze button, for a snooze of so many minutes.
    public var snooze: @Sendable (_ minutes: Int) -> String
    /// The body of a catch-up pop-up: how many showings were missed since a local time.
    public var missed: @Sendable (_ count: Int, _ since: String) -> String
    /// The drink-water reminder's title and body, used when an alert is added without a title.
    public var waterTitle: String
    public var waterBody: String

    public init(done: String, doneForToday: String, snooze: @escaping @Sendable (_ minutes: Int) -> String,
                missed: @escaping @Sendable (_ count: Int, _ since: String) -> String,
                waterTitle: String, waterBody: String) {
        self.done = done
        self.doneForToday = doneForToday
        self.snooze = snooze
        self.missed = missed
        self.waterTitle = waterTitle
        self.waterBody = waterBody
    }

    /// The source text.
    public static let english = Wording(
        done: "Done", doneForToday: "Done for today",
        snooze: { "Snooze \($0) min" },
        missed: { "Missed \($0) reminder\($0 == 1 ? "" : "s") since \($1)" },
        waterTitle: "Time to drink water 💧", waterBody: "The WHO recommends 1.5–2 litres of water a day.")
}
