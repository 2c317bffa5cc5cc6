import CAdwaita
import NudgeKit

/// The day's water (water-card.ui): today's intake against the goal, the cup to log, taking
/// the last one back, and the week's chart. Shown while there is a water reminder or
/// something drunk today.
@MainActor final class WaterCard {
    let widget: Widget
    private let row: Widget, level: Widget, drank: Widget
    /// The last seven drink days, a bar and a day's name each, today last.
    private let week: [(bar: Widget, day: Widget)]
    private let language: Language

    init(run: ActionRunner) {
        language = run.world.language
        let ui = Builder("water-card")
        defer { ui.release() }
        widget = ui.keep("group")
        (row, level, drank) = (ui("row"), ui("level"), ui("drank"))
        week = (0..<7).map { (ui("bar\($0)"), ui("day\($0)")) }
        gtk_button_set_label(drank.as(GtkButton.self), language.drank(250))
        let world = run.world
        on(drank.raw, "clicked") {
            run { () throws(OperationError) in
                let logged = try Drinking.drink(nil, at: nil, world, now: world.now)
                // TRANSLATORS: the window's note after a drink; %1$s is the amount (250 ml), %2$s the time.
                run.toast(format(tr("Drank %1$s at %2$s"), Water.text(logged.millilitres), logged.when))
            }
        }
        on(ui("undo").raw, "clicked") {
            run { () throws(OperationError) in
                let logged = try Drinking.undo(world, now: world.now)
                // TRANSLATORS: the window's note after taking a drink back; %1$s is the amount (250 ml), %2$s when it was drunk.
                run.toast(format(tr("Took back %1$s from %2$s"), Water.text(logged.millilitres), logged.when))
            }
        }
    }

    /// Whether it is shown.
    var isShown: Bool { gtk_widget_get_visible(widget) != 0 }

    /// Today's water and the week, or hidden (`shown` false).
    func show(_ water: AlertFeed.Snapshot, shown: Bool) {
        guard let today = water.water, shown || today.intake > 0 else { return gtk_widget_set_visible(widget, 0) }
        gtk_widget_set_visible(widget, 1)
        adw_preferences_row_set_title(row.as(AdwPreferencesRow.self), language.waterProgress(today.intake, goal: today.goal))
        gtk_level_bar_set_value(level.opaque, min(Double(today.intake) / Double(max(today.goal, 1)), 1))
        if let chart = water.week {
            for ((bar, day), total) in zip(week, chart.totals.suffix(7)) {
                gtk_level_bar_set_value(bar.opaque, min(Double(total.millilitres) / Double(max(chart.goal, 1)), 1))
                let name = total.day.weekday.shortName(language)
                setText(day, name)
                // TRANSLATORS: the accessible name of a day's bar in the window's water chart; %1$s is the
                // weekday (Mon), %2$s the day's total (1,500 ml).
                setAccessibleName(bar, format(tr("%1$s: %2$s"), name, Water.text(total.millilitres)))
            }
        }
        gtk_button_set_label(drank.as(GtkButton.self), language.drank(today.cup))
    }
}
