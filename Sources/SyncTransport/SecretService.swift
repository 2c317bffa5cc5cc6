import DBus
import Foundation

/// Passwords in the Secret Service (`org.freedesktop.secrets`: gnome-keyring, KWallet,
/// KeePassXC), over our own D-Bus layer. A password goes from memory to the keyring and
/// back; it is never written to a file, put in argv or the environment, or logged.
///
/// Items are stored as libsecret's network passwords (schema
/// `org.gnome.keyring.NetworkPassword`: `user`, `server`, `protocol`, `port`, `object`),
/// the way other clients keep a server's password, so Seahorse shows "Nudge: ann on
/// cal.example.org"; an `application` attribute marks them as Nudge's, so removing an
/// account never removes another program's item for the same server.
///
/// The session is the `plain` algorithm: the bus between us and the keyring is the
/// user's own session bus, as libsecret does for a local keyring without a DH exchange
/// when it is asked for `plain`.
public final class SecretService {
    static let service = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    static let defaultCollection = "/org/freedesktop/secrets/aliases/default"
    static let schema = "org.gnome.keyring.NetworkPassword"
    static let application = "io.github.nudge.Nudge"

    /// Why the keyring could not be used.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No Secret Service on the bus.
        case absent
        /// The person dismissed the keyring's unlock prompt.
        case dismissed
        /// The keyring answered with an error: its name and words.
        case bus(String)
        /// The keyring has no default collection (no "login" keyring yet).
        case noCollection

        public var description: String {
            switch self {
            case .absent:
                "no keyring (Secret Service) is running on the session bus: install and start gnome-keyring (apt install gnome-keyring) or KWallet"
            case .dismissed: "the keyring stayed locked (its unlock prompt was dismissed)"
            case .noCollection: "the keyring has no default keyring to keep the password in: make one in Passwords and Keys (Seahorse), or log in to the desktop once"
            case .bus(let message): "the keyring refused: \(message)"
            }
        }
    }

    /// Which password: the account's user and server address.
    public struct Key: Sendable, Equatable {
        public var user: String
        public var url: String
        public init(user: String, url: String) {
            self.user = user
            self.url = url
        }

        /// The attributes the item carries.
        var attributes: [(String, String)] {
            let parts = URLComponents(string: url)
            var list = [("xdg:schema", SecretService.schema), ("application", SecretService.application), ("user", user),
                        ("server", parts?.host ?? url), ("protocol", parts?.scheme ?? "https")]
            if let port = parts?.port { list.append(("port", String(port))) }
            return list
        }

        /// The attributes an item is found by.
        var lookup: [(String, String)] { attributes.filter { $0.0 != "xdg:schema" } }

        /// Whether two accounts' passwords are the same keyring item (same user, scheme, host, port).
        public func sameItem(as other: Key) -> Bool {
            lookup.map { "\($0.0)=\($0.1)" } == other.lookup.map { "\($0.0)=\($0.1)" }
        }
    }

    private let bus: Connection
    private var session: String?
    /// How long the person has to answer an unlock prompt.
    public var promptTimeout: Duration = .seconds(300)

    public init(bus: Connection) { self.bus = bus }

    /// Stores `password` for `key`, replacing what Nudge stored for it before.
    public func store(_ password: String, for key: Key) throws(Failure) {
        let session = try openSession()
        try unlock([Self.defaultCollection])
        let attributes = Value.array(element: "{ss}", key.attributes.map { .dictEntry(.string($0.0), .string($0.1)) })
        let host = URLComponents(string: key.url)?.host ?? key.url
        let properties = Value.vardict([
            ("org.freedesktop.Secret.Item.Label", .string("Nudge: \(key.user) on \(host)")),
            ("org.freedesktop.Secret.Item.Attributes", attributes),
        ])
        let secret = Value.structure([.objectPath(session), .array(element: "y", []),
                                      .array(element: "y", Array(password.utf8).map { .byte($0) }),
                                      .string("text/plain; charset=utf8")])
        let reply = try call(Self.defaultCollection, "org.freedesktop.Secret.Collection", "CreateItem",
                             [properties, secret, .bool(true)])
        if let prompt = reply.dropFirst().first?.string, prompt != "/" { try run(prompt: prompt) }
    }

    /// The password stored for `key`, or `nil` if there is none.
    public func password(for key: Key) throws(Failure) -> String? {
        guard let item = try items(for: key).first else { return nil }
        try unlock([item])
        let session = try openSession()
        let reply = try call(Self.servicePath, "org.freedesktop.Secret.Service", "GetSecrets",
                             [.array(element: "o", [.objectPath(item)]), .objectPath(session)])
        guard let entries = reply.first?.elements else { return nil }
        for case .dictEntry(_, let value) in entries {
            guard case .structure(let fields) = value, fields.count >= 3, let bytes = fields[2].elements else { continue }
            return String(decoding: bytes.compactMap { if case .byte(let b) = $0 { b } else { nil } }, as: UTF8.self)
        }
        return nil
    }

    /// Removes what Nudge stored for `key`; nothing when there is none.
    public func remove(for key: Key) throws(Failure) {
        for item in try items(for: key) {
            let reply = try call(item, "org.freedesktop.Secret.Item", "Delete", [])
            if let prompt = reply.first?.string, prompt != "/" { try run(prompt: prompt) }
        }
    }

    /// Nudge's items for `key`, unlocked first.
    private func items(for key: Key) throws(Failure) -> [String] {
        let attributes = Value.array(element: "{ss}", key.lookup.map { .dictEntry(.string($0.0), .string($0.1)) })
        let reply = try call(Self.servicePath, "org.freedesktop.Secret.Service", "SearchItems", [attributes])
        let unlocked = reply.first?.elements?.compactMap(\.objectPathValue) ?? []
        let locked = reply.dropFirst().first?.elements?.compactMap(\.objectPathValue) ?? []
        return unlocked + locked
    }

    private func openSession() throws(Failure) -> String {
        if let session { return session }
        let reply = try call(Self.servicePath, "org.freedesktop.Secret.Service", "OpenSession", [.string("plain"), .variant(.string(""))])
        guard let path = reply.dropFirst().first?.objectPathValue else { throw .bus("OpenSession gave no session") }
        session = path
        return path
    }

    /// Unlocks `objects`, through the keyring's own prompt if it asks for one.
    private func unlock(_ objects: [String]) throws(Failure) {
        let reply = try call(Self.servicePath, "org.freedesktop.Secret.Service", "Unlock",
                             [.array(element: "o", objects.map { .objectPath($0) })])
        if let prompt = reply.dropFirst().first?.objectPathValue, prompt != "/" { try run(prompt: prompt) }
    }

    /// Shows a prompt and waits for the person's answer (`Completed`).
    private func run(prompt: String) throws(Failure) {
        nonisolated(unsafe) var outcome: Bool?
        do {
            try bus.subscribe(MatchRule(interface: "org.freedesktop.Secret.Prompt", member: "Completed", path: prompt)) { message in
                let dismissed = (try? message.arguments())?.first?.bool ?? true
                outcome = !dismissed
            }
        } catch {
            throw .bus(error.description)
        }
        _ = try call(prompt, "org.freedesktop.Secret.Prompt", "Prompt", [.string("")])
        let deadline = ContinuousClock.now + promptTimeout
        while outcome == nil, ContinuousClock.now < deadline {
            guard bus.process(timeout: .milliseconds(250)) else { throw .absent }
        }
        guard outcome == true else { throw .dismissed }
    }

    private func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value]) throws(Failure) -> [Value] {
        do {
            return try bus.call(destination: Self.service, path: path, interface: interface, member: member,
                                arguments: arguments, timeout: .seconds(25))
        } catch {
            if error.name == .serviceUnknown || error.name == .nameHasNoOwner {
                throw .absent
            }
            if error.name == .unknownMethod || error.name == .unknownObject || error.name.rawValue == "org.freedesktop.Secret.Error.NoSuchObject" {
                throw .noCollection
            }
            throw .bus(error.description)
        }
    }
}

extension Value {
    /// An object path's text.
    var objectPathValue: String? {
        if case .objectPath(let path) = self { return path }
        return nil
    }
}
