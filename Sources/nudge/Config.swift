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
