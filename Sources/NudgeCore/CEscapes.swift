/// C escapes in text, decoded the way GLib's `g_strcompress` does (and so notify-send
/// does for a body): `\n \t \r \b \f \v \\ \"` and octal `\NNN`; any other escaped
/// character loses its backslash; a backslash at the very end is dropped; a NUL (`\0`)
/// ends the text, as it ends GLib's C string.
public enum CEscapes {
    /// The text with its escapes decoded.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard let next = input.popFirst() else { break }
            switch next {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = input.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { break }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    input = input.dropFirst()
                }
                // GLib's result is a C string: a NUL (`\0`) ends it, as notify-send shows it.
                guard value & 0xFF != 0 else { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
