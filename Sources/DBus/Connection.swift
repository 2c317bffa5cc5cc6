#if canImport(Glibc)
import Glibc
#endif
import CDBus

/// A private connection to a message bus (wraps `DBusConnection`).
///
/// Private, so nothing else in the process shares or closes it; exit-on-disconnect is
/// turned off, so losing the bus is an event the owner handles instead of libdbus calling
/// `_exit(1)`. Not thread-safe by design: one connection belongs to one loop.
public final class Connection {
    let raw: OpaquePointer
    private var subscriptions: [(rule: MatchRule, handler: (Message) -> Void)] = []
    private var objects: [String: ObjectBox] = [:]
    /// The poll-loop bookkeeping, once ``integrateWithLoop()`` was called.
    var loop: LoopIntegration?
    /// Set once libdbus reported the connection closed.
    public internal(set) var isDisconnected = false
    /// Handlers for replies that come after their call timed out, by the call's serial
    /// (see ``send(_:timeout:reply:late:)``); the oldest are dropped past a few hundred.
    public internal(set) var lateReplies: [UInt32: (Message) -> Void] = [:]
    /// Sees every message once the connection is a monitor (``monitor(_:handler:)``).
    private var monitorHandler: ((Message) -> Void)?
    var lateOrder: [UInt32] = []

    /// Connects to a bus at an address and registers with it (`dbus_connection_open_private`,
    /// `dbus_bus_register`). The only way in: the session bus's address comes from
    /// `Platform.Environment.sessionBusAddress`, never from libdbus's own lookup, which may
    /// autolaunch a bus and ignores `DBUS_STARTER_ADDRESS`.
    public static func bus(address: String) throws(BusError) -> Connection {
        var error = CDBus.DBusError()
        guard let raw = dbus_connection_open_private(address, &error) else {
            throw BusError(consuming: &error)
        }
        let connection = Connection(raw)
        guard dbus_bus_register(raw, &error) != 0 else { throw BusError(consuming: &error) }
        return connection
    }

    private init(_ raw: OpaquePointer) {
        self.raw = raw
        dbus_connection_set_exit_on_disconnect(raw, 0)
        dbus_connection_add_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        for path in objects.keys { dbus_connection_unregister_object_path(raw, path) }
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// The unique name the bus gave this connection, e.g. `:1.42`.
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    // MARK: Calls

    /// The default reply timeout: two seconds, never libdbus's 25.
    public static let defaultTimeout: Duration = .seconds(2)

    /// Sends a method call and waits for its reply (`dbus_connection_send_with_reply_and_block`).
    /// Messages that arrive meanwhile are queued, not lost. An error reply is thrown.
    public func call(_ message: Message, timeout: Duration = Connection.defaultTimeout) throws(BusError) -> Message {
        var error = CDBus.DBusError()
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, timeout.milliseconds, &error) else {
            throw BusError(consuming: &error)
        }
        return Message(owning: reply)
    }

    /// Calls a method and returns the reply's values.
    public func call(
        destination: String, path: String, interface: String, member: String,
        arguments: [Value] = [], timeout: Duration = Connection.defaultTimeout, autoStart: Bool = true
    ) throws(BusError) -> [Value] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        message.autoStart = autoStart
        try message.append(contentsOf: arguments)
        return try call(message, timeout: timeout).arguments()
    }

    /// A property's value (`org.freedesktop.DBus.Properties.Get`), out of its variant;
    /// never starting a service.
    public func property(_ name: String, of interface: String, at destination: String, path: String,
                         timeout: Duration = Connection.defaultTimeout) throws(BusError) -> Value? {
        try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                 arguments: [.string(interface), .string(name)], timeout: timeout, autoStart: false).first?.unwrapped
    }

    /// Queues a message for sending and returns its serial (`dbus_connection_send`).
    @discardableResult
    public func send(_ message: Message) throws(BusError) -> UInt32 {
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else { throw BusError(.noMemory) }
        return serial
    }

    /// Emits a signal from this connection.
    ///
    /// With a `destination` the signal goes to that connection alone (as Mutter sends
    /// `WatchFired` to the watch's owner).
    public func emit(path: String, interface: String, member: String, arguments: [Value], destination: String? = nil) throws(BusError) {
        let message = try Message.signal(path: path, interface: interface, member: member)
        if let destination { dbus_message_set_destination(message.raw, destination) }
        try message.append(contentsOf: arguments)
        try send(message)
    }

    /// Blocks until everything queued was written (`dbus_connection_flush`).
    public func flush() { dbus_connection_flush(raw) }

    // MARK: The bus itself

    private func busCall(_ member: String, _ arguments: [Value]) throws(BusError) -> [Value] {
        try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                 interface: "org.freedesktop.DBus", member: member, arguments: arguments)
    }

    /// Whether a name has an owner now (`NameHasOwner`); never starts a service.
    public func nameHasOwner(_ name: String) throws(BusError) -> Bool {
        try busCall("NameHasOwner", [.string(name)]).first?.bool ?? false
    }

    /// The unique name owning a name, or `nil` when nobody does.
    public func nameOwner(_ name: String) throws(BusError) -> String? {
        do {
            return try busCall("GetNameOwner", [.string(name)]).first?.string
        } catch where error.name == .nameHasNoOwner {
            return nil
        }
    }

    /// The process id behind a bus name (`GetConnectionUnixProcessID`).
    public func processID(of name: String) throws(BusError) -> UInt32? {
        try busCall("GetConnectionUnixProcessID", [.string(name)]).first?.uint32
    }

    /// Flags for ``requestName(_:flags:)`` (`DBUS_NAME_FLAG_*`).
    public struct NameFlags: OptionSet, Sendable {
        /// The raw flag bits.
        public let rawValue: UInt32
        /// Wraps flag bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Others may take the name with ``replaceExisting``.
        public static let allowReplacement = NameFlags(rawValue: UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT))
        /// Take the name from its owner if it allows that.
        public static let replaceExisting = NameFlags(rawValue: UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING))
        /// Do not wait in the queue when the name is taken.
        public static let doNotQueue = NameFlags(rawValue: UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE))
    }

    /// The bus's answer to ``requestName(_:flags:)`` (`DBUS_REQUEST_NAME_REPLY_*`).
    public enum RequestNameReply: Int32, Sendable {
        /// We own it now.
        case primaryOwner = 1
        /// We wait in the queue.
        case inQueue = 2
        /// Someone else owns it.
        case exists = 3
        /// We owned it already.
        case alreadyOwner = 4
    }

    /// Asks the bus for a well-known name (`dbus_bus_request_name`).
    public func requestName(_ name: String, flags: NameFlags = [.doNotQueue]) throws(BusError) -> RequestNameReply {
        try Validate.busName(name)
        var error = CDBus.DBusError()
        let result = dbus_bus_request_name(raw, name, flags.rawValue, &error)
        if result < 0 { throw BusError(consuming: &error) }
        return RequestNameReply(rawValue: result) ?? .exists
    }

    /// Gives a well-known name back (`dbus_bus_release_name`).
    public func releaseName(_ name: String) throws(BusError) {
        var error = CDBus.DBusError()
        if dbus_bus_release_name(raw, name, &error) < 0 { throw BusError(consuming: &error) }
    }

    // MARK: Signals

    /// Adds the rule on the bus (`dbus_bus_add_match`) and calls `handler` for every
    /// matching signal while the connection is being processed.
    ///
    /// With `confirmed: false` the rule is sent without waiting for the bus's reply: the
    /// bus handles a connection's messages in order, so the rule is in force before any
    /// call sent after it, and a short-lived client saves a round trip.
    public func subscribe(_ rule: MatchRule, confirmed: Bool = true,
                          handler: @escaping (Message) -> Void) throws(BusError) {
        if confirmed {
            var error = CDBus.DBusError()
            dbus_bus_add_match(raw, rule.description, &error)
            if dbus_error_is_set(&error) != 0 { throw BusError(consuming: &error) }
        } else {
            dbus_bus_add_match(raw, rule.description, nil)
        }
        subscriptions.append((rule, handler))
    }

    /// Returns whether the message is dealt with (nothing else may answer it).
    fileprivate func filter(_ message: Message) -> Bool {
        if message.isSignal(interface: "org.freedesktop.DBus.Local", member: "Disconnected") {
            isDisconnected = true
        }
        // A monitor must never answer what it sees (the bus would drop it).
        if let monitorHandler {
            monitorHandler(message)
            return true
        }
        // A reply whose pending call timed out is no longer matched by libdbus: it comes
        // through here, and a late handler may still want it.
        if message.kind == .methodReturn || message.kind == .error, !lateReplies.isEmpty,
           let late = lateReplies.removeValue(forKey: message.replySerial) {
            late(message)
            return true
        }
        for entry in subscriptions where entry.rule.matches(message) {
            entry.handler(message)
        }
        return false
    }

    /// Makes this connection a bus monitor (`org.freedesktop.DBus.Monitoring.BecomeMonitor`):
    /// from then on it only receives copies of the messages that match `rules` (in the
    /// bus's text form, e.g. `type='method_call',member='Notify'`), each handed to
    /// `handler` while the connection is processed. What `dbus-monitor` does, with the
    /// messages as typed values instead of text.
    public func monitor(_ rules: [String], handler: @escaping (Message) -> Void) throws(BusError) {
        _ = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                     interface: "org.freedesktop.DBus.Monitoring", member: "BecomeMonitor",
                     arguments: [.strings(rules), .uint32(0)])
        monitorHandler = handler
    }

    // MARK: Objects

    final class ObjectBox {
        let object: ExportedObject
        init(_ object: ExportedObject) { self.object = object }
    }

    /// Offers an object on this connection (`dbus_connection_try_register_object_path`).
    /// Calls to it run during ``process(timeout:)``; unknown methods get `UnknownMethod`.
    public func export(_ object: ExportedObject) throws(BusError) {
        try Validate.path(object.path)
        let box = ObjectBox(object)
        var vtable = DBusObjectPathVTable()
        vtable.message_function = { connection, message, context in
            guard let connection, let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let box = Unmanaged<ObjectBox>.fromOpaque(context).takeUnretainedValue()
            let call = Message(borrowing: message)
            guard call.kind == .methodCall, let reply = box.object.handle(call) else {
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            if !call.noReply { dbus_connection_send(connection, reply.raw, nil) }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        var error = CDBus.DBusError()
        guard dbus_connection_try_register_object_path(raw, object.path, &vtable,
                                                         Unmanaged.passUnretained(box).toOpaque(), &error) != 0 else {
            throw BusError(consuming: &error)
        }
        objects[object.path] = box
    }

    // MARK: Processing

    /// Reads, writes and dispatches for at most `timeout` (`dbus_connection_read_write_dispatch`);
    /// `nil` waits until something happens. Returns `false` once the bus is gone.
    @discardableResult
    public func process(timeout: Duration?) -> Bool {
        let ok = dbus_connection_read_write_dispatch(raw, timeout?.milliseconds ?? -1) != 0
        if !ok { isDisconnected = true }
        return ok && !isDisconnected
    }
}

/// The one filter every connection installs; removal needs the same function pointer.
private let connectionFilter: DBusHandleMessageFunction = { _, message, context in
    guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
    return connection.filter(Message(borrowing: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

extension Duration {
    /// Whole milliseconds, rounded up so a short timeout never becomes 0 (which libdbus
    /// would read as "return at once"), clamped to libdbus's `int`.
    var milliseconds: Int32 {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(ms, 0))
    }
}
