import Foundation

/// What the words of a schedule phrase said, before any schedule is made of them: the
/// times of day, the days, a step, a window's edges, a count, a date. Stage two's
/// (``PhraseReader``) answer and stage three's (``schedule(now:zone:)``) question. No
/// clock: "tomorrow" is a day offset of 1 here, an instant only in stage three. Each piece
/// keeps its words as typed, for the echo and for a refusal that names them.
struct PhrasePieces {
    /// A step's unit: a number of seconds (a step of time), or days, weeks or months of
    /// the calendar.
    enum StepUnit {
        case seconds(Int), day, week, month
        var isWeek: Bool { if case .week = self { true } else { false } }
    }

    /// Times of day (9am, 오후 3시 반), in the order said.
    var times: [SaidTime] = []
    /// A window's edges: `from 9:30`, `21:30까지`.
    var windowStart: SaidTime?
    var windowEnd: SaidTime?
    /// The minute of the hour a step of hours keeps ("on the hour" 0, 정각 0, 매시간 15분
    /// 15, "at quarter past" 15), as said: without it a step counts from now.
    var minuteMark: (minute: Int, text: String)?
    /// "until" said before a date ("every 15 min, until Wed 2026-11-25 11:00", as list says
    /// a step that stops): the date and time after it are the last showing's.
    var untilDated: String?
    /// How long a step goes on from now: "for the next hour", "for 2 hours", 앞으로 1시간 동안
    /// (seconds, or days and weeks of the calendar), as said.
    var lasting: (count: Int, unit: StepUnit, text: String)?
    /// `every 30 minutes`, `30분마다`, `every 2 days`.
    var step: (count: Int, unit: StepUnit, text: String)?
    /// Every week said (weekly, every week, 매주), and every month (monthly, 매달), as said:
    /// neither names a day.
    var weekSaid: String?
    var monthSaid: String?
    /// Every day said (daily, every day, 매일): every other week then needs no weekday
    /// ("daily at 17:00, every 2 weeks", as list says every day of alternate weeks).
    var everyDaySaid = false
    /// A step of days, weeks or months said beside a step of time (`every 2 weeks`).
    var periodText: String?
    /// `in 20 minutes`, `20분 후`.
    var relative: (seconds: Int, text: String)?
    /// `3일 후`, `in 2 weeks`: days, weeks or months on, which a time of day may follow.
    var relativeDays: (Int, StepUnit)?
    /// Weekdays said (friday, 월수금, weekends), and their words.
    var days = Set<Weekday>()
    var dayTexts: [String] = []
    /// A list, a range or a word for many days (평일, weekends, mondays): it repeats.
    var manyDays = false
    /// A date said (`dec 1`, `12월 1일`, `2026-12-01`); `year` nil when not said.
    var date: (year: Int?, month: Int, day: Int, text: String)?
    /// An instant said whole (`2026-12-01T09:00:00+01:00`).
    var instant: (Date, String)?
    /// today 0, tomorrow 1, 모레 2.
    var dayOffset: (Int, String)?
    /// `next week` 1, `this week` 0.
    var week: Int?
    /// "next friday": which one is not said.
    var nextDay: String?
    /// A word that repeats (every, 매일, 마다).
    var repeats = false
    /// once, 한 번.
    var once = false
    /// `every other`, 격주.
    var other = false
    /// Every Nth day, week or month.
    var period: (unit: Schedule.Period.Unit, every: Int)?
    /// Places in the month (the first Monday: 1, the last Friday: -1), with their words.
    var places: [(Int, String)] = []
    /// Days of the month (15일, the 1st); -1 is the last.
    var monthDays: [Int] = []
    /// 말일 as said: the last day, of this month unless every month is said.
    var lastDaySaid: String?
    /// Every month said (매월, monthly, of the month).
    var monthly = false
    /// Parts of the day said without an hour ("every morning", 저녁).
    var halves: [(SaidTime.Half, String)] = []
    /// Times said as a list ("9:00 and 13:00", "오전 9시, 오후 1시"): with no day, every day.
    var joined = false
    /// "this weekend", 이번 주말, as said: once, on its Saturday (or Sunday).
    var weekend: String?
    /// 매년, every year, annually, as said: a date every year.
    var yearly: String?
    /// 다음 달, next month (1), 이번 달, this month (0), as said: a day of that month.
    var monthOffset: (Int, String)?
    /// How often, as said: twice a day (2, day), 하루 세 번, once a week.
    var frequency: (count: Int, unit: PhrasePieces.StepUnit, text: String)?
    /// Readings chosen while the words were read (biweekly as every 2 weeks), to be said.
    var readings: [Phrase] = []
    /// The other readings of the times chosen on the person's behalf (9 → 9pm), for faces
    /// that offer each reading (``PhraseReading/choices``).
    var choices: [PhraseReading.Choice] = []
    /// Days said by their names (friday, 월수금, not 평일 or 월~금): a bare hour on them
    /// is the waking day's.
    var dayNamed = false
    /// "this wednesday": this one, even when its time has passed.
    var thisDay = false
    /// 내년, next year (1), as said: the date said is of that year.
    var yearOffset: (Int, String)?
    /// Days left out ("every day except sunday", 일요일 빼고 매일, 주말 빼고), and the words.
    var exceptDays = Set<Weekday>()
    var exceptText: String?
    /// How many times of day were said before the days left out: a time on each side
    /// ("every day at 9am except sunday at 10am") is another reminder, not a second time.
    var timesBeforeExcept = 0
    /// "monday after next", 다다음 월요일 (`weekFrom` false), "a week from tuesday" (true), as
    /// said: a week after the coming one, once.
    var laterDay: (text: String, weekFrom: Bool)?
    /// A holiday whose date moves (easter, thanksgiving, 부활절), as said: its coming day.
    var movable: (holiday: MovableHoliday, text: String)?
    /// "same time", "this time", 같은 시간, 이 시간, as said: the time of day it is now, on the
    /// day said ("same time tomorrow", 내일 이 시간).
    var sameTime: String?
    /// The flags as said, where they say more than the schedule keeps (a window's end):
    /// set by stage three.
    var flags: String?

    /// Whether a step said now goes with the one said before: one of time, the other of
    /// days, weeks or months, and no period said yet.
    func stepsPair(_ newIsCalendar: Bool) -> Bool {
        guard let step, period == nil else { return false }
        if case .seconds = step.unit { return newIsCalendar }
        return !newIsCalendar
    }
}
