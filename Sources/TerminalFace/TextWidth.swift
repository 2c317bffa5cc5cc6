/// How many terminal columns text takes, and text cut or padded to a width, the way a
/// terminal lays it out: East Asian wide characters and emoji take two columns, combining
/// marks and joiners none. Used by every table Nudge prints and by `nudge ui`.
public enum TextWidth {
    /// Columns a character takes.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        // Nothing below U+0300 is wide or combining: no Unicode table for Latin text.
        if scalar.value < 0x300 { return 1 }
        return switch scalar.value {
        // Combining marks, zero-width spaces and joiners, bidi marks and embeddings,
        // invisible operators, variation selectors, the byte order mark.
        case 0x0300...0x036F, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFE00...0xFE0F,
             0xFEFF, 0x20D0...0x20FF: 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: scalar.properties.generalCategory == .nonspacingMark ? 0 : 1
        }
    }

    /// Columns a string takes.
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// The text in exactly `width` columns: cut with "…" when longer (never through a
    /// wide character), padded with spaces when shorter.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let total = of(text)
        if total <= width { return text + String(repeating: " ", count: width - total) }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            if used + w > width - 1 { break }
            result.append(scalar)
            used += w
        }
        return String(result) + "…" + String(repeating: " ", count: width - 1 - used)
    }
}
