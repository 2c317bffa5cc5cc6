
import Foundation

/// Stage three of reading a phrase: the pieces (``PhrasePieces``) into one ``Schedule``, or
/// a refusal naming the words that do not fit. This is the only stage that knows the clock
/// and the zone: "tomorrow", a bare hour and "the 5th" mean an instant only from `now`.
extension PhrasePieces {
    func failure(_ token: String, _ problem: Phrase, _ detail: Phrase? = nil) -> ScheduleError {
        ScheduleError(token, problem, detail: detail, accepted: SchedulePhrase.forms)
    }

    /// The schedule the pieces make at `now` in `zone`, with the person's default reminder
    /// time (`nil`: none) for days said without a time of day: "tomorrow", "friday", "12월
    /// 1일", "every monday" take it, said under the echo, where without it they are
    /// refused with "at what time?". Only those: a phrase that reads without it reads the
    /// same with it. A one-shot whose default time has passed on the day said ("today" at
    /// 09:00 at 14:00, "friday" on a Friday afternoon) is refused as passed, never moved to
    /// another day: the person named that day.
    mutating func schedule(now: Date, zone: TimeZone, defaultTime: LocalTime?) throws(ScheduleError) -> PhraseReading {
        let said = self
        do throws(ScheduleError) {
            return try schedule(now: now, zone: zone)
        } catch {
            guard let defaultTime, error.wantsTimeOfDay, said.times.isEmpty, said.halves.isEmpty else { throw error }
            self = said
            times = [SaidTime(hour: defaultTime.hour, minute: defaultTime.minute, second: defaultTime.second, clock: true, text: defaultTime.description)]
            // TRANSLATORS: a day said without a time whose default reminder time (nudge config default-time) has passed on it: %1$s that time (09:00).
            let late = Phrase("%1$s, your default reminder time, has passed on that day; say a later time", defaultTime.description)
            let passed = failure(error.token, Phrase("that time has passed"), late)
            var reading: PhraseReading
            do throws(ScheduleError) {
                reading = try schedule(now: now, zone: zone)
            } catch where error.problem.template == "that time has passed" {
                throw passed
            }
            if case .once(let instant) = reading.schedule {
                // The day said is the one the latest time of day makes of the words; the
                // default time on another day would be a day the person did not name.
                var latest = said
                latest.times = [SaidTime(hour: 23, minute: 59, second: 59, clock: true, text: "23:59:59")]
                let clock = CivilZone(zone)
                if case .once(let end)? = try? latest.schedule(now: now, zone: zone).schedule, clock.local(end).day != clock.local(instant).day {
                    throw passed
                }
            }
            // TRANSLATORS: a day said without a time, read at the default reminder time (nudge config default-time): %1$s that time (09:00).
            reading.notes.append(Phrase("at %1$s, your default reminder time; say a time to choose another", defaultTime.description))
            return reading
        }
    }

    /// The schedule the pieces make at `now` in `zone`, with what was chosen on the
    /// person's behalf; ``flags`` is set where the flags said say more than the schedule.
    mutating func schedule(now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading {
        // The pieces are read in passes, each a family's meaning at `now`: what cannot go
        // together is refused first, then days named by words become dates, and the times
        // of day are found; what is left is a one-shot, a repeat or a step.
        try checkLengthAndMinute()
        let clock = CivilZone(zone)
        let today = clock.local(now).day
        var notes: [Phrase] = readings
        try nameTheDays(now: now, zone: zone, clock: clock, today: today, notes: &notes)
        try leaveOutDays()
        if let reading = try fromNow(now: now, clock: clock, today: today, notes: notes) { return reading }
        var saidTimes = try timesOfDay(notes: &notes)
        try dayOfTheMonthSaid(today: today)
        if let reading = try everyYear(saidTimes, now: now, zone: zone, notes: &notes) { return reading }
        try checkCount(saidTimes)
        try comingDayOfTheMonth(saidTimes, now: now, clock: clock, today: today, notes: &notes)

        // "last friday", 첫째 월요일: of which month? Every month is said (매월, of the month, every).
        if (!places.isEmpty || monthDays.contains(-1)), !monthly, !repeats {
            throw failure(places.first?.1 ?? "last day", Phrase("which month?"), Phrase("say of the month, every or 매월 for every month, or give the date"))
        }
        // 내일 오후 6시까지, by friday 5pm: once, at that time (a window needs a step).
        if let end = windowEnd, windowStart == nil, step == nil, times.isEmpty, saidTimes.isEmpty {
            saidTimes = [end]
            windowEnd = nil
        }
        let isRepeating = repeats || manyDays || step != nil || !places.isEmpty || !monthDays.isEmpty || period != nil
            || (saidTimes.count > 1 && joined && times.count == saidTimes.count && date == nil && instant == nil && dayOffset == nil && days.isEmpty && !once)
        if once && isRepeating && (repeats || manyDays || step != nil) { throw failure("once", Phrase("it says once and a repeating schedule")) }

        if var reading = try stepLasting(saidTimes, now: now, zone: zone) {
            reading.notes = notes + reading.notes
            return reading
        }
        guard isRepeating else { return try oneShot(saidTimes, today: today, now: now, clock: clock, notes: &notes) }
        var reading = try repeating(saidTimes, today: today, now: now, zone: zone)
        reading.notes = notes + reading.notes
        return reading
    }

    /// A holiday with the words of the day before or after it, in the order said: "추석
    /// 전날", "the day before christmas".
    static func shifted(_ holiday: String, _ shift: (days: Int, text: String)) -> String {
        shift.text.hasPrefix("day") ? shift.text + " " + holiday : holiday + " " + shift.text
    }

    /// A length of time is a step's, and so is a minute of every hour.
    func checkLengthAndMinute() throws(ScheduleError) {
        // A length of time is a step's ("in 10 minutes for the next hour" was once, the length
        // dropped in silence): without a step of minutes or hours it is refused here.
        if let lasting {
            guard let step, case .seconds = step.unit else {
                // TRANSLATORS: a length of time (for 2 hours, 1시간 동안) said without a step of minutes or hours.
                throw failure(lasting.text, Phrase("a length of time needs a step"), Phrase("say how often: every 10 minutes for the next hour"))
            }
        }
        // "on the hour", 정각, "quarter past": a minute of every hour, which only a step of
        // hours has.
        if let mark = minuteMark, step == nil || relative != nil {
            // TRANSLATORS: "on the hour" (정각, quarter past) said without a step of hours.
            throw failure(mark.text, Phrase("words not understood"), Phrase("say every hour on the hour, 매시간 정각"))
        }
    }

    /// Days named by words, as dates: a holiday whose date moves, the same time on a day
    /// said, next year's date.
    mutating func nameTheDays(now: Date, zone: TimeZone, clock: CivilZone, today: CivilDay, notes: inout [Phrase]) throws(ScheduleError) {
        // Easter, thanksgiving, 부활절: the coming one's date (next year's once this year's
        // day is over), said; with next year, next year's. A schedule repeats on fixed dates.
        if let (holiday, said) = movable {
            guard date == nil, instant == nil, !repeats, yearly == nil, dayOffset == nil, monthOffset == nil else {
                // TRANSLATORS: a holiday whose date moves from year to year (easter, thanksgiving), said repeating or with another day; %s is it as said.
                throw failure(said, Phrase("invalid schedule"), Phrase("%s moves from year to year: say it once (easter at 10am), or give its date", said))
            }
            let year = clockYear(now: now, zone: zone)
            // The day before or after it (추석 전날, the day after thanksgiving): the coming such day.
            let shift = holidayShift?.days ?? 0
            func dayIn(_ year: Int) throws(ScheduleError) -> CivilDay {
                guard let day = holiday.day(in: year, zone: zone) else {
                    // TRANSLATORS: a holiday whose day differs where the person is (labour day in Australia); %s is it as said.
                    throw ScheduleError(said, Phrase("ambiguous day"), detail: Phrase("its day differs from state to state"),
                                        accepted: Phrase("say its date (may 10, june 21)"))
                }
                return day.advanced(by: shift)
            }
            var day = try dayIn(year + (yearOffset?.0 ?? 0))
            if yearOffset == nil, day < today { day = try dayIn(year + 1) }
            yearOffset = nil
            let (y, m, d) = day.components
            let whole = holidayShift.map { Self.shifted(said, $0) } ?? said
            date = (y, m, d, whole)
            notes.append(Phrase("%1$s is read as %2$s", whole, Phrase("%1$s (%2$s)", day.description, Phrase(day.weekday.shortName))))
        } else if let (shift, word) = holidayShift {
            // A holiday on a fixed date, the day before or after it (크리스마스 다음날, the day
            // before new year's day): the coming such day, said.
            guard let holiday = date, holiday.year == nil, !repeats, yearly == nil else {
                // TRANSLATORS: the day before or after a holiday (추석 전날) said repeating or with a year.
                throw failure(word, Phrase("invalid schedule"), Phrase("say the day before or after a holiday once, or give its date"))
            }
            var year = today.components.year, found: CivilDay?
            while found == nil, year <= today.components.year + 8 {
                if let day = CivilDay(year: year, month: holiday.month, day: holiday.day)?.advanced(by: shift), day >= today { found = day }
                year += 1
            }
            guard let found else { throw failure(holiday.text, Phrase("invalid date")) }
            let whole = Self.shifted(holiday.text, (shift, word))
            let (y, m, d) = found.components
            date = (y, m, d, whole)
            notes.append(Phrase("%1$s is read as %2$s", whole, Phrase("%1$s (%2$s)", found.description, Phrase(found.weekday.shortName))))
        }
        // "same time tomorrow", 내일 이 시간: the time of day it is now, to the minute, on the
        // day said; "this time next week" is today's weekday of next week.
        if let said = sameTime {
            guard times.isEmpty, halves.isEmpty, step == nil, windowStart == nil, windowEnd == nil, !repeats,
                  dayOffset != nil || relativeDays != nil || week != nil || !days.isEmpty || date != nil else {
                // TRANSLATORS: "same time" (같은 시간) said without a day, or with a time or a repeat.
                throw failure(said, Phrase("invalid schedule"), Phrase("say on which day: same time tomorrow, 내일 같은 시간"))
            }
            // Said with its half of the day: the waking day's rule is for hours said bare.
            let second = clock.local(now).second, hour = second / 3600, minute = second % 3600 / 60
            times.append(SaidTime(hour: hour < 12 ? hour : hour == 12 ? 12 : hour - 12, minute: minute, half: hour < 12 ? .am : .pm, text: said))
            notes.append(Phrase("%1$s is read as %2$s", said, LocalTime(hour: hour, minute: minute)!.description))
            if week != nil, days.isEmpty { days = [today.weekday] }
        }
        // 내년 3월 1일, march 1 next year: that date of next year, once.
        if let (offset, said) = yearOffset {
            guard let day = date, day.year == nil, !repeats, yearly == nil else {
                // TRANSLATORS: 내년 (next year) said without a date, with a year, or repeating.
                throw failure(said, Phrase("which day of the year?"), Phrase("say e.g. 내년 3월 1일 오전 9시, march 1 next year at 9am"))
            }
            date = (clockYear(now: now, zone: zone) + offset, day.month, day.day, day.text)
        }
    }

    /// Days left out of the days said.
    mutating func leaveOutDays() throws(ScheduleError) {
        // "every day except sunday", 일요일 빼고 매일, 주말 빼고: the days said (every day when
        // none are), without those; it repeats. Only days of the week are left out.
        if let said = exceptText {
            guard date == nil, instant == nil, dayOffset == nil, weekend == nil, laterDay == nil, nextDay == nil, week == nil, relative == nil,
                  monthDays.isEmpty, places.isEmpty, yearly == nil, monthOffset == nil, !once else {
                // TRANSLATORS: days left out ("except sunday", 일요일 빼고) said with one day or a date.
                throw failure(said, Phrase("invalid schedule"), Phrase("say the days it repeats on: every day except sunday, 일요일 빼고 매일"))
            }
            if case .seconds? = step?.unit {} else if step != nil || period != nil {
                // "every other day except sunday": which days count is unclear.
                throw failure(said, Phrase("invalid schedule"), Phrase("say the days it repeats on: every day except sunday, 일요일 빼고 매일"))
            }
            if timesBeforeExcept > 0, times.count + halves.count > timesBeforeExcept {
                // TRANSLATORS: "every day at 9am except sunday at 10am": a time said before and after the days left out.
                throw failure(said, Phrase("invalid schedule"), Phrase("a time on each side of the days left out: add the other day's reminder on its own"))
            }
            let from = days.isEmpty ? Schedule.everyDay : days
            guard exceptDays.isSubset(of: from), !exceptDays.isEmpty else {
                // TRANSLATORS: "weekdays except sunday": the days left out are not among the days said.
                throw failure(said, Phrase("invalid schedule"), Phrase("the days left out must be among the days said"))
            }
            guard from != exceptDays else {
                // TRANSLATORS: "weekends except saturday and sunday": every day said is left out.
                throw failure(said, Phrase("invalid schedule"), Phrase("no day is left"))
            }
            days = from.subtracting(exceptDays)
            manyDays = true
            repeats = true
        }
    }

    /// Days and times counted from now: the reading, when that is all the phrase says.
    mutating func fromNow(now: Date, clock: CivilZone, today: CivilDay, notes: [Phrase]) throws(ScheduleError) -> PhraseReading? {
        // "3일 후 오전 10시": that day, at that time.
        if let (n, unit) = relativeDays, !times.isEmpty || !halves.isEmpty, date == nil, instant == nil, dayOffset == nil, days.isEmpty, !repeats {
            let (year, month, day) = today.components
            switch unit {
            case .month:
                let months = year * 12 + (month - 1) + n
                let (y, m) = (months / 12, months % 12 + 1)
                let target = CivilDay(year: y, month: m, day: min(day, CivilDay.daysIn(month: m, year: y)))!
                dayOffset = (today.distance(to: target), relative?.text ?? "")
            case .week: dayOffset = (7 * n, relative?.text ?? "")
            default: dayOffset = (n, relative?.text ?? "")
            }
            relative = nil
        }
        // "3일 뒤", "in 2 weeks": the same time of day that many days on, across a DST change too.
        if let said = relative, let (n, unit) = relativeDays, times.isEmpty, halves.isEmpty, date == nil, days.isEmpty, !repeats {
            if case .month = unit {} else {
                let days = (unit.isWeek ? 7 : 1) * n
                let (day, second) = clock.local(now)
                let target = clock.instant(day.advanced(by: days), LocalTime(secondOfDay: second)!).addingTimeInterval(now.timeIntervalSince1970.truncatingRemainder(dividingBy: 1))
                flags = "--on '\(day.advanced(by: days)) \(LocalTime(secondOfDay: second)!)'"
                _ = said
                return PhraseReading(schedule: .once(target), notes: notes, flags: nil)
            }
        }
        if let relative, let (_, unit) = relativeDays, case .month = unit {
            throw failure(relative.text, Phrase("invalid duration"), Phrase("say a date for months ahead, or a time of day: 한 달 후 오전 9시"))
        }
        // "in 20 minutes": nothing else goes with it.
        if let relative {
            guard times.isEmpty, windowStart == nil, windowEnd == nil, step == nil, days.isEmpty, date == nil, instant == nil,
                  dayOffset == nil, !repeats, places.isEmpty, monthDays.isEmpty, halves.isEmpty else {
                throw failure(relative.text, Phrase("a duration from now does not go with other times"),
                              Phrase("say either when from now or when on the clock"))
            }
            flags = "--in \(Schedule.flagDuration(relative.seconds))"
            return PhraseReading(schedule: .once(now.addingTimeInterval(TimeInterval(relative.seconds))), notes: [], flags: nil)
        }
        return nil
    }

    /// The times of day said, each once, a part of the day said beside them choosing their
    /// half, or said alone giving its hour.
    func timesOfDay(notes: inout [Phrase]) throws(ScheduleError) -> [SaidTime] {
        // Parts of the day said alone: their hours.
        // A time said twice is one time ("9am 9am", "noon 12pm").
        var saidTimes: [SaidTime] = []
        for time in times where !saidTimes.contains(where: { (try? $0.readings().map(\.time)) == (try? time.readings().map(\.time)) && (try? time.readings().count) == 1 }) {
            saidTimes.append(time)
        }
        // A part of the day said apart from the times ("at 6 this evening", "at 7:15 every
        // evening", "at 11pm every night"): it says which half of the day they are in, as in
        // 저녁 7시, and never adds an hour of its own (it added 19:00 beside 7:15 and 21:00
        // beside 11pm: two reminders a day for one).
        var halves = halves
        if !saidTimes.isEmpty, let (half, text) = halves.first {
            guard halves.count == 1 else {
                throw failure(halves.map(\.1).joined(separator: ", "), Phrase("invalid time"), Phrase("the words for the half of the day disagree"))
            }
            for k in saidTimes.indices { try Self.place(&saidTimes[k], in: half, said: text) }
            halves = []
        }
        for (half, text) in halves {
            let hour: [SaidTime.Half: Int] = [.dawn: 6, .morning: 9, .daytime: 12, .afternoon: 15, .evening: 19, .night: 21]
            guard let h = hour[half] else { throw failure(text, Phrase("words not understood")) }
            saidTimes.append(SaidTime(hour: h, clock: true, text: text))
            // TRANSLATORS: a part of the day said without an hour: %1$s as said (evening), %2$s the time taken (19:00).
            notes.append(Phrase("%1$s is read as %2$s", text, LocalTime(hour: h, minute: 0)!.description))
        }
        return saidTimes
    }

    /// A day of next or this month, as a date.
    mutating func dayOfTheMonthSaid(today: CivilDay) throws(ScheduleError) {
        // 다음 달 1일, next month on the 5th, 이번 달 말일, first monday of next month: a day of
        // that month, once.
        if let (offset, said) = monthOffset {
            guard !repeats, !monthly, date == nil else { throw failure(said, Phrase("a day does not go with a repeating schedule")) }
            let (y0, m0, _) = today.components
            let (y, m) = m0 + offset > 12 ? (y0 + 1, m0 + offset - 12) : (y0, m0 + offset)
            let last = CivilDay(year: y, month: m, day: CivilDay.daysIn(month: m, year: y))!
            var target: CivilDay?
            if monthDays.count == 1, places.isEmpty, let d = monthDays.first {
                target = d == -1 ? last : CivilDay(year: y, month: m, day: d)
            } else if monthDays.isEmpty, places.count == 1, days.count == 1, let weekday = days.first {
                target = Self.place(places[0].0, weekday, year: y, month: m)
                days = []
                places = []
            } else {
                throw failure(said, Phrase("which day of the month?"), Phrase("say e.g. 다음 달 1일 오전 9시, next month on the 5th at 9am"))
            }
            guard let target else { throw failure(said, Phrase("invalid date")) }
            date = (y, m, target.components.day, said)
            monthDays = []
            lastDaySaid = nil
        }
    }

    /// A date every year: the reading, when one is said.
    mutating func everyYear(_ saidTimes: [SaidTime], now: Date, zone: TimeZone, notes: inout [Phrase]) throws(ScheduleError) -> PhraseReading? {
        // 매년 3월 1일 오전 9시, every year on march 1, annually on dec 25, every nov 1: a
        // date every year, as cron keeps it.
        if let said = yearly {
            // Every 4 years: a period of years (4년마다 2월 29일).
            let years = period.flatMap { $0.unit == .year ? $0.every : nil }
            guard let date, date.year == nil, monthDays.isEmpty, places.isEmpty, days.isEmpty, step == nil, period == nil || years != nil else {
                throw failure(said, Phrase("which day of the year?"), Phrase("say e.g. every year on march 1 at 9am, 매년 3월 1일 오전 9시"))
            }
            guard !saidTimes.isEmpty else { throw failure(said, Phrase("no time of day given"), Phrase("say at what time: every year on march 1 at 9am, 매년 3월 1일 오전 9시")) }
            var locals: [LocalTime] = []
            for var time in saidTimes {
                // A date is a named day: the waking day's hour, said.
                try wakingDay(&time, colon: true, notes: &notes)
                let reading = try only(time)
                guard !reading.nextDay else { throw failure(time.text, Phrase("invalid time"), Phrase("say 0:00 for midnight at the start of the day")) }
                locals.append(reading.time)
            }
            let hours = Set(locals.map(\.hour)), minutes = Set(locals.map(\.minute))
            guard hours.count * minutes.count == locals.count, locals.allSatisfy({ $0.second == 0 }) else {
                throw failure(saidTimes[1].text, Phrase("more than one time"), Phrase("say one time a year"))
            }
            func list(_ values: Set<Int>) -> String { values.sorted().map(String.init).joined(separator: ",") }
            let expression = "\(list(minutes)) \(list(hours)) \(date.day) \(date.month) *"
            let yearly = Schedule.cron(try CronExpression(expression))
            guard let years else { return PhraseReading(schedule: yearly, notes: notes, flags: nil) }
            // Counted from the first showing's year.
            guard let first = yearly.occurrences(after: now, count: 1, in: zone).first,
                  let every = Schedule.Period(unit: .year, every: years, anchor: CivilZone(zone).local(first).day) else {
                throw failure(periodText ?? said, Phrase("invalid duration"))
            }
            return PhraseReading(schedule: .restricted(yearly, Schedule.Restriction(period: every)), notes: notes, flags: nil)
        }
        return nil
    }

    /// How often, against the times said.
    func checkCount(_ saidTimes: [SaidTime]) throws(ScheduleError) {
        // Twice a day, 하루 세 번: as many times as said.
        if let (count, unit, said) = frequency {
            let given: Int
            switch unit {
            case .day: given = saidTimes.count
            case .week: given = count == 1 ? 1 : days.count
            case .month: given = monthDays.count + places.count
            case .seconds: given = count
            }
            guard given == count else {
                let problem = Phrase("the count and the times disagree")
                // TRANSLATORS: "twice a day" with another number of times: %1$s as said, %2$d how many were given.
                let detail = Phrase("%1$s, and %2$d given: say one for each", said, given)
                throw failure(said, problem, detail)
            }
        }
    }

    /// The `n`th (-1: the last) `weekday` of a month; `nil` where it has none (a fifth).
    static func place(_ n: Int, _ weekday: Weekday, year: Int, month: Int) -> CivilDay? {
        if n > 0 {
            let first = CivilDay(year: year, month: month, day: 1)!
            let found = first.advanced(by: (weekday.rawValue - first.weekday.rawValue + 7) % 7 + 7 * (n - 1))
            return found.components.month == month ? found : nil
        }
        let last = CivilDay(year: year, month: month, day: CivilDay.daysIn(month: month, year: year))!
        return last.advanced(by: -((last.weekday.rawValue - weekday.rawValue + 7) % 7))
    }

    /// A day of the month said once, as the coming such date.
    mutating func comingDayOfTheMonth(_ saidTimes: [SaidTime], now: Date, clock: CivilZone, today: CivilDay, notes: inout [Phrase]) throws(ScheduleError) {
        // "the last day of the month at 6pm": "of the month" without every is the coming
        // one, once, as every set written without our tables meant it (session 22; every
        // month is "of every month", 매월).
        if let ofTheMonth = ofTheMonthSaid, !monthly, !repeats, step == nil, period == nil, date == nil, instant == nil, dayOffset == nil {
            if places.isEmpty, monthDays == [-1], lastDaySaid == nil {
                lastDaySaid = "last day " + ofTheMonth
            }
        }
        // 5일 오전 9시, the 5th at 9am, 말일 오전 10시: without 매월 or "every month", the
        // coming one, once.
        // "monday the 27th", 27일 월요일: the coming 27th, when it is that weekday.
        if monthDays.count == 1, let d = monthDays.first, d > 0 || (d == -1 && lastDaySaid != nil), !monthly, !repeats, step == nil, period == nil, places.isEmpty,
           date == nil, instant == nil, dayOffset == nil, days.isEmpty || (days.count == 1 && !manyDays && d > 0) {
            let token = d > 0 ? "\(d)" : lastDaySaid ?? ""
            guard let said = saidTimes.first else { throw failure(token, Phrase("no time of day given"), Phrase("say at what time: tomorrow 9am, 내일 오전 9시")) }
            var (year, month, _) = today.components
            var found: CivilDay?
            for _ in 0..<13 {
                let day = d > 0 ? CivilDay(year: year, month: month, day: d) : CivilDay(year: year, month: month, day: CivilDay.daysIn(month: month, year: year))
                if let day, try latest(said, on: day, clock: clock) > now { found = day; break }
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
            guard let found else { throw failure(token, Phrase("invalid date")) }
            if let weekday = days.first {
                guard found.weekday == weekday else {
                    // TRANSLATORS: a weekday said with a day of the month that is another weekday (monday the 27th): %1$s the day as said, %2$s the date it is next, with its weekday.
                    throw failure(token, Phrase("day %1$s is next %2$s, another weekday", token,
                                                Phrase("%1$s (%2$s)", found.description, Phrase(found.weekday.shortName))),
                                  Phrase("say the date or the weekday alone"))
                }
                days = []
                dayTexts = []
            }
            let (y, m, dd) = found.components
            date = (y, m, dd, token)
            monthDays = []
            if d > 0 {
                // TRANSLATORS: a day of the month said without its month: %1$d the day, %2$s the date taken.
                notes.append(Phrase("day %1$d is read as %2$s, the next such date", d, found.description))
            } else if ofTheMonthSaid != nil {
                notes.append(Phrase("%1$s is read as %2$s, the next such day; say of every month for each month", token, found.description))
            } else {
                // TRANSLATORS: the last day of the month said without which month: %1$s as said (말일), %2$s the date taken.
                notes.append(Phrase("%1$s is read as %2$s, this month's last day; say 매월 말일 for every month", token, found.description))
            }
        }
    }

    /// A time in the part of the day said apart from it: a spoken hour 1–12, or a colon
    /// time 1:00–12:59 without a leading zero, takes it (7:15 every evening is 19:15); a
    /// time that says its own half (11pm, 19:15, 07:15) must be in it, or the phrase is
    /// refused: the part of the day only chooses the half, it never moves a time.
    static func place(_ time: inout SaidTime, in half: SaidTime.Half, said: String) throws(ScheduleError) {
        if time.half == nil, (1...12).contains(time.hour), !time.clock || !time.text.hasPrefix("0") {
            time.half = half
            _ = try time.readings()
            return
        }
        let disagree = ScheduleError("\(said) \(time.text)", Phrase("invalid time"), detail: Phrase("the words for the half of the day disagree"),
                                     accepted: SchedulePhrase.forms)
        guard let own = try? time.readings().map(\.time), own.count == 1 else { throw disagree }
        let hour = own[0].hour % 12 == 0 ? 12 : own[0].hour % 12
        let inHalf = SaidTime(hour: hour, minute: own[0].minute, second: own[0].second, half: half, text: time.text)
        guard (try? inHalf.readings().map(\.time)) == own else { throw disagree }
    }

    /// The waking day's reading of a time on a named day (tomorrow, friday, a date, every
    /// monday, 매달 1일): a spoken hour 1–12, and with `colon` a colon time 1:00–6:59 written
    /// without a leading zero, is 7–11 morning, 12 noon, 1–6 afternoon; the reading not
    /// taken is said and offered. One rule for both: "tomorrow 5:15" was 05:15, said only
    /// in a note, where "tomorrow at 5" was 17:00. 0:MM, 05:15, 7:MM–12:MM and 13–23 stay
    /// as written, on the 24-hour clock.
    mutating func wakingDay(_ time: inout SaidTime, colon: Bool, notes: inout [Phrase]) throws(ScheduleError) {
        guard time.half == nil else { return }
        // A leading zero is the 24-hour clock's, with or without a colon: 05:15, 05시 15분.
        if time.text.hasPrefix("0"), (1...9).contains(time.hour) {
            time.clock = true
            return
        }
        let bare = !time.clock && (1...12).contains(time.hour)
        let early = colon && time.clock && (1...6).contains(time.hour) && !time.text.hasPrefix("0")
        guard bare || early else { return }
        let spoken = try time.readings().map(\.time)
        time.half = time.hour == 12 ? .noon : time.hour >= 7 ? .am : .pm
        let taken = try time.readings()[0].time
        if let other = spoken.first(where: { $0 != taken }) {
            // TRANSLATORS: a bare hour on a named day: %1$s as said (3, 3시), %2$s the time taken (15:00), %3$s how to say the other (3am, 새벽 3시), %4$s that other time (03:00).
            notes.append(Phrase("%1$s is read as %2$s; say %3$s for %4$s", time.text, taken.description, Self.spoken(other, time), other.description))
            choices.append(PhraseReading.Choice(said: time.text, other: Self.spoken(other, time)))
        }
    }

    /// "monday after next", 다다음 월요일: a week after "next monday", the first Monday after
    /// today. "a week from tuesday": a week after the coming Tuesday; said on a Tuesday,
    /// today's or the next one's, both said.
    static func later(_ weekday: Weekday, _ later: (text: String, weekFrom: Bool), today: CivilDay) throws(ScheduleError) -> CivilDay {
        let first = firstAfter(weekday, today: today)
        guard !later.weekFrom || today.weekday != weekday else {
            let (one, other) = (today.advanced(by: 7), today.advanced(by: 14))
            let format = { (d: CivilDay) in Phrase("%1$s (%2$s)", d.description, Phrase(d.weekday.shortName)) }
            throw ScheduleError(later.text, Phrase("ambiguous day"),
                                detail: Phrase("the coming one (%1$s) or the one after (%2$s)?", format(one), format(other)),
                                accepted: Phrase("say this friday or friday next week (이번 주 금요일, 다음 주 금요일), or the date"))
        }
        return first.advanced(by: 7)
    }

    func clockYear(now: Date, zone: TimeZone) -> Int { CivilZone(zone).local(now).day.components.year }

    /// The first `weekday` after `today` (a week later when today is one): "next friday".
    static func firstAfter(_ weekday: Weekday, today: CivilDay) -> CivilDay {
        let found = coming(weekday, after: today)
        return found == today ? found.advanced(by: 7) : found
    }

    static func coming(_ weekday: Weekday, after day: CivilDay) -> CivilDay {
        day.advanced(by: (weekday.rawValue - day.weekday.rawValue + 7) % 7)
    }

    /// The one reading of a time in a repeating schedule: a spoken hour 1–12 with nothing
    /// to say which half of the day is refused with both.
    func only(_ time: SaidTime) throws(ScheduleError) -> (time: LocalTime, nextDay: Bool) {
        let readings = try time.readings()
        guard readings.count == 1 else { throw ambiguous(time, readings.map(\.time)) }
        return readings[0]
    }

    /// A time as the person would say it, in the words they used (9pm, 오후 9시 30분).
    static func spoken(_ t: LocalTime, _ time: SaidTime) -> String {
        let korean = time.text.contains("시")
        if t.hour == 12 && t.minute == 0 { return korean ? "낮 12시" : "noon" }
        if t.hour == 0 && t.minute == 0 { return korean ? "밤 12시" : "midnight" }
        let suffix = t.minute == 0 ? "" : (korean ? " \(t.minute)분" : String(format: ":%02d", t.minute))
        let hour = t.hour % 12 == 0 ? 12 : t.hour % 12
        if korean { return "\(t.hour < 12 ? (t.hour < 6 ? "새벽" : "오전") : "오후") \(hour)시\(suffix)" }
        return "\(hour)\(suffix)\(t.hour < 12 ? "am" : "pm")"
    }

    func ambiguous(_ time: SaidTime, _ readings: [LocalTime]) -> ScheduleError {
        let korean = time.text.contains("시")
        let said: [String] = readings.map { t in
            if time.hour == 12 { return korean ? (t.hour == 12 ? "낮 12시 / 정오" : "밤 12시 / 자정") : (t.hour == 12 ? "noon" : "midnight") }
            let suffix = t.minute == 0 ? "" : (korean ? " \(t.minute)분" : String(format: ":%02d", t.minute))
            return korean ? "\(t.hour < 12 ? "오전" : "오후") \(t.hour % 12 == 0 ? 12 : t.hour % 12)시\(suffix)"
                : "\(t.hour % 12 == 0 ? 12 : t.hour % 12)\(suffix)\(t.hour < 12 ? "am" : "pm")"
        }
        // TRANSLATORS: a time said without its half of the day: %1$s and %2$s are its two readings with theirs (9am, 9pm).
        return ScheduleError(time.text, Phrase("ambiguous time"), detail: Phrase("%1$s (%2$s) or %3$s (%4$s)?", said[0], readings[0].description, said[1], readings[1].description),
                             accepted: Phrase("say am or pm, 오전 or 오후, or write it on a 24-hour clock (21:00)"))
    }

    mutating func repeating(_ saidTimes: [SaidTime], today: CivilDay, now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading {
        // "today every hour until 1pm", "every hour after 9pm today", 오늘 30분마다 오후 1시까지,
        // 오늘 밤 9시 이후 매시간: a step for today alone. With its end only it is what a step
        // with an end and no day is (from now, then it stops); with its start, that window
        // today, then it stops.
        if let offset = dayOffset, offset.0 == 0, let (_, unit, _) = step, case .seconds = unit, windowStart != nil || windowEnd != nil,
           days.isEmpty, !everyDaySaid, weekend == nil, period == nil, monthDays.isEmpty, places.isEmpty, !monthly, date == nil {
            dayOffset = nil
            guard windowStart != nil else { return try repeatingOnDays(saidTimes, today: today, now: now, zone: zone) }
            let end = CivilZone(zone).instant(today.advanced(by: 1), LocalTime(hour: 0, minute: 0, second: 0)!).addingTimeInterval(-1)
            let reading = try stopping(at: end, said: offset.1, saidTimes, today: today, now: now, zone: zone)
            // TRANSLATORS: a step said for today (every hour after 9pm today): %1$s as said (today, 오늘). It does not repeat on other days.
            return PhraseReading(schedule: reading.schedule, notes: reading.notes + [Phrase("%1$s: today only, then it stops", offset.1)], flags: nil)
        }
        // A step until a time tomorrow ("every 2 hours until 6am tomorrow", 내일 아침 6시까지
        // 2시간마다): from now, and then it stops.
        if let offset = dayOffset, offset.0 == 1, let (seconds, unit, _) = step, case .seconds = unit, windowStart == nil, let end = windowEnd,
           minuteMark == nil, days.isEmpty, !everyDaySaid, weekend == nil, period == nil, monthDays.isEmpty, places.isEmpty, !monthly, date == nil {
            var said = end, notes: [Phrase] = []
            try wakingDay(&said, colon: true, notes: &notes)
            let time = try only(said)
            let clock = CivilZone(zone)
            let stop = clock.instant(today.advanced(by: time.nextDay ? 2 : 1), time.time)
            guard now.addingTimeInterval(TimeInterval(seconds)) <= stop else { throw failure(end.text, Phrase("invalid window"), Phrase("it must not end before it starts")) }
            let (stopDay, stopSecond) = clock.local(stop)
            // TRANSLATORS: a step said with its end and no day (every 15 minutes until 11am): %1$s as said (11am), %2$s the last instant (2026-11-25 11:00).
            let note = Phrase("%1$s: from now until %2$s, then it stops; say every day to repeat it", "\(offset.1) \(end.text)",
                              "\(stopDay) \(LocalTime(secondOfDay: stopSecond)!)")
            return PhraseReading(schedule: .restricted(.interval(seconds: seconds, anchor: now, days: Schedule.everyDay), Schedule.Restriction(until: stop)),
                                 notes: notes + [note], flags: nil)
        }
        // A step after a time with no day word ("every hour after 9pm", 오후 3시 이후 매시간):
        // today, to its end, and then it stops, as a step with only an end and no day word is
        // (issue 54's rule); said, with how to repeat it.
        // ("from 2pm", 오후 2시부터, stays every day's: a window's start, as the tables say it.)
        if dayOffset == nil, let (_, unit, _) = step, case .seconds = unit, let start = windowStart, windowEnd == nil, minuteMark == nil,
           start.text.lowercased().hasPrefix("after") || start.text.hasSuffix("이후"),
           days.isEmpty, !everyDaySaid, weekend == nil, period == nil, monthDays.isEmpty, places.isEmpty, !monthly, date == nil,
           instant == nil, nextDay == nil, laterDay == nil, untilDated == nil {
            let end = CivilZone(zone).instant(today.advanced(by: 1), LocalTime(hour: 0, minute: 0, second: 0)!).addingTimeInterval(-1)
            let reading = try stopping(at: end, said: start.text, saidTimes, today: today, now: now, zone: zone)
            // TRANSLATORS: a step from a time with no day said (every hour after 9pm): %1$s as said (after 9pm). It stops at the end of today.
            let note = Phrase("%1$s: today, to its end, then it stops; say every day to repeat it", start.text)
            return PhraseReading(schedule: reading.schedule, notes: reading.notes.filter { $0.template != "%1$s: from %2$s to the end of the day" } + [note], flags: nil)
        }
        // A window of steps that stops at a date and time, as list says today's above:
        // "every 1 h, 21:00–23:00, until Mon 2026-11-30 23:59:59".
        if let token = untilDated, windowStart != nil, let (whole, _) = instant, date == nil, saidTimes.isEmpty, days.count <= 1 {
            // The same, its end written as an instant (list's ISO form).
            (untilDated, instant, days, dayTexts) = (nil, nil, [], [])
            return try stopping(at: whole, said: token, [], today: today, now: now, zone: zone)
        }
        if let token = untilDated, windowStart != nil, let date, saidTimes.count == 1, instant == nil, days.count <= 1 {
            let clock = CivilZone(zone)
            guard let day = CivilDay(year: date.year ?? today.components.year, month: date.month, day: date.day) else { throw failure(date.text, Phrase("invalid date")) }
            guard days.isEmpty || days == [day.weekday] else {
                throw failure(date.text, Phrase("the date and the weekday disagree"), Phrase("%1$s is a %2$s", day.description, Phrase(day.weekday.shortName)))
            }
            let time = try only(saidTimes[0])
            let end = clock.instant(time.nextDay ? day.advanced(by: 1) : day, time.time)
            (untilDated, self.date, days, dayTexts) = (nil, nil, [], [])
            return try stopping(at: end, said: token, [], today: today, now: now, zone: zone)
        }
        return try repeatingOnDays(saidTimes, today: today, now: now, zone: zone)
    }

    /// The window of steps said, stopping at `end`.
    mutating func stopping(at end: Date, said: String, _ saidTimes: [SaidTime], today: CivilDay, now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading {
        let reading = try repeatingOnDays(saidTimes, today: today, now: now, zone: zone)
        // No flags say a window that stops at a date.
        flags = nil
        var schedule = reading.schedule, restriction = Schedule.Restriction(until: end)
        if case .restricted(let inner, let kept) = schedule {
            restriction = kept
            restriction.until = min(kept.until ?? end, end)
            schedule = inner
        }
        let stops = Schedule.restricted(schedule, restriction)
        guard stops.occurrences(after: now, count: 1, in: zone).first != nil else { throw failure(said, Phrase("that time has passed")) }
        return PhraseReading(schedule: stops, notes: reading.notes, flags: nil)
    }

    mutating func repeatingOnDays(_ saidTimes: [SaidTime], today: CivilDay, now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading {
        var windowNotes: [Phrase] = []
        if let stops = try stepUntilDated(saidTimes, now: now, zone: zone) { return stops }
        if let instant { throw failure(instant.1, Phrase("a date does not go with a repeating schedule")) }
        if let date { throw failure(date.text, Phrase("a date does not go with a repeating schedule"), Phrase("say the days it repeats on, or leave out the repeating words")) }
        if let dayOffset { throw failure(dayOffset.1, Phrase("a day does not go with a repeating schedule")) }
        if let laterDay { throw failure(laterDay.text, Phrase("a day does not go with a repeating schedule")) }
        if let nextDay { throw failure(nextDay, Phrase("a day does not go with a repeating schedule")) }
        var weekdays = days.isEmpty ? Schedule.everyDay : days
        var base: Schedule

        if let (count, unit, said) = step, case .seconds = unit {
            let seconds = count
            do { try Limits.check(.every, seconds: seconds) } catch {
                // TRANSLATORS: a schedule phrase's step (every 30 minutes) out of range.
                throw ScheduleError(said, Phrase("invalid step"), detail: Phrase("it must be %s", Limits.Quantity.every.rangePhrase),
                                    accepted: SchedulePhrase.forms)
            }
            guard saidTimes.isEmpty else { throw failure(saidTimes[0].text, Phrase("a step does not go with times of day"), Phrase("say from when to when: every 30 minutes from 9:30 to 21:30")) }
            if let mark = minuteMark {
                // "every hour on the hour", 매시간 15분: the steps fall at that minute of the
                // clock's hours, as a window from the day's first such minute lays them (an
                // interval counted from now fell at :47 for 매시간 정각). A day that is not
                // a whole number of steps would not keep the minute: refused.
                guard seconds % 3600 == 0, 86400 % seconds == 0 else {
                    // TRANSLATORS: "on the hour" (정각, quarter past) said with a step that is not whole hours dividing the day (every 45 minutes).
                    throw failure(mark.text, Phrase("invalid step"), Phrase("say every hour, every 2 hours, … on the hour"))
                }
                if var from = windowStart {
                    // The window's first such minute: from 9:30, on the hour, is from 10:00. A
                    // bare hour keeps its readings (from 9 to 17 is still read as a window).
                    let late = from.minute > mark.minute || (from.minute == mark.minute && from.second > 0)
                    let readings = try from.readings()
                    if late, readings.count > 1 {
                        guard from.hour < 12 else { throw failure(from.text, Phrase("invalid window"), Phrase("it must not end before it starts")) }
                        from.hour += 1
                    } else if late || readings.count == 1 {
                        let start = try only(from).time
                        let hour = start.hour + (late ? 1 : 0)
                        guard hour < 24 else { throw failure(from.text, Phrase("invalid window"), Phrase("it must not end before it starts")) }
                        from = SaidTime(hour: hour, clock: true, text: from.text)
                    }
                    from.minute = mark.minute
                    from.second = 0
                    windowStart = from
                } else {
                    windowStart = SaidTime(hour: 0, minute: mark.minute, clock: true, text: mark.text)
                }
            }
            switch (windowStart, windowEnd) {
            case (nil, nil):
                base = .interval(seconds: seconds, anchor: now, days: weekdays)
                // TRANSLATORS: a step with no window: %1$s as said (every 2 hours). It runs day and night.
                windowNotes.append(Phrase("%1$s runs all day, around the clock; say from when to when to keep it to the day (every 2 hours from 9am to 9pm)", said))
            case (var from?, var until?):
                // A colon end 1:00–6:59 said bare is read as a bare hour is, both halves, and
                // the window's rules choose ("every 15 minutes from 12:30 to 1:30" is
                // 12:30–13:30: it ran through the night, 53 times a day); where no window
                // within the day comes of it, as written ("from 10pm to 2:30" is a night's).
                func loose(_ time: SaidTime) -> SaidTime {
                    var time = time
                    if time.clock, time.half == nil, (1...6).contains(time.hour), !time.text.hasPrefix("0") { time.clock = false }
                    return time
                }
                if loose(from).clock != from.clock || loose(until).clock != until.clock, (try? windowTimes(loose(from), loose(until))) != nil {
                    (from, until) = (loose(from), loose(until))
                }
                // A bare 12 ending an evening's window is its midnight ("from 9pm to 12", 밤
                // 9시부터 12시까지): noon would end it before it starts.
                if until.half == nil, !until.clock, until.hour == 12, until.minute == 0, let start = try? from.readings(), start.count == 1,
                   start[0].time.hour >= 13 {
                    until.half = .midnight
                }
                // Through midnight (every hour from 10pm to 2am, 밤 10시부터 새벽 2시까지): every
                // day only, as one list of times (a day said would hold the hours after midnight
                // on the next day, which no schedule here can say).
                if let overnight = try overnight(from, until, every: seconds), weekdays == Schedule.everyDay, period == nil, monthDays.isEmpty,
                   places.isEmpty, !monthly {
                    // TRANSLATORS: a window through midnight: %1$s as said (10pm – 2am), %2$s its start (22:00), %3$s its end (02:00).
                    windowNotes.append(Phrase("%1$s runs overnight, from %2$s to %3$s the next morning", "\(from.text) – \(until.text)",
                                              overnight.start.description, overnight.end.description))
                    base = .daily(times: overnight.times, days: weekdays)
                    flags = nil
                    break
                }
                let window = try windowTimes(from, until)
                let (startReadings, endReadings) = (try from.readings(), try until.readings())
                if startReadings.count > 1 || endReadings.count > 1 {
                    // TRANSLATORS: a window said with bare hours: %1$s as said (9 – 5), %2$s the one reading that makes a window (09:00–17:00).
                    windowNotes.append(Phrase("%1$s is read as %2$s", "\(from.text) – \(until.text)", "\(window.start)–\(window.end)"))
                }
                base = .daily(times: window.times(every: seconds), days: weekdays)
                flags = "--every \(Schedule.flagDuration(seconds)) --from \(window.start) --until \(window.end)" + Schedule.daysFlag(weekdays)
            case (let from?, nil):
                // From a time, to the day's end: the steps before midnight.
                let start = try only(from)
                guard !start.nextDay, let window = DayWindow(start: start.time, end: LocalTime(hour: 23, minute: 59, second: 59)!) else {
                    throw failure(from.text, Phrase("invalid window"), Phrase("it must not end before it starts"))
                }
                // TRANSLATORS: a window said with its start only: %1$s as said (from 2pm), %2$s its start (14:00).
                windowNotes.append(Phrase("%1$s: from %2$s to the end of the day", from.text, window.start.description))
                base = .daily(times: window.times(every: seconds), days: weekdays)
                flags = "--every \(Schedule.flagDuration(seconds)) --from \(window.start) --until 23:59:59" + Schedule.daysFlag(weekdays)
            case (nil, var until?) where days.isEmpty && !everyDaySaid && weekend == nil && period == nil && monthDays.isEmpty && places.isEmpty && !monthly:
                // No day said ("every 15 minutes until 11am", 20분마다 11시까지): today, from
                // now, and then it stops, as people mean it (it was every day from 00:00).
                // A bare hour is the next such time not yet passed, as in a one-shot, and so is
                // a colon time 1:00–6:59 ("until 3:30" at 14:50 is 15:30, not passed).
                if until.clock, until.half == nil, (1...12).contains(until.hour), !until.text.hasPrefix("0"), until.text.contains(":") { until.clock = false }
                let clock = CivilZone(zone)
                // Until midnight (자정, 24:00) is the end of today. An end already passed today
                // is the next such time when that is within 12 hours, through the night ("every
                // 2 hours until 6am" said at 22:05 stops at 06:00 tomorrow: it was refused as
                // passed); "until 8am" said at 08:47 stays refused as passed.
                let ends = try until.readings().flatMap { reading in
                    [0, 1].map { extra in
                        clock.instant((reading.nextDay || reading.time.secondOfDay == 0 ? today.advanced(by: 1) : today).advanced(by: extra), reading.time)
                    }
                }.sorted()
                let passedToday = ends.contains { $0 <= now && clock.local($0).day == today }
                guard let end = ends.first(where: { $0 > now && (clock.local($0).day == today || !passedToday || $0 <= now.addingTimeInterval(12 * 3600)) }),
                      end <= now.addingTimeInterval(86_400) else { throw failure(until.text, Phrase("that time has passed")) }
                let (endDay, endSecond) = clock.local(end)
                let shown = "\(endDay) \(LocalTime(secondOfDay: endSecond)!)"
                if try until.readings().count > 1 {
                    windowNotes.append(Phrase("%1$s is read as %2$s, the next such time not yet passed", until.text, shown))
                }
                // TRANSLATORS: a step said with its end and no day (every 15 minutes until 11am): %1$s as said (11am), %2$s the last instant (2026-11-25 11:00).
                windowNotes.append(Phrase("%1$s: from now until %2$s, then it stops; say every day to repeat it", until.text, shown))
                flags = nil
                // A step whose first time is past the end would never show ("every 15 minutes
                // until 3" at 14:50 was stored, next: never).
                guard now.addingTimeInterval(TimeInterval(seconds)) <= end else {
                    throw failure(until.text, Phrase("invalid window"), Phrase("it must not end before it starts"))
                }
                let stops = Schedule.restricted(.interval(seconds: seconds, anchor: now, days: Schedule.everyDay), Schedule.Restriction(until: end))
                return PhraseReading(schedule: stops, notes: windowNotes, flags: nil)
            case (nil, let until?):
                // With a day said (every weekday, 매일): from the day's start (00:00), to a time.
                let end = try only(until)
                // Until midnight, 24:00: to the day's end.
                let last = end.time.secondOfDay == 0 ? LocalTime(hour: 23, minute: 59, second: 59)! : end.time
                guard !end.nextDay || end.time.secondOfDay == 0, last.secondOfDay > 0, let window = DayWindow(start: LocalTime(hour: 0, minute: 0)!, end: last) else {
                    throw failure(until.text, Phrase("invalid window"), Phrase("it must not end before it starts"))
                }
                // TRANSLATORS: a window said with its end only: %1$s as said (until 5pm), %2$s its end (17:00).
                windowNotes.append(Phrase("%1$s: from the start of the day (00:00) to %2$s", until.text, window.end.description))
                base = .daily(times: window.times(every: seconds), days: weekdays)
                flags = "--every \(Schedule.flagDuration(seconds)) --from 00:00 --until \(window.end)" + Schedule.daysFlag(weekdays)
            }
        } else {
            if windowStart != nil || windowEnd != nil {
                throw failure((windowStart ?? windowEnd)!.text, Phrase("a window needs a step"), Phrase("say every 30 minutes from 9:30 to 21:30"))
            }
            guard !saidTimes.isEmpty else {
                throw failure(dayTexts.first ?? step?.text ?? "", Phrase("no time of day given"), Phrase("say at what time: every day at 9am, 매일 오전 9시"))
            }
            var locals: [LocalTime] = []
            var shifts = Set<Bool>()
            for var time in saidTimes {
                // A bare hour in a repeat is the waking day's, as in a one-shot (issue 54:
                // every day at 8, 매일 네 시, 평일 8시 반 were refused here and read there), said
                // under the echo with the other reading offered. So does a colon time 1:00–6:59
                // ("every weekday at 3:15" is 15:15: 03:15 was a misread a hostile pass found,
                // and every set written without our tables means the afternoon).
                try wakingDay(&time, colon: true, notes: &windowNotes)
                let reading = try only(time)
                if reading.nextDay && !days.isEmpty && weekdays.count < 7 {
                    // 밤 12시 on a day is midnight at its end: the next day's 00:00.
                    shifts.insert(true)
                } else {
                    shifts.insert(false)
                }
                locals.append(reading.time)
                if time.half == .midnight && !days.isEmpty && weekdays.count < 7
                    || time.pastMidnight && (!days.isEmpty && weekdays.count < 7 || !monthDays.isEmpty || !places.isEmpty) {
                    throw ScheduleError(time.text, Phrase("ambiguous time"),
                                        detail: Phrase("midnight at the start of the day or at its end?"),
                                        accepted: Phrase("say 0:00 or 24:00, or 밤 12시 for the end of the day"))
                }
            }
            if shifts.contains(true) {
                guard shifts.count == 1 else { throw failure(saidTimes[0].text, Phrase("times on two days at once")) }
                weekdays = Set(weekdays.map { Weekday(rawValue: ($0.rawValue + 1) % 7)! })
            }
            base = .daily(times: Array(Set(locals)).sorted(), days: weekdays)
        }

        var restriction = Schedule.Restriction()
        // Every Nth day, week or month: counted from the first day the rest of the schedule
        // fires on, so it is laid once the days of the month and places are known.
        var every: (unit: Schedule.Period.Unit, count: Int, said: String)?
        if let (count, unit, said) = step {
            let periodUnit: Schedule.Period.Unit
            switch unit {
            case .seconds: periodUnit = .day
            case .day: periodUnit = .day
            case .week: periodUnit = .week
            case .month: periodUnit = .month
            }
            if case .seconds = unit {} else {
                guard count >= 1 else { throw failure(said, Phrase("invalid duration")) }
                if periodUnit == .week, count > 1, days.isEmpty, !everyDaySaid {
                    throw failure(said, Phrase("which day of the week?"), Phrase("say e.g. 격주 금요일 오후 5시, every other friday at 5pm"))
                }
                if count > 1 { every = (periodUnit, count, said) }
            }
        }
        if let period {
            let unit = period.unit
            guard every == nil else { throw failure("", Phrase("more than one step")) }
            // 격주 오전 9시, every other week at 9am: on which day of the week?
            if unit == .week, days.isEmpty, !everyDaySaid { throw failure(dayTexts.first ?? periodText ?? step?.text ?? "", Phrase("which day of the week?"), Phrase("say e.g. 격주 금요일 오후 5시, every other friday at 5pm")) }
            every = (unit, period.every, "")
        }
        // "weekly at 4pm", 매주 오후 4시 (it was every day): on which day of the week?
        if let said = weekSaid, days.isEmpty, !everyDaySaid, every == nil || every?.unit == .week {
            throw failure(said, Phrase("which day of the week?"), Phrase("say e.g. every monday at 9am, 매주 월요일 오전 9시"))
        }
        // "monthly at 9am", "every 3 months at 9am", 매달 오전 9시, quarterly (every day of
        // those months, before): on which day of the month?
        // Every day of such months said ("daily at 15:00, every 3 months", as list says one,
        // and a step of time in them) stays as said.
        var stepOfTime = false
        if case .seconds? = step?.unit { stepOfTime = true }
        if monthly || every?.unit == .month, monthDays.isEmpty, places.isEmpty, days.isEmpty, date == nil, lastDaySaid == nil,
           !everyDaySaid, !stepOfTime, case .daily(let times, _) = base, let first = times.first {
            // On the day of its first showing (today's, when its time has not passed), as the
            // sets written without our tables meant "every 3 months at 10am", 석 달마다 오전 10시,
            // and as Todoist counts "every month"; said under the echo.
            let day = CivilZone(zone).instant(today, first) > now ? today : today.advanced(by: 1)
            monthDays = [day.components.day]
            let said = monthSaid ?? periodText ?? step?.text ?? ""
            // TRANSLATORS: every month or every N months said without a day: %1$s as said (every 3 months), %2$d the day of the month taken, %3$s its first date.
            windowNotes.append(Phrase("%1$s is read as on day %2$d of the month, from %3$s; say the day for another", said, day.components.day, day.description))
        }
        if monthly || every?.unit == .month, monthDays.isEmpty, places.isEmpty, days.isEmpty, date == nil, lastDaySaid == nil,
           !everyDaySaid, !stepOfTime {
            throw failure(monthSaid ?? periodText ?? step?.text ?? dayTexts.first ?? "", Phrase("which day of the month?"),
                          Phrase("say e.g. every month on the 1st at 9am, 매달 1일 오전 9시"))
        }
        for (place, said) in places {
            guard let found = Schedule.Place(place, days.count == 1 ? days.first! : .monday), days.count == 1 else {
                throw failure(said, Phrase("invalid day of the month"))
            }
            restriction.places.append(found)
        }
        if !monthDays.isEmpty {
            // Days of the month by number are cron's; from its end, a restriction's.
            if monthDays.allSatisfy({ $0 > 0 }), days.isEmpty, case .daily(let times, _) = base, restriction.isEmpty, every == nil {
                let hours = Set(times.map(\.hour)), minutes = Set(times.map(\.minute))
                if hours.count * minutes.count == times.count, times.allSatisfy({ $0.second == 0 }) {
                    func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
                    let expression = "\(list(minutes.sorted())) \(list(hours.sorted())) \(list(Array(Set(monthDays)).sorted())) * *"
                    // 매월 31일 has no showing in a month of 30 days: said.
                    let short = monthDays.filter { $0 >= 29 }.map {
                        // TRANSLATORS: a day of every month that some months lack: %1$d the day (31).
                        Phrase("day %1$d is skipped in months without it; for the last day of each month say 말일 or the last day of the month", $0)
                    }
                    return PhraseReading(schedule: .cron(try CronExpression(expression)), notes: windowNotes + short, flags: nil)
                }
            }
            // 월 30일: Mondays that are the 30th is no reminder anybody means (found by the
            // phrase fuzz target; its summary did not read back): one or the other.
            if !days.isEmpty {
                throw failure(monthDays.first.map { $0 > 0 ? "\($0)" : "last day" } ?? "", Phrase("a weekday and a day of the month together"),
                              Phrase("say one of them: every Monday at 9am, 매월 30일 오전 9시"))
            }
            restriction.monthDays = Array(Set(monthDays)).sorted()
        }
        if let every {
            let first = restriction.isEmpty ? base : .restricted(base, restriction)
            restriction.period = try makePeriod(every.unit, every.count, said: every.said, base: first, now: now, zone: zone)
            if every.unit == .month {
                // Which months, said: the phase is the coming such day's, not the day it was set up.
                let months = Schedule.restricted(base, restriction).occurrences(after: now, count: 4, in: zone).map {
                    Phrase(Schedule.monthNames[CivilZone(zone).local($0).day.components.month - 1])
                }
                var list = Phrase.verbatim("")
                for (k, month) in months.enumerated() { list = k == 0 ? month : Phrase("%1$s, %2$s", list, month) }
                // TRANSLATORS: a schedule every few months: %1$s as said (every 3 months), %2$s the months it falls in (Apr, Jul, Oct, Jan).
                windowNotes.append(Phrase("%1$s falls in %2$s", every.said.isEmpty ? (periodText ?? "") : every.said, list))
            }
        }
        if restriction.narrowsDays && base.isInterval {
            throw failure(step?.text ?? "", Phrase("steps of time do not go with every other day or days of the month"),
                          Phrase("say from when to when: every 2 hours from 9 to 18"))
        }
        // The window's flags say the base alone: a restriction (every other week, days of the
        // month) is no flag's, so none are echoed (they were, and made another schedule).
        if !restriction.isEmpty { flags = nil }
        return PhraseReading(schedule: restriction.isEmpty ? base : .restricted(base, restriction), notes: windowNotes, flags: nil)
    }

    /// A step that stops at a date and time, as list says it ("every 15 min, until Wed
    /// 2026-11-25 11:00", 15분마다, 2026년 11월 25일 (수) 오전 11:00까지): counted from now,
    /// as "every 15 minutes until 11am" said today is; nil when the words say no such end.
    mutating func stepUntilDated(_ saidTimes: [SaidTime], now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading? {
        guard let (seconds, unit, said) = step, case .seconds = unit, windowStart == nil, minuteMark == nil,
              untilDated != nil || (date != nil && windowEnd != nil && saidTimes.isEmpty) else { return nil }
        let token = untilDated ?? date?.text ?? said
        do { try Limits.check(.every, seconds: seconds) } catch { throw failure(said, Phrase("invalid step")) }
        guard dayOffset == nil, places.isEmpty, monthDays.isEmpty, period == nil, !everyDaySaid, !monthly, weekend == nil else {
            throw failure(token, Phrase("invalid schedule"))
        }
        let clock = CivilZone(zone)
        let end: Date
        if let (whole, _) = instant, date == nil, saidTimes.isEmpty, windowEnd == nil, days.count <= 1 {
            end = whole
        } else if let date, let time = windowEnd ?? (saidTimes.count == 1 ? saidTimes[0] : nil), windowEnd == nil || saidTimes.isEmpty {
            let today = clock.local(now).day
            guard let day = CivilDay(year: date.year ?? today.components.year, month: date.month, day: date.day) else { throw failure(date.text, Phrase("invalid date")) }
            guard days.isEmpty || days == [day.weekday] else {
                throw failure(date.text, Phrase("the date and the weekday disagree"), Phrase("%1$s is a %2$s", day.description, Phrase(day.weekday.shortName)))
            }
            let reading = try only(time)
            end = clock.instant(reading.nextDay ? day.advanced(by: 1) : day, reading.time)
        } else {
            throw failure(token, Phrase("invalid schedule"))
        }
        guard end > now else { throw failure(token, Phrase("that time has passed")) }
        let stops = Schedule.restricted(.interval(seconds: seconds, anchor: now, days: Schedule.everyDay), Schedule.Restriction(until: end))
        return PhraseReading(schedule: stops, notes: [], flags: nil)
    }

    /// A step that goes on for a while from now ("every 10 minutes for the next hour", 앞으로
    /// 1시간 동안 10분마다): counted from now, it stops at now and the length (days and weeks
    /// on the calendar: the same time of day, across a clock change too); nil when no length
    /// was said. A length is said alone with its step: no day, time or window beside it.
    mutating func stepLasting(_ saidTimes: [SaidTime], now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading? {
        guard let lasting else { return nil }
        guard let (seconds, unit, said) = step, case .seconds = unit else {
            // TRANSLATORS: a length of time (for 2 hours, 1시간 동안) said without how often.
            throw failure(lasting.text, Phrase("a length of time needs a step"), Phrase("say how often: every 10 minutes for the next hour"))
        }
        do { try Limits.check(.every, seconds: seconds) } catch {
            throw ScheduleError(said, Phrase("invalid step"), detail: Phrase("it must be %s", Limits.Quantity.every.rangePhrase), accepted: SchedulePhrase.forms)
        }
        guard saidTimes.isEmpty, windowStart == nil, windowEnd == nil, untilDated == nil, minuteMark == nil, days.isEmpty, !everyDaySaid,
              weekend == nil, period == nil, monthDays.isEmpty, places.isEmpty, !monthly, date == nil, instant == nil, dayOffset == nil,
              relative == nil, nextDay == nil, laterDay == nil else {
            // TRANSLATORS: a length of time (for the next hour) said beside days, times or a window.
            throw failure(lasting.text, Phrase("a length of time goes with a step alone"), Phrase("say it from now: every 10 minutes for the next hour"))
        }
        let clock = CivilZone(zone)
        let end: Date
        if case .seconds = lasting.unit {
            end = now.addingTimeInterval(TimeInterval(lasting.count))
        } else {
            let (day, second) = clock.local(now)
            end = clock.instant(day.advanced(by: lasting.count * (lasting.unit.isWeek ? 7 : 1)), LocalTime(secondOfDay: second) ?? LocalTime(hour: 0, minute: 0)!)
        }
        guard end.timeIntervalSince(now) >= TimeInterval(seconds) else {
            // TRANSLATORS: every 2 hours for the next hour: no showing would come.
            throw failure(lasting.text, Phrase("it ends before the first showing"), Phrase("say a shorter step or a longer time"))
        }
        let (endDay, endSecond) = clock.local(end)
        let shown = "\(endDay) \(LocalTime(secondOfDay: endSecond) ?? LocalTime(hour: 0, minute: 0)!)"
        // TRANSLATORS: a step said with how long it goes on (every 10 minutes for the next hour): %1$s as said, %2$s the last instant (2026-11-25 09:47).
        let note = Phrase("%1$s: from now until %2$s, then it stops", lasting.text, shown)
        let stops = Schedule.restricted(.interval(seconds: seconds, anchor: now, days: Schedule.everyDay), Schedule.Restriction(until: end))
        return PhraseReading(schedule: stops, notes: [note], flags: nil)
    }

    /// Every Nth day, week or month from the one the schedule first fires in.
    func makePeriod(_ unit: Schedule.Period.Unit, _ every: Int, said: String, base: Schedule, now: Date, zone: TimeZone) throws(ScheduleError) -> Schedule.Period {
        let first = base.occurrences(after: now, count: 1, in: zone).first.map { CivilZone(zone).local($0).day } ?? CivilZone(zone).local(now).day
        guard let period = Schedule.Period(unit: unit, every: every, anchor: first) else { throw failure(said, Phrase("invalid duration")) }
        return period
    }

    /// The times of a window through midnight, stepped by `seconds` from its start: only where
    /// no window within the day is read and each end has one reading (22:00 and 02:00, not 10
    /// and 2); `nil` otherwise.
    func overnight(_ from: SaidTime, _ until: SaidTime, every seconds: Int) throws(ScheduleError) -> (start: LocalTime, end: LocalTime, times: [LocalTime])? {
        let (starts, ends) = (try from.readings(), try until.readings())
        guard starts.count == 1, ends.count == 1, !starts[0].nextDay, !ends[0].nextDay || ends[0].time.secondOfDay == 0 else { return nil }
        let (said, end) = (starts[0].time, ends[0].time)
        // Through one night: from the afternoon or evening to the next morning ("from 6pm to
        // 4pm" is no night's window, and 22 hours of steps read back as no phrase).
        guard end < said, said.hour >= 12, end.hour < 12 else { return nil }
        var times: [LocalTime] = []
        var second = said.secondOfDay
        while second <= 86_400 + end.secondOfDay {
            times.append(LocalTime(secondOfDay: second % 86_400)!)
            second += seconds
        }
        // One list of times, as the summary says it back: 60 at most (every 15 minutes for 15 hours).
        guard times.count <= 60 else {
            // TRANSLATORS: a window through midnight with too many steps (every minute from 10pm to 6am); %d is the most times.
            throw failure("\(from.text) – \(until.text)", Phrase("invalid window"), Phrase("a window through midnight holds at most %d times: say a longer step", 60))
        }
        return (said, end, Array(Set(times)).sorted())
    }

    func windowTimes(_ from: SaidTime, _ until: SaidTime) throws(ScheduleError) -> DayWindow {
        // Of the readings, those that make a window: "from 9 to 18" is 09:00–18:00 only.
        let starts = try from.readings().filter { !$0.nextDay }.map(\.time)
        let ends = try until.readings().map { $0.nextDay && $0.time.secondOfDay == 0 ? LocalTime(hour: 23, minute: 59, second: 59)! : $0.time }
        var windows: [DayWindow] = []
        for s in starts { for e in ends { if let w = DayWindow(start: s, end: e), s < e { windows.append(w) } } }
        guard let window = windows.first else {
            throw failure("\(from.text) – \(until.text)", Phrase("invalid window"), Phrase("it must not end before it starts"))
        }
        // "between 3 and 4pm": the start takes the end's half of the day; "오전 9시부터 10시까지":
        // the end takes the start's.
        // So does a part of the day (새벽 1시부터 3시까지 is 01:00–03:00).
        let halving: Set<SaidTime.Half> = [.am, .pm, .dawn, .morning, .afternoon, .evening]
        if windows.count > 1, (from.half == nil && until.half.map(halving.contains) == true)
            || (until.half == nil && from.half.map(halving.contains) == true) {
            let same = windows.filter { ($0.start.hour < 12) == ($0.end.hour < 12) }
            if same.count == 1 { return same[0] }
        }
        // Bare hours 12 and 1–6 at both ends ("every 15 minutes from 1 to 2", 12시부터 1시까지):
        // the waking day's, noon and afternoon, as a bare hour on a named day is (1 to 2 in the
        // night is no one's window); said by the caller. Windows with an hour 7–11 stay refused: both halves
        // are waking hours.
        if windows.count > 1, from.half == nil, until.half == nil, !from.clock, !until.clock,
           [from.hour, until.hour].allSatisfy({ $0 == 12 || (1...6).contains($0) }) {
            let afternoon = windows.filter { (12..<19).contains($0.start.hour) && (12..<19).contains($0.end.hour) }
            if afternoon.count == 1 { return afternoon[0] }
        }
        guard windows.count == 1 else {
            let readings = windows.map { "\($0.start)–\($0.end)" }.joined(separator: ", ")
            throw ScheduleError("\(from.text) – \(until.text)", Phrase("ambiguous window"),
                                // TRANSLATORS: %s lists the windows a phrase could mean (09:00–11:00, 09:00–23:00).
                                detail: Phrase("it could be %s", readings),
                                accepted: Phrase("say am or pm, 오전 or 오후, or write it on a 24-hour clock (21:00)"))
        }
        return window
    }

    mutating func oneShot(_ saidTimes: [SaidTime], today: CivilDay, now: Date, clock: CivilZone, notes: inout [Phrase]) throws(ScheduleError) -> PhraseReading {
        if windowStart != nil || windowEnd != nil {
            throw failure((windowStart ?? windowEnd)!.text, Phrase("a window needs a step"), Phrase("say every 30 minutes from 9:30 to 21:30"))
        }
        if let (instant, said) = instant {
            guard saidTimes.isEmpty, date == nil, dayOffset == nil, days.isEmpty else { throw failure(said, Phrase("more than one date")) }
            guard instant > now else { throw failure(said, Phrase("that time has passed")) }
            return PhraseReading(schedule: .once(instant), notes: [], flags: nil)
        }
        guard saidTimes.count <= 1 else { throw failure(saidTimes[1].text, Phrase("more than one time for once")) }
        guard var said = saidTimes.first else {
            let token = date?.text ?? dayOffset?.1 ?? weekend ?? dayTexts.first ?? ""
            throw failure(token, token.isEmpty ? Phrase("no schedule given") : Phrase("no time of day given"),
                          Phrase("say at what time: tomorrow 9am, 내일 오전 9시"))
        }
        // A bare hour on a named day is the waking day's (7–11 morning, 12 noon, 1–6
        // afternoon), as people mean it and as korean-datetime's gold reads it (Duckling's
        // Korean rules take 03:00 for 내일 3시); the choice is said. Without a day, the next
        // such time not yet passed.
        let named = date != nil || !days.isEmpty || weekend != nil || (dayOffset?.0 ?? 0) > 0
        if named { try wakingDay(&said, colon: true, notes: &notes) }
        // Without a day, a colon time 1:00–12:59 written without a leading zero is read as
        // a bare hour is: the next such time not yet passed, the other said and offered.
        // The sets of everyday phrasings written without our tables meant "at 4:45" said at
        // 08:05 as 16:45 today, "at 3:30" at 14:20 as 15:30 (issue 54), and "at 9:30" at
        // 20:50, "at 10:50" at 22:40 as the evening's, where the 24-hour clock took the next
        // morning (sessions 17–22). 0:MM, 05:15 and 13:MM–23:MM stay on the 24-hour clock.
        // Only a time written with a colon: "9h15" is the 24-hour clock's way of writing it,
        // and a part of the day's own hour (점심 is 12:00) is no time said.
        if !named, said.half == nil, said.clock, (1...12).contains(said.hour), !said.text.hasPrefix("0"), said.text.contains(":") {
            said.clock = false
        }
        // The days it may fall on, first to last.
        var day: CivilDay?
        var dayNamed = false
        if let weekend {
            // This weekend: its Saturday, or its Sunday when Saturday's time has passed (or
            // Sunday is said). Once, never every weekend.
            let saturday = (today.weekday == .sunday ? today.advanced(by: -1) : Self.coming(.saturday, after: today)).advanced(by: 7 * (week ?? 0))
            var weekendDays = [saturday, saturday.advanced(by: 1)].filter { $0 >= today }
            if !self.days.isEmpty {
                weekendDays = weekendDays.filter { self.days.contains($0.weekday) }
                guard self.days.isSubset(of: [.saturday, .sunday]), !weekendDays.isEmpty else { throw failure(weekend, Phrase("the day and the weekday disagree")) }
            }
            var found: CivilDay?
            for choice in weekendDays where try latest(said, on: choice, clock: clock) > now { found = choice; break }
            guard let found else { throw failure(weekend, Phrase("that time has passed")) }
            day = found
            dayNamed = true
        } else if let date {
            // No year: this year's unless it has passed (Feb 29 waits for a leap year).
            // With a weekday ("Wed, Dec 1", as list writes a date a year ahead without its
            // year): of that and the next, the one it falls on.
            var candidates: [CivilDay] = []
            if let year = date.year {
                candidates = CivilDay(year: year, month: date.month, day: date.day).map { [$0] } ?? []
            } else {
                var year = today.components.year
                while candidates.count < 2, year <= today.components.year + 9 {
                    if let day = CivilDay(year: year, month: date.month, day: date.day), try latest(said, on: day, clock: clock) > now { candidates.append(day) }
                    year += 1
                }
            }
            let weekday = days.count == 1 ? days.first : nil
            guard var found = candidates.first else { throw failure(date.text, Phrase("invalid date")) }
            if let weekday, let match = candidates.first(where: { $0.weekday == weekday }) { found = match }
            if date.year == nil, found.components.year != today.components.year {
                // TRANSLATORS: a date said without its year: %1$s as said (dec 1), %2$s the date taken (2027-12-01).
                notes.append(Phrase("%1$s is read as %2$s, the next such date", date.text, found.description))
            }
            if let weekday = days.first {
                guard days.count == 1, found.weekday == weekday else {
                    // TRANSLATORS: a date said with a weekday that is not its own: %1$s is the date, %2$s its weekday.
                    throw failure(date.text, Phrase("the date and the weekday disagree"), Phrase("%1$s is a %2$s", found.description, Phrase(found.weekday.shortName)))
                }
            }
            if let offset = dayOffset, today.advanced(by: offset.0) != found {
                throw failure("\(offset.1) \(date.text)", Phrase("the day and the date disagree"))
            }
            day = found
            dayNamed = true
        } else if let weekday = days.first {
            guard days.count == 1 else { throw failure(dayTexts.joined(separator: " "), Phrase("invalid schedule")) }
            if let next = nextDay {
                // "next friday", 다음 금요일: the first such day after today (said on a Friday,
                // a week later), as Todoist and Google read it, and said under the echo.
                guard week == nil, dayOffset == nil, !thisDay, laterDay == nil else { throw failure(next, Phrase("invalid schedule")) }
                let found = Self.firstAfter(weekday, today: today)
                day = found
                let format = { (d: CivilDay) in Phrase("%1$s (%2$s)", d.description, Phrase(d.weekday.shortName)) }
                // TRANSLATORS: "next friday": %1$s as said, %2$s the date taken (the first such day after today), %3$s the one a week after.
                notes.append(Phrase("%1$s is read as %2$s, the first after today; say the date for %3$s", next, format(found), format(found.advanced(by: 7))))
            } else if let later = laterDay {
                guard week == nil, dayOffset == nil, !thisDay else { throw failure(later.text, Phrase("invalid schedule")) }
                let found = try Self.later(weekday, later, today: today)
                day = found
                // TRANSLATORS: a weekday a week after the coming one: %1$s as said (monday after next), %2$s the date taken.
                notes.append(Phrase("%1$s is read as %2$s", later.text, Phrase("%1$s (%2$s)", found.description, Phrase(found.weekday.shortName))))
            } else if let week {
                // This week's or next week's, weeks starting on Monday.
                let monday = today.advanced(by: -((today.weekday.rawValue + 6) % 7))
                day = monday.advanced(by: 7 * week + (weekday.rawValue + 6) % 7)
            } else {
                day = Self.coming(weekday, after: today)
                if let offset = dayOffset?.0 {
                    // "today wednesday", "tomorrow friday": that day, which must be the weekday.
                    guard today.advanced(by: offset) == day || (offset > 0 && today.advanced(by: offset).weekday == weekday) else {
                        throw failure(dayTexts.first ?? "", Phrase("the day and the weekday disagree"))
                    }
                    day = today.advanced(by: offset)
                } else if day == today {
                    // A weekday named on that very day ("monday at 9am", "this monday" said on
                    // a Monday, 월요일 오전 9시, 이번 월요일): next week's, as "next monday" is,
                    // and as every set written without our tables meant; today is said "today".
                    // Said under the echo. 이번 주 월요일 is this week's (see `week` above).
                    let found = today.advanced(by: 7)
                    day = found
                    // TRANSLATORS: a weekday said on that very day: %1$s as said (monday), %2$s the date taken (a week from today).
                    notes.append(Phrase("%1$s is read as %2$s, a week from today; say today for today's", dayTexts.first ?? "",
                                        Phrase("%1$s (%2$s)", found.description, Phrase(found.weekday.shortName))))
                }
            }
            dayNamed = true
        } else if let offset = dayOffset {
            let offsetDay = today.advanced(by: offset.0)
            day = offsetDay
            dayNamed = true
            // "tomorrow" said after midnight, before 4: the calendar's, said, with today's
            // offered (a person up late may mean the day they wake to).
            if offset.0 == 1, clock.local(now).second < 4 * 3600 {
                // TRANSLATORS: "tomorrow" said between midnight and 4am: %1$s as said (tomorrow, 내일), %2$s the day taken, %3$s today.
                notes.append(Phrase("%1$s is read as %2$s; it is past midnight: say today for %3$s", offset.1,
                                    Phrase("%1$s (%2$s)", offsetDay.description, Phrase(offsetDay.weekday.shortName)),
                                    Phrase("%1$s (%2$s)", today.description, Phrase(today.weekday.shortName))))
            }
        } else if week != nil {
            throw failure(dayTexts.first ?? "week", Phrase("which day of the week?"))
        }
        let readings = try said.readings()
        let midnight = said.half == .midnight || said.pastMidnight
        if midnight, dayNamed, let offset = dayOffset, offset.0 == 0, date == nil, weekend == nil, days.isEmpty {
            // "tonight at midnight", "midnight tonight", 오늘 자정: today's start has passed
            // whenever it is said; the midnight at its end (and minutes after it).
            let end = today.advanced(by: 1), time = LocalTime(hour: said.pastMidnight ? said.hour : 0, minute: said.minute, second: 0)!
            // TRANSLATORS: midnight said with today or tonight: %1$s as said (midnight), %2$s the instant taken (2026-12-01 00:00).
            notes.append(Phrase("%1$s is read as %2$s, the end of today", said.text, "\(end) \(time)"))
            return PhraseReading(schedule: .once(clock.instant(end, time)), notes: notes, flags: nil)
        }
        if midnight, dayNamed {
            throw ScheduleError(said.text, Phrase("ambiguous time"), detail: Phrase("midnight at the start of the day or at its end?"),
                                accepted: Phrase("say 0:00 or 24:00, or 밤 12시 for the end of the day"))
        }
        if readings.count > 1 && said.hour == 12 && said.half == nil {
            // A bare 12 said before today's noon (with today or no day) is noon, the next
            // and a waking hour: "at 12", 오늘 12시 반 at 07:10 (two sets written without our
            // tables meant noon), midnight offered. After noon, midnight or the next noon: asked.
            let noon = readings.first { $0.time.hour == 12 }
            guard day == nil || day == today, let noon, clock.instant(today, noon.time) > now else {
                throw ambiguous(said, readings.map(\.time))
            }
            let other = readings.first { $0.time.hour != 12 }?.time ?? LocalTime(hour: 0, minute: said.minute, second: 0)!
            // TRANSLATORS: a bare 12 said before noon: %1$s as said (12, 12시 반), %2$s the time taken (12:30), %3$s how to say the other (midnight, 밤 12시 반), %4$s that other time (00:30).
            notes.append(Phrase("%1$s is read as %2$s, today's noon; say %3$s for %4$s", said.text, noon.time.description,
                                Self.spoken(other, said), other.description))
            choices.append(PhraseReading.Choice(said: said.text, other: Self.spoken(other, said)))
            return PhraseReading(schedule: .once(clock.instant(today, noon.time)), notes: notes, flags: nil)
        }
        // The instants it may mean, in order; the first not yet passed is taken.
        var candidates: [(instant: Date, day: CivilDay, time: LocalTime)] = []
        let days = day.map { [$0] } ?? [today, today.advanced(by: 1)]
        for d in days {
            for reading in readings {
                let on = reading.nextDay ? d.advanced(by: 1) : d
                candidates.append((clock.instant(on, reading.time), on, reading.time))
            }
        }
        candidates.sort { $0.instant < $1.instant }
        guard let taken = candidates.first(where: { $0.instant > now }) else {
            throw failure([date?.text, dayOffset?.1, said.text].compactMap { $0 }.joined(separator: " "), Phrase("that time has passed"))
        }
        let chosen = taken.instant
        // A time the clocks skip that day fires when the gap ends, as --on does: said.
        if clock.local(chosen) != (taken.day, taken.time.secondOfDay) {
            let local = clock.local(chosen)
            // TRANSLATORS: a one-shot at a time the clocks skip (DST): %1$s the time as said, %2$s the date, %3$s the time taken.
            notes.append(Phrase("%1$s does not happen on %2$s (the clocks go forward): %3$s", said.text, taken.day.description,
                                LocalTime(secondOfDay: local.second)!.description))
        }
        if readings.count > 1 {
            let local = clock.local(chosen)
            let shown = "\(local.day) \(LocalTime(secondOfDay: local.second)!)"
            // TRANSLATORS: a one-shot said with a bare hour: %1$s is the hour as said, %2$s the date and time taken.
            notes.append(Phrase("%1$s is read as %2$s, the next such time not yet passed", said.text, shown))
            if let other = readings.map(\.time).first(where: { $0 != taken.time }) {
                choices.append(PhraseReading.Choice(said: said.text, other: Self.spoken(other, said)))
            }
        }
        return PhraseReading(schedule: .once(chosen), notes: notes, flags: nil)
    }

    /// The last instant a time may mean on a day (to know whether the day has passed).
    func latest(_ said: SaidTime, on day: CivilDay, clock: CivilZone) throws(ScheduleError) -> Date {
        try said.readings().map { clock.instant($0.nextDay ? day.advanced(by: 1) : day, $0.time) }.max()!
    }
}
