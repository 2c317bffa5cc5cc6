import CAdwaita
import Foundation
import NudgeCore
import NudgeKit

/// The store's trouble, at the top of the list while it lasts (store-card.ui): a damaged
/// store, one a newer Nudge wrote, one that cannot be read, one read-only, or one removed. It says what is
/// wrong in words, the path last, and offers the last good copy where there is one and it
/// would help (what `nudge doctor --restore` does). Never a toast that goes, nor an empty
/// list that says "No reminders yet".
@MainActor final class StoreCard {
    let widget: Widget
    private let title: Widget, detail: Widget, restore: Widget, startAnew: Widget
    private let run: ActionRunner

    init(run: ActionRunner) {
        self.run = run
        let owner = Owner<StoreCard>()
        let ui = Builder("store-card", handlers: ["restore": owner.handler { $0.restoreLastGood() },
                                                  "start-anew": owner.handler { $0.beginAnew() }])
        defer { ui.release() }
        widget = ui.keep("card")
        (title, detail, restore, startAnew) = (ui("title"), ui("detail"), ui("restore"), ui("start-anew"))
        owner.object = self
    }

    private func beginAnew() {
        do throws(OperationError) { try run.feed.startAnew() } catch { run.toast(error.message) }
    }

    /// Whether there is trouble to tell.
    var isShown: Bool { widget.isVisible }

    /// The trouble in the snapshot, or none (the card hides).
    func show(_ snapshot: AlertFeed.Snapshot, zone: TimeZone) {
        let path = run.world.storePath
        let words: (title: String, detail: String)?
        if snapshot.removed {
            // TRANSLATORS: the window when the store's file was removed: the card's title.
            words = (tr("Your reminders’ file is gone"),
                     // TRANSLATORS: the window when the store's file was removed (its path follows on a line of its own).
                     tr("Nothing is listed or saved until it is back, or until you start anew."))
        } else if let damage = snapshot.damage {
            // TRANSLATORS: the window when the store was found damaged: the card's title.
            words = (tr("Your reminders’ file is damaged"),
                     // TRANSLATORS: the window, a damaged store; %s is what was found wrong (SQLite's words).
                     format(tr("Nothing is saved to it until it is restored, so changes are refused. What was found: %s."), damage))
        } else if let trouble = snapshot.trouble {
            // TRANSLATORS: the window when the store cannot be read: the card's title (the reason follows).
            words = (tr("Your reminders cannot be read"), trouble)
        } else if let newer = snapshot.newer {
            // TRANSLATORS: the window when a newer Nudge wrote the store: the card's title.
            words = (tr("Written by a newer Nudge"),
                     // TRANSLATORS: the window, a store a newer Nudge wrote; %s says what is newer. (No restore: an
                     // older copy would lose what the newer Nudge wrote.)
                     format(tr("Your reminders are shown, but changes are refused until Nudge is updated (%s)."), newer))
        } else if let readOnly = snapshot.readOnly {
            // TRANSLATORS: the window when the store can be read but not written (read-only): the card's title.
            words = (tr("Your reminders cannot be changed"),
                     // TRANSLATORS: the window, a read-only store; %s is why (the path and the system's words). No restore:
                     // the copy would have to be written too.
                     format(tr("They are shown, but changes are refused until the file and its folder can be written again: %s."), readOnly))
        } else {
            words = nil
        }
        guard let words else { return widget.isVisible = false }
        var lines = [words.detail]
        let offersCopy = snapshot.readOnly == nil
            && (snapshot.newer == nil || snapshot.removed || snapshot.damage != nil || snapshot.trouble != nil)
        if offersCopy, let made = snapshot.lastGood {
            // TRANSLATORS: the window's store card, after the reason; %s is when the last good copy was made.
            lines.append(format(tr("The last good copy was made %s."), TimeStyle.person().dated(made, zone)))
        } else if offersCopy {
            // TRANSLATORS: the window's store card when there is no copy to restore.
            lines.append(tr("No good copy is kept yet: nudge doctor says what can be done."))
        }
        // The path last, on a line of its own (a trouble's own words name it already).
        if (snapshot.trouble == nil && snapshot.readOnly == nil) || snapshot.removed || snapshot.damage != nil { lines.append(path) }
        let detailText = lines.joined(separator: "\n")
        setText(title, words.title)
        setWordsKept(detail, detailText)
        restore.isVisible = offersCopy && snapshot.lastGood != nil
        startAnew.isVisible = snapshot.removed
        // Read out as one: a screen reader meets the card as an alert with its words.
        setAccessibleName(widget, words.title)
        setAccessibleDescription(widget, detailText)
        widget.isVisible = true
    }

    /// The question asked before a restore that would change what the window showed.
    private var restoreQuestion: Widget?

    /// Restores at once when the copy holds what the window showed (or it showed nothing);
    /// otherwise says first what would be lost and what would come back, and offers to
    /// keep what was shown (issue 52: a copy ten minutes old dropped three reminders and
    /// brought back three deleted ones, silently).
    private func restoreLastGood() {
        guard restoreQuestion == nil else { return }
        let shown = run.feed.shownBeforeTrouble
        guard !shown.isEmpty else { return restore(keeping: nil) }
        let difference: Checkup.RestoreDifference
        do throws(OperationError) {
            difference = try Checkup.restoreDifference(run.world, shown: shown)
        } catch {
            // The copy cannot be read: the restore itself says why.
            return restore(keeping: nil)
        }
        guard !difference.isEmpty else { return restore(keeping: nil) }
        var lines: [String] = []
        // TRANSLATORS: the question before a restore; %s lists reminders' titles ("“Tea”, “Walk”").
        if !difference.lost.isEmpty { lines.append(format(tr("Not in the copy, so lost: %s."), Self.titles(difference.lost))) }
        // TRANSLATORS: the question before a restore; %s lists reminders' titles.
        if !difference.back.isEmpty { lines.append(format(tr("Deleted since, so back again: %s."), Self.titles(difference.back))) }
        // TRANSLATORS: the question before a restore; %s lists reminders' titles.
        if !difference.changed.isEmpty { lines.append(format(tr("Changed since, so as they were: %s."), Self.titles(difference.changed))) }
        // TRANSLATORS: the question before a restore: what its suggested answer does.
        lines.append(tr("Keep What Was Shown puts the copy back with your reminders as the window showed them."))
        // TRANSLATORS: the question before a restore that would change the reminders shown: its heading.
        restoreQuestion = Question.ask(over: widget, heading: tr("Restore the Last Good Copy?"), body: lines.joined(separator: "\n"), answers: [
            // TRANSLATORS: the question before a restore: the answer that restores nothing.
            .init("cancel", tr("_Cancel")),
            // TRANSLATORS: the question before a restore: the answer that puts the copy back as it is.
            .init("copy", tr("Restore the Copy _As It Is"), .destructive),
            // TRANSLATORS: the question before a restore: the answer that keeps the reminders the window showed.
            .init("keep", tr("_Keep What Was Shown"), .suggested),
        ], default: "keep", close: "cancel") { [unowned self] answer in
            restoreQuestion = nil
            switch answer {
            case "keep": restore(keeping: shown)
            case "copy": restore(keeping: nil)
            default: break
            }
        }
    }

    /// Titles for a sentence, quoted and isolated: the first five, then how many more.
    static func titles(_ titles: [String]) -> String {
        let named = titles.prefix(5).map { "\u{201C}\($0.escapingControls.isolatedForSentence)\u{201D}" }.joined(separator: ", ")
        guard titles.count > 5 else { return named }
        // TRANSLATORS: a list of reminders' titles cut short; %1$s the first titles, %2$s how many more.
        return format(tr("%1$s and %2$s more"), named, "\(titles.count - 5)")
    }

    /// The last good copy in the store's place (made to hold `keeping` first, when given),
    /// the damaged file kept aside; said in a toast. Not through the runner: it refuses every
    /// change while the store is gone, and this is the change that brings it back.
    private func restore(keeping: [Alert]?) {
        do throws(OperationError) {
            let restored = try Checkup.restoreLastGood(run.world, keeping: keeping)
            let back = restored.made.map {
                // TRANSLATORS: the window's toast after Restore the Last Good Copy; %s is when the copy was made ("Mar 10 at 9:30 AM").
                format(tr("Your reminders are back from the copy made %s."), TimeStyle.person().dated($0, run.world.zone))
            // TRANSLATORS: the window's toast after Restore the Last Good Copy, when the copy's time is not known.
            } ?? tr("Your reminders are back from the last good copy.")
            // TRANSLATORS: the window's toast after Restore the Last Good Copy: where the damaged file was kept; %s is its path.
            // TRANSLATORS: the window's toast after a restore that kept what the window showed.
            let kept = keeping == nil ? "" : " " + tr("What the window showed is kept.")
            run.toast(back + kept + (restored.aside.map { " " + format(tr("The damaged file is kept as %s."), $0) } ?? ""))
        } catch {
            run.toast(error.message)
        }
        run.feed.reloadSoon()
    }
}
