import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import Platform

/// The `[Desktop Entry]` group of a .desktop file, key by key (no locale variants needed).
/// The file is the person's: any text at all reads as some entry, perhaps an empty one.
public struct DesktopEntry: Sendable {
    private var values: [String: String] = [:]

    /// The entry in the file at `path`; `nil` when it cannot be read as UTF-8 text.
    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        self.init(text: text)
    }

    /// The entry in a file's text: the first value of each key of the `[Desktop Entry]`
    /// group, trimmed; comments and other groups skipped.
    public init(text: String) {
        var inGroup = false
        for raw in Self.lines(text) {
            let line = Self.trimmed(raw.text)
            if line.first == "[" {
                inGroup = line.elementsEqual("[Desktop Entry]".unicodeScalars)
                continue
            }
            guard inGroup, line.first != "#", let (key, value) = Self.keyValue(line) else { continue }
            if values[key] == nil { values[key] = value }
        }
    }

    /// A line's key and value, apart at its first `=` and trimmed; `nil` without one.
    static func keyValue(_ line: Substring.UnicodeScalarView) -> (key: String, value: String)? {
        guard let eq = line.firstIndex(of: "=") else { return nil }
        return (String(trimmed(line[..<eq])), String(trimmed(line[line.index(after: eq)...])))
    }

    /// Without the blanks around it (ASCII space, tab, CR, vertical tab, form feed, as
    /// GLib's key files have them), scalar by scalar: fast, and the same for the reader
    /// and the editor.
    static func trimmed(_ text: some StringProtocol) -> Substring.UnicodeScalarView {
        trimmed(Substring(text).unicodeScalars)
    }

    static func trimmed(_ scalars: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        func blank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{0B}" || scalar == "\u{0C}" }
        var (start, end) = (scalars.startIndex, scalars.endIndex)
        while start < end, blank(scalars[start]) { start = scalars.index(after: start) }
        while end > start, blank(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
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

    /// Every key of the group with its value.
    public var keys: [String: String] { values }
}
