/// A `TZ` value read the way glibc's tzset(3) reads it, without touching any file: what it
/// names is decided here, and the edge (`SystemZone`) loads that.
///
/// glibc's rules: an empty value is UTC; a leading `:` is dropped; a value naming a file
/// (absolute, or under the zoneinfo folder) is that file; any other value is a POSIX rule, `std offset [dst [offset] [,start[/time],end[/time]]]`,
/// whose offsets count hours *west* of Greenwich (`UTC+3` is three hours behind UTC).
public enum PosixTZ: Sendable, Hashable {
    /// `TZ=` (set but empty): UTC.
    case utc
    /// A zone file: an absolute path, or a name relative to the zoneinfo folder.
    case file(String)
    /// A POSIX rule.
    case rule(Rule)

    /// A POSIX TZ rule, parsed.
    public struct Rule: Sendable, Hashable {
        /// The whole rule as written.
        public var text: String
        /// The standard time's abbreviation (`CET`, `+03`).
        public var standardName: String
        /// Standard time's offset east of UTC, in seconds (the opposite of the rule's sign).
        public var standardOffset: Int
        /// The daylight-saving part (`CEST,M3.5.0,M10.5.0/3`), if any.
        public var daylight: String?
    }

    /// Reads a `TZ` value; `fileExists` says whether a name (relative to the zoneinfo
    /// folder, or absolute) is a zone file, as glibc tries that first. `nil` when the value
    /// is neither a file nor a rule glibc would accept.
    public static func read(_ value: String, fileExists: (String) -> Bool) -> PosixTZ? {
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        if name.isEmpty { return .utc }
        if fileExists(name) { return .file(name) }
        return parseRule(name).map(PosixTZ.rule)
    }

    /// Parses `std offset [dst …]`; `nil` when it is not one.
    public static func parseRule(_ text: String) -> Rule? {
        var rest = Substring(text)
        guard let name = takeName(&rest), let offset = takeOffset(&rest) else { return nil }
        if rest.isEmpty { return Rule(text: text, standardName: name, standardOffset: -offset, daylight: nil) }
        var daylight = rest
        guard takeName(&daylight) != nil else { return nil }
        return Rule(text: text, standardName: name, standardOffset: -offset, daylight: String(rest))
    }

    /// An abbreviation: three or more letters, or anything but `>` between `<` and `>`.
    private static func takeName(_ text: inout Substring) -> String? {
        if text.first == "<" {
            guard let end = text.firstIndex(of: ">") else { return nil }
            let name = text[text.index(after: text.startIndex)..<end]
            guard name.count >= 3, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-") }) else { return nil }
            text = text[text.index(after: end)...]
            return String(name)
        }
        let name = text.prefix { $0.isASCII && $0.isLetter }
        guard name.count >= 3 else { return nil }
        text = text.dropFirst(name.count)
        return String(name)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (positive is west).
    private static func takeOffset(_ text: inout Substring) -> Int? {
        var sign = 1
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            text = text.dropFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3, let n = Int(digits) else { return nil }
            parts.append(n)
            text = text.dropFirst(digits.count)
            guard text.first == ":" else { break }
            text = text.dropFirst()
        }
        guard parts[0] <= 24, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return sign * seconds
    }

    /// The rule at the end of a TZif file (version 2 and later): the newline-enclosed last
    /// line, which says how the zone goes on after its table of transitions.
    public static func footer(ofZoneFile bytes: [UInt8]) -> String? {
        guard bytes.count > 44, bytes.starts(with: Array("TZif".utf8)), bytes.last == 0x0A else { return nil }
        guard let start = bytes.dropLast().lastIndex(of: 0x0A) else { return nil }
        let line = bytes[(start + 1)..<(bytes.count - 1)]
        guard !line.isEmpty, line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: line, as: UTF8.self)
    }

    /// Whether a zone name given by a person reads one way to glibc and the opposite way to
    /// others: `GMT+3` is UTC−03:00 as a POSIX rule, but +03:00 to ICU and most people.
    public static func isAmbiguousOffsetName(_ name: String) -> Bool {
        let upper = name.uppercased()
        for prefix in ["GMT", "UTC", "UT"] where upper.hasPrefix(prefix) {
            let rest = upper.dropFirst(prefix.count)
            if let sign = rest.first, sign == "+" || sign == "-", rest.dropFirst().first?.isNumber == true { return true }
        }
        return false
    }
}
