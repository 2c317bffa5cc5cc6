/// The names of the Nudge daemon's service on the session bus.
public enum NudgeService {
    /// The well-known name the daemon owns (also the application id).
    public static let busName = "io.github.nudge.Nudge"
    /// The daemon's object.
    public static let objectPath = "/io/github/nudge/Nudge"
    /// The daemon's interface: the methods `Reload`, `Status`, `Next`, `Ack`, `Done`, `Snooze`
    /// and `Drink`, and the signals `Fired` and `Water`.
    public static let interface = "io.github.nudge.Nudge1"
}
