import NudgeCore
import Platform

/// The `[Desktop Entry]` group of a .desktop file, key by key (no locale variants needed),
/// read as GLib's GKeyFile reads it, which is what gnome-session loads autostart entries
/// with: a key given twice has its last value, booleans are GLib's, and `problem` names the
/// line that makes GLib refuse the whole file. The file is the person's: any text at all
/// reads as some entry, perhaps an empty one, the lines GLib refuses skipped.
public struct DesktopEntry: Sendable {
    private var values: [String: String] = [:]

    /// The first line GLib refuses, and why; `nil` when GLib loads the file. A session
    /// that reads entries with GLib skips such a file whole, whatever its keys say.
    public private(set) var problem: Phrase?

    /// The largest entry read: far more than any autostart entry, few enough bytes to hold.
    static let maxBytes = 16 << 20

    /// The entry in the file at `path` (through a symbolic link); `nil` when there is no
    /// regular file there that can be read. Bytes that are not UTF-8 read as U+FFFD: GLib
    /// loads such a file too, its lines and keys the same, only the values holding them differ.
    init?(path: String) {
        guard let bytes = Self.bytes(path) else { return nil }
        self.init(text: String(decoding: bytes, as: UTF8.self))
    }

    /// The bytes of the file at `path`, as ``init(path:)`` reads them.
    static func bytes(_ path: String) -> [UInt8]? { readRegularFile(path, limit: maxBytes) }

    /// The entry in a file's text: the last value of each key of the `[Desktop Entry]`
    /// group (which may come in parts: GLib joins them), trimmed; comments, other groups and
    /// the lines GLib refuses skipped.
    public init(text: String) {
        var problem: Phrase?
        /// Keeps the first problem: GLib stops at it.
        func note(_ phrase: Phrase) { if problem == nil { problem = phrase } }
        // GLib takes a byte order mark for part of the first line, which then is neither a
        // group header nor a comment, and refuses the file whatever follows.
        if text.unicodeScalars.first == "\u{FEFF}" { note(Self.byteOrderMark) }
        var inGroup = false
        // GLib checks Encoding= in the file's first group alone.
        var startGroup: Substring.UnicodeScalarView?, inStartGroup = false
        for (index, raw) in Self.lines(text).enumerated() {
            let number = index + 1
            switch Self.classify(raw.text.unicodeScalars) {
            case .comment:
                continue
            case .group(let name, let valid):
                // TRANSLATORS: why GLib refuses an autostart entry; %d is a line number.
                if !valid { note(Phrase("line %d has an invalid group name", number)) }
                if startGroup == nil { startGroup = name }
                inStartGroup = startGroup.map { name.elementsEqual($0) } ?? false
                inGroup = name.elementsEqual("Desktop Entry".unicodeScalars)
            case .entry(let key, let value, let valid):
                guard startGroup != nil else {
                    // TRANSLATORS: why GLib refuses an autostart entry; %d is a line number.
                    note(Phrase("line %d is a key before the first [group]", number))
                    continue
                }
                guard valid else {
                    // TRANSLATORS: why GLib refuses an autostart entry; %d is a line number.
                    note(Phrase("line %d has an invalid key name", number))
                    continue
                }
                if inStartGroup, key.elementsEqual("Encoding".unicodeScalars), !(value.count == 5 && String(value).lowercased() == "utf-8") {
                    // TRANSLATORS: why GLib refuses an autostart entry; %d is a line number.
                    note(Phrase("line %d sets Encoding to something other than UTF-8", number))
                }
                if inGroup { values[String(key)] = String(Self.trimmed(Self.beforeNUL(value))) }
            case .other:
                // TRANSLATORS: why GLib refuses an autostart entry; %d is a line number.
                note(Phrase("line %d is neither a [group] header, a key=value line nor a # comment", number))
            }
        }
        self.problem = problem
    }

    /// A UTF-8 byte order mark starting the file.
    // TRANSLATORS: why GLib refuses an autostart entry.
    static let byteOrderMark = Phrase("line 1 starts with a byte order mark (BOM), which GLib does not skip")

    /// What GLib makes of one line (its text without the line end).
    enum Line {
        /// Blank, or a `#` comment.
        case comment
        /// `[name]`, perhaps blanks after it; `valid` when GLib takes the name.
        case group(name: Substring.UnicodeScalarView, valid: Bool)
        /// `key=value`, the key trimmed and the value without the blanks before it (those
        /// after it and a NUL in it are the reader's to drop); `valid` when GLib takes the key.
        case entry(key: Substring.UnicodeScalarView, value: Substring.UnicodeScalarView, valid: Bool)
        /// Anything else: GLib refuses the file.
        case other
    }

    /// A line as GLib's key file parser sorts it (`g_key_file_parse_line`), and as the
    /// editor must see it too, or a line it keeps could change meaning.
    static func classify(_ raw: Substring.UnicodeScalarView) -> Line {
        // GLib reads the line as a C string: a NUL ends it (almost: see the group's name).
        let text = beforeNUL(raw)
        let line = text.drop(while: isBlank)
        guard let first = line.first, first != "#" else { return .comment }
        if first == "[", let close = line.firstIndex(of: "]"), line[line.index(after: close)...].allSatisfy({ $0 == " " || $0 == "\t" }) {
            // The name ends at the line's last `]` (past a NUL), then at a NUL: GLib's copy.
            let last = raw.lastIndex(of: "]") ?? close
            let name = beforeNUL(raw[raw.index(after: line.startIndex)..<last])
            let valid = !name.isEmpty && !name.contains { $0 == "[" || $0 == "]" || $0.value < 0x20 || $0.value == 0x7F }
            return .group(name: name, valid: valid)
        }
        guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { return .other }
        var keyEnd = equals
        while keyEnd > line.startIndex, isBlank(line[line.index(before: keyEnd)]) { keyEnd = line.index(before: keyEnd) }
        let key = line[..<keyEnd]
        // The value runs to the line's end, past a NUL: Encoding= is checked on all of it.
        let value = raw[raw.index(after: equals)...].drop(while: isBlank)
        return .entry(key: key, value: value, valid: isKeyName(key))
    }

    /// GLib's rule for a key's name (`g_key_file_is_key_name`), laxer than the spec's
    /// A-Za-z0-9-: no `=`, `[` or `]`, no space at either end, then perhaps a locale in
    /// brackets (letters, digits, `-`, `_`, `.`, `@`) that ends it.
    static func isKeyName(_ key: Substring.UnicodeScalarView) -> Bool {
        let open = key.firstIndex { $0 == "[" || $0 == "]" } ?? key.endIndex
        let name = key[..<open]
        guard let first = name.first, first != " ", name.last != " " else { return false }
        guard open < key.endIndex else { return true }
        guard key[open] == "[" else { return false }
        let locale = key[key.index(after: open)...]
        guard let close = locale.firstIndex(where: { !isLocaleScalar($0) }) else { return false }
        return locale[close] == "]" && locale.index(after: close) == locale.endIndex
    }

    /// A letter or digit of any script (`g_unichar_isalnum`), or `-`, `_`, `.`, `@`.
    static func isLocaleScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) || "-_.@".unicodeScalars.contains(scalar)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    /// The text before its first NUL: what GLib's C strings hold.
    static func beforeNUL(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        scalars.firstIndex(of: "\0").map { scalars[..<$0] } ?? scalars
    }

    /// GLib's blanks (`g_ascii_isspace`): space, tab, LF, CR and form feed; not the vertical
    /// tab, which GLib keeps in keys and values.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    /// Without the blanks around it (``isBlank(_:)``), scalar by scalar: fast, and the
    /// same for the reader and the editor.
    static func trimmed(_ text: some StringProtocol) -> Substring.UnicodeScalarView {
        trimmed(Substring(text).unicodeScalars)
    }

    static func trimmed(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        var (start, end) = (scalars.startIndex, scalars.endIndex)
        while start < end, isBlank(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isBlank(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return scalars[start..<end]
    }

    /// A file's lines, each with what ended it (`\n`, `\r\n`, or nothing for a last line
    /// without one): apart at every LF, with a CR before it part of the line's end, as
    /// GLib reads them; never at a Character, which would keep `\r\n`, or a LF followed
    /// by a combining mark, inside one line. The reader and the editor both see these.
    static func lines(_ text: String) -> [(text: Substring, end: String)] {
        var lines: [(text: Substring, end: String)] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        while start < scalars.endIndex {
            guard let newline = scalars[start...].firstIndex(of: "\n") else {
                lines.append((Substring(scalars[start...]), ""))
                break
            }
            var end = newline
            if end > start, scalars[scalars.index(before: end)] == "\r" { end = scalars.index(before: end) }
            lines.append((Substring(scalars[start..<end]), end == newline ? "\n" : "\r\n"))
            start = scalars.index(after: newline)
        }
        return lines
    }

    /// The value of `key`, if the group has it.
    public subscript(key: String) -> String? { values[key] }

    /// A boolean key as GLib reads it (`g_key_file_get_boolean`): `true` or `1` is true,
    /// `false` or `0` false, exactly so (blanks after it aside); `nil` when the key is
    /// missing or holds anything else, which GLib reports as an error.
    public func bool(_ key: String) -> Bool? {
        switch values[key] {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }

    /// Every key of the group with its value.
    public var keys: [String: String] { values }
}
