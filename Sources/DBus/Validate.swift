import CDBus

/// Checks names and values before they reach libdbus, whose own checks abort the process.
enum Validate {
    private typealias Check = (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t

    private static func run(_ text: String, _ what: String, _ check: Check) throws(BusError) {
        let ok = text.withCString { check($0, nil) != 0 }
        if !ok { throw BusError(.invalidArgs, "invalid \(what): \(text)") }
    }

    static func path(_ s: String) throws(BusError) { try run(s, "object path", dbus_validate_path) }
    static func interface(_ s: String) throws(BusError) { try run(s, "interface name", dbus_validate_interface) }
    static func member(_ s: String) throws(BusError) { try run(s, "member name", dbus_validate_member) }
    static func busName(_ s: String) throws(BusError) { try run(s, "bus name", dbus_validate_bus_name) }
    static func errorName(_ s: String) throws(BusError) { try run(s, "error name", dbus_validate_error_name) }

    static func signature(_ s: String, single: Bool) throws(BusError) {
        var error = CDBus.DBusError()
        let ok = s.withCString { single ? dbus_signature_validate_single($0, &error) : dbus_signature_validate($0, &error) }
        if ok == 0 {
            if dbus_error_is_set(&error) != 0 { dbus_error_free(&error) }
            throw BusError(.invalidSignature, "invalid signature: \(s)")
        }
    }

    /// A value is well-formed: strings without NUL, valid paths and signatures, array
    /// elements that all have the declared signature, dict entries only inside arrays.
    static func value(_ value: Value, insideArray: Bool = false) throws(BusError) {
        switch value {
        case .string(let s):
            if s.utf8.contains(0) { throw BusError(.invalidArgs, "string contains a NUL byte") }
        case .objectPath(let s): try path(s)
        case .signature(let s): try signature(s, single: false)
        case .array(let element, let items):
            try signature("a" + element, single: true)
            for item in items {
                guard item.signature == element else {
                    throw BusError(.invalidArgs, "array of \(element) holds a \(item.signature)")
                }
                try Validate.value(item, insideArray: true)
            }
        case .dictEntry(let key, let val):
            guard insideArray else { throw BusError(.invalidArgs, "dict entry outside an array") }
            try Validate.value(key)
            try Validate.value(val)
        case .variant(let inner): try Validate.value(inner)
        case .structure(let fields):
            guard !fields.isEmpty else { throw BusError(.invalidArgs, "empty struct") }
            for field in fields { try Validate.value(field) }
        default: break
        }
    }
}
