import Localization
import NudgeCore
import NudgeStore

/// The settings kept in the store (the cup, the daily water goal, when a day starts, how
/// long the log is kept, when the person counts as away, the default reminder time), read
/// and changed with the same checks and messages in every face.
public enum Preferences {
    /// Every setting's value, the default where none was set.
    public static func values(_ world: World) throws(OperationError) -> [Setting: Int] {
        let store = try world.store.forReading()
        let stored = try world.run { try store.settings() }
        var values: [Setting: Int] = [:]
        for setting in Setting.allCases { values[setting] = stored[setting] ?? setting.defaultValue }
        return values
    }

    /// The setting a name (`goal`, `day-start`) names.
    public static func setting(named name: String) throws(OperationError) -> Setting {
        guard let setting = Setting(rawValue: name) else {
            // TRANSLATORS: %1$s is the name given, quoted; %2$s the settings there are.
            throw OperationError(.usage, format(tr("unknown setting %1$s: use %2$s"), name.quotedForMessage(),
                                                Setting.allCases.map(\.rawValue).joined(separator: tr(" or "))))
        }
        return setting
    }

    /// A setting's value as a person writes it (`2.5l`, `04:00`, `30`), within its range.
    public static func value(_ text: String, for setting: Setting) throws(OperationError) -> Int {
        if let number = setting.parse(text) { return number }
        switch setting {
        case .cup, .goal:
            // TRANSLATORS: %1$s is the setting's name, %2$s the value given, quoted.
            throw OperationError(.usage, format(tr("invalid %1$s %2$s: give an amount such as 250ml, 0.3l or 8oz"), setting.rawValue, text.quotedForMessage()))
        case .dayStart:
            if let time = try? ScheduleParser.time(text), time.second != 0 {
                // TRANSLATORS: %1$s is the setting's name (day-start), %2$s the time given, quoted.
                throw OperationError(.usage, format(tr("invalid %1$s %2$s: a day starts on a whole minute, without seconds (give a time such as 04:00)"),
                                                    setting.rawValue, text.quotedForMessage()))
            }
            throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a time such as 04:00"), setting.rawValue, text.quotedForMessage()))
        case .defaultTime:
            if let time = try? ScheduleParser.time(text), time.second != 0 {
                // TRANSLATORS: %1$s is the setting's name (default-time), %2$s the time given, quoted; keep "none": it is what to type.
                throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a time in whole minutes, without seconds, such as 09:00, or none"),
                                                    setting.rawValue, text.quotedForMessage()))
            }
            // TRANSLATORS: %1$s is the setting's name (default-time), %2$s the value given, quoted; keep "none": it is what to type.
            throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a time such as 09:00, or none"), setting.rawValue, text.quotedForMessage()))
        case .completeTasks:
            // TRANSLATORS: %1$s is the setting's name (complete-tasks), %2$s the value given, quoted; keep "on" and "off": they are what to type.
            throw OperationError(.usage, format(tr("invalid %1$s %2$s: give on or off"), setting.rawValue, text.quotedForMessage()))
        case .logDays, .logRows, .idleMinutes:
            throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a whole number"), setting.rawValue, text.quotedForMessage()))
        }
    }

    /// Keeps a setting's new value; the daemon, which watches the store, follows it.
    public static func set(_ setting: Setting, to value: Int, _ world: World) throws(OperationError) {
        let store = try world.store.forWriting()
        do { try store.set(setting, to: value) } catch { throw OperationError(error) }
    }
}

/// A setting's name and limits, for the faces that show settings.
public typealias Setting = NudgeStore.Setting
