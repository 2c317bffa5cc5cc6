import CAdwaita
import Foundation
import NudgeKit

/// A time of day as GNOME Clocks picks one (time-picker.ui): an hour and a minute spin button, and the
/// locale's AM/PM (오전/오후) beside them where the locale counts 12 hours. Each part is
/// named for a screen reader by the row it sits in ("Time, hour").
@MainActor final class TimePicker {
    private let hour: Widget, minute: Widget, half: Widget, picker: Widget

    /// Whether the picker shows.
    var isVisible: Bool {
        get { picker.isVisible }
        set { picker.isVisible = newValue }
    }
    private let clock: ClockStyle
    private let name: String
    private var afternoon = false
    /// Set while the picker moves its own spin buttons.
    private var setting = false
    var changed: @MainActor () -> Void = {}

    /// A picker at the end of `row` (an AdwActionRow), or just before `before`, a suffix of it.
    init(named name: String, clock: ClockStyle, in row: Widget, before: Widget? = nil) {
        self.clock = clock
        self.name = name
        let owner = Owner<TimePicker>()
        let ui = Builder("time-picker", handlers: [
            // Two digits, as a clock shows them (09, 05).
            "two-digits": { values in
                guard let spin = values.object(0)?.assumingMemoryBound(to: GtkWidget.self) else { return false }
                let value = spin.number
                spin.text = value < 10 ? "0\(value)" : "\(value)"
                return true
            },
            "changed": owner.handler { if !$0.setting { $0.changed() } },
            "half": owner.handler { $0.halfClicked() },
        ])
        defer { ui.release() }
        picker = ui("picker")
        row.addSuffix(picker)
        if let before, let box = before.parent { box.reorder(picker, after: before.previousSibling) }
        (hour, minute, half) = (ui("hour"), ui("minute"), ui("half"))
        if clock.twelveHour { hour.setRange(1...12) }
        for spin in [hour, minute] { ignoreScroll(spin) }
        // TRANSLATORS: the accessible name of a time picker's hour; %s is what the time is for (Time, From).
        setAccessibleName(hour, format(tr("%s, hour"), name))
        // TRANSLATORS: the accessible name of a time picker's minute; %s is what the time is for (Time, From).
        setAccessibleName(minute, format(tr("%s, minute"), name))
        half.isVisible = clock.twelveHour
        // Where the locale says it: 오전 9:00, 9:00 AM.
        if clock.halfFirst { ui("picker").reorder(half, after: nil) }
        owner.object = self
        showHalf()
    }

    private func halfClicked() {
        afternoon.toggle()
        showHalf()
        changed()
    }

    /// The time, in minutes after midnight.
    var minutes: Int {
        get {
            let shown = hour.number
            let hours = clock.twelveHour ? shown % 12 + (afternoon ? 12 : 0) : shown
            return hours * 60 + minute.number
        }
        set {
            setting = true
            let hours = newValue / 60 % 24
            afternoon = hours >= 12
            let shown = clock.twelveHour ? (hours % 12 == 0 ? 12 : hours % 12) : hours
            (hour.number, minute.number) = (shown, newValue % 60)
            showHalf()
            setting = false
        }
    }

    private func showHalf() {
        let text = afternoon ? clock.pm : clock.am
        setButtonText(half, text)
        // TRANSLATORS: the accessible name of a time picker's AM/PM button; %1$s is what the
        // time is for (Time, From), %2$s the half of the day shown (AM, 오후).
        setAccessibleName(half, format(tr("%1$s, %2$s"), name, text))
    }
}
