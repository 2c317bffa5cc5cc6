import DBus
import NudgeCore

/// The count on the app's launcher icon (`com.canonical.Unity.LauncherEntry`), shown by
/// docks and panels that implement it (Ubuntu Dock, Dash to Dock, Plank, KDE's task manager).
///
/// The signal carries the whole state every time (count as int64, visibility), so a dock
/// that starts late is right after the next change.
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

    /// Shows `count` (hidden at 0) with `Update(s app_uri, a{sv} properties)`.
    public func show(_ count: Int) throws(BusError) {
        try connection.emit(path: path, interface: Self.interface, member: "Update", arguments: [
            .string(Self.appURI),
            .vardict([("count", .int64(Int64(count))), ("count-visible", .bool(count > 0))]),
        ])
    }
}
