import CDBus

/// An error from the bus or from a peer, carrying the D-Bus error name and its message.
///
/// The name is kept exactly as it travelled on the wire, so callers can tell
/// `org.freedesktop.DBus.Error.ServiceUnknown` (nobody there) from `NoReply` (somebody
/// there who did not answer) and map them to what the person should do.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    public var name: Name
    /// The human-readable message that came with the error; may be empty.
    public var message: String

    /// Makes an error from a name and a message.
    public init(_ name: Name, _ message: String = "") {
        self.name = name
        self.message = message
    }

    /// Takes the contents of a set libdbus `DBusError` and frees it (`dbus_error_free`).
    init(consuming error: inout CDBus.DBusError) {
        let name = error.name.map { String(cString: $0) } ?? Name.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        self.init(Name(rawValue: name), message)
    }

    /// `name: message`, the way D-Bus tools print errors.
    public var description: String {
        message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)"
    }

    /// A D-Bus error name: an open set of values, with the ones Nudge meets as members.
    public struct Name: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The dotted error name as on the wire.
        public var rawValue: String
        /// Wraps a dotted error name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The dotted error name.
        public var description: String { rawValue }

        private static func standard(_ suffix: String) -> Name {
            Name(rawValue: "org.freedesktop.DBus.Error." + suffix)
        }
        /// A generic failure.
        public static let failed = standard("Failed")
        /// Out of memory.
        public static let noMemory = standard("NoMemory")
        /// No such name on the bus, and nothing that could be activated for it.
        public static let serviceUnknown = standard("ServiceUnknown")
        /// The name has no owner (from bus queries such as GetNameOwner).
        public static let nameHasNoOwner = standard("NameHasNoOwner")
        /// The peer did not answer within the timeout.
        public static let noReply = standard("NoReply")
        /// The bus address could not be reached.
        public static let noServer = standard("NoServer")
        /// An I/O error talking to the bus.
        public static let ioError = standard("IOError")
        /// The address was malformed or unusable.
        public static let badAddress = standard("BadAddress")
        /// The connection was closed.
        public static let disconnected = standard("Disconnected")
        /// The arguments were not what the method takes.
        public static let invalidArgs = standard("InvalidArgs")
        /// The object has no such method.
        public static let unknownMethod = standard("UnknownMethod")
        /// There is no object at that path.
        public static let unknownObject = standard("UnknownObject")
        /// A timeout other than a method-call reply timeout.
        public static let timeout = standard("Timeout")
        /// The policy forbids the operation.
        public static let accessDenied = standard("AccessDenied")
        /// The message's signature does not match its contents.
        public static let invalidSignature = standard("InvalidSignature")
        /// Bus activation of a service failed because its process exited.
        public static let spawnChildExited = standard("Spawn.ChildExited")
        /// Bus activation of a service failed because its process died of a signal.
        public static let spawnChildSignaled = standard("Spawn.ChildSignaled")
    }
}
