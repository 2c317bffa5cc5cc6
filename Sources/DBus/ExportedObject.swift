/// An object this process offers on the bus: a path and the interfaces it implements.
///
/// Method handlers get the call's arguments, already checked against the declared
/// signature, and return the reply's values; a thrown ``BusError`` becomes an error reply.
/// `org.freedesktop.DBus.Introspectable` is answered from the declarations.
public final class ExportedObject {
    /// The object path, e.g. `/io/github/nudge/Nudge`.
    public let path: String
    /// The interfaces, each with its methods and signals.
    public let interfaces: [Interface]

    /// Declares an object at a path.
    public init(path: String, interfaces: [Interface]) {
        self.path = path
        self.interfaces = interfaces
    }

    /// A named argument of a method or signal.
    public struct Argument: Sendable {
        /// The argument's name in introspection data.
        public var name: String
        /// Its single complete type, e.g. `s` or `a{sv}`.
        public var type: String
        /// Names an argument.
        public init(_ name: String, _ type: String) {
            self.name = name
            self.type = type
        }
    }

    /// A method: its arguments, results and handler.
    public struct Method {
        /// The method name.
        public var name: String
        /// The arguments it takes.
        public var inputs: [Argument]
        /// The values it returns.
        public var outputs: [Argument]
        /// Runs the method.
        public var handler: (_ arguments: [Value], _ call: Message) throws(BusError) -> [Value]

        /// Declares a method.
        public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                    handler: @escaping (_ arguments: [Value], _ call: Message) throws(BusError) -> [Value]) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.handler = handler
        }

        var inputSignature: String { inputs.map(\.type).joined() }
    }

    /// A signal the object emits, for introspection.
    public struct Signal: Sendable {
        /// The signal name.
        public var name: String
        /// Its arguments.
        public var arguments: [Argument]
        /// Declares a signal.
        public init(_ name: String, arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// One interface of the object.
    public struct Interface {
        /// The interface name.
        public var name: String
        /// Its methods.
        public var methods: [Method]
        /// Its signals.
        public var signals: [Signal]
        /// Declares an interface.
        public init(_ name: String, methods: [Method] = [], signals: [Signal] = []) {
            self.name = name
            self.methods = methods
            self.signals = signals
        }
    }

    static let introspectable = "org.freedesktop.DBus.Introspectable"

    /// The reply to a method call, or `nil` when the call is not for this object.
    func handle(_ call: Message) -> Message? {
        guard let member = call.member else { return nil }
        if member == "Introspect", call.interface == nil || call.interface == Self.introspectable {
            return try? reply(to: call, with: [.string(introspectionXML)])
        }
        let candidates = interfaces.filter { call.interface == nil || $0.name == call.interface }
        guard let method = candidates.lazy.flatMap(\.methods).first(where: { $0.name == member }) else {
            return nil
        }
        do throws(BusError) {
            guard call.signature == method.inputSignature else {
                throw BusError(.invalidArgs,
                               "\(member) takes (\(method.inputSignature)), got (\(call.signature))")
            }
            let results = try method.handler(try call.arguments(), call)
            return try reply(to: call, with: results)
        } catch {
            return try? call.errorReply(error)
        }
    }

    private func reply(to call: Message, with values: [Value]) throws(BusError) -> Message {
        let reply = try call.methodReturn()
        try reply.append(contentsOf: values)
        return reply
    }

    /// The introspection document for this object.
    public var introspectionXML: String {
        var xml = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="\(Self.introspectable)">
            <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
          </interface>

        """
        for interface in interfaces {
            xml += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods {
                xml += "    <method name=\"\(method.name)\">\n"
                for arg in method.inputs { xml += "      <arg name=\"\(arg.name)\" type=\"\(arg.type)\" direction=\"in\"/>\n" }
                for arg in method.outputs { xml += "      <arg name=\"\(arg.name)\" type=\"\(arg.type)\" direction=\"out\"/>\n" }
                xml += "    </method>\n"
            }
            for signal in interface.signals {
                xml += "    <signal name=\"\(signal.name)\">\n"
                for arg in signal.arguments { xml += "      <arg name=\"\(arg.name)\" type=\"\(arg.type)\"/>\n" }
                xml += "    </signal>\n"
            }
            xml += "  </interface>\n"
        }
        return xml + "</node>\n"
    }
}
