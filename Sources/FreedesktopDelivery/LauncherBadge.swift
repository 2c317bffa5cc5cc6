import DBus
import NudgeCore

/// The count on the app's launcher icon (`com.canonical.Unity.LauncherEntry`), shown by
/// docks and panels that implement it (Ubuntu Dock, Dash to Dock, Plank, KDE's task manager).
///
/// The signal carries the whole state every time (count as int64, the water progress as a
/// double, and whether each is visible), so a dock that starts late is right after the next
/// change. KDE's task manager and Dash to Dock draw both; others draw the count.
public struct LauncherBadge {
    /// The signal's interface.
    public static let interface = "com.canonical.Unity.LauncherEntry"
    /// The launcher entry: the desktop file id as an `application://` URI.
    public static let appURI = "application://\(Notification.appID).desktop"

    private let connection: Connection
    private let path: String

    /// A badge sent from `path` over `connection`.
    public init(connection: Connection, path: String) {
        self.connection = connection
        self.path = path
    }

    /// What the launcher shows.
    public struct State: Sendable, Hashable {
        /// The reminders waiting for an answer (hidden at 0).
        public var count: Int
        /// The day's water, 0–1 of the goal; `nil` hides the bar (no water reminder).
        public var progress: Double?

        /// A state; `progress` is clamped to 0–1.
        public init(count: Int, progress: Double? = nil) {
            self.count = count
            self.progress = progress.map { $0.isFinite ? min(1, max(0, $0)) : 0 }
        }
    }

    /// Shows a state with `Update(s app_uri, a{sv} properties)`.
    public func show(_ state: State) throws(BusError) {
        try connection.emit(path: path, interface: Self.interface, member: "Update", arguments: [
            .string(Self.appURI),
            .vardict([("count", .int64(Int64(state.count))), ("count-visible", .bool(state.count > 0)),
                      ("progress", .double(state.progress ?? 0)), ("progress-visible", .bool(state.progress != nil))]),
        ])
    }
}
