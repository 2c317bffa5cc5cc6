import Foundation
import NudgeKit

/// The kinds of schedule both forms offer (`nudge ui`'s and the window's), in this order.
public enum ScheduleKind: Int, Sendable, CaseIterable {
    /// At a time of day (or several, in `nudge ui`), on chosen days (every day when all seven are).
    case time
    /// Every N minutes, on chosen days, between two times or all day.
    case every
    /// Once, at a date and time.
    case date
    /// Once, in a while.
    case delay
    /// A cron expression.
    case cron
    /// Said in words: "every weekday at 9:30", "매일 오전 9시".
    case words

    /// The kind in words, as both forms offer it.
    public var name: String {
        switch self {
        // TRANSLATORS: a form's kinds of schedule.
        case .time: tr("At a time")
        case .every: tr("Every few minutes")
        case .date: tr("Once, on a date")
        case .delay: tr("Once, in a while")
        case .cron: tr("Cron expression")
        // TRANSLATORS: a form's kind of schedule said in words.
        case .words: tr("In words")
        }
    }
}

/// A schedule as the window's form shows it: a kind chosen from six (``ScheduleKind``), and
/// the few numbers and days each kind needs, with what `nudge add` makes of them
/// (``flags``). Pure: the window shows these values in its controls and reads them back.
public struct FormSchedule: Sendable, Equatable {
    /// The kind chosen; the other kinds' values stay as they were, unused.
    public var kind = ScheduleKind.time
    /// The time of day (kinds time and date), in minutes after midnight.
    public var time = 9 * 60
    /// The days it shows on (kinds time and every).
    public var days = Set(Weekday.allCases)
    /// Every how many minutes (kind every).
    public var everyMinutes = 30
    /// Only between `from` and `until` (kind every); `false` for all day.
    public var between = true
    /// Where the day's window starts and ends (kind every, with `between`), in minutes
    /// after midnight.
    public var from = 9 * 60 + 30, until = 21 * 60 + 30
    /// Counted from the last answer instead of the clock (kind every).
    public var afterDone = false
    /// The date, as `YYYY-MM-DD` (kind date).
    public var date: String
    /// In how many minutes (kind delay).
    public var delayMinutes = 20
    /// The expression (kind cron).
    public var cron = "0 9 * * mon-fri"
    /// The schedule in words (kind words).
    public var phrase = ""

    /// A new reminder's: at 09:00 every day; a date of tomorrow.
    public init(today: CivilDay) {
        date = today.advanced(by: 1).description
    }

    /// The form's values for a stored schedule, in `zone`; `nil` when the form has no
    /// fields for it (several times a day, seconds, a calendar's period, end or dates left
    /// out): then the schedule is kept as it is unless the person makes a new one.
    public init?(_ schedule: Schedule, zone: TimeZone, today: CivilDay) {
        self.init(today: today)
        func minutes(_ time: LocalTime) -> Int? { time.second == 0 ? time.secondOfDay / 60 : nil }
        switch schedule {
        case .daily(let times, let days):
            let steps = Set(zip(times.dropFirst(), times).map { $0.secondOfDay - $1.secondOfDay })
            if times.count == 1, let time = minutes(times[0]) {
                (kind, self.time) = (.time, time)
            } else if times.count > 2, steps.count == 1, let step = steps.first, step % 60 == 0,
                      let first = minutes(times.first!), let last = minutes(times.last!) {
                (kind, everyMinutes, between, from, until) = (.every, step / 60, true, first, last)
            } else {
                return nil
            }
            self.days = days
        case .interval(let seconds, _, let days):
            guard seconds % 60 == 0 else { return nil }
            (kind, everyMinutes, between, self.days) = (.every, seconds / 60, false, days)
        case .afterAnswer(let seconds, let window, let days):
            guard seconds % 60 == 0 else { return nil }
            (kind, everyMinutes, afterDone, self.days) = (.every, seconds / 60, true, days)
            if let window {
                guard let start = minutes(window.start), let end = minutes(window.end) else { return nil }
                (between, from, until) = (true, start, end)
            } else {
                between = false
            }
        case .once(let instant):
            let (day, second) = CivilZone(zone).local(instant)
            guard second % 60 == 0 else { return nil }
            (kind, date, time) = (.date, day.description, second / 60)
        case .cron(let expression):
            (kind, cron) = (.cron, expression.text)
        case .restricted:
            return nil
        case .place(let trigger):
            // A place has no fields: its words, which read back as it (hours, days and rest too).
            (kind, phrase) = (.words, trigger.summary())
        }
    }

    /// Days as `--days` takes them: `weekdays`, `weekends`, `mon,wed`; empty for every day.
    public static func daysText(_ days: Set<Weekday>) -> String {
        if days.count == 7 { return "" }
        if days == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "weekdays" }
        if days == [.saturday, .sunday] { return "weekends" }
        return days.sorted { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 }.map { $0.shortName.lowercased() }.joined(separator: ",")
    }

    /// `HH:MM` for minutes after midnight.
    public static func clock(_ minutes: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(minutes / 60 % 24)):\(two(minutes % 60))"
    }

    /// The schedule as `nudge add` flags, checked by the same parser.
    public var flags: ScheduleFlags {
        // No day chosen is said by the parser, as `--days ''` is.
        let daysText = days.count == 7 ? nil : Self.daysText(days)
        switch kind {
        case .time:
            return ScheduleFlags(at: [Self.clock(time)], days: daysText)
        case .every:
            return ScheduleFlags(days: daysText, every: "\(everyMinutes)m", from: between ? Self.clock(from) : nil,
                                 until: between ? Self.clock(until) : nil, afterAnswer: afterDone)
        case .date:
            return ScheduleFlags(on: "\(date.trimmingCharacters(in: .whitespaces)) \(Self.clock(time))")
        case .delay:
            return ScheduleFlags(in: "\(delayMinutes)m")
        case .cron:
            return ScheduleFlags(cron: cron)
        case .words:
            return ScheduleFlags(phrase: phrase)
        }
    }
}
