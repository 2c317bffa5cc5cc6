/// The names of the Nudge daemon's service on the session bus.
public enum NudgeService {
    /// The well-known name the daemon owns (also the application id).
    public static let busName = "io.github.nudge.Nudge"
    /// The daemon's object.
    public static let objectPath = "/io/github/nudge/Nudge"
    /// The daemon's interface: the methods `Reload`, `Status`, `Next`, `Ack`, `Done`, `Snooze`
    /// and `Drink`, and the signals `Fired` and `Water`.
    public static let interface = "io.github.nudge.Nudge1"
    /// Nudge's version, as every program of it says it.
    public static let version = "0.1.0"
    /// Where Nudge lives, where its guide is read and where a problem is reported: the
    /// metainfo's `<url>`s (homepage, help, bugtracker), which software centres show; the
    /// window's About and Help use these. MetainfoTests holds the two equal.
    public static let website = "https://github.com/nudge/nudge"
    public static let help = "https://github.com/nudge/nudge/blob/main/docs/guide.md"
    public static let issues = "https://github.com/nudge/nudge/issues"
    /// Who made it and under which license (the metainfo's `developer_name`, `project_license`).
    public static let developers = "The Nudge developers"
    public static let license = "Apache-2.0"
    /// The name the window owns while it is open (see `nudge-window`): a second start asks
    /// it to come up instead of opening another window.
    public static let windowBusName = "io.github.nudge.Nudge.Window"
    /// The window's object and interface: `Present(s id)`, an empty id for none, and
    /// `Search(s text)`, the window with its search holding `text`.
    public static let windowObjectPath = "/io/github/nudge/Nudge/Window"
    public static let windowInterface = "io.github.nudge.Nudge.Window1"
}
