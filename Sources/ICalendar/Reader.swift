/// What is wrong with a text that should be iCalendar, and on which (unfolded) line.
public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based, counting the lines as written (a folded line counts where it starts).
    public var line: Int
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
}

extension Component {
    /// The components a text holds at its top level (one `VCALENDAR` as a rule). Lines end
    /// in CRLF or LF; a line starting with a space or a tab continues the one before.
    /// Anything that is not a content line, a `BEGIN` without its `END`, or nesting deeper
    /// than `maxDepth` is an error naming its line.
    public static func read(_ text: String, maxDepth: Int = 8) throws(SyntaxError) -> [Component] {
        var top: [Component] = []
        var open: [(component: Component, line: Int)] = []
        var sawLine = false
        for (number, line) in unfold(text) {
            if line.isEmpty { continue }
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
                guard let last = open.popLast() else { throw SyntaxError(line: number, reason: "END:\(property.value) without its BEGIN") }
                guard last.component.name == property.value.uppercased() else {
                    throw SyntaxError(line: number, reason: "END:\(property.value) closes BEGIN:\(last.component.name) of line \(last.line)")
                }
                if open.isEmpty { top.append(last.component) } else { open[open.count - 1].component.components.append(last.component) }
            default:
                guard !open.isEmpty else { throw SyntaxError(line: number, reason: "\(property.name) outside any component") }
                open[open.count - 1].component.properties.append(property)
            }
        }
        if let unclosed = open.last {
            throw SyntaxError(line: unclosed.line, reason: "BEGIN:\(unclosed.component.name) is never closed (the file is cut short?)")
        }
        guard sawLine else { throw SyntaxError(line: 1, reason: "not iCalendar: it is empty") }
        return top
    }

    /// The logical lines with the number of the line each starts on.
    static func unfold(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var number = 0
        // By bytes: "\r\n" is one Character to Swift, and a line may end in either.
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = raw[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !lines.isEmpty {
                lines[lines.count - 1].1 += String(decoding: line.dropFirst(), as: UTF8.self)
            } else {
                lines.append((number, String(decoding: line, as: UTF8.self)))
            }
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
            guard i < scalars.count, scalars[i] == "=" else { throw LineError(reason: "parameter \(parameterName) of \(propertyName) has no value") }
            i += 1
            var values: [String] = []
            while true {
                var value = String.UnicodeScalarView()
                if i < scalars.count, scalars[i] == "\"" {
                    i += 1
                    while i < scalars.count, scalars[i] != "\"" { value.append(scalars[i]); i += 1 }
                    guard i < scalars.count else { throw LineError(reason: "parameter \(parameterName) of \(propertyName) has an unclosed quote") }
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
        guard i < scalars.count, scalars[i] == ":" else { throw LineError(reason: "\(propertyName) has no ':' before its value") }
        let value = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        return Property(propertyName, value, parameters: parameters)
    }

    static func preview(_ line: String) -> String {
        let cut = line.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
        return "“" + String(cut) + (line.unicodeScalars.count > 40 ? "…" : "") + "”"
    }
}
