import ArgumentParser
import Foundation
import NudgeCore
import NudgeStore

/// `nudge on`, `nudge off`, `nudge rm`: act on alerts by id or unique prefix.
struct On: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on",
        abstract: "Switch reminders on.", discussion: "Examples:\n  nudge on 3f25\n  nudge on 3f25 b195")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws { try AlertIDs.update(ids) { $0.enabled = true; return "on" } }
}

struct Off: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off",
        abstract: "Switch reminders off (they keep their settings); a pop-up still shown closes.",
        discussion: "Examples:\n  nudge off 3f25\n  nudge off $(nudge list --json | jq -r '.[].shortId')")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws { try AlertIDs.update(ids) { $0.enabled = false; return "off" } }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete reminders; a pop-up still shown closes. Their log stays.",
        discussion: "Examples:\n  nudge rm 3f25\n  nudge rm 3f25 b195")
    @Argument(help: "Alert ids, or unique prefixes (4 or more hex digits).") var ids: [String]
    func run() throws {
        let store = try StoreAccess.open()
        // By id and title only: an alert whose row cannot be read can still be removed.
        var alerts: [(id: UUID, title: String)] = []
        for id in ids { alerts.append(try StoreAccess.run { try store.alertID(matching: id) }) }
        let states = try StoreAccess.run { try store.states() }
        let shown = alerts.compactMap { states[$0.id]?.shownID }
        try StoreAccess.run { try store.delete(alerts.map(\.id)) }
        AlertIDs.storeChanged(closing: shown)
        for alert in alerts { print("removed \(alert.id.shortHex): \(alert.title.escapingControls)") }
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
        var words: [String] = []
        for index in alerts.indices { words.append(change(&alerts[index])) }
        let changed = alerts
        let shown = try shownPopups(of: alerts.filter { !$0.enabled }, in: store)
        try StoreAccess.run { try store.save(changed) }
        storeChanged(closing: shown)
        for (alert, word) in zip(alerts, words) { print("\(alert.shortID) \(word): \(alert.title.escapingControls)") }
    }

    /// The pop-ups these alerts have on screen (from their stored state).
    static func shownPopups(of alerts: [Alert], in store: AppDatabase) throws(CLIError) -> [UInt32] {
        guard !alerts.isEmpty else { return [] }
        let states = try StoreAccess.run { try store.states() }
        return alerts.compactMap { states[$0.id]?.shownID }
    }

    /// After a change: a running daemon reloads (and closes what it must); without one, the
    /// pop-ups of alerts switched off or removed are closed here.
    static func storeChanged(closing shown: [UInt32]) {
        if !DaemonLink.storeChanged() && !shown.isEmpty {
            let closer = PopupCloser()
            for id in shown { try? closer.withdraw(id) }
        }
    }
}
