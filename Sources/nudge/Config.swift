import NudgeKit
import ArgumentParser
import NudgeCore
import NudgeStore
import Localization

/// `nudge config`: the settings kept in the store.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change settings: the cup size, the daily water goal, when a day starts, how long the log is kept.",
        discussion: """
        Without arguments, lists every setting with its value; with a name, prints its \
        value; with a name and a value, sets it.

        Settings:
        \(Setting.allCases.map { "  \($0.rawValue + String(repeating: " ", count: max(0, 10 - $0.rawValue.count))) \($0.summary) (default \($0.text($0.defaultValue)), \($0.text($0.range.lowerBound))–\($0.text($0.range.upperBound)))" }.joined(separator: "\n"))

        Examples:
          nudge config
          nudge config goal 2.5l
          nudge config day-start 04:00
          nudge config log-days 30
        """
    )

    @Argument(help: ArgumentHelp("A setting's name.", valueName: "NAME"), completion: .list(Setting.allCases.map(\.rawValue)))
    var name: String?

    @Argument(help: ArgumentHelp("Its new value.", valueName: "VALUE"))
    var value: String?

    func run() throws {
        guard let name else {
            let values = try StoreAccess.run { try StoreAccess.read().settings() }
            for setting in Setting.allCases { print("\(setting.rawValue) \(setting.text(values[setting] ?? setting.defaultValue))") }
            return
        }
        guard let setting = Setting(rawValue: name) else {
            // TRANSLATORS: %1$s is the name given, quoted; %2$s the settings there are.
            throw OperationError(.usage, format(tr("unknown setting %1$s: use %2$s"), name.quotedForMessage(),
                                          Setting.allCases.map(\.rawValue).joined(separator: tr(" or "))))
        }
        guard let value else {
            let values = try StoreAccess.run { try StoreAccess.read().settings() }
            print(setting.text(values[setting] ?? setting.defaultValue))
            return
        }
        guard let number = setting.parse(value) else {
            switch setting {
            case .cup, .goal:
                // TRANSLATORS: %1$s is the setting's name, %2$s the value given, quoted.
                throw OperationError(.usage, format(tr("invalid %1$s %2$s: give an amount such as 250ml, 0.3l or 8oz"), setting.rawValue, value.quotedForMessage()))
            case .dayStart:
                if let time = try? ScheduleParser.time(value), time.second != 0 {
                    // TRANSLATORS: %1$s is the setting's name (day-start), %2$s the time given, quoted.
                    throw OperationError(.usage, format(tr("invalid %1$s %2$s: a day starts on a whole minute, without seconds (give a time such as 04:00)"),
                                                  setting.rawValue, value.quotedForMessage()))
                }
                throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a time such as 04:00"), setting.rawValue, value.quotedForMessage()))
            case .logDays, .logRows, .idleMinutes:
                throw OperationError(.usage, format(tr("invalid %1$s %2$s: give a whole number"), setting.rawValue, value.quotedForMessage()))
            }
        }
        let store = try StoreAccess.open()
        do { try store.set(setting, to: number) } catch { throw OperationError(error) }
        print("\(setting.rawValue) \(setting.text(number))")
    }
}
