import CAdwaita
import Foundation
import NudgeKit
import Presentation

/// What a row's controls do, through the operations every face shares: switch, answer
/// (done, snooze, done for today), edit (the window's form) and delete, with undo: a
/// deleted alert is put back by its toast's Undo, and the last one by the window's
/// `undo-delete` action (Ctrl+Z) while there is one.
@MainActor final class AlertRowActions {
    private let run: ActionRunner
    /// The alert a row names, as the window lists it now.
    var alert: @MainActor (String) -> Alert? = { _ in nil }
    /// The alerts deleted and not yet put back, the last one last.
    private var deleted: [Alert] = []
    /// The toast of the last delete while it shows (a reference held until it goes).
    private var deleteToast: (id: UUID, toast: Toast)?
    /// The toasts saying an answer waits for a daemon that has not answered yet, by the
    /// alert's id (a reference held until the answer comes or the toast goes).
    private var waiting: [String: Toast] = [:]
    /// The window's `undo-delete`, enabled while there is one to undo.
    let undoDelete = Action("undo-delete")
    /// Opens the form at an alert.
    var edit: @MainActor (String) -> Void = { _ in }
    /// Keeps the keyboard's focus on an alert's switch once the list has moved it.
    var keepFocus: @MainActor (String) -> Void = { _ in }
    /// The words of the drink button ("Drank 250 ml"), the cup as the water card has it.
    var cupWords: @MainActor () -> String = { Catalog.shared.language.drank(Setting.cup.defaultValue) }

    init(run: ActionRunner) {
        self.run = run
        undoDelete.isEnabled = false
        undoDelete.whenRun { [unowned self] in undoLastDelete() }
    }

    /// The handlers a row's controls call with its alert's id.
    var forRows: AlertRowWidget.Actions {
        let world = run.world
        // An answer the daemon refused comes back later, said in a toast; one it has not
        // given yet is said in words for the window, and replaced when it comes.
        let failed: (String) -> (OperationError) -> Void = { [unowned self] id in { [unowned self] error in notAnswered(id, error) } }
        let answered: (String) -> (String) -> Void = { [unowned self] id in { [unowned self] _ in answerCame(id) } }
        // To the reminder the row shows: with the daemon running, sent without the store opened.
        let answer: (Answer, String, Date) throws(OperationError) -> Void = { [unowned self] answer, id, now throws(OperationError) in
            guard let shown = alert(id) else { return try answer.apply(to: [id], world, now: now, announce: answered(id), failed: failed(id)) }
            try answer.apply(toShown: [shown], world, now: now, announce: answered(id), failed: failed(id))
        }
        return AlertRowWidget.Actions(
            toggle: { [unowned self] id, on in
                run { () throws(OperationError) in
                    try AlertIDs.update([id], world, announce: { _ in }) { alert in
                        alert.enabled = on
                        return on ? Labels.on : Labels.off
                    }
                }
            },
            keepFocus: { [unowned self] id in keepFocus(id) },
            done: { [unowned self] id in
                run { () throws(OperationError) in
                    try answer(.acknowledge, id, world.now)
                }
            },
            snooze: { [unowned self] id in
                guard let alert = alert(id) else { return }
                run { () throws(OperationError) in
                    let now = world.now
                    try answer(.snooze(seconds: alert.snoozeSeconds), id, now)
                    let until = now.addingTimeInterval(TimeInterval(alert.snoozeSeconds))
                    // TRANSLATORS: the window's note after Snooze; %1$s is the reminder's title, %2$s when it comes back (오후 3:40).
                    run.toast(format(tr("Snoozed “%1$s” until %2$s"), alert.title.isolatedForSentence,
                                     TimeStyle.person().instant(until, alert.zone(system: world.zone))))
                }
            },
            doneForToday: { [unowned self] id in
                run { () throws(OperationError) in
                    try answer(.doneForToday, id, world.now)
                }
            },
            drank: { [unowned self] id in
                run { () throws(OperationError) in
                    let now = world.now
                    let logged = try Drinking.drink(nil, at: nil, world, now: now)
                    try answer(.acknowledge, id, now)
                    run.toast(format(tr("Drank %1$s at %2$s"), Water.text(logged.millilitres), logged.when))
                }
            },
            drankWords: { [unowned self] in cupWords() },
            edit: { [unowned self] id in edit(id) },
            delete: { [unowned self] id in delete(id) })
    }

    /// An answer the daemon refused, or has not given yet: said in a toast; the second is
    /// kept, to be replaced by what happened when the answer comes.
    private func notAnswered(_ id: String, _ error: OperationError) {
        guard error.notAnsweredYet else { return run.toast(error.message) }
        let title = alert(id)?.title ?? ""
        // TRANSLATORS: the window's toast when Nudge's service has not answered Done, Snooze… within 2 s; %s is the reminder's title.
        let words = format(tr("Nudge's service has not answered yet: it may be stopped or busy, and takes your answer to “%s” when it goes on"),
                           title.isolatedForSentence)
        let toast = Toast(markup: markup(words.escapingControls))
        toast.retain()
        waiting.removeValue(forKey: id).map { $0.dismiss(); $0.release() }
        waiting[id] = toast
        run.show(toast)
    }

    /// The daemon's answer: a toast that said it had not come yet says now that it did.
    private func answerCame(_ id: String) {
        guard let toast = waiting.removeValue(forKey: id) else { return }
        toast.dismiss()
        toast.release()
        // TRANSLATORS: the window's toast when Nudge's service took an answer late (after a "has not answered yet"); %s is the reminder's title.
        run.toast(format(tr("Nudge's service took your answer to “%s”"), (alert(id)?.title ?? "").isolatedForSentence))
    }

    /// Deleted at once, with a toast that puts it back.
    private func delete(_ id: String) {
        guard let alert = alert(id) else { return }
        run { () throws(OperationError) in
            _ = try Operations.remove([id], run.world)
            // TRANSLATORS: the window's toast after a delete; %s is the reminder's title.
            let toast = Toast(markup: markup(format(tr("Deleted “%s”"), alert.title.escapingControls.isolatedForSentence)))
            // TRANSLATORS: the toast's button that puts a deleted reminder back (Ctrl+Z does too).
            toast.setButton(tr("Undo"))
            on(toast.raw, "button-clicked") { [unowned self] in undoDelete(of: alert.id, fromToast: true) }
            deleted.removeAll { $0.id == alert.id }
            deleted.append(alert)
            if deleted.count > 100 { deleted.removeFirst() }
            undoDelete.isEnabled = true
            // Shown at once, the toasts held going: one delete's toast at a time (an older one
            // would come back after this one, for a delete Ctrl+Z may have undone meanwhile;
            // Ctrl+Z undoes the older ones), and a note on show comes back after. Its row, where
            // the focus was, is gone: the focus goes to its Undo, which says what happened
            // (issue 52).
            run.show(toast, first: true, focusingItsButton: true)
            toast.retain()
            deleteToast = (alert.id, toast)
            // Once: a toast hiding says it is dismissed again at each dismiss.
            on(toast.raw, "dismissed") { [unowned self] in
                guard deleteToast?.toast == toast else { return }
                deleteToast = nil
                toast.release()
            }
        }
    }

    /// Puts the alert deleted last back, as it was.
    private func undoLastDelete() {
        guard let alert = deleted.last else { return }
        undoDelete(of: alert.id, fromToast: false)
    }

    /// Puts a deleted alert back, as it was; once (a second Undo of it does nothing). Its
    /// toast goes (Ctrl+Z left it saying "Deleted"), and the focus goes to its switch.
    private func undoDelete(of id: UUID, fromToast: Bool) {
        guard let index = deleted.firstIndex(where: { $0.id == id }) else { return }
        let alert = deleted.remove(at: index)
        undoDelete.isEnabled = !deleted.isEmpty
        if !fromToast, let shown = deleteToast, shown.id == id { shown.toast.dismiss() }
        if run({ () throws(OperationError) in try Operations.save(alert, run.world) }) { keepFocus(alert.id.hex) }
    }
}
