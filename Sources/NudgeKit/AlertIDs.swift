import Foundation
import NudgeCore
import NudgeStore

public enum AlertIDs {
    /// Resolves every id first, so one bad id changes nothing.
    public static func resolve(_ ids: [String], in store: AppDatabase) throws(OperationError) -> [Alert] {
        var result: [Alert] = []
        for id in ids { result.append(try StoreAccess.run { try store.alert(matching: id) }) }
        return result
    }

    public static func update(_ ids: [String], announce: (String) -> Void = { print($0) }, _ change: (inout Alert) -> String) throws(OperationError) {
        let store = try StoreAccess.open()
        var alerts = try resolve(ids, in: store)
        var language: [String] = []
        for index in alerts.indices { language.append(change(&alerts[index])) }
        let changed = alerts
        let shown = try shownPopups(of: alerts.filter { !$0.enabled }, in: store)
        try StoreAccess.run { try store.save(changed) }
        storeChanged(closing: shown)
        for (alert, word) in zip(alerts, language) { announce("\(alert.shortID) \(word): \(alert.title.escapingControls)") }
    }

    /// The pop-ups these alerts have on screen (from their stored state).
    public static func shownPopups(of alerts: [Alert], in store: AppDatabase) throws(OperationError) -> [UInt32] {
        guard !alerts.isEmpty else { return [] }
        let states = try StoreAccess.run { try store.states() }
        return alerts.compactMap { states[$0.id]?.shownID }
    }

    /// After a change: a running daemon reloads (and closes what it must); without one, the
    /// pop-ups of alerts switched off or removed are closed here.
    public static func storeChanged(closing shown: [UInt32]) {
        if !DaemonLink.storeChanged() && !shown.isEmpty {
            let closer = PopupCloser()
            for id in shown { try? closer.withdraw(id) }
        }
    }
}
