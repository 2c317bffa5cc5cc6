import CAdwaita
import NudgeKit

/// How the window's pieces act on a person's behalf: through the operations every face
/// shares (NudgeKit), their message shown as a toast when they refuse, and the store read
/// again after, so every piece follows.
@MainActor struct ActionRunner {
    let world: World
    /// The alerts, the water and the daemon, followed.
    let feed: AlertFeed
    /// The window's toast overlay.
    let toasts: Widget

    /// Runs `body`; false when it was refused (said in a toast).
    @discardableResult
    func callAsFunction(_ body: () throws(OperationError) -> Void) -> Bool {
        defer { feed.reloadSoon() }
        do {
            try body()
            return true
        } catch {
            // Where the store card already says why the store refuses, the toast says only
            // that this change was refused: the whole reason, path and all, was cut.
            feed.reload()
            let store = feed.snapshot
            if store.damage != nil || store.newer != nil || store.removed || store.trouble != nil {
                // TRANSLATORS: the window's toast for a change the store refused; the card at the top of the list says why.
                toast(tr("Not changed: the reminders’ file refuses changes (the note at the top says why)"))
            } else {
                toast(error.message)
            }
            return false
        }
    }

    /// A note at the bottom of the window, for a few seconds.
    func toast(_ text: String) {
        show(adw_toast_new(markup(text.escapingControls))!)
    }

    /// A toast made by the caller (one with a button).
    func show(_ toast: OpaquePointer) {
        adw_toast_overlay_add_toast(toasts.opaque, toast)
    }
}
