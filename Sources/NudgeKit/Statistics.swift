import Foundation
import Localization
import NudgeCore
import NudgeStore

/// What the last days held, for every face that shows it (`nudge stats`, the window's
/// water chart): water drunk per day against the goal, with the streaks, and what became
/// of every reminder's pop-ups.
public enum Statistics {
    /// The days a person may ask about: today and up to ten years back.
    public static let dayRange = 1...3660

    /// The water chart and the reminders' activity over the last `days` days, today
    /// included.
    public static func days(_ days: Int, _ world: World, now: Date) throws(OperationError) -> (water: WaterChart, reminders: ReminderActivity) {
        guard dayRange.contains(days) else {
            // TRANSLATORS: %s is the number given, quoted.
            throw OperationError(.usage, format(tr("invalid --days %s: use 1 to 3660"), "\(days)".quotedForMessage()))
        }
        let store = try world.store.forReading()
        return (try water(store, world, days: days, now: now), try reminders(store, world, days: days, now: now))
    }

    /// The drink days' totals against the goal set now, and the streaks over every drink
    /// logged.
    public static func water(_ store: AppDatabase, _ world: World, days: Int, now: Date) throws(OperationError) -> WaterChart {
        let zone = world.zone
        let settings = try world.run { try store.settings() }
        let goal = settings[.goal] ?? Setting.goal.defaultValue
        let dayStart = (settings[.dayStart] ?? 0) * 60
        let today = Water.day(containing: now, zone: zone, dayStart: dayStart)
        let drinks = try world.run { try store.drinks(from: nil, to: today.end) }
        let first = drinks.first.map { Water.day(containing: $0.at, zone: zone, dayStart: dayStart).day } ?? today.day
        let all = Water.totals(drinks, from: min(first, today.day.advanced(by: 1 - days)), through: today.day,
                               zone: zone, dayStart: dayStart)
        let streaks = Water.streaks(all, goal: goal, today: today.day)
        return WaterChart(goal: goal, dayStart: dayStart, totals: Array(all.suffix(days)), current: streaks.current, longest: streaks.longest)
    }

    /// The reminders that came up in the last `days` local days (today included), in the
    /// order `list` keeps them (removed ones last).
    public static func reminders(_ store: AppDatabase, _ world: World, days dayCount: Int, now: Date) throws(OperationError) -> ReminderActivity {
        let today = CivilZone(world.zone).local(now).day
        let activity = try world.run { try store.activity(from: today.advanced(by: 1 - dayCount), through: today) }
        var unreadable = false
        let alerts = try StoreAccess.alerts(in: store, world, unreadable: &unreadable)
        let known = Dictionary(alerts.enumerated().map { ($1.id, (order: $0, alert: $1)) }, uniquingKeysWith: { a, _ in a })
        let entries = activity.map { alert in
            ReminderActivity.Entry(id: alert.total.alertID, title: known[alert.total.alertID]?.alert.title,
                                   kind: known[alert.total.alertID]?.alert.kind, total: alert.total, days: alert.days)
        }.sorted { (known[$0.id]?.order ?? .max, $0.id.hex) < (known[$1.id]?.order ?? .max, $1.id.hex) }
        return ReminderActivity(entries: entries, dayCount: dayCount)
    }
}

/// What the water chart shows.
public struct WaterChart: Sendable, Equatable {
    /// The daily goal, in millilitres.
    public var goal: Int
    /// When a drink day starts, in seconds after midnight.
    public var dayStart: Int
    /// The drink days' totals, oldest first, today last.
    public var totals: [Water.DayTotal]
    /// Days at goal in a row now: the run that reaches today (or yesterday, while today is
    /// not at goal yet).
    public var current: Int
    /// The most days at goal in a row, over every drink logged.
    public var longest: Int

    /// "Water, the last 7 days (goal 2,000 ml)".
    public var heading: String {
        // TRANSLATORS: nudge stats' heading; %1$d is how many days, %2$s the goal (2,000 ml).
        format(trn("Water, the last %1$d day (goal %2$s)", "Water, the last %1$d days (goal %2$s)", totals.count),
               totals.count, Water.text(goal))
    }

    /// "Streak: 3 days at goal now, 9 at most".
    public var streaks: String {
        // TRANSLATORS: nudge stats: days at goal in a row, now (%1$d) and at most (%2$d).
        format(trn("Streak: %1$d day at goal now, %2$d at most", "Streak: %1$d days at goal now, %2$d at most", current),
               current, longest)
    }
}

/// What became of every reminder's pop-ups in the chart's days.
public struct ReminderActivity: Sendable {
    /// One reminder: its activity per day and over the whole period.
    public struct Entry: Sendable {
        /// The alert (it may have been removed since).
        public var id: UUID
        /// `nil` for an alert removed since.
        public var title: String?
        /// What it reminds of; `nil` for an alert removed since.
        public var kind: Alert.Kind?
        /// The whole period's counts, with the median answer time over all of it.
        public var total: AlertDay
        /// Its days with anything in them, oldest first; days with nothing are left out.
        public var days: [AlertDay]
    }
    /// The reminders with anything in the period, in the order `list` keeps them (removed
    /// ones last).
    public var entries: [Entry]
    /// How many days they cover.
    public var dayCount: Int

    /// "Reminders, the last 7 days".
    public var heading: String {
        // TRANSLATORS: nudge stats: the heading of what became of the reminders; %d is how many days.
        format(trn("Reminders, the last %d day", "Reminders, the last %d days", dayCount), dayCount)
    }
}
