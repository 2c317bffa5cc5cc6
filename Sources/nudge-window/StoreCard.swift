import CAdwaita
import Foundation
import NudgeKit

/// The store's trouble, at the top of the list while it lasts (store-card.ui): a damaged
/// store, one a newer Nudge wrote, one that cannot be read, or one removed. It says what is
/// wrong in words, the path last, and offers the last good copy where there is one and it
/// would help (what `nudge doctor --restore` does). Never a toast that goes, nor an empty
/// list that says "No reminders yet".
@MainActor final class StoreCard {
    let widget: Widget
    private let title: Widget, detail: Widget, restore: Widget
    private let run: ActionRunner

    init(run: ActionRunner) {
        self.run = run
        let ui = Builder("store-card")
        defer { ui.release() }
        widget = ui.keep("card")
        (title, detail, restore) = (ui("title"), ui("detail"), ui("restore"))
        on(restore.raw, "clicked") { [unowned self] in restoreLastGood() }
        gtk_widget_set_visible(widget, 0)
    }

    /// Whether there is trouble to tell.
    var isShown: Bool { gtk_widget_get_visible(widget) != 0 }

    /// The trouble in the snapshot, or none (the card hides).
    func show(_ snapshot: AlertFeed.Snapshot, zone: TimeZone) {
        let path = run.world.storePath
        let words: (title: String, detail: String)?
        if snapshot.removed {
            // TRANSLATORS: the window when the store's file was removed: the card's title.
            words = (tr("Your reminders’ file is gone"),
                     // TRANSLATORS: the window when the store's file was removed; %s is its path.
                     format(tr("Nothing is listed until it is back. It was %s"), path))
        } else if let damage = snapshot.damage {
            // TRANSLATORS: the window when the store was found damaged: the card's title.
            words = (tr("Your reminders’ file is damaged"),
                     // TRANSLATORS: the window, a damaged store; %1$s is what was found wrong, %2$s the file's path.
                     format(tr("Nothing is saved to it until it is restored, so changes are refused. Found: %1$s. The file: %2$s"), damage, path))
        } else if let trouble = snapshot.trouble {
            // TRANSLATORS: the window when the store cannot be read: the card's title (the reason follows).
            words = (tr("Your reminders cannot be read"), trouble)
        } else if let newer = snapshot.newer {
            // TRANSLATORS: the window when a newer Nudge wrote the store: the card's title.
            words = (tr("Written by a newer Nudge"),
                     // TRANSLATORS: the window, a store a newer Nudge wrote; %1$s says what is newer, %2$s the file's path.
                     format(tr("Your reminders are shown, but changes are refused until Nudge is updated (%1$s). The file: %2$s"), newer, path))
        } else {
            words = nil
        }
        guard let words else { return gtk_widget_set_visible(widget, 0) }
        var detailText = words.detail
        let offersCopy = snapshot.newer == nil || snapshot.removed || snapshot.damage != nil || snapshot.trouble != nil
        if offersCopy, let made = snapshot.lastGood {
            // TRANSLATORS: the window's store card, after the reason; %s is when the last good copy was made.
            detailText += "\n" + format(tr("The last good copy was made %s."), TimeStyle.person().dated(made, zone))
        } else if offersCopy {
            // TRANSLATORS: the window's store card when there is no copy to restore.
            detailText += "\n" + tr("No good copy is kept yet: nudge doctor says what can be done.")
        }
        setText(title, words.title)
        setWordsKept(detail, detailText)
        gtk_widget_set_visible(restore, offersCopy && snapshot.lastGood != nil ? 1 : 0)
        // Read out as one: a screen reader meets the card as an alert with its words.
        setAccessibleName(widget, words.title)
        setAccessibleDescription(widget, detailText)
        gtk_widget_set_visible(widget, 1)
    }

    /// The last good copy in the store's place, the damaged file kept aside; said in a toast.
    private func restoreLastGood() {
        run { () throws(OperationError) in
            run.toast(try Checkup.restoreStore(run.world))
        }
    }
}
