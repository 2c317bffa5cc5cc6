import NudgeKit
import Localization
import NudgeCore

/// swift-argument-parser's own error lines (its texts are English and fixed), said in the
/// person's language where their shape is known; any other line stays as the library
/// wrote it.
enum ParserMessage {
    static func translated(_ line: String) -> String {
        let text = line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line
        if let rest = text.dropping(prefix: "Unknown option ") {
            let parts = rest.components(separatedBy: ". Did you mean ")
            if parts.count == 2, parts[1].hasSuffix("?") {
                // TRANSLATORS: an option nudge does not have (%1$s, quoted) and the one meant (%2$s, quoted).
                return format(tr("Unknown option %1$s. Did you mean %2$s?"), parts[0], String(parts[1].dropLast()))
            }
            // TRANSLATORS: an option nudge does not have; %s is the option as typed, quoted.
            return format(tr("Unknown option %s"), rest)
        }
        if let rest = text.dropping(prefix: "Missing expected argument ") {
            // TRANSLATORS: an argument the command needs; %s names it, quoted.
            return format(tr("Missing expected argument %s"), rest)
        }
        if let rest = text.dropping(prefix: "Missing value for ") {
            // TRANSLATORS: an option given without its value; %s is the option, quoted.
            return format(tr("Missing value for %s"), rest)
        }
        if let rest = text.dropping(prefix: "Unexpected argument ") {
            // TRANSLATORS: an argument the command does not take; %s is it, quoted.
            return format(tr("Unexpected argument %s"), rest)
        }
        if let space = text.firstIndex(of: " "), let count = Int(text[..<space]),
           let rest = text[space...].dropping(prefix: " unexpected arguments: ") {
            // TRANSLATORS: %1$d arguments the command does not take; %2$s lists them, quoted.
            return format(trn("%1$d unexpected argument: %2$s", "%1$d unexpected arguments: %2$s", count), count, rest)
        }
        if let rest = text.dropping(prefix: "The value "), let range = rest.range(of: " is invalid for ") {
            let value = String(rest[..<range.lowerBound]), option = String(rest[range.upperBound...])
            // TRANSLATORS: a value (%1$s, quoted) an option (%2$s, quoted) does not take.
            return format(tr("The value %1$s is invalid for %2$s"), value, option)
        }
        return text
    }
}

private extension StringProtocol {
    /// The rest after `prefix`, or nil when it does not start with it.
    func dropping(prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
