import CAdwaita
import NudgeKit

/// The day's water (water-card.ui): today's intake against the goal, the cup to log, taking
/// the last one back, and the week's chart. Shown while there is a water reminder or
/// something drunk today.
@MainActor final class WaterCard {
    /// The card's widgets, made the first time it shows: most lists have no water reminder,
    /// and every start would pay for its twenty widgets.
    private struct Made {
        let widget: Widget, row: Widget, level: Widget, drank: Widget
        /// The last seven drink days, a bar and a day's name each, today last.
        let week: [(bar: Widget, day: Widget)]
    }
    private var made: Made?
    private let run: ActionRunner
    private let language: Language
    /// Given the card once it is made, to put it in the list.
    var madeCard: (Widget) -> Void = { _ in }

    init(run: ActionRunner) {
        self.run = run
        language = run.world.language
    }

    private func make() -> Made {
        let run = run, world = run.world
        let ui = Builder("water-card", handlers: [
            "drank": { _ in
                run { () throws(OperationError) in
                    let logged = try Drinking.drink(nil, at: nil, world, now: world.now)
                    // TRANSLATORS: the window's note after a drink; %1$s is the amount (250 ml), %2$s the time.
                    run.toast(format(tr("Drank %1$s at %2$s"), Water.text(logged.millilitres), logged.when))
                }
                return false
            },
            "undo": { _ in
                run { () throws(OperationError) in
                    let logged = try Drinking.undo(world, now: world.now)
                    // TRANSLATORS: the window's note after taking a drink back; %1$s is the amount (250 ml), %2$s when it was drunk.
                    run.toast(format(tr("Took back %1$s from %2$s"), Water.text(logged.millilitres), logged.when))
                }
                return false
            },
        ])
        defer { ui.release() }
        let made = Made(widget: ui.keep("group"), row: ui("row"), level: ui("level"), drank: ui("drank"),
                        week: (0..<7).map { (ui("bar\($0)"), ui("day\($0)")) })
        // TRANSLATORS: the tooltip of the window's button that takes back the last drink logged.
        setTooltip(ui("undo"), tr("Take back the last drink"))
        self.made = made
        madeCard(made.widget)
        return made
    }

    /// Whether it is shown.
    var isShown: Bool { made?.widget.isVisible ?? false }

    /// Today's water and the week, or hidden (`shown` false).
    func show(_ water: AlertFeed.Snapshot, shown: Bool) {
        guard let today = water.water, shown || today.intake > 0 else {
            if let made { made.widget.isVisible = false }
            return
        }
        let made = made ?? make()
        made.widget.isVisible = true
        made.row.rowTitle = language.waterProgress(today.intake, goal: today.goal)
        made.level.level = min(Double(today.intake) / Double(max(today.goal, 1)), 1)
        if let chart = water.week {
            for ((bar, day), total) in zip(made.week, chart.totals.suffix(7)) {
                bar.level = min(Double(total.millilitres) / Double(max(chart.goal, 1)), 1)
                let name = total.day.weekday.shortName(language)
                setText(day, name)
                // TRANSLATORS: the accessible name of a day's bar in the window's water chart; %1$s is the
                // weekday (Mon), %2$s the day's total (1,500 ml).
                setAccessibleName(bar, format(tr("%1$s: %2$s"), name, Water.text(total.millilitres)))
            }
        }
        made.drank.buttonLabel = language.drank(today.cup)
    }
}
