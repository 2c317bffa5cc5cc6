import CAdwaita
import Foundation
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
    /// The toasts it holds, on show or waiting their turn.
    let held = HeldToasts()

    /// Runs `body`; false when it was refused (said in a toast).
    @discardableResult
    func callAsFunction(_ body: () throws(OperationError) -> Void) -> Bool {
        do {
            try feed.perform(body)
            return true
        } catch {
            // Refused before it ran: the refusal is the whole story.
            if let refusal = feed.refusal(), error.message == refusal {
                toast(refusal)
                return false
            }
            // Where the store card already says why the store refuses, the toast says only
            // that this change was refused: the whole reason, path and all, was cut.
            feed.reload()
            let store = feed.snapshot
            if store.damage != nil || store.newer != nil || store.removed || store.trouble != nil || store.readOnly != nil {
                // TRANSLATORS: the window's toast for a change the store refused; the card at the top of the list says why.
                toast(tr("Not changed: the note at the top says why"))
            } else {
                toast(error.message)
            }
            return false
        }
    }

    /// A note at the bottom of the window, for a few seconds.
    func toast(_ text: String) {
        let words = markup(text.escapingControls)
        show(Toast(markup: words), note: words)
    }

    /// A toast made by the caller (one with a button). `focusingItsButton`: the keyboard's
    /// focus goes to the toast's button, named with what happened ("Deleted “Tea”. Undo")
    /// before it takes the focus, where the focus had nowhere left to be (its row deleted):
    /// on GTK 4.8, which cannot announce, that is how a screen reader hears it.
    ///
    /// `first`: shown at once, over the toasts held, which are dismissed; the notes among
    /// them (``toast(_:)``) come back after it, anew. Not libadwaita's high priority, which
    /// puts the toast on show back in the queue: before 1.7.5 (Debian 12 has 1.2) one put
    /// back and shown again while its hiding still played fails an assertion, and the window
    /// aborted (libadwaita #997: a delete over a note, then Ctrl+Z, on a busy machine).
    func show(_ toast: Toast, first: Bool = false, focusingItsButton: Bool = false) {
        show(toast, first: first, focusingItsButton: focusingItsButton, note: nil)
    }

    private func show(_ toast: Toast, first: Bool = false, focusingItsButton: Bool = false, note: String?) {
        Self.announce(toast.title, from: toasts)
        let notes = first ? held.dismissAll() : []
        // The toast's widget is made when it shows: now, or when the one before it goes.
        let (toasts, held) = (toasts, held)
        held.hold(toast, note: note)
        on(toast.raw, "dismissed") {
            held.letGo(toast)
            afterThisEvent { Self.nameToastButtons(in: toasts) }
        }
        toast.show(in: toasts)
        // Not announced again: they were, when they first showed.
        for words in notes { show(Toast(markup: words), note: words) }
        Self.nameToastButtons(in: toasts)
        afterThisEvent { Self.nameToastButtons(in: toasts) }
        if focusingItsButton, let button = Self.newestToast(in: toasts).flatMap(AccessibleNames.labelledButton(in:)) {
            button.grabFocus()
        }
    }

    /// The buttons of the toasts on show named by their words, after the toast's (GTK 4.8
    /// said the Undo button twice, "Undo Undo", and the × by its icon's class, "GtkImage").
    /// The buttons and the boxes inside: the toast's own widget is left as libadwaita made it
    /// (renamed, it left the AT-SPI tree).
    private static func nameToastButtons(in overlay: Widget) {
        let content = overlay.toastOverlayChild
        for current in overlay.children {
            if current != content, let words = AccessibleNames.words(in: current) {
                AccessibleNames.nameButtons(in: current, saying: words)
                AccessibleNames.nameInnerBoxes(under: current, as: words)
            } else if current != content {
                AccessibleNames.nameButtons(in: current)
            }
        }
    }

    /// The widget of the toast shown last (the overlay's last child but its content).
    private static func newestToast(in overlay: Widget) -> Widget? {
        let content = overlay.toastOverlayChild
        var child = overlay.lastChild
        while let current = child, current == content { child = current.previousSibling }
        return child
    }

    /// `gtk_accessible_announce` (GTK 4.14, GNOME 46 on), looked up where the program runs,
    /// for a libadwaita older than 1.6, whose toast overlay does not announce its toasts
    /// itself (Debian 13's 1.7 does: "A toast appeared: …"). Debian 12's GTK 4.8 has no
    /// announcements: a toast there is a label a screen reader finds, not one it reads out.
    private typealias Announce = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void
    private static let announcer: Announce? = AdwaitaGeneration.toastsAnnounce ? nil
        : dlsym(nil, "gtk_accessible_announce").map { unsafeBitCast($0, to: Announce.self) }  // nil: RTLD_DEFAULT

    /// Says `text` to a screen reader at once, where GTK can (markup taken out).
    static func announce(_ text: String, from widget: Widget) {
        guard let announcer else { return }
        let plain = text.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        announcer(widget.raw, plain, 1)  // GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM
    }
}

/// The toasts a window's overlay holds (on show, or waiting their turn), in the order they
/// show, each with a reference of its own until it is dismissed.
@MainActor final class HeldToasts {
    private var toasts: [(toast: Toast, note: String?)] = []

    func hold(_ toast: Toast, note: String?) {
        toast.retain()
        toasts.append((toast, note))
    }

    /// Let go of once dismissed (a toast may say so more than once).
    func letGo(_ toast: Toast) {
        guard let index = toasts.firstIndex(where: { $0.toast == toast }) else { return }
        toasts.remove(at: index)
        toast.release()
    }

    /// Dismisses every toast held, those waiting first, so that the overlay shows none of
    /// them again; the words of the notes among them, in their order.
    func dismissAll() -> [String] {
        let all = toasts
        for (toast, _) in all.reversed() { toast.dismiss() }
        return all.compactMap(\.note)
    }
}
