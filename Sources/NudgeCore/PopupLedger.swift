import Foundation

/// What the scheduler knows of its pop-ups: the alert of each one on screen (or on its way
/// there), and what came back for those whose answer is not complete yet.
///
/// Servers send ActionInvoked and NotificationClosed in either order for one click, and a
/// `Notify` reply can come after its timeout; each pop-up gets one answer, and a dismissal
/// never undoes the action that came with it. The memory of unfinished answers is bounded:
/// the oldest are forgotten first.
struct PopupLedger {
    /// The alert of each pop-up on screen (or on its way there).
    private var onScreen: [UInt32: UUID] = [:]
    /// Pop-ups whose answer is not complete yet.
    private var unsettled = RecentPopups(capacity: 64)

    /// What an action is to its pop-up.
    enum Answer {
        /// The pop-up's answer.
        case first
        /// Its answer, chosen after a dismissal that acknowledged it already.
        case afterDismissal
        /// A second answer to a pop-up that had one: ignored.
        case again
    }

    /// How many pop-ups are on screen, and how many wait for the rest of their answer.
    var counts: (shown: Int, unsettled: Int) { (onScreen.count, unsettled.count) }

    /// The alert whose pop-up has this id on screen now.
    func alert(shownAs id: UInt32) -> UUID? { onScreen[id] }

    /// The alert a pop-up belongs to: on screen, or closed with its answer still to come.
    func alert(of id: UInt32) -> UUID? { onScreen[id] ?? unsettled[id]?.alert }

    /// A pop-up is up for an alert (shown, replaced in place, or there from an earlier run)
    /// and starts without answers; the one it replaced under another id is not on screen.
    mutating func up(_ id: UInt32, for alert: UUID, replacing old: UInt32? = nil) {
        if let old, old != id { onScreen[old] = nil }
        unsettled.forget(id)
        onScreen[id] = alert
    }

    /// A pop-up is no longer on screen for its alert (withdrawn with it, or failed).
    mutating func takenDown(_ id: UInt32) { onScreen[id] = nil }

    /// Nothing more is wanted of a pop-up (its alert is gone).
    mutating func forget(_ id: UInt32) {
        onScreen[id] = nil
        unsettled.forget(id)
    }

    /// An action came for a pop-up.
    mutating func action(_ id: UInt32, alert: UUID) -> Answer {
        let memory = unsettled[id]
        if memory?.answered == true { return .again }
        if memory?.closed == true {
            // The other order: the close came first, and with this the answer is complete.
            unsettled.forget(id)
            return memory?.dismissed == true ? .afterDismissal : .first
        }
        // The close that usually follows is part of this answer.
        unsettled[id] = .init(alert: alert, answered: true)
        return .first
    }

    /// A pop-up closed: `true` when that is its answer, `false` when it only ends one an
    /// action gave. Kept a while, for an action some servers send after the close.
    mutating func closed(_ id: UInt32, alert: UUID, dismissed: Bool) -> Bool {
        onScreen[id] = nil
        if unsettled[id]?.answered == true {
            unsettled.forget(id)
            return false
        }
        unsettled[id] = .init(alert: alert, closed: true, dismissed: dismissed)
        return true
    }

    /// A delivery got no reply in time: a server that was only slow still shows the pop-up
    /// and replies late.
    mutating func awaitLateReply(_ id: UInt32, alert: UUID) {
        unsettled[id] = .init(alert: alert, failed: true)
    }

    /// A late reply came: whether one was awaited (either way it is no longer).
    mutating func lateReply(_ id: UInt32) -> Bool {
        defer { unsettled.forget(id) }
        return unsettled[id]?.failed == true
    }
}
