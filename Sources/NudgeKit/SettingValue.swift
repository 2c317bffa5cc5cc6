import Foundation
import Localization
import NudgeCore

/// A value of one of an alert's settings, read from the words a person types (an option's
/// value, a form's field). Each type checks its own value and says what was wrong in the
/// same line in every face; ``AlertSettings`` then checks how the values go together.
public protocol SettingValue: Sendable {
    /// The value written as `text`, or why it is not one.
    init(parsing text: String) throws(OperationError)
}

extension Urgency: SettingValue {
    /// `low`, `normal` or `critical`, in any case.
    public init(parsing text: String) throws(OperationError) {
        guard let level = Urgency(name: text) else {
            // TRANSLATORS: %s is the value given, quoted.
            throw OperationError(.usage, format(tr("invalid urgency %s: use low, normal or critical"), text.quotedForMessage()))
        }
        self = level
    }
}

extension Alert.Kind: SettingValue {
    /// `water` or `reminder`, in any case.
    public init(parsing text: String) throws(OperationError) {
        guard let kind = Alert.Kind(rawValue: text.lowercased()) else {
            // TRANSLATORS: %s is the value given, quoted.
            throw OperationError(.usage, format(tr("invalid kind %s: use water or reminder"), text.quotedForMessage()))
        }
        self = kind
    }
}

extension Alert.WhenAway: SettingValue {
    /// `hold` or `show`, in any case.
    public init(parsing text: String) throws(OperationError) {
        guard let policy = Alert.WhenAway(rawValue: text.lowercased()) else {
            // TRANSLATORS: %s is the value given, quoted.
            throw OperationError(.usage, format(tr("invalid --when-away %s: use hold or show"), text.quotedForMessage()))
        }
        self = policy
    }
}

/// What to do with showings missed while nothing ran: `once` (one pop-up within the grace)
/// or `skip`. The grace is a setting of its own (``GraceLength``).
public enum CatchUpChoice: String, SettingValue, CaseIterable {
    /// `once`: one pop-up for what was missed, within the grace; `skip`: they are only
    /// logged.
    case once, skip

    /// `once` or `skip`, in any case.
    public init(parsing text: String) throws(OperationError) {
        guard let choice = CatchUpChoice(rawValue: text.lowercased()) else {
            // TRANSLATORS: %s is the value given, quoted.
            throw OperationError(.usage, format(tr("invalid catch-up %s: use once or skip"), text.quotedForMessage()))
        }
        self = choice
    }
}

/// The zone an alert follows: the system's, or one it is pinned to (an IANA name).
public enum ZoneChoice: SettingValue, Equatable {
    /// The system's zone, whichever it is (`--tz system`).
    case system
    /// This zone, whatever the system's becomes.
    case pinned(TimeZone)

    /// `system`, in any case, or a zone's name.
    public init(parsing text: String) throws(OperationError) {
        if text.lowercased() == "system" { self = .system; return }
        do { self = .pinned(try ScheduleParser.zone(text)) } catch { throw OperationError(error) }
    }

    /// The pinned zone; `nil` for the system's.
    public var pinned: TimeZone? {
        if case .pinned(let zone) = self { zone } else { nil }
    }
}

/// The sound of an alert's pop-up: a sound-theme name or a file, or `none` for silence.
public enum SoundChoice: SettingValue, Equatable {
    /// No sound (`none`).
    case silent
    /// A sound-theme name (`bell`) or a sound file.
    case sound(Sound)

    /// `none` (in any case) for silence, else a name or a file within the sound's length
    /// limit; empty is refused.
    public init(parsing text: String) throws(OperationError) {
        if text.lowercased() == "none" { self = .silent; return }
        // The same words as `nudge send --sound ''`.
        guard !text.isEmpty else { throw OperationError(.usage, tr("invalid sound '': give a name or a path")) }
        try AlertSettings.check(.sound, text)
        self = .sound(Sound(text))
    }

    /// The sound; `nil` for silence.
    public var sound: Sound? {
        if case .sound(let sound) = self { sound } else { nil }
    }
}

/// How long Snooze postpones (`10m`, `1h30m`): 1 second to 7 days.
public struct SnoozeLength: SettingValue, Equatable {
    /// The length in seconds.
    public let seconds: Int

    /// A duration (`10m`, `1h30m`) of 1 second to 7 days.
    public init(parsing text: String) throws(OperationError) {
        seconds = try AlertSettings.duration(text, for: .snooze)
    }
}

/// How old a missed showing may be and still be shown: 1 second to 30 days.
public struct GraceLength: SettingValue, Equatable {
    /// The length in seconds.
    public let seconds: Int

    /// A duration (`30m`, `12h`, `2d`) of 1 second to 30 days.
    public init(parsing text: String) throws(OperationError) {
        seconds = try AlertSettings.duration(text, for: .grace)
    }
}

/// How often an unanswered pop-up is shown again, or `none` for never.
public enum NagInterval: SettingValue, Equatable {
    /// Not shown again (`none`).
    case never
    /// Shown again every `seconds` while unanswered.
    case every(seconds: Int)

    /// `none` (in any case) for never, or a duration of 1 second to 1 day.
    public init(parsing text: String) throws(OperationError) {
        if text.lowercased() == "none" { self = .never; return }
        self = .every(seconds: try AlertSettings.duration(text, for: .nag))
    }
}

/// How many times at most an unanswered pop-up is shown again: 1 to ``Alert/Nag/maxTimes``.
public struct NagTimes: SettingValue, Equatable {
    /// The count.
    public let count: Int

    /// A whole number from 1 to ``Alert/Nag/maxTimes``.
    public init(parsing text: String) throws(OperationError) {
        guard let count = Int(text), (1...Alert.Nag.maxTimes).contains(count) else {
            // TRANSLATORS: %1$s is the value given, quoted; %2$d the most allowed.
            throw OperationError(.usage, format(tr("invalid --nag-max %1$s: use 1 to %2$d"), text.quotedForMessage(), Alert.Nag.maxTimes))
        }
        self.count = count
    }
}
