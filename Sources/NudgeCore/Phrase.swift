/// A phrase for a person, kept as its English template (marked for translation) and the
/// values that fill its placeholders, and written in a language only when shown. What a
/// machine reads (`--json`) takes `.english`; what a person reads takes their `Wording`.
/// Marked for `scripts/update-pot` as `Phrase("…", …)` and `Phrase.counted("…", "…", n, …)`.
public struct Phrase: Sendable, Hashable, CustomStringConvertible {
    /// The English template, the catalog's key.
    public let template: String
    /// The English plural template, for messages that depend on a count.
    public let plural: String?
    /// The count that picks the plural form.
    public let count: Int
    /// The values of the placeholders, in order.
    public let arguments: [String]
    /// Text that is shown as it is in every language (a path, a server's own words).
    private var isVerbatim = false

    /// A message with printf placeholders (`%s`, `%d`, `%1$s`).
    public init(_ template: String, _ arguments: any FormatArgument...) {
        self.template = template
        self.plural = nil
        self.count = 0
        self.arguments = arguments.map(\.formatted)
    }

    private init(template: String, plural: String?, count: Int, arguments: [String], isVerbatim: Bool = false) {
        self.template = template
        self.plural = plural
        self.count = count
        self.arguments = arguments
        self.isVerbatim = isVerbatim
    }

    /// Text shown as it is, never looked up (a path, an address, another program's words).
    public static func verbatim(_ text: String) -> Phrase {
        Phrase(template: text, plural: nil, count: 0, arguments: [text], isVerbatim: true)
    }

    /// A message whose words depend on `count` (one, other, and more in other languages).
    public static func counted(_ singular: String, _ plural: String, _ count: Int, _ arguments: any FormatArgument...) -> Phrase {
        Phrase(template: singular, plural: plural, count: count, arguments: arguments.map(\.formatted))
    }

    /// The message in the words given.
    public func text(_ words: Wording) -> String {
        if isVerbatim { return arguments[0] }
        let translated = plural.map { words.trn(template, $0, count) } ?? words.tr(template)
        return format(translated, arguments)
    }

    /// The English text.
    public var description: String { text(.english) }
}
