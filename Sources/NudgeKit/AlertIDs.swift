import Foundation
import NudgeCore
import NudgeStore

public enum AlertIDs {
    /// Resolves every id first, so one bad id changes nothing.
    public static func resolve(_ ids: [String], in store: AppDatabase, _ world: World) throws(OperationError) -> [Alert] {
        var result: [Alert] = []
        for id in ids { result.append(try world.run { try store.alert(matching: id) }) }
        return result
    }

    public static func update(_ ids: [String], _ world: World, announce: (String) -> Void = { print($0) }, _ change: (inout Alert) -> String) throws(OperationError) {
        let store = try world.openStore()
        var alerts = try resolve(ids, in: store, world)
        var language: [String] = []
        for index in alerts.indices { language.append(change(&alerts[index])) }
        let changed = alerts
        let shown = try shownPopups(of: alerts.filter { !$0.enabled }, in: store, world)
        try world.run { try store.save(changed) }
        world.storeChanged(closing: shown)
        for (alert, word) in zip(alerts, language) { announce("\(alert.shortID) \(word): \(alert.title.escapingControls)") }
    }

    /// The pop-ups these alerts have on screen (from their stored state).
    public static func shownPopups(of alerts: [Alert], in store: AppDatabase, _ world: World) throws(OperationError) -> [UInt32] {
        guard !alerts.isEmpty else { return [] }
        let states = try world.run { try store.states() }
        return alerts.compactMap { states[$0.id]?.shownID }
    }
}
