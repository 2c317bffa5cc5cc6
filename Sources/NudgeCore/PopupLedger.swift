import Foundation

/// What the scheduler knows of its pop-ups: the alert of each one on screen (or on its way
/// there), and what came back for those whose answer is not complete yet.
///
/// This is the one place that deals with the order answers arrive in. Servers send
/// ActionInvoked and NotificationClosed in either order for one click (an action may come
/// after the close), and a `Notify` reply can come after its timeout; each pop-up gets one
/// answer, and a dismissal never undoes the action that came with it. It is here, not in the
/// delivery, because only the scheduler knows what an answer means (a Done after a
/// dismissal is nothing, a Snooze after one still snoozes), and here every order is tested
/// with plain values. The delivery keeps a pop-up's id, closed or not, until it is let go:
/// the ledger lets a pop-up go (``Delivery/release(_:)``) once it knows of it no more,
/// which is when its answer is complete or it is among the oldest of too many unfinished.
struct PopupLedger {
    /// The alert of each pop-up on screen (or on its way there).
    private var onScreen: [UInt32: UUID] = [:]
    /// Pop-ups whose answer is not complete yet: bounded, the oldest forgotten first.
    private var unsettled = RecentPopups(capacity: 64)
    /// Tells the delivery that nothing more is wanted of a pop-up.
    private let letGo: (UInt32) -> Void

    /// What an action is to its pop-up.
    enum Answer {
        /// The pop-up's answer.
        case first
        /// Its answer, chosen after a dismissal that acknowledged it already.
        case afterDismissal
        /// A second answer to a pop-up that had one: ignored.
        case again
    }

    /// An empty ledger that lets pop-ups go through `letGo`.
    init(letGo: @escaping (UInt32) -> Void) { self.letGo = letGo }

    /// How many pop-ups are on screen, and how many wait for the rest of their answer.
    var counts: (shown: Int, unsettled: Int) { (onScreen.count, unsettled.count) }

    /// The alert whose pop-up has this id on screen now.
    func alert(shownAs id: UInt32) -> UUID? { onScreen[id] }

    /// The alert a pop-up belongs to: on screen, or closed with its answer still to come.
    func alert(of id: UInt32) -> UUID? { onScreen[id] ?? unsettled[id]?.alert }

    /// A pop-up is up for an alert (shown, replaced in place, there from an earlier run, or
    /// shown late) and starts without answers; the one it replaced under another id is not
    /// on screen any more.
    mutating func up(_ id: UInt32, for alert: UUID, replacing old: UInt32? = nil) {
        if let old, old != id {
            onScreen[old] = nil
            settle(old)
        }
        unsettled.forget(id)
        onScreen[id] = alert
    }

    /// A pop-up is no longer on screen for its alert (withdrawn with it, or reported failed
    /// after the alert had moved on to another).
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
        remember(.init(alert: alert, answered: true), for: id)
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
        remember(.init(alert: alert, closed: true, dismissed: dismissed), for: id)
        return true
    }

    /// A pop-up's delivery failed. Without a reply in time the server may only have been
    /// slow: it still shows the pop-up and replies late, so the pop-up is kept a while.
    mutating func failed(_ id: UInt32, alert: UUID, replyMayCome: Bool) {
        onScreen[id] = nil
        if replyMayCome { remember(.init(alert: alert, failed: true), for: id) }
    }

    /// A late reply came: whether one was awaited (either way it is no longer).
    mutating func lateReply(_ id: UInt32) -> Bool {
        defer { unsettled.forget(id) }
        return unsettled[id]?.failed == true
    }

    /// Lets a pop-up go when the ledger no longer knows of it (on screen or awaiting an
    /// answer). Called once a step that may have ended what was known of it is over; the
    /// delivery takes a second release of the same id as nothing.
    func settle(_ id: UInt32) {
        if onScreen[id] == nil && unsettled[id] == nil { letGo(id) }
    }

    /// Remembers what came for a pop-up; one forgotten to make room is let go.
    private mutating func remember(_ entry: RecentPopups.Entry, for id: UInt32) {
        if let evicted = unsettled.remember(entry, for: id) { settle(evicted) }
    }
}
