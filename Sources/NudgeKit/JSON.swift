import NudgeCore

/// A JSON value, written without Foundation: bytes appended to one buffer, so `nudge list
/// --json` over 100,000 alerts costs milliseconds.
public indirect enum JSON: Sendable {
    /// Text, escaped as JSON asks when written.
    case string(String)
    /// A whole number, written in decimal digits.
    case integer(Int64)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// Values, in order.
    case array([JSON])
    /// Fields in the order given; a key given twice is written twice.
    case object([(String, JSON)])
    /// JSON already written (a big part streamed straight into bytes).
    case written([UInt8])

    /// Compact JSON text.
    public var text: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes one object field by field, straight into bytes.
    public struct ObjectWriter {
        /// A writer at the start of an object.
        public init() {}

        private var fields = 0

        /// Appends `key` and `value` to `out`, opening the object before the first field.
        public mutating func field(_ key: String, _ value: JSON, to out: inout [UInt8]) {
            out.append(fields == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            JSON.quote(key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
            fields += 1
        }

        /// Closes the object in `out`: `{}` when no field was written.
        public func end(to out: inout [UInt8]) {
            if fields == 0 { out.append(UInt8(ascii: "{")) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the value to `out` as compact JSON (`written` bytes as they are).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .string(let s): JSON.quote(s, to: &out)
        case .integer(let i): JSON.digits(i, to: &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            var object = ObjectWriter()
            for (key, value) in pairs { object.field(key, value, to: &out) }
            object.end(to: &out)
        case .written(let bytes):
            out.append(contentsOf: bytes)
        }
    }

    /// An integer's decimal digits, without a String in between (stats writes tens of
    /// thousands of them).
    public static func digits(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { bytes in
            var end = bytes.count
            repeat {
                end -= 1
                bytes[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: bytes[end...])
        }
    }

    /// A string literal: quotes, backslashes and control characters escaped, and every
    /// other character that `escapingControls` escapes for a terminal (DEL, C1 controls,
    /// the line separators, the bidirectional controls) written as `\uXXXX`, so JSON read
    /// on a terminal shows what it holds; everything else as its UTF-8 bytes. A parser
    /// reads the same string either way.
    public static func quote(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var clean = 0 // bytes before this index are already written
            // The lead bytes of everything escaped: ASCII below 0x20, quote, backslash, DEL;
            // C2 (U+0080–009F), D8 (U+061C), E2 (U+200E–206F).
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
                var length = 1, code = UInt32(byte)
                if byte >= 0x80 {
                    // Valid UTF-8 (a Swift string): the sequence is complete.
                    length = byte == 0xE2 ? 3 : 2
                    code = UInt32(byte & (length == 3 ? 0x0F : 0x1F))
                    for next in bytes[(i + 1)..<(i + length)] { code = code << 6 | UInt32(next & 0x3F) }
                    guard let scalar = Unicode.Scalar(code), scalar.isEscapedForDisplay else { continue }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                default:
                    out.append(UInt8(ascii: "u"))
                    for shift: UInt32 in [12, 8, 4, 0] { out.append(hexDigits[Int(code >> shift & 0xF)]) }
                }
                clean = i + length
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
