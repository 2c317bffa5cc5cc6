/// The plural formula of a catalog's header (`Plural-Forms: nplurals=3; plural=EXPR;`),
/// checked for what glibc cannot survive when it evaluates one: a division or remainder
/// by zero (SIGFPE: `plural=n%0` made every message with a count kill Nudge) and nesting
/// so deep that its recursive evaluation runs out of stack (`n+n+…+n`, a million terms).
///
/// glibc finds the formula as intl/plural-exp.c does (the first `plural=` of the header,
/// and `nplurals=` somewhere) and parses it with intl/plural.y's grammar: `?:`, `||`,
/// `&&`, `==` `!=`, `<` `>` `<=` `>=`, `+` `-`, `*` `/` `%`, `!`, `n`, numbers and
/// parentheses, blanks being spaces and tabs, the end a `;`, a newline or the string's
/// end. A header glibc cannot read that way has the English rule, which is safe; so a
/// formula is damage only when glibc would read it and it is unsafe. To keep the check
/// simple and certain, Nudge also refuses what it need not: a formula longer than
/// ``maxLength`` bytes or nested deeper than ``maxDepth``, and a `/` or `%` whose divisor
/// is anything but a number other than zero (every language's real formula divides by
/// constants: `n%10`, `n%100`).
enum PluralFormula {
    static let maxLength = 1_000
    static let maxDepth = 64

    /// Why the header's formula is unsafe for glibc, or `nil`.
    static func problem(header: some Collection<UInt8>) -> String? {
        let text = Array(header.prefix { $0 != 0 })
        guard let found = find(Array("plural=".utf8), in: text), find(Array("nplurals=".utf8), in: text) != nil else { return nil }
        let start = found + 7
        let end = text[start...].firstIndex { $0 == 0x3B || $0 == 0x0A } ?? text.count
        guard end - start <= maxLength else { return "its plural formula is longer than \(maxLength) bytes" }
        var parser = Parser(bytes: Array(text[start..<end]))
        do throws(Failure) {
            try parser.expression(depth: 0)
            // Something left over: glibc refuses the formula too, and uses English's rule.
            return nil
        } catch {
            if case .unsafe(let reason) = error { return "its plural formula " + reason }
            return nil
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    enum Failure: Error {
        /// glibc would not read it either (English's rule then: safe).
        case unparsed
        /// glibc would read it, and it is not safe.
        case unsafe(String)
    }

    /// Precedence climbing over plural.y's grammar, the levels lowest first, over the
    /// formula's bytes alone (its end is the end of `bytes`).
    struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The next byte after blanks (space, tab), or `nil` at the end.
        mutating func peek() -> UInt8? {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            return position < bytes.count ? bytes[position] : nil
        }

        /// Takes an operator; `<`, `>` and `!` only when no `=` follows (those are `<=`…).
        mutating func take(_ token: String) -> Bool {
            let token = Array(token.utf8)
            guard peek() == token[0], position + token.count <= bytes.count,
                  bytes[position..<(position + token.count)].elementsEqual(token) else { return false }
            if token.count == 1, [0x3C, 0x3E, 0x21].contains(token[0]), position + 1 < bytes.count, bytes[position + 1] == 0x3D { return false }
            position += token.count
            return true
        }

        /// `a ? b : c`, right to left, the lowest level.
        mutating func expression(depth: Int) throws(Failure) {
            guard depth < PluralFormula.maxDepth else { throw .unsafe("is nested more than \(PluralFormula.maxDepth) deep") }
            try binary(level: 0, depth: depth)
            if take("?") {
                try expression(depth: depth + 1)
                guard take(":") else { throw .unparsed }
                try expression(depth: depth + 1)
            }
        }

        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        /// One level of left-to-right binary operators; a divisor must be a number other
        /// than zero.
        mutating func binary(level: Int, depth: Int) throws(Failure) {
            guard level < Self.levels.count else { return try unary(depth: depth) }
            try binary(level: level + 1, depth: depth)
            while let op = Self.levels[level].first(where: { take($0) }) {
                if op == "/" || op == "%" {
                    guard let divisor = try constant(depth: depth) else {
                        throw .unsafe("divides by something other than a number (\(op)): glibc would divide by zero for some count")
                    }
                    guard divisor != 0 else { throw .unsafe("divides by zero (\(op)0)") }
                } else {
                    try binary(level: level + 1, depth: depth)
                }
            }
        }

        /// `!a`, `n`, a number, `(a)`.
        mutating func unary(depth: Int) throws(Failure) {
            guard depth < PluralFormula.maxDepth else { throw .unsafe("is nested more than \(PluralFormula.maxDepth) deep") }
            if take("!") { return try unary(depth: depth + 1) }
            if take("n") || number() != nil { return }
            guard take("(") else { throw .unparsed }
            try expression(depth: depth + 1)
            guard take(")") else { throw .unparsed }
        }

        /// A number as glibc reads it: digits into an unsigned long, wrapping (so that
        /// 18446744073709551616 is 0, as glibc's divisor would be).
        mutating func number() -> UInt64? {
            guard let first = peek(), (0x30...0x39).contains(first) else { return nil }
            var value: UInt64 = 0
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                value = value &* 10 &+ UInt64(bytes[position] - 0x30)
                position += 1
            }
            return value
        }

        /// A divisor that is a number, perhaps in parentheses: its value; `nil` for
        /// anything else.
        mutating func constant(depth: Int) throws(Failure) -> UInt64? {
            guard depth < PluralFormula.maxDepth else { throw .unsafe("is nested more than \(PluralFormula.maxDepth) deep") }
            let saved = position
            if let value = number() { return value }
            if take("("), let value = try constant(depth: depth + 1), take(")") { return value }
            position = saved
            return nil
        }
    }
}
