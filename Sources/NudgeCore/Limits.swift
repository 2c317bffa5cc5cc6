/// Every limit on what a person gives Nudge, in one table. The command line, the store and
/// the daemon's bus interface check against these and nothing else, so an answer is the
/// same whichever way a value comes in.
public enum Limits {
    /// A length of time a person gives, by what it is for.
    public enum Quantity: String, Sendable, CaseIterable {
        /// How long Snooze postpones (`--snooze`, `nudge snooze`, the bus's `Snooze`).
        case snooze
        /// How old a missed reminder may be and still be shown (`--grace`).
        case grace
        /// `--every`.
        case every
        /// `--in`.
        case `in`
        /// `nudge log --since`.
        case since

        /// The seconds allowed.
        public var range: ClosedRange<Int> {
            switch self {
            case .snooze: 1...(7 * 86400)
            case .grace: 1...(30 * 86400)
            case .every: 60...(31 * 86400)
            case .in: 1...(3660 * 86400)
            case .since: 1...(3660 * 86400)
            }
        }

        /// How a message names it: the option for `--every` and `--in`, else the word.
        public var name: String { self == .in || self == .every ? "--" + rawValue : rawValue }

        /// "between 1s and 7d", for messages.
        public var rangeText: String {
            "between \(Limits.compact(range.lowerBound)) and \(Limits.compact(range.upperBound))"
        }
    }

    /// A text field a person gives, by what it is for.
    public enum Field: String, Sendable, CaseIterable {
        /// The pop-up's title.
        case title
        /// The pop-up's body: the one field that may hold line breaks and tabs.
        case body
        /// An icon name or file.
        case icon
        /// A sound-theme name or a sound file.
        case sound

        /// The most UTF-8 bytes it may hold.
        public var maxBytes: Int {
            switch self {
            case .title: 500
            case .body: 4000
            case .icon, .sound: 4096
            }
        }

        /// Whether a control character may stand in it.
        func allows(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" else { return true }
            return self == .body && (scalar == "\n" || scalar == "\t")
        }
    }

    /// Why a value is refused: one line naming the value and the limit.
    public struct Violation: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line.
        public var description: String
    }

    /// Checks a text value: size, valid UTF-8 (no replacement characters or NULs) and no
    /// control characters (escapes, carriage returns, backspaces; the body may break lines).
    public static func check(_ field: Field, _ value: String) throws(Violation) {
        let bytes = value.utf8.count
        if bytes > field.maxBytes {
            throw Violation(description: "invalid \(field): \(bytes) bytes, at most \(field.maxBytes)")
        }
        if value.unicodeScalars.contains("\u{FFFD}") || value.utf8.contains(0) {
            throw Violation(description: "invalid \(field): it is not valid UTF-8 text")
        }
        if let bad = value.unicodeScalars.first(where: { !field.allows($0) }) {
            let which = field == .body ? "only line breaks and tabs may" : "no control character may"
            throw Violation(description: "invalid \(field): it holds the control character \(bad.codeName); \(which) stand in a \(field)")
        }
    }

    /// Checks a length of time in seconds.
    public static func check(_ quantity: Quantity, seconds: Int) throws(Violation) {
        guard quantity.range.contains(seconds) else {
            throw Violation(description: "invalid \(quantity.name) \(compact(seconds)): it must be \(quantity.rangeText)")
        }
    }

    /// Seconds as a duration is typed: `7d`, `1h30m`, `90s`.
    public static func compact(_ seconds: Int) -> String {
        var rest = seconds, text = ""
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text.isEmpty ? "0s" : text
    }
}

extension Unicode.Scalar {
    /// `U+001B`.
    var codeName: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension String {
    /// The text with every control character written as a visible escape (`\e`, `\r`,
    /// `\n`, `\u{9B}`), so text from the store can never move a terminal's cursor, set its
    /// title or break a table's row.
    public var escapingControls: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// The text in quotes for a one-line message: controls escaped, and cut after `limit`
    /// characters with the whole length said, so a huge value never makes a huge message.
    public func quotedForMessage(limit: Int = 40) -> String {
        let shown = String(prefix(limit)).escapingControls
        return count > limit ? "'\(shown)…' (\(count) characters)" : "'\(shown)'"
    }
}
