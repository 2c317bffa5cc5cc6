import Foundation

extension UUID {
    /// The id as 32 lowercase hex digits without dashes: how Nudge stores and shows ids
    /// (people see the first 8), so a prefix of it names an alert.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 32) { out in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = digits[Int(byte >> 4)]
                    out[2 * i + 1] = digits[Int(byte & 0xF)]
                }
                return 32
            }
        }
    }

    /// Whether this id comes before `other` in the order of their `uuidString`s (the order of
    /// their bytes), without making the strings: sorting 100 place reminders by their strings
    /// on each arrival was a quarter of the daemon's CPU in `daemon-bench places`.
    public func precedes(_ other: UUID) -> Bool {
        func halves(_ id: UUID) -> (UInt64, UInt64) {
            withUnsafeBytes(of: id.uuid) {
                (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
        }
        return halves(self) < halves(other)
    }

    /// The first 8 hex digits: the id as people see it.
    public var shortHex: String {
        String(hex.prefix(8))
    }

    /// The id in the usual 8-4-4-4-12 form, lowercase: how `--json` shows it.
    public var lowercased: String {
        var digits = Array(hex.utf8)
        for position in [20, 16, 12, 8] { digits.insert(UInt8(ascii: "-"), at: position) }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Reads 32 hex digits without dashes (any case).
    public init?(hex: String) {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var text = hex
        let ok = text.withUTF8 { utf8 in
            guard utf8.count == 32 else { return false }
            return withUnsafeMutableBytes(of: &value) { bytes in
                for i in 0..<16 {
                    guard let high = Self.nibble(utf8[2 * i]), let low = Self.nibble(utf8[2 * i + 1]) else { return false }
                    bytes[i] = high << 4 | low
                }
                return true
            }
        }
        guard ok else { return nil }
        self.init(uuid: value)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
