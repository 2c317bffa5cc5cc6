import ArgumentParser
import NudgeCore
import NudgeKit
import Synchronization

/// The settings' own types as option values: argument-parser reads, completes and
/// documents them, and each type's ``SettingValue`` check decides what it accepts.
extension SettingValue where Self: ExpressibleByArgument {
    /// The value, or `nil` with the reason kept for ``RefusedValue``: argument-parser's
    /// failable initializer has no way to say why.
    static func read(_ text: String) -> Self? {
        do {
            return try Self(parsing: text)
        } catch {
            RefusedValue.refused.withLock { $0[text] = error }
            return nil
        }
    }
}

/// The option values the settings' types refused, each with its reason, so that the one
/// line on stderr is the type's own ("invalid urgency 'loud': use low, normal or
/// critical") rather than argument-parser's generic "The value … is invalid for …".
enum RefusedValue {
    static let refused = Mutex<[String: OperationError]>([:])

    /// The type's reason when `message` is argument-parser's report of a value a type
    /// refused (the first one it met, when several were).
    static func reason(for message: String) -> OperationError? {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        return refused.withLock { refused in
            // The longest value that fits: one value may begin with another.
            refused.filter { text.hasPrefix("The value '\($0.key)' is invalid for ") }.max { $0.key.count < $1.key.count }?.value
        }
    }
}

extension Urgency: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
    /// The help says the values in its own words.
    public static var allValueStrings: [String] { [] }
    public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.description)) }
}

extension Alert.Kind: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
    /// The help says the values in its own words.
    public static var allValueStrings: [String] { [] }
    public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.rawValue)) }
}

extension Alert.WhenAway: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
    /// The help says the values in its own words.
    public static var allValueStrings: [String] { [] }
    public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.rawValue)) }
}

extension CatchUpChoice: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
    /// The help says the values in its own words.
    public static var allValueStrings: [String] { [] }
    public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.rawValue)) }
}

extension ZoneChoice: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
}

extension SoundChoice: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
    public static var defaultCompletionKind: CompletionKind { .file() }
}

extension SnoozeLength: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
}

extension GraceLength: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
}

extension NagInterval: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
}

extension NagTimes: ExpressibleByArgument {
    public init?(argument: String) { guard let value = Self.read(argument) else { return nil }; self = value }
}
