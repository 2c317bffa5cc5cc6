/// iCalendar (RFC 5545) as text: components (`BEGIN:VEVENT` … `END:VEVENT`) made of
/// content lines (`NAME;PARAM=value:value`), read from and written to the wire form:
/// lines folded at 75 octets (never inside a UTF-8 sequence), CRLF or LF, text values
/// escaped. What the properties mean is for the layer above.
public struct Component: Sendable, Equatable {
    /// `VCALENDAR`, `VEVENT`, `VTIMEZONE`…, upper case.
    public var name: String
    public var properties: [Property]
    public var components: [Component]

    public init(_ name: String, properties: [Property] = [], components: [Component] = []) {
        (self.name, self.properties, self.components) = (upperCased(name), properties, components)
    }

    /// The first property with this name.
    public subscript(name: String) -> Property? { properties.first { $0.name == name } }

    /// Every property with this name, in order.
    public func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }

    /// The wire form: CRLF line ends, lines folded at 75 octets.
    public var text: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The wire form's bytes, appended.
    public func write(to out: inout [UInt8]) {
        Self.fold("BEGIN:" + name, into: &out)
        var line: [UInt8] = []
        for property in properties {
            line.removeAll(keepingCapacity: true)
            property.write(to: &line)
            Self.fold(line, into: &out)
        }
        for component in components { component.write(to: &out) }
        Self.fold("END:" + name, into: &out)
    }
}

extension Component {
    /// A content line in lines of at most 75 octets, each after the first starting with a
    /// space (RFC 5545 §3.1), cut only between characters (never before a UTF-8
    /// continuation byte).
    public static func fold(_ line: String, into out: inout [UInt8]) {
        var line = line
        line.withUTF8 { fold($0, into: &out) }
    }

    public static func fold<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, into out: inout [UInt8]) where Bytes.Index == Int {
        var start = bytes.startIndex, limit = 75
        while bytes.endIndex - start > limit {
            var cut = start + limit
            while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            out.append(contentsOf: bytes[start..<cut])
            out.append(13)
            out.append(10)
            out.append(32)
            start = cut
            limit = 74
        }
        out.append(contentsOf: bytes[start...])
        out.append(13)
        out.append(10)
    }
}

/// Content lines appended straight to bytes and folded, for writing many of them.
public struct LineWriter {
    /// The lines written so far, each ended with CRLF.
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// `NAME:value`, the value as given (escape TEXT first).
    public mutating func line(_ name: String, _ value: String) {
        let start = bytes.count
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value.utf8)
        end(from: start)
    }

    /// A property with parameters.
    public mutating func line(_ property: Property) {
        let start = bytes.count
        property.write(to: &bytes)
        end(from: start)
    }

    /// Ends the line begun at `start`: folded when longer than 75 octets (most are not,
    /// and stay where they were written).
    private mutating func end(from start: Int) {
        guard bytes.count - start > 75 else {
            bytes.append(13)
            bytes.append(10)
            return
        }
        let line = Array(bytes[start...])
        bytes.removeSubrange(start...)
        Component.fold(line, into: &bytes)
    }
}

/// One content line: a name, parameters and a value (kept as written; ``text`` unescapes
/// a TEXT value).
public struct Property: Sendable, Equatable {
    /// Upper case.
    public var name: String
    /// Parameters in order, names upper case, values without their quotes.
    public var parameters: [(name: String, values: [String])]
    /// The value as on the wire (escaped for TEXT).
    public var value: String

    public init(_ name: String, _ value: String, parameters: [(name: String, values: [String])] = []) {
        (self.name, self.value) = (upperCased(name), value)
        self.parameters = parameters.isEmpty ? [] : parameters.map { (upperCased($0.name), $0.values) }
    }

    /// A TEXT property from plain text (escaped here).
    public static func text(_ name: String, _ text: String, parameters: [(name: String, values: [String])] = []) -> Property {
        Property(name, Self.escape(text), parameters: parameters)
    }

    public static func == (a: Property, b: Property) -> Bool {
        a.name == b.name && a.value == b.value && a.parameters.map(\.name) == b.parameters.map(\.name)
            && a.parameters.map(\.values) == b.parameters.map(\.values)
    }

    /// A parameter's first value (`TZID`, `VALUE`).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.uppercased() }?.values.first
    }

    /// The value as TEXT: `\n`, `\,`, `\;`, `\\` undone.
    public var text: String { Self.unescape(value) }

    /// The value split at unescaped commas (a list of TEXT, or of dates).
    public var list: [String] {
        var items: [String] = [], current = "", escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items
    }

    /// The line before folding, appended as bytes.
    func write(to line: inout [UInt8]) {
        line.append(contentsOf: name.utf8)
        for (parameter, values) in parameters {
            line.append(UInt8(ascii: ";"))
            line.append(contentsOf: parameter.utf8)
            line.append(UInt8(ascii: "="))
            for (i, value) in values.enumerated() {
                if i > 0 { line.append(UInt8(ascii: ",")) }
                line.append(contentsOf: Self.quoteIfNeeded(value).utf8)
            }
        }
        line.append(UInt8(ascii: ":"))
        line.append(contentsOf: value.utf8)
    }

    /// The line before folding.
    public var line: String {
        var line = name
        for (parameter, values) in parameters {
            line += ";" + parameter + "=" + values.map(Self.quoteIfNeeded).joined(separator: ",")
        }
        return line + ":" + value
    }

    static func quoteIfNeeded(_ value: String) -> String {
        value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + value + "\"" : value
    }

    /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, newline (a carriage
    /// return goes). Byte by byte: every one of these is ASCII, so UTF-8 sequences pass whole.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 0x5C, 0x3B, 0x2C:
                out.append(0x5C)
                out.append(byte)
            case 0x0A:
                out.append(0x5C)
                out.append(UInt8(ascii: "n"))
            case 0x0D: continue
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = "", escaped = false
        for scalar in value.unicodeScalars {
            if escaped {
                switch scalar {
                case "n", "N": out += "\n"
                default: out.unicodeScalars.append(scalar)
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// A name in upper case; most are already (no new string for them).
func upperCased(_ name: String) -> String {
    name.utf8.contains { $0 >= 0x61 && $0 <= 0x7A } ? name.uppercased() : name
}
