import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore

/// `nudge on`, `nudge off`, `nudge rm`: act on alerts by id or unique prefix.
struct On: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Switch reminders on.")
    @Argument(help: "Ids or unique prefixes (≥ 4 hex digits).") var ids: [String]
    func run() throws { try AlertIDs.update(ids) { $0.enabled = true; return "on" } }
}

struct Off: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Switch reminders off (they keep their settings).")
    @Argument(help: "Ids or unique prefixes (≥ 4 hex digits).") var ids: [String]
    func run() throws { try AlertIDs.update(ids) { $0.enabled = false; return "off" } }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete reminders.")
    @Argument(help: "Ids or unique prefixes (≥ 4 hex digits).") var ids: [String]
    func run() throws {
        let store = try StoreAccess.open()
        let alerts = try AlertIDs.resolve(ids, in: store)
        try StoreAccess.run { try store.delete(alerts.map(\.id)) }
        for alert in alerts { print("removed \(alert.shortID): \(alert.title)") }
    }
}

enum AlertIDs {
    /// Resolves every id first, so one bad id changes nothing.
    static func resolve(_ ids: [String], in store: AppDatabase) throws(CLIError) -> [Alert] {
        var result: [Alert] = []
        for id in ids { result.append(try StoreAccess.run { try store.alert(matching: id) }) }
        return result
    }

    static func update(_ ids: [String], _ change: (inout Alert) -> String) throws(CLIError) {
        let store = try StoreAccess.open()
        var alerts = try resolve(ids, in: store)
        for index in alerts.indices {
            let word = change(&alerts[index])
            let alert = alerts[index]
            try StoreAccess.run { try store.save(alert) }
            print("\(alert.shortID) \(word): \(alert.title)")
        }
    }
}
