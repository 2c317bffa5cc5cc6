/// A JSON value, written without Foundation: bytes appended to one buffer, so `nudge list
/// --json` over 100,000 alerts costs milliseconds.
indirect enum JSON {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    /// Compact JSON text.
    var text: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes one object field by field, straight into bytes.
    struct ObjectWriter {
        private var fields = 0

        mutating func field(_ key: String, _ value: JSON, to out: inout [UInt8]) {
            out.append(fields == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            JSON.quote(key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
            fields += 1
        }

        func end(to out: inout [UInt8]) {
            if fields == 0 { out.append(UInt8(ascii: "{")) }
            out.append(UInt8(ascii: "}"))
        }
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .string(let s): JSON.quote(s, to: &out)
        case .integer(let i): out += Array(String(i).utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .null: out += Array("null".utf8)
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
        }
    }

    /// A string literal: quotes, backslashes and control characters escaped; everything
    /// else as its UTF-8 bytes.
    static func quote(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var clean = 0 // bytes before this index are already written
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                case 0..<0x20: out += Array("u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                default: out.append(byte)
                }
                clean = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
