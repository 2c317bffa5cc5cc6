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

    func callAsFunction(_ body: () throws(OperationError) -> Void) {
        do {
            try body()
        } catch {
            toast(error.message)
        }
        feed.reloadSoon()
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
