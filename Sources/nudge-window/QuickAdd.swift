import CAdwaita
import Foundation
import NudgeKit

/// Quick add (quick-add.ui): one line of title and when at the top of the list, as GNOME
/// Calendar's quick add and Todoist's ("call mum tomorrow at 6pm"). It is read as it is
/// typed, the way `nudge add` and the desktop's search read one line (``RemindMe``), and
/// what it is read as is said under it and is the line's accessible description. Enter adds
/// it through the form's own checks; a line read two ways is said with both and not added.
/// Escape empties the line, and on an empty line leaves it for the list.
@MainActor final class QuickAdd {
    let widget: Widget
    private let line: Widget, reading: Widget
    private let run: ActionRunner
    private let timeStyle = TimeStyle.person()
    /// The alert added (for the window's toast and focus), and where Escape on an empty line goes.
    var added: (Alert) -> Void = { _ in }
    var leave: () -> Void = {}
    /// The description the line has when nothing is typed (quick-add.ui's).
    private let hint: String
    /// What the words read as now, while they read one way.
    private var current: RemindMe.Reading?

    init(run: ActionRunner) {
        self.run = run
        let owner = Owner<QuickAdd>()
        let ui = Builder("quick-add", handlers: ["read": owner.handler { $0.read() }, "add": owner.handler { $0.add() },
                                                 "key": owner.answer { $0.escape(key: $1.uint(1)) }])
        defer { ui.release() }
        widget = ui.keep("quick-add")
        (line, reading) = (ui("line"), ui("reading"))
        // TRANSLATORS: the accessible description of the window's quick add line, before anything is typed.
        hint = tr("A title and when in one line, as call mum tomorrow at 6pm; Enter adds it")
        // A title and a phrase at most: a pasted book is cut there, not read on every key.
        line.limitLength(RemindMe.maxLength)
        owner.object = self
    }

    /// Escape clears the line, then leaves it for the list.
    private func escape(key: UInt32) -> Bool {
        let escape: UInt32 = 0xff1b
        guard key == escape else { return false }
        if text.isEmpty { leave() } else { line.text = "" }
        return true
    }

    private var text: String { line.text }

    /// Reads the line as it is now and says it under it.
    private func read() {
        current = nil
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { return say(nil) }
        let world = run.world, now = world.now, zone = world.zone
        let defaultTime = run.feed.defaultTime
        var readings = RemindMe.readings(typed, now: now, zone: zone, dateOrder: defaultTime.dateOrder)
        // A day without a time ("call mum tomorrow") takes the default reminder time, read only then.
        if readings.isEmpty, let time = try? defaultTime.time() {
            readings = RemindMe.readings(typed, now: now, zone: zone, defaultTime: time, dateOrder: defaultTime.dateOrder)
        }
        switch readings.count {
        case 0:
            // TRANSLATORS: under the window's quick add line, while what is typed is not a reminder yet.
            say(tr("Not a reminder yet: give a title and when, as call mum tomorrow at 6pm"))
        case 1:
            current = readings[0]
            // TRANSLATORS: under the window's quick add line: %1$s the title read, %2$s the schedule in words, %3$s its first showing.
            say(format(tr("“%1$s”, %2$s; first %3$s. Enter adds it"), readings[0].title.escapingControls, words(readings[0]), first(readings[0])))
        default:
            // TRANSLATORS: under the window's quick add line, read two ways: %1$s and %2$s each a title with its first showing.
            say(format(tr("Reads two ways: %1$s or %2$s; write the day or time out"),
                       "“\(readings[0].title.escapingControls)” \(first(readings[0]))", "“\(readings[1].title.escapingControls)” \(first(readings[1]))"),
                problem: true)
        }
    }

    private func words(_ reading: RemindMe.Reading) -> String {
        reading.phrase.schedule.summary(in: run.world.zone, timeStyle: timeStyle, language: run.world.language)
    }

    private func first(_ reading: RemindMe.Reading) -> String {
        let zone = run.world.zone
        // TRANSLATORS: a schedule that never shows again.
        return reading.phrase.schedule.occurrences(after: run.world.now, count: 1, in: zone).first.map { timeStyle.instant($0, zone) } ?? tr("never")
    }

    /// Says `words` under the line (nil: nothing), as its accessible description too.
    private func say(_ words: String?, problem: Bool = false) {
        reading.labelText = words ?? ""
        reading.isVisible = words != nil
        if problem { reading.addClass("error") } else { reading.removeClass("error") }
        nudge_accessible_set_description(line.raw, words ?? hint)
    }

    /// Enter: the line read one way is added as the form would add it; otherwise why not is said.
    private func add() {
        read()
        guard let current else {
            let said = reading.labelText
            if !said.isEmpty { ActionRunner.announce(said, from: line) }
            return
        }
        var draft = AlertDraft()
        draft.title = current.title
        draft.schedule.phrase = current.when
        draft.scheduleChanged = true
        let world = run.world, style = timeStyle
        switch draft.save(with: run.feed, over: nil, now: world.now, words: { stored in
            stored.schedule.summary(in: stored.zone(system: world.zone), timeStyle: style, language: world.language)
        }) {
        case .saved(let alert):
            line.text = ""
            added(alert)
        case .refused(let error):
            say(error.message, problem: true)
            ActionRunner.announce(error.message, from: line)
        case .deletedMeanwhile, .changedMeanwhile:
            // A new alert has no stored self to have changed.
            break
        }
    }

    /// The keyboard's focus into the line.
    func focus() { line.grabFocus() }
}
