/// A plain value a message puts in its place (`%d`, `%s`); in a ``Phrase`` it stands as
/// itself in every language.
public protocol FormatArgument: PhraseArgument {
    /// The text it stands as.
    var formatted: String { get }
}

extension FormatArgument {
    public var part: Phrase.Part { .text(formatted) }
}

extension Int: FormatArgument { public var formatted: String { String(self) } }
extension String: FormatArgument { public var formatted: String { self } }

/// Fills a message's placeholders as printf does for the ones messages use: `%d` and `%s`
/// in order, `%1$d` and `%2$s` by position (a translation may reorder them), `%%`. The
/// catalogs are checked with `msgfmt --check`, so a translation keeps the same
/// placeholders; anything else is left as it is, never a crash.
public func format(_ template: String, _ arguments: any FormatArgument...) -> String {
    format(template, arguments.map(\.formatted))
}

/// ``format(_:_:)`` with the values already written out.
public func format(_ template: String, _ arguments: [String]) -> String {
    var result = ""
    var next = 0
    var characters = template[...]
    while let percent = characters.firstIndex(of: "%") {
        result += characters[..<percent]
        var rest = characters[characters.index(after: percent)...]
        if rest.first == "%" {
            result += "%"
            characters = rest.dropFirst()
            continue
        }
        var position: Int?
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
            position = Int(digits).map { $0 - 1 }
            rest = rest.dropFirst(digits.count + 1)
        }
        guard let kind = rest.first, kind == "d" || kind == "s" else {
            result += "%"
            characters = characters[characters.index(after: percent)...]
            continue
        }
        let index = position ?? next
        next = index + 1
        result += index >= 0 && index < arguments.count ? arguments[index] : ""
        characters = rest.dropFirst()
    }
    return result + characters
}
