/// What is wrong with a text that should be iCalendar, and on which (unfolded) line.
public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based, counting the lines as written (a folded line counts where it starts).
    public var line: Int
    /// In English, quoting at most a short prefix of the file's text.
    public var reason: String
    /// What kind of problem, for a caller that words it itself.
    public var kind: Kind

    /// What kind of problem a ``SyntaxError`` is.
    public enum Kind: Sendable, Equatable {
        /// The line's bytes are not UTF-8.
        case notUTF8
        /// The line holds a NUL byte (a binary file, or UTF-16 text).
        case nul
        /// Anything else: a line that is not a content line, components that do not close…
        case structure
    }

    public init(line: Int, reason: String, kind: Kind = .structure) {
        (self.line, self.reason, self.kind) = (line, reason, kind)
    }

    public var description: String { "line \(line): \(reason)" }
}

extension Component {
    /// The components a text holds at its top level (one `VCALENDAR` as a rule).
    public static func read(_ text: String, maxDepth: Int = 8) throws(SyntaxError) -> [Component] {
        try read(bytes: Array(text.utf8), maxDepth: maxDepth)
    }

    /// The components the bytes of a file hold at its top level (one `VCALENDAR` as a
    /// rule). A UTF-8 byte order mark is skipped; lines end in CRLF, LF or CR alone (old Mac
    /// files); a line starting with a space or a tab continues the one before, and the
    /// bytes are joined before they are read as UTF-8 (RFC 5545 §3.1: a fold may fall inside
    /// a character). Anything that is not a content line, a NUL byte, bytes that are not
    /// UTF-8, a `BEGIN` without its `END`, or nesting deeper than `maxDepth` is an error
    /// naming its line.
    public static func read(bytes: [UInt8], maxDepth: Int = 8) throws(SyntaxError) -> [Component] {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw SyntaxError(line: 1, reason: "UTF-16 text, not UTF-8", kind: .notUTF8)
        }
        var top: [Component] = []
        var open: [(component: Component, line: Int)] = []
        var sawLine = false
        for (number, bytes) in unfold(bytes) {
            if bytes.isEmpty { continue }
            guard !bytes.contains(0) else { throw SyntaxError(line: number, reason: "a NUL byte: not text", kind: .nul) }
            // Checked on the bytes first: a binary file is not iCalendar, whatever its bytes.
            if !sawLine, bytes.count < 6 || !zip(bytes, "begin:".utf8).allSatisfy({ $0 | 0x20 == $1 }) {
                throw SyntaxError(line: number, reason: "not iCalendar: it does not start with BEGIN:VCALENDAR")
            }
            let line = try text(bytes, line: number)
            let property: Property
            let parsed = Result { () throws(LineError) in try parse(line) }
            if !sawLine, (try? parsed.get())?.name != "BEGIN" {
                throw SyntaxError(line: number, reason: "not iCalendar: it does not start with BEGIN:VCALENDAR")
            }
            sawLine = true
            do { property = try parsed.get() } catch { throw SyntaxError(line: number, reason: error.reason) }
            switch property.name {
            case "BEGIN":
                guard open.count < maxDepth else { throw SyntaxError(line: number, reason: "components nested deeper than \(maxDepth)") }
                guard !property.value.isEmpty else { throw SyntaxError(line: number, reason: "BEGIN without a component name") }
                open.append((Component(property.value), number))
            case "END":
                guard let last = open.popLast() else { throw SyntaxError(line: number, reason: "END:\(short(property.value)) without its BEGIN") }
                guard last.component.name == property.value.uppercased() else {
                    throw SyntaxError(line: number, reason: "END:\(short(property.value)) closes BEGIN:\(short(last.component.name)) of line \(last.line)")
                }
                if open.isEmpty { top.append(last.component) } else { open[open.count - 1].component.components.append(last.component) }
            default:
                guard !open.isEmpty else { throw SyntaxError(line: number, reason: "\(short(property.name)) outside any component") }
                open[open.count - 1].component.properties.append(property)
            }
        }
        if let unclosed = open.last {
            throw SyntaxError(line: unclosed.line, reason: "BEGIN:\(short(unclosed.component.name)) is never closed (the file is cut short?)")
        }
        guard sawLine else { throw SyntaxError(line: 1, reason: "not iCalendar: it is empty") }
        return top
    }

    /// A logical line's bytes as text: UTF-8, else an error naming the line.
    static func text(_ bytes: ArraySlice<UInt8>, line: Int) throws(SyntaxError) -> String {
        guard let text = bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else { throw SyntaxError(line: line, reason: "not UTF-8 text", kind: .notUTF8) }
        return text
    }

    /// The logical lines, as bytes (of the file itself, unless folded), with the number of
    /// the line each starts on.
    static func unfold(_ bytes: [UInt8]) -> [(Int, ArraySlice<UInt8>)] {
        var lines: [(Int, ArraySlice<UInt8>)] = []
        var number = 0
        // A UTF-8 byte order mark is not text (Windows editors write one).
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start <= bytes.count {
            // CRLF, LF or CR alone ends a line; by bytes ("\r\n" is one Character to Swift).
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            number += 1
            let line = bytes[start..<end]
            if let first = line.first, first == 0x20 || first == 0x09, !lines.isEmpty {
                // Copied out of the file once, then grown in place.
                lines[lines.count - 1].1 += line.dropFirst()
            } else {
                lines.append((number, line))
            }
            if end < bytes.count, bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { end += 1 }
            start = end + 1
        }
        return lines
    }

    struct LineError: Error { var reason: String }

    /// `NAME;PARAM=a,"b:c";OTHER=d:value`.
    static func parse(_ line: String) throws(LineError) -> Property {
        let scalars = Array(line.unicodeScalars)
        var i = 0
        func isNameCharacter(_ s: Unicode.Scalar) -> Bool {
            (s >= "A" && s <= "Z") || (s >= "a" && s <= "z") || (s >= "0" && s <= "9") || s == "-"
        }
        func name() throws(LineError) -> String {
            let start = i
            while i < scalars.count, isNameCharacter(scalars[i]) { i += 1 }
            guard i > start else { throw LineError(reason: "not a content line (NAME:value): \(preview(line))") }
            return String(String.UnicodeScalarView(scalars[start..<i])).uppercased()
        }
        let propertyName = try name()
        var parameters: [(name: String, values: [String])] = []
        while i < scalars.count, scalars[i] == ";" {
            i += 1
            let parameterName = try name()
            guard i < scalars.count, scalars[i] == "=" else { throw LineError(reason: "parameter \(short(parameterName)) of \(short(propertyName)) has no value") }
            i += 1
            var values: [String] = []
            while true {
                var value = String.UnicodeScalarView()
                if i < scalars.count, scalars[i] == "\"" {
                    i += 1
                    while i < scalars.count, scalars[i] != "\"" { value.append(scalars[i]); i += 1 }
                    guard i < scalars.count else { throw LineError(reason: "parameter \(short(parameterName)) of \(short(propertyName)) has an unclosed quote") }
                    i += 1
                } else {
                    while i < scalars.count, scalars[i] != ";", scalars[i] != ":", scalars[i] != "," { value.append(scalars[i]); i += 1 }
                }
                values.append(String(value))
                guard i < scalars.count, scalars[i] == "," else { break }
                i += 1
            }
            parameters.append((parameterName, values))
        }
        guard i < scalars.count, scalars[i] == ":" else { throw LineError(reason: "\(short(propertyName)) has no ':' before its value") }
        let value = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        return Property(propertyName, value, parameters: parameters)
    }

    /// A name or value of the file in a message: at most 40 characters.
    static func short(_ text: String) -> String {
        text.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
    }

    static func preview(_ line: String) -> String {
        let cut = line.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
        return "“" + String(cut) + (line.unicodeScalars.count > 40 ? "…" : "") + "”"
    }
}
