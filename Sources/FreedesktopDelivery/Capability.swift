/// A notification-server capability (`GetCapabilities`): an open set of names.
public struct Capability: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The capability's name on the wire.
    public var rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// Buttons are shown.
    public static let actions = Capability(rawValue: "actions")
    /// Bodies are shown.
    public static let body = Capability(rawValue: "body")
    /// Bodies are parsed as markup, so user text must be escaped.
    public static let bodyMarkup = Capability(rawValue: "body-markup")
    /// Pop-ups are kept until acknowledged.
    public static let persistence = Capability(rawValue: "persistence")
    /// The server plays `sound-name` / `sound-file`.
    public static let sound = Capability(rawValue: "sound")
}

/// What `GetServerInformation` says about the notification server.
public struct ServerInformation: Sendable, Hashable {
    /// The product name, e.g. `dunst`.
    public var name: String
    /// The vendor, e.g. `knopwob`.
    public var vendor: String
    /// The server's version.
    public var version: String
    /// The notification spec version it follows, e.g. `1.2`.
    public var specVersion: String

    /// Makes the record.
    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}
