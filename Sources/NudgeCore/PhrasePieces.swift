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
    /// Every month said (매월, monthly, of every month).
    var monthly = false
    /// "of the month" as said, without every: the coming such day, once, unless the
    /// phrase repeats ("last friday of the month at 4pm").
    var ofTheMonthSaid: String?
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
    /// The day before (-1) or after (1) the holiday said, as said (추석 전날, the day after
    /// thanksgiving).
    var holidayShift: (days: Int, text: String)?
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

/// One thing a rule of the reader found in the words: what a row of ``PhraseReader/rules``
/// makes. Rules make pieces, and only through ``PhraseReader/put(_:)``; the pieces join into
/// ``PhrasePieces`` (``PhrasePieces/add(_:)``), which stage three reads. Each keeps its words
/// as typed.
enum PhrasePiece {
    typealias StepUnit = PhrasePieces.StepUnit

    /// An instant said whole (`2026-12-01T09:00:00+01:00`).
    case instant(Date, String)
    /// A time of day (9am, 오후 3시 반); `joined` when it is one of several said as a list.
    case time(SaidTime)
    /// Times said as a list ("9:00 and 13:00", "morning and evening at 8").
    case joined
    /// A window's edges: `from 9:30`, `21:30까지`, `after 2pm`.
    case windowStart(SaidTime)
    case windowEnd(SaidTime)
    /// "until" before a date, as list says a step that stops.
    case untilDated(String)
    /// The minute of the hour a step of hours keeps: "on the hour", 정각, 매시간 15분.
    case minuteMark(Int, String)
    /// "same time", 이 시간: the time of day it is now.
    case sameTime(String)
    /// A part of the day said without an hour, or before the hour it goes with.
    case half(SaidTime.Half, String)
    /// A word that repeats (every, 매일, 마다, a plural day).
    case repeats
    /// once, 한 번.
    case once
    /// every other, 격주.
    case other
    /// Every day said (daily, every day, 매일).
    case everyDay
    /// Every week said (weekly, 매주), naming no day.
    case everyWeek(String)
    /// Every month said (monthly, 매달), naming no day.
    case everyMonth(String)
    /// A day of the month repeats each month (매월, of every month).
    case monthly
    /// "of the month" without every: the coming such day, once, unless the phrase repeats.
    case ofTheMonth(String)
    /// Every year (매년, annually, yearly).
    case yearly(String)
    /// A step: every 30 minutes, 30분마다, every 2 days.
    case step(count: Int, unit: StepUnit, text: String)
    /// Every Nth day, week or month, and its words.
    case period(Schedule.Period.Unit, every: Int, text: String)
    /// How often: twice a day, 하루 세 번.
    case frequency(count: Int, unit: StepUnit, text: String)
    /// How long a step goes on from now: for the next hour, 앞으로 1시간 동안.
    case lasting(count: Int, unit: StepUnit, text: String)
    /// From now: in 20 minutes, 3일 후 (with its days, weeks or months of the calendar).
    case relative(seconds: Int, text: String, days: (Int, StepUnit)?)
    /// Weekdays (friday, 월수금, weekdays, mondays): `many` repeats, `named` by their names.
    case days(Set<Weekday>, text: String, many: Bool, named: Bool)
    /// Days left out (except sunday, 주말 빼고), and how many times were said before them.
    case except(Set<Weekday>, text: String, timesBefore: Int)
    /// A place in the month (the first monday 1, the last friday -1).
    case place(Int, String)
    /// A day of the month (15일, the 1st; -1 the last, with its words when said so: 말일).
    case monthDay(Int, last: String?)
    /// A date (`dec 1`, `12월 1일`); `year` nil when not said.
    case date(year: Int?, month: Int, day: Int, text: String)
    /// today 0, tomorrow 1, 모레 2.
    case dayOffset(Int, String)
    /// next week 1, this week 0.
    case week(Int)
    /// "next friday", as said.
    case nextDay(String)
    /// "this wednesday".
    case thisDay
    /// "monday after next" (`weekFrom` false), "a week from tuesday" (true).
    case laterDay(String, weekFrom: Bool)
    /// A holiday whose date moves (easter, 부활절).
    case movable(MovableHoliday, String)
    /// The day before (-1) or after (1) the holiday said: 추석 전날, the day after thanksgiving.
    case holidayShift(Int, String)
    /// next month 1, this month 0.
    case monthOffset(Int, String)
    /// next year 1.
    case yearOffset(Int, String)
    /// "this weekend", 이번 주말.
    case weekend(String)
    /// A reading chosen on the person's behalf, to be said (biweekly as every 2 weeks).
    case reading(Phrase)

    /// The kinds of piece, as the rules table names what each row makes.
    enum Kind: String, CaseIterable, Sendable {
        case instant, time, joined, windowStart, windowEnd, untilDated, minuteMark, sameTime, half, repeats, once, other
        case everyDay, everyWeek, everyMonth, monthly, ofTheMonth, yearly, step, period, frequency, lasting, relative, days, except
        case place, monthDay, date, dayOffset, week, nextDay, thisDay, laterDay, movable, holidayShift, monthOffset, yearOffset, weekend, reading
    }

    var kind: Kind {
        switch self {
        case .instant: .instant
        case .time: .time
        case .joined: .joined
        case .windowStart: .windowStart
        case .windowEnd: .windowEnd
        case .untilDated: .untilDated
        case .minuteMark: .minuteMark
        case .sameTime: .sameTime
        case .half: .half
        case .repeats: .repeats
        case .once: .once
        case .other: .other
        case .everyDay: .everyDay
        case .everyWeek: .everyWeek
        case .everyMonth: .everyMonth
        case .monthly: .monthly
        case .ofTheMonth: .ofTheMonth
        case .yearly: .yearly
        case .step: .step
        case .period: .period
        case .frequency: .frequency
        case .lasting: .lasting
        case .relative: .relative
        case .days: .days
        case .except: .except
        case .place: .place
        case .monthDay: .monthDay
        case .date: .date
        case .dayOffset: .dayOffset
        case .week: .week
        case .nextDay: .nextDay
        case .thisDay: .thisDay
        case .laterDay: .laterDay
        case .movable: .movable
        case .holidayShift: .holidayShift
        case .monthOffset: .monthOffset
        case .yearOffset: .yearOffset
        case .weekend: .weekend
        case .reading: .reading
        }
    }
}

extension PhrasePieces {
    /// A piece joined to the others: the one place stage two writes the pieces. A piece said
    /// again replaces the one before (the rules check, before they make it, whether a second
    /// one may be said); lists and sets grow.
    mutating func add(_ piece: PhrasePiece) {
        switch piece {
        case .instant(let whole, let text): instant = (whole, text)
        case .time(let time): times.append(time)
        case .joined: joined = true
        case .windowStart(let time): windowStart = time
        case .windowEnd(let time): windowEnd = time
        case .untilDated(let text): untilDated = text
        case .minuteMark(let minute, let text): minuteMark = (minute, text)
        case .sameTime(let text): sameTime = text
        case .half(let half, let text): halves.append((half, text))
        case .repeats: repeats = true
        case .once: once = true
        case .other: other = true
        case .everyDay: everyDaySaid = true
        case .everyWeek(let text): weekSaid = text
        case .everyMonth(let text): monthSaid = text; monthly = true
        case .monthly: monthly = true
        case .ofTheMonth(let text): ofTheMonthSaid = text
        case .yearly(let text): yearly = text
        case .step(let count, let unit, let text): step = (count, unit, text)
        case .period(let unit, let every, let text): period = (unit, every); periodText = text
        case .frequency(let count, let unit, let text): frequency = (count, unit, text)
        case .lasting(let count, let unit, let text): lasting = (count, unit, text)
        case .relative(let seconds, let text, let days): relative = (seconds, text); relativeDays = days
        case .days(let said, let text, let many, let named):
            days.formUnion(said)
            dayTexts.append(text)
            if many { manyDays = true }
            if named { dayNamed = true }
        case .except(let said, let text, let timesBefore): (exceptDays, exceptText, timesBeforeExcept) = (said, text, timesBefore)
        case .place(let n, let text): places.append((n, text))
        case .monthDay(let day, let last):
            monthDays.append(day)
            if let last { lastDaySaid = last }
        case .date(let year, let month, let day, let text): date = (year, month, day, text)
        case .dayOffset(let n, let text): dayOffset = (n, text)
        case .week(let n): week = n
        case .nextDay(let text): nextDay = text
        case .thisDay: thisDay = true
        case .laterDay(let text, let weekFrom): laterDay = (text, weekFrom)
        case .movable(let holiday, let text): movable = (holiday, text)
        case .holidayShift(let days, let text): holidayShift = (days, text)
        case .monthOffset(let n, let text): monthOffset = (n, text)
        case .yearOffset(let n, let text): yearOffset = (n, text)
        case .weekend(let text): weekend = text
        case .reading(let phrase): readings.append(phrase)
        }
    }
}
