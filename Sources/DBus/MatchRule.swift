/// A D-Bus match rule for signals: the bus forwards matching broadcasts, and the
/// connection hands matching messages to the subscriber.
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    /// Only messages from this sender (a well-known or unique name); checked by the bus.
    public var sender: String?
    /// Only this interface.
    public var interface: String?
    /// Only this signal name.
    public var member: String?
    /// Only this object path.
    public var path: String?
    /// Only when the first argument is this string (e.g. a name for NameOwnerChanged).
    public var arg0: String?

    /// A rule for signals; every field left `nil` matches anything.
    public init(sender: String? = nil, interface: String? = nil, member: String? = nil,
                path: String? = nil, arg0: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.arg0 = arg0
    }

    /// The rule in the bus's text form, e.g. `type='signal',interface='…'`.
    public var description: String {
        var parts = ["type='signal'"]
        for (key, value) in [("sender", sender), ("interface", interface), ("member", member),
                             ("path", path), ("arg0", arg0)] {
            if let value { parts.append("\(key)='\(value)'") }
        }
        return parts.joined(separator: ",")
    }

    /// Whether a received message fits the rule. The sender is left to the bus: signals
    /// come from unique names, and unicast ones are delivered without any rule.
    func matches(_ message: Message) -> Bool {
        guard message.kind == .signal else { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let arg0 {
            guard let first = try? message.arguments().first, first.string == arg0 else { return false }
        }
        return true
    }
}
