/// A store failure in terms of what the person can do about it.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// No alert has that id or prefix.
        case notFound
        /// The prefix matches several alerts.
        case ambiguous
        /// The prefix is too short or not hex.
        case badID
        /// The database file is damaged or not a database.
        case corrupt
        /// The file or its folder cannot be read or written.
        case io
    }

    /// The kind of failure.
    public var kind: Kind
    /// One line saying what is wrong and, where it helps, what to do.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
