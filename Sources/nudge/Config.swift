import NudgeKit
import ArgumentParser
import NudgeCore
import NudgeStore
import Localization

/// `nudge config`: the settings kept in the store.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change settings: the cup size, the daily water goal, when a day starts, how long the log is kept, the default reminder time, whether Done completes a calendar's task.",
        discussion: """
        Without arguments, lists every setting with its value; with a name, prints its \
        value; with a name and a value, sets it.

        Settings:
        \(Setting.allCases.map { "  \($0.rawValue + String(repeating: " ", count: max(0, 14 - $0.rawValue.count))) \($0.summary) (default \($0.text($0.defaultValue)), \($0.rangeText))" }.joined(separator: "\n"))

        With a default time set, a day said without a time of day ("tomorrow", "friday", \
        "12월 1일", "every monday") is at that time, and the echo says so; with none, such \
        words are refused, asking at what time.

        Examples:
          nudge config
          nudge config goal 2.5l
          nudge config day-start 04:00
          nudge config default-time 09:00
          nudge config default-time none
          nudge config log-days 30
          nudge config complete-tasks on
        """
    )

    @Argument(help: ArgumentHelp("A setting's name.", valueName: "NAME"), completion: .list(Setting.allCases.map(\.rawValue)))
    var name: String?

    @Argument(help: ArgumentHelp("Its new value.", valueName: "VALUE"))
    var value: String?

    func run() throws {

        let world = World.live
        guard let name else {
            let values = try Preferences.values(world)
            for setting in Setting.allCases { print("\(setting.rawValue) \(setting.text(values[setting]!))") }
            return
        }
        let setting = try Preferences.setting(named: name)
        guard let value else {
            print(setting.text(try Preferences.values(world)[setting]!))
            return
        }
        let number = try Preferences.value(value, for: setting)
        try Preferences.set(setting, to: number, world)
        print("\(setting.rawValue) \(setting.text(number))")
    }
}
