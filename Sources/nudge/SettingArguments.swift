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
            RefusedValue.last.withLock { $0 = (text, error) }
            return nil
        }
    }
}

/// The last option value a setting's type refused, with its reason, so that the one line
/// on stderr is the type's own ("invalid urgency 'loud': use low, normal or critical")
/// rather than argument-parser's generic "The value … is invalid for …".
enum RefusedValue {
    static let last = Mutex<(text: String, error: OperationError)?>(nil)

    /// The type's reason when `message` is argument-parser's report of the value refused last.
    static func reason(for message: String) -> OperationError? {
        guard let (text, error) = last.withLock({ $0 }),
              message.hasPrefix("The value '\(text)' is invalid for ") || message.hasPrefix("Error: The value '\(text)' is invalid for ")
        else { return nil }
        return error
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
