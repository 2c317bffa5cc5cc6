import Foundation
import NudgeCore
import NudgeStore

/// Alerts named the way a person types an id (the whole id, or a unique prefix of 4 hex
/// digits or more), and a change made to them the same way in every face: `nudge on` and
/// `off`, the switch in `nudge ui` and the window.
public enum AlertIDs {
    /// Resolves every id first, so one bad id changes nothing.
    public static func resolve(_ ids: [String], in store: AppDatabase, _ world: World) throws(OperationError) -> [Alert] {
        var result: [Alert] = []
        for id in ids { result.append(try world.run { try store.alert(matching: id) }) }
        return result
    }

    /// Changes every alert the ids name with `change` and saves them together; every id is
    /// resolved first, so one bad id changes nothing. The daemon is told, and pop-ups of
    /// alerts now off are closed. `announce` gets "ID WORD: TITLE" for each, WORD what
    /// `change` returned.
    public static func update(_ ids: [String], _ world: World, announce: (String) -> Void = { print($0) }, _ change: (inout Alert) -> String) throws(OperationError) {
        let store = try world.store.forWriting()
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
