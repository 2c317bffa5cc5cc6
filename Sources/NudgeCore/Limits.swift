import Foundation
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
        /// `--nag`: how often an unanswered pop-up is shown again.
        case nag
        /// `--once-per`: how long a place reminder rests after it came up.
        case oncePer = "once-per"
        /// `nudge daemon --leave-after`: how long a place must stay gone to count as left.
        case leaveAfter = "leave-after"

        /// The seconds allowed.
        public var range: ClosedRange<Int> {
            switch self {
            case .snooze: 1...(7 * 86400)
            case .grace: 1...(30 * 86400)
            case .every: 60...(31 * 86400)
            case .in: 1...(3660 * 86400)
            case .since: 1...(3660 * 86400)
            case .nag: 1...86400
            case .oncePer: 60...(30 * 86400)
            case .leaveAfter: 1...3600
            }
        }

        /// How a message names it: the option for `--every` and `--in`, else the word.
        public var name: String { label.description }

        /// The name in a message, in any language.
        public var label: Phrase {
            switch self {
            case .every, .in, .nag, .oncePer, .leaveAfter: .verbatim("--" + rawValue)
            // TRANSLATORS: what a duration is for, in messages: how long Snooze postpones.
            case .snooze: Phrase("snooze")
            // TRANSLATORS: what a duration is for: how old a missed reminder may be and still be shown.
            case .grace: Phrase("grace")
            // TRANSLATORS: what a duration is for: how far back nudge log looks.
            case .since: Phrase("since")
            }
        }

        /// "between 1s and 7d", for messages.
        public var rangeText: String { rangePhrase.description }

        /// "between 1s and 7d", in any language.
        public var rangePhrase: Phrase {
            // TRANSLATORS: a duration's allowed range; %1$s and %2$s are durations as typed (1s, 7d).
            Phrase("between %1$s and %2$s", Limits.compact(range.lowerBound), Limits.compact(range.upperBound))
        }
    }

    /// The years a date a person gives may be in (`--on`, `drink --at`, `next --after`):
    /// nothing Nudge keeps happened before 1970 (instants are seconds since then), and
    /// dates are written with four digits.
    public static let years: ClosedRange<Int> = 1970...9999

    /// Whether an instant is in ``years``, in UTC and in `zone` alike (an offset or a zone
    /// can carry a date in range out of it: 9999-12-31T23:59-12:00 is in 10000 in UTC).
    public static func inYears(_ instant: Date, zone: TimeZone) -> Bool {
        instant.timeIntervalSince1970 >= 0
            && [TimeZone(identifier: "UTC")!, zone].allSatisfy { years.contains(CivilZone($0).local(instant).day.components.year) }
    }

    /// The instants a stored schedule may hold, in seconds since 1970: from then to the end
    /// of 9999 in UTC, what ``inYears(_:zone:)`` lets in. A store written by another tool
    /// may say anything; past these a one-shot's day does not fit an `Int` (found by the
    /// `ical` fuzz target: an import with `once 1.8e43` made `nudge export` trap).
    public static let storedInstants: ClosedRange<Double> = 0...253_402_300_799.999

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

        /// Whether its size is counted in characters, as a person counts what they type
        /// (the title and the body: 500 Korean characters are 1,500 bytes); a name or a
        /// path is counted in bytes, as the system counts it.
        public var countsCharacters: Bool { self == .title || self == .body }

        /// The most it may hold: characters for the title and the body, UTF-8 bytes else.
        public var limit: Int {
            switch self {
            case .title: 500
            case .body: 4000
            case .icon, .sound: 4096
            }
        }

        /// The name in a message, in any language.
        public var label: Phrase {
            switch self {
            case .title: Phrase("title")
            case .body: Phrase("body")
            case .icon: Phrase("icon")
            case .sound: Phrase("sound")
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
        /// The line, in any language.
        public var phrase: Phrase
        /// The line in English.
        public var description: String { phrase.description }
    }

    /// Checks a text value: size, valid UTF-8 (no replacement characters or NULs) and no
    /// control characters (escapes, carriage returns, backspaces; the body may break lines).
    public static func check(_ field: Field, _ value: String) throws(Violation) {
        if field.countsCharacters {
            // Bytes first: counting the characters of a pasted megabyte is not free.
            if value.utf8.count > field.limit, case let characters = value.count, characters > field.limit {
                // TRANSLATORS: %1$s is a field (title, body), %2$d its length in characters, %3$d the most it may hold.
                throw Violation(phrase: Phrase("invalid %1$s: %2$d characters, at most %3$d", field.label, characters, field.limit))
            }
        } else if case let bytes = value.utf8.count, bytes > field.limit {
            // TRANSLATORS: %1$s is a field (title, body…), %2$d its size, %3$d the most it may hold.
            throw Violation(phrase: Phrase("invalid %1$s: %2$d bytes, at most %3$d", field.label, bytes, field.limit))
        }
        if value.unicodeScalars.contains("\u{FFFD}") || value.utf8.contains(0) {
            throw Violation(phrase: Phrase("invalid %s: it is not valid UTF-8 text", field.label))
        }
        if let bad = value.unicodeScalars.first(where: { !field.allows($0) }) {
            // TRANSLATORS: %1$s is a field (title, body…), %2$s the character's name (ESC, U+0008).
            throw Violation(phrase: field == .body
                ? Phrase("invalid %1$s: it holds the control character %2$s; only line breaks and tabs may stand in a %1$s", field.label, bad.codeName)
                : Phrase("invalid %1$s: it holds the control character %2$s; no control character may stand in a %1$s", field.label, bad.codeName))
        }
    }

    /// Checks a length of time in seconds.
    public static func check(_ quantity: Quantity, seconds: Int) throws(Violation) {
        guard quantity.range.contains(seconds) else {
            // TRANSLATORS: %1$s is what the duration is for, %2$s the duration given, %3$s the range.
            throw Violation(phrase: Phrase("invalid %1$s %2$s: it must be %3$s", quantity.label, compact(seconds), quantity.rangePhrase))
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
    /// Whether ``Swift/String/escapingControls`` writes it as an escape: controls (general
    /// category Cc: U+0000–001F, U+007F–009F), the line and paragraph separators, and the
    /// bidirectional controls (the embeddings and overrides U+202A–202E, the isolates
    /// U+2066–2069, the marks U+200E, U+200F and U+061C), and what shows as nothing and
    /// joins nothing (the soft hyphen U+00AD, the zero-width space U+200B, the word joiner
    /// U+2060, the byte order mark U+FEFF), by their values: no Unicode table for every
    /// character. The joiners emoji and scripts need (U+200C, U+200D) stay.
    public var isEscapedForDisplay: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C,
             0xAD, 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// `U+001B`.
    var codeName: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension String {
    /// The text with every control character written as a visible escape (`\e`, `\r`,
    /// `\n`, `\u{9B}`), so text from the store can never move a terminal's cursor, set its
    /// title or break a table's row; and the bidirectional controls too (`\u{202E}`), so a
    /// title can never make the line it stands in read in another order than it is.
    public var escapingControls: String {
        guard unicodeScalars.contains(where: \.isEscapedForDisplay) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            case _ where scalar.isEscapedForDisplay:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// The text as a sentence of the other direction holds it: between U+2068 and U+2069
    /// (first strong isolate … pop directional isolate) where it has a letter written right
    /// to left or a direction control, so that "Deleted “שתה מים”" keeps its quotes around the
    /// title and the words after it in their place; as it is otherwise (a reader of the
    /// accessible name meets no invisible characters in the common case).
    public var isolatedForSentence: String {
        guard unicodeScalars.contains(where: \.isRightToLeftOrDirectionControl) else { return self }
        return "\u{2068}" + self + "\u{2069}"
    }
}

extension Unicode.Scalar {
    /// A letter of a script written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and
    /// the others of those blocks, their presentation forms, the right-to-left scripts of the
    /// supplementary planes) or a mark or control that sets a direction.
    var isRightToLeftOrDirectionControl: Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        case 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }
}

extension String {
    /// The text in quotes for a one-line message: controls escaped, and cut after `limit`
    /// characters with the whole length said, so a huge value never makes a huge message.
    public func quotedForMessage(limit: Int = 40) -> String {
        // Cut by scalars too: one character can carry any number of combining marks.
        var shown = String(prefix(limit))
        if shown.unicodeScalars.count > 2 * limit { shown = String(String.UnicodeScalarView(shown.unicodeScalars.prefix(2 * limit))) }
        shown = shown.escapingControls
        return count > limit ? "'\(shown)…' (\(count) characters)" : "'\(shown)'"
    }
}
