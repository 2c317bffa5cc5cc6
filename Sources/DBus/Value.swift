/// One D-Bus value, with its type.
///
/// Containers carry their element signature, so an empty array still has a type on the
/// wire (`as`, `a{sv}`), and a variant carries whatever value it wraps.
public indirect enum Value: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `g`
    case signature(String)
    /// `a…`: the element signature and the elements, which must all have that signature.
    case array(element: String, [Value])
    /// `{kv}`: only valid as the element of an array.
    case dictEntry(Value, Value)
    /// `v`
    case variant(Value)
    /// `(…)`
    case structure([Value])

    /// The value's D-Bus type signature, e.g. `a{sv}` for a vardict.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }
}

extension Value {
    /// An array of strings, `as`; typed even when empty.
    public static func strings(_ items: [String]) -> Value {
        .array(element: "s", items.map(Value.string))
    }

    /// A string-keyed map of variants, `a{sv}`: the shape of hints and properties.
    /// Entries keep the order given.
    public static func vardict(_ entries: [(String, Value)]) -> Value {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The string inside `s`, `o` or `g`.
    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    /// The number inside `u`.
    public var uint32: UInt32? {
        if case .uint32(let v) = self { v } else { nil }
    }

    /// The number inside `i`.
    public var int32: Int32? {
        if case .int32(let v) = self { v } else { nil }
    }

    /// The number inside `x`.
    public var int64: Int64? {
        if case .int64(let v) = self { v } else { nil }
    }

    /// The truth value inside `b`.
    public var bool: Bool? {
        if case .bool(let v) = self { v } else { nil }
    }

    /// The elements of an array.
    public var elements: [Value]? {
        if case .array(_, let items) = self { items } else { nil }
    }

    /// The value inside a variant; the value itself when it is not one.
    public var unwrapped: Value {
        if case .variant(let inner) = self { inner.unwrapped } else { self }
    }

    /// The strings of an `as`.
    public var strings: [String]? {
        guard case .array("s", let items) = self else { return nil }
        return items.compactMap(\.string)
    }

    /// An `a{sv}` as a dictionary of the values inside the variants (later keys win).
    public var vardict: [String: Value]? {
        guard case .array("{sv}", let items) = self else { return nil }
        var result: [String: Value] = [:]
        for case .dictEntry(.string(let key), let value) in items { result[key] = value.unwrapped }
        return result
    }
}
