import Foundation
import NudgeCore

/// A language from a gettext catalog's source (`po/ko.po`), read directly: what the
/// shipped `.mo` holds, for a test that needs another language in-process (gettext
/// translates for the whole process, by its locale).
public enum PoCatalog {
    /// The package's `po/NAME.po`.
    public static func language(_ name: String) throws -> Language {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("po/\(name).po"), encoding: .utf8)
        var messages: [String: String] = [:]
        var field = "", msgid = "", msgstr = ""
        func unquote(_ line: Substring) -> String {
            guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return "" }
            var result = "", escaped = false
            for c in line[line.index(after: open)..<close] {
                if escaped {
                    result.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else {
                    result.append(c)
                }
            }
            return result
        }
        func flush() {
            if !msgid.isEmpty, !msgstr.isEmpty { messages[msgid] = msgstr }
            (msgid, msgstr, field) = ("", "", "")
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid ") {
                flush()
                field = "id"
                msgid = unquote(line)
            } else if line.hasPrefix("msgid_plural ") {
                field = "plural"
            } else if line.hasPrefix("msgstr ") || line.hasPrefix("msgstr[0] ") {
                field = "str"
                msgstr = unquote(line)
            } else if line.hasPrefix("msgstr[") {
                field = "other"
            } else if line.hasPrefix("\"") {
                if field == "id" { msgid += unquote(line) } else if field == "str" { msgstr += unquote(line) }
            }
        }
        flush()
        let table = messages
        return Language(tr: { table[$0] ?? $0 }, trn: { singular, plural, count in table[singular] ?? (count == 1 ? singular : plural) })
    }
}
