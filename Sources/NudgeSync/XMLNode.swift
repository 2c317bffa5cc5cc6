/// One XML element as a value: its namespace and local name, its text and its child
/// elements. What a WebDAV answer is once read (the reader is the transport's, over
/// libxml2); everything the sync core reads of servers is read from these.
public struct XMLNode: Sendable, Equatable {
    /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`), empty for none.
    public var namespace: String
    /// The local name (`multistatus`, `href`).
    public var name: String
    /// The text directly inside (text and CDATA children, joined), untrimmed.
    public var text: String
    /// The child elements, in order.
    public var children: [XMLNode]
    /// The attributes, by local name (`name` of `<C:comp name="VTODO"/>`).
    public var attributes: [String: String]

    public init(_ namespace: String, _ name: String, text: String = "", children: [XMLNode] = [], attributes: [String: String] = [:]) {
        self.namespace = namespace
        self.name = name
        self.text = text
        self.children = children
        self.attributes = attributes
    }

    /// Whether this is `{namespace}name`.
    public func `is`(_ namespace: String, _ name: String) -> Bool { self.name == name && self.namespace == namespace }

    /// The first child `{namespace}name`.
    public func child(_ namespace: String, _ name: String) -> XMLNode? { children.first { $0.is(namespace, name) } }

    /// Every child `{namespace}name`.
    public func all(_ namespace: String, _ name: String) -> [XMLNode] { children.filter { $0.is(namespace, name) } }

    /// The text, trimmed of XML white space.
    public var trimmed: String {
        String(text.unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
            .map(Character.init))
    }
}

/// The namespaces a CalDAV client reads and writes.
public enum Namespace {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// Apple's calendarserver: `getctag`.
    public static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple's iCal: `calendar-color`.
    public static let ical = "http://apple.com/ns/ical/"
}
