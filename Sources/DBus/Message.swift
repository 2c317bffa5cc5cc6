import CDBus

/// A D-Bus message: a method call, a reply, an error or a signal (wraps `DBusMessage`).
///
/// The Swift object owns one reference to the libdbus message and drops it in `deinit`,
/// so a message never leaks and never outlives the strings read from it.
public final class Message {
    let raw: OpaquePointer

    /// Takes over a reference the caller owns (from `new_*`, `pop_message`, a reply).
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to a message libdbus lends us (inside a filter or handler).
    init(borrowing raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A message from its wire bytes, as a peer's arrives (`dbus_message_demarshal`:
    /// libdbus checks the header, the signature and every value); `nil` when libdbus
    /// refuses them.
    public static func demarshal(_ bytes: UnsafeRawBufferPointer) -> Message? {
        guard let base = bytes.baseAddress, bytes.count <= Int(Int32.max) else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_message_demarshal(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error) else { return nil }
        return Message(owning: raw)
    }

    /// The message's wire bytes (`dbus_message_marshal`), with serial 1 when it has none
    /// yet (a message on the wire always has one); `nil` when out of memory.
    public func marshal() -> [UInt8]? {
        if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, 1) }
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { return nil }
        defer { dbus_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    /// The kinds of message (`DBUS_MESSAGE_TYPE_*`).
    public enum Kind: Int32, Sendable {
        /// A method call.
        case methodCall = 1
        /// A successful reply.
        case methodReturn = 2
        /// An error reply.
        case error = 3
        /// A signal.
        case signal = 4
    }

    /// A method call (`dbus_message_new_method_call`). Names are checked first, because
    /// libdbus aborts the process on an invalid one.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws(BusError) -> Message {
        if let destination { try Validate.busName(destination) }
        try Validate.path(path)
        if let interface { try Validate.interface(interface) }
        try Validate.member(member)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw BusError(.noMemory)
        }
        return Message(owning: raw)
    }

    /// A signal (`dbus_message_new_signal`).
    public static func signal(path: String, interface: String, member: String) throws(BusError) -> Message {
        try Validate.path(path)
        try Validate.interface(interface)
        try Validate.member(member)
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw BusError(.noMemory) }
        return Message(owning: raw)
    }

    /// A successful reply to this method call (`dbus_message_new_method_return`).
    public func methodReturn() throws(BusError) -> Message {
        guard let reply = dbus_message_new_method_return(raw) else { throw BusError(.noMemory) }
        return Message(owning: reply)
    }

    /// An error reply to this method call (`dbus_message_new_error`).
    public func errorReply(_ error: BusError) throws(BusError) -> Message {
        try Validate.errorName(error.name.rawValue)
        guard let reply = dbus_message_new_error(raw, error.name.rawValue, error.message) else {
            throw BusError(.noMemory)
        }
        return Message(owning: reply)
    }

    /// The kind of message.
    public var kind: Kind? { Kind(rawValue: dbus_message_get_type(raw)) }
    /// The sender's unique name, if any.
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The destination, if any.
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    /// The object path, if any.
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The interface, if any.
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The method or signal name, if any.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The error name of an error reply.
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The signature of the body, e.g. `susssasa{sv}i`.
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    /// The serial libdbus gave the message when it was sent.
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    /// The serial of the call this message replies to.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// Whether the bus may start a service to deliver this message (`dbus_message_set_auto_start`).
    public var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
    }

    /// Whether the sender wants no reply (`dbus_message_set_no_reply`).
    public var noReply: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    /// Whether this is the given signal.
    public func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    /// Appends values to the body, checking each first, so a bad value is an error and
    /// never reaches libdbus's fatal assertions.
    public func append(_ values: Value...) throws(BusError) { try append(contentsOf: values) }

    /// Appends values to the body (see ``append(_:)``).
    public func append(contentsOf values: [Value]) throws(BusError) {
        for value in values { try Validate.value(value) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values {
            guard MessageWriter.write(value, to: &iter) else { throw BusError(.noMemory) }
        }
    }

    /// Reads the whole body.
    public func arguments() throws(BusError) -> [Value] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        return try MessageReader.readAll(&iter)
    }
}

/// Writes values through a `DBusMessageIter`. Values were validated before, so the only
/// failure left is running out of memory.
enum MessageWriter {
    static func write(_ value: Value, to iter: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BYTE, &v) != 0
        case .bool(let b):
            // libdbus asserts the 4-byte dbus_bool_t is exactly 0 or 1; a Swift Bool is 1 byte.
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &v) != 0
        case .int16(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT16, &v) != 0
        case .uint16(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT16, &v) != 0
        case .int32(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &v) != 0
        case .int64(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT64, &v) != 0
        case .uint64(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT64, &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_DOUBLE, &v) != 0
        case .string(let s): return appendString(s, type: CDBUS_TYPE_STRING, to: &iter)
        case .objectPath(let s): return appendString(s, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let s): return appendString(s, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .array(let element, let items):
            return container(CDBUS_TYPE_ARRAY, element, &iter) { sub in
                items.allSatisfy { write($0, to: &sub) }
            }
        case .dictEntry(let key, let val):
            return container(CDBUS_TYPE_DICT_ENTRY, nil, &iter) { sub in
                write(key, to: &sub) && write(val, to: &sub)
            }
        case .variant(let inner):
            return container(CDBUS_TYPE_VARIANT, inner.signature, &iter) { sub in write(inner, to: &sub) }
        case .structure(let fields):
            return container(CDBUS_TYPE_STRUCT, nil, &iter) { sub in
                fields.allSatisfy { write($0, to: &sub) }
            }
        }
    }

    private static func appendString(_ s: String, type: Int32, to iter: inout DBusMessageIter) -> Bool {
        s.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, type, &pointer) != 0
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = dbus_message_iter_open_container(&iter, type, signature, &sub) != 0
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub) != 0
        }
        // If opening failed, the sub-iterator must be neither closed nor abandoned.
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container_if_open(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }
}

/// Reads values through a `DBusMessageIter`, copying every string out of the message.
enum MessageReader {
    static func readAll(_ iter: inout DBusMessageIter) throws(BusError) -> [Value] {
        var values: [Value] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(try read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(&iter, $0.baseAddress) }
        return value
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    static func read(_ iter: inout DBusMessageIter) throws(BusError) -> Value {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .bool(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_STRING: return .string(string(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(string(&iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(string(&iter))
        case CDBUS_TYPE_ARRAY:
            let full = signature(&iter)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .array(element: String(full.dropFirst()), try readAll(&sub))
        case CDBUS_TYPE_DICT_ENTRY:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let pair = try readAll(&sub)
            guard pair.count == 2 else { throw BusError(.invalidSignature, "dict entry without two fields") }
            return .dictEntry(pair[0], pair[1])
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub))
        default:
            // UNIX_FD and anything newer: Nudge takes none of them yet.
            throw BusError(.invalidArgs, "unsupported D-Bus type code \(type)")
        }
    }

    private static func signature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
