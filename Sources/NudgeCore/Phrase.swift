/// A phrase for a person, kept as its English template (marked for translation) and the
/// values that fill its placeholders, and written in a language only when shown. What a
/// machine reads (`--json`) takes `.english`; what a person reads takes their `Language`.
/// A value may itself be a phrase, written in the same language.
/// Marked for `scripts/update-pot` as `Phrase("…", …)` and `Phrase.counted("…", "…", n, …)`.
public struct Phrase: Sendable, Hashable, CustomStringConvertible, PhraseArgument {
    /// A value in a phrase: text as it is, or a phrase of its own.
    public indirect enum Part: Sendable, Hashable {
        case text(String)
        case phrase(Phrase)
    }

    /// The English template, the catalog's key.
    public let template: String
    /// The English plural template, for messages that depend on a count.
    public let plural: String?
    /// The count that picks the plural form.
    public let count: Int
    /// The values of the placeholders, in order.
    public let arguments: [Part]
    /// Text that is shown as it is in every language (a path, a server's own words).
    private let isVerbatim: Bool

    /// A phrase with printf placeholders (`%s`, `%d`, `%1$s`).
    public init(_ template: String, _ arguments: any PhraseArgument...) {
        self.init(template: template, plural: nil, count: 0, arguments: arguments.map(\.part))
    }

    private init(template: String, plural: String?, count: Int, arguments: [Part], isVerbatim: Bool = false) {
        self.template = template
        self.plural = plural
        self.count = count
        self.arguments = arguments
        self.isVerbatim = isVerbatim
    }

    /// Text shown as it is, never looked up (a path, an address, another program's words).
    public static func verbatim(_ text: String) -> Phrase {
        Phrase(template: text, plural: nil, count: 0, arguments: [], isVerbatim: true)
    }

    /// A phrase whose words depend on `count` (one, other, and more in other languages).
    public static func counted(_ singular: String, _ plural: String, _ count: Int, _ arguments: any PhraseArgument...) -> Phrase {
        Phrase(template: singular, plural: plural, count: count, arguments: arguments.map(\.part))
    }

    /// The phrase in the words given.
    public func text(_ language: Language) -> String {
        if isVerbatim { return template }
        let translated = plural.map { language.trn(template, $0, count) } ?? language.tr(template)
        return format(translated, arguments.map { part in
            switch part {
            case .text(let text): text
            case .phrase(let phrase): phrase.text(language)
            }
        })
    }

    /// The English text.
    public var description: String { text(.english) }

    public var part: Part { .phrase(self) }
}

/// What can fill a phrase's placeholder: a plain value (``FormatArgument``) or a phrase.
public protocol PhraseArgument {
    /// As a part of a phrase.
    var part: Phrase.Part { get }
}
