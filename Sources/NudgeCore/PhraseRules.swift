/// One rule of the reader (stage two, ``PhraseReader``): the words it can start at, and
/// what the words from there say (the pieces it sets, the words it takes). At each word the
/// reader tries the rules of ``PhraseReader/rules`` in order; a family of phrasings is a
/// row, or a few. docs/phrases.md's table of rules is this table (`PhraseRulesTests` checks
/// that it is, and that each row reads its examples).
struct PhraseRule: Sendable {
    /// What a rule made of the word at the cursor.
    enum Outcome {
        /// Read: the cursor is past its words.
        case read
        /// Not this rule's: the next is tried.
        case notHere
        /// This rule's word, said in a way nobody reads: the word is left over (and named).
        case refused
    }

    /// Its name in docs/phrases.md.
    let name: String
    /// The keys (``PhraseWord/key``) of the words it starts at; empty: any word (a number, a
    /// mark, a date).
    let starts: Set<String>
    /// Whole phrases it reads, in both languages where both say it: the docs' examples, and
    /// the test that each is read whole with this rule.
    let examples: [String]
    /// The kinds of piece it makes (``PhrasePiece``), all of them: what a family adds to
    /// the pieces stage three reads (`PhraseRulesTests` checks that its examples make these
    /// and no others).
    let makes: Set<PhrasePiece.Kind>
    let read: @Sendable (inout PhraseReader) throws(ScheduleError) -> Outcome

    init(_ name: String, at starts: Set<String> = [], _ examples: [String], makes: Set<PhrasePiece.Kind>,
         _ read: @escaping @Sendable (inout PhraseReader) throws(ScheduleError) -> Outcome) {
        (self.name, self.starts, self.examples, self.makes, self.read) = (name, starts, examples, makes, read)
    }

    func startsAt(_ key: String?) -> Bool { starts.isEmpty || key.map(starts.contains) == true }
}

extension PhraseRule.Outcome {
    /// A reading function's answer: read, or not this rule's.
    static func tried(_ read: Bool) -> Self { read ? .read : .notHere }
    /// A word only this rule reads: read, or left over.
    static func final(_ read: Bool) -> Self { read ? .read : .refused }
}

extension PhraseReader {
    /// Past `n` words: read.
    mutating func took(_ n: Int) -> PhraseRule.Outcome {
        i += n
        return .read
    }

    static let weekdaySet: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    static let weekendSet: Set<Weekday> = [.saturday, .sunday]

    /// The rules that can start at a word with `key`, in the table's order: looked up once
    /// a word, not tried one by one (the table has some fifty rows).
    static func rules(at key: String?) -> [PhraseRule] {
        key.flatMap { rulesByKey[$0] } ?? rulesAtAnyWord
    }

    static let rulesAtAnyWord = rules.filter { $0.starts.isEmpty }
    static let rulesByKey: [String: [PhraseRule]] = {
        let keys = Set(rules.flatMap(\.starts))
        return Dictionary(uniqueKeysWithValues: keys.map { key in (key, rules.filter { $0.startsAt(key) }) })
    }()

    /// The reader's rules, in the order they are tried at each word. The first ones look at
    /// any word (a time, a date, a duration: they start with numbers as often as words);
    /// then the rules of single words, by their keys.
    static let rules: [PhraseRule] = [
        // MARK: Any word

        PhraseRule("instant", ["2031-05-06T09:00:00Z"], makes: [.instant]) { r throws(ScheduleError) in
            guard case .instant(let whole) = r.words[r.i].kind else { return .notHere }
            r.put(.instant(whole, r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("how often", ["twice a day at 9am and 9pm", "3 times a day at 8, 12 and 18", "하루 두 번 오전 9시와 오후 9시"], makes: [.repeats, .everyDay, .monthly, .step, .frequency]) { r throws(ScheduleError) in
            .tried(try r.readFrequency())
        },
        PhraseRule("every year (1년마다, 4년마다)", ["1년마다 12월 25일 오전 9시", "4년마다 2월 29일 오전 9시"], makes: [.repeats, .yearly, .period]) { r throws(ScheduleError) in
            guard let n = r.number(r.i), (1...100).contains(n), r.isKey(r.i + 1, "year"), r.isKey(r.i + 2, "each") else { return .notHere }
            r.put(.repeats)
            r.put(.yearly(r.text(r.i..<r.i + 3)))
            // Every 4 years: the date every year, in every fourth counted from its first.
            if n > 1 { r.put(.period(.year, every: n, text: r.text(r.i..<r.i + 3))) }
            return r.took(3)
        },
        PhraseRule("once in each (매주 한 번)", ["매주 한 번 월요일 오전 9시"], makes: []) { r throws(ScheduleError) in
            // 매주 한 번, 매달 한 번: once in each, not a one-shot.
            guard r.number(r.i) == 1, r.isKey(r.i + 1, "times"), r.isKey(r.i - 1, "weekly", "monthly", "daily") else { return .notHere }
            return r.took(2)
        },
        PhraseRule("once (한 번)", ["내일 오전 9시 한 번"], makes: [.once]) { r throws(ScheduleError) in
            // 한 번: once, as list says a one-shot.
            guard r.number(r.i) == 1, r.isKey(r.i + 1, "times") else { return .notHere }
            r.put(.once)
            return r.took(2)
        },
        PhraseRule("how long", ["every 10 minutes for the next hour", "앞으로 1시간 동안 10분마다", "every 20 minutes for 2 hours"], makes: [.lasting]) { r throws(ScheduleError) in
            .tried(try r.readLasting())
        },
        PhraseRule("bank holiday", ["spring bank holiday at 10am", "early may bank holiday at 9"], makes: [.movable]) { r throws(ScheduleError) in
            guard let (holiday, length) = r.bankHoliday(r.i) else { return .notHere }
            try r.setMovable(holiday, length: length)
            return .read
        },
        PhraseRule("date", ["dec 25 at 9am", "2026-12-31 at 23:00", "12월 25일 오전 9시", "on the 5th at 10"], makes: [.monthly, .days, .place, .monthDay, .date, .reading]) { r throws(ScheduleError) in
            .tried(try r.readDate())
        },
        PhraseRule("same time", ["same time tomorrow", "this time next week", "내일 같은 시간"], makes: [.sameTime]) { r throws(ScheduleError) in
            // "same time tomorrow", "this time next week", "at the same time", 내일 같은 시간, 이 시간에.
            guard r.pieces.sameTime == nil, let length = r.sameTime(r.i) else { return .notHere }
            r.put(.sameTime(r.text(r.i..<r.i + length)))
            return r.took(length)
        },
        PhraseRule("time or window", ["at 9:30", "from 9 to 5 every hour", "오후 3시 반", "half past 4 tomorrow", "every 15 min, until Wed, Nov 25, 2026, 11:00 PM"], makes: [.time, .joined, .windowStart, .windowEnd, .untilDated]) { r throws(ScheduleError) in
            .tried(try r.readTimeOrWindow())
        },
        PhraseRule("minute of each hour (매시간 15분)", ["매시간 15분"], makes: [.minuteMark]) { r throws(ScheduleError) in
            // 매시간 15분: the minute of each hour, not a duration (refused before).
            guard let n = r.number(r.i), (0...59).contains(n), r.isKey(r.i + 1, "minutes"), r.pieces.minuteMark == nil, r.hourlyStep,
                  !r.isKey(r.i + 2, "each", "interval", "after", "before") else { return .notHere }
            r.put(.minuteMark(n, r.text(r.i..<r.i + 2)))
            return r.took(2)
        },
        PhraseRule("a week from a day", ["a week from tuesday at 9am", "a week on monday at 10", "a week from tomorrow at 7pm"], makes: [.days, .dayOffset, .laterDay]) { r throws(ScheduleError) in
            // "a week from tuesday", "one week from friday", British "a week on monday": a week
            // after the coming one. "a week from tomorrow" (today): seven days after it.
            let i = r.i
            if r.isKey(i, "an") || r.number(i) == 1, r.isKey(i + 1, "week"), r.word(i + 1)?.text == "week", r.isKey(i + 2, "from"),
               r.isKey(i + 3, "today", "tomorrow"), r.pieces.dayOffset == nil {
                r.put(.dayOffset(r.isKey(i + 3, "tomorrow") ? 8 : 7, r.text(i..<i + 4)))
                return r.took(4)
            }
            guard r.isKey(i, "an") || r.number(i) == 1, r.isKey(i + 1, "week"), r.word(i + 1)?.text == "week", r.isKey(i + 2, "from", "on"),
                  let (_, plural) = r.weekday(i + 3), !plural, r.pieces.laterDay == nil else { return .notHere }
            r.put(.laterDay(r.text(i..<i + 4), weekFrom: true))
            r.i += 3
            return .final(r.readWeekdays())
        },
        PhraseRule("duration", ["20 minutes from now", "2시간 후", "every 30 minutes from 9 to 17"], makes: [.repeats, .step, .period, .relative]) { r throws(ScheduleError) in
            .tried(try r.readDuration())
        },
        PhraseRule("weekdays", ["mondays at 8", "mon-fri at 9", "월수금 오전 7시"], makes: [.repeats, .days, .week, .laterDay]) { r throws(ScheduleError) in
            .tried(r.readWeekdays())
        },
        PhraseRule("marks", ["at 9, 12 and 18", "(tomorrow) at 9"], makes: [.joined]) { r throws(ScheduleError) in
            let w = r.words[r.i]
            guard w.key == nil else { return .notHere }
            if w.isMark(",") || w.isMark("&") {
                if !r.pieces.times.isEmpty { r.put(.joined) }
                return r.took(1)
            }
            return w.isMark("(") || w.isMark(")") || w.isMark("@") ? r.took(1) : .refused
        },

        // MARK: Words that repeat

        PhraseRule("every hour on the hour (매 정시)", at: ["every", "onthehour"], ["매 정시", "매 정시마다", "9시부터 5시까지 매 정시"], makes: [.minuteMark, .repeats, .step]) { r throws(ScheduleError) in
            // 매 정시, 매 정시마다, 정시마다: every hour at :00 (정시, the hour on the dot).
            var k = r.i
            // 9시 정시: nine on the dot, as 9시 정각 is.
            if r.isKey(k, "onthehour"), r.saidTimeBefore(k) { return r.took(1) }
            if r.isKey(k, "every") { k += 1 }
            guard r.isKey(k, "onthehour"), r.pieces.step == nil, r.pieces.minuteMark == nil else { return .notHere }
            let said = r.text(r.i..<k + 1)
            r.put(.repeats)
            r.put(.step(count: 3600, unit: .seconds(1), text: said))
            r.put(.minuteMark(0, said))
            return r.took(k + 1 - r.i)
        },
        PhraseRule("every", at: ["every"], ["every hour", "every day at 9", "every other week on monday at 9", "every fortnight on friday at 5pm",
                                            "every month end at 6pm", "every nov 1 at 9", "every christmas eve at 7pm", "every 3rd day at 8", "every second friday at 5pm",
                                            "every 4 years on feb 29 at 9am", "every 4th of july at 9pm"], makes: [.repeats, .other, .everyDay, .everyWeek, .everyMonth, .yearly, .step, .period, .monthDay, .reading]) { r throws(ScheduleError) in
            let start = r.i
            r.put(.repeats)
            r.i += 1
            if r.isKey(r.i, "other") { r.put(.other); r.i += 1 }
            // "every second friday", "every 3rd tuesday": every other (third, fourth) week on
            // that day, as "every second week" is; said. "every second friday of the month"
            // is the month's place (read by the place rule).
            let nth = ["second": 2, "third": 3, "fourth": 4][r.key(r.i) ?? ""] ?? (r.isKey(r.i + 1, "st") ? r.number(r.i) : nil)
            if !r.pieces.other, let n = nth, (2...4).contains(n) {
                let k = r.i + (r.isKey(r.i + 1, "st") ? 2 : 1)
                let ofMonth = r.isKey(k + 1, "of") && (r.isKey(k + 2, "month") || (r.isKey(k + 2, "the", "every") && r.isKey(k + 3, "month")))
                if let (_, plural) = r.weekday(k), !plural, !ofMonth {
                    r.put(.period(.week, every: n, text: r.text(start..<k)))
                    // TRANSLATORS: "every second friday" read as every other week: %1$s as said, %2$s the reading (every 2 weeks).
                    r.put(.reading(Phrase("%1$s is read as %2$s; add “of the month” for that day of each month", r.text(start..<k + 1),
                                          Phrase("every %d weeks", n))))
                    r.i = k
                    return .read
                }
            }
            // "every 4 years on feb 29": the date every year, in every fourth.
            if !r.pieces.other, let n = r.number(r.i), (2...100).contains(n), r.isKey(r.i + 1, "year"), r.words[r.i + 1].text != "year" {
                r.put(.yearly(r.text(start..<r.i + 2)))
                r.put(.period(.year, every: n, text: r.text(start..<r.i + 2)))
                return r.took(2)
            }
            // "every hour", "every minute": one of the unit.
            if let unit = r.stepUnit(r.key(r.i)), case .seconds(let size) = unit {
                // every hour; every other hour is every two.
                r.put(.step(count: r.pieces.other ? 2 * size : size, unit: .seconds(1), text: r.text(start..<r.i + 1)))
                r.i += 1
                // 매 시간마다.
                if r.isKey(r.i, "each") { r.i += 1 }
            } else if r.isKey(r.i, "day") {
                if !r.pieces.other { r.put(.everyDay) }
                r.i += 1
            } else if r.isKey(r.i, "week") {
                if !r.pieces.other { r.put(.everyWeek(r.text(start..<r.i + 1))) }
                r.i += 1
            } else if r.isKey(r.i, "fortnight"), !r.pieces.other {
                // every fortnight: every 2 weeks.
                r.put(.period(.week, every: 2, text: r.text(start..<r.i + 1)))
                return r.took(1)
            } else if r.isKey(r.i, "month") {
                r.put(.everyMonth(r.text(start..<r.i + 1)))
                r.i += 1
                // every month end.
                if r.isKey(r.i, "end") { r.put(.monthDay(-1, last: nil)); r.i += 1 }
            } else if r.isKey(r.i, "year") {
                r.put(.yearly(r.text(start..<r.i + 1)))
                r.i += 1
            } else if let month = r.key(r.i), PhraseWords.monthKeys.contains(month) {
                // every nov 1: a date every year.
                r.put(.yearly(r.text(start..<r.i)))
            } else if r.holiday(r.i) != nil {
                // every christmas eve, every halloween: a date every year.
                r.put(.yearly(r.text(start..<r.i)))
            } else if r.number(r.i) != nil, r.isKey(r.i + 1, "st"), r.isKey(r.i + 2, "of"), let month = r.key(r.i + 3), PhraseWords.monthKeys.contains(month) {
                // every 4th of july: a date every year.
                r.put(.yearly(r.text(start..<r.i)))
            } else if let n = r.number(r.i), r.isKey(r.i + 1, "st"), r.isKey(r.i + 2, "day", "week", "month"), (2...12).contains(n) {
                // every 2nd day, every 3rd week: every N.
                let unit: Schedule.Period.Unit = r.isKey(r.i + 2, "day") ? .day : r.isKey(r.i + 2, "week") ? .week : .month
                r.put(.period(unit, every: n, text: r.text(start..<r.i + 3)))
                if unit == .month { r.put(.monthly) }
                return r.took(3)
            } else if r.isKey(r.i, "single"), r.isKey(r.i + 1, "day") {
                r.put(.everyDay)
                r.i += 2
            }
            if r.pieces.other, r.pieces.step == nil {
                // every other day / week / month / friday.
                let unit: Schedule.Period.Unit = r.words[r.i - 1].key == "day" ? .day : r.words[r.i - 1].key == "month" ? .month : .week
                r.put(.period(unit, every: 2, text: r.text(start..<r.i)))
            }
            return .read
        },
        PhraseRule("daily", at: ["daily"], ["daily at 9", "매일 오전 9시"], makes: [.repeats, .everyDay]) { r throws(ScheduleError) in
            r.put(.repeats)
            r.put(.everyDay)
            return r.took(1)
        },
        PhraseRule("nightly", at: ["nightly"], ["nightly at 10"], makes: [.repeats]) { r throws(ScheduleError) in
            // nightly: every night, its hours the night's (nightly at 10 is 22:00).
            r.put(.repeats)
            guard r.pendingHalf == nil else { return .refused }
            r.pendingHalf = (.night, r.words[r.i].text)
            return r.took(1)
        },
        PhraseRule("yearly", at: ["yearly"], ["annually on march 3 at 9", "매년 3월 1일 오전 10시"], makes: [.repeats, .yearly]) { r throws(ScheduleError) in
            // 매년, annually: a date every year.
            r.put(.repeats)
            r.put(.yearly(r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("every other day (격일)", at: ["otherday"], ["격일 오전 9시"], makes: [.repeats, .period]) { r throws(ScheduleError) in
            r.put(.repeats)
            r.put(.period(.day, every: 2, text: r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("every 2, 3 or 6 months", at: ["othermonth", "quarterly", "halfyearly"], ["quarterly on the 1st at 9", "격월 1일 오전 9시"], makes: [.repeats, .monthly, .period]) { r throws(ScheduleError) in
            // 격월, 분기마다, quarterly, 반년마다: every 2, 3 or 6 months.
            let key = r.key(r.i)
            r.put(.repeats)
            r.put(.monthly)
            r.put(.period(.month, every: key == "othermonth" ? 2 : key == "quarterly" ? 3 : 6, text: r.words[r.i].text))
            if r.isKey(r.i + 1, "each") { r.i += 1 }
            return r.took(1)
        },
        PhraseRule("every other week", at: ["fortnightly", "biweekly", "otherweek"], ["fortnightly on friday at 5pm", "biweekly on monday at 9", "격주 월요일 오전 9시"], makes: [.repeats, .period, .reading]) { r throws(ScheduleError) in
            // Every other week; biweekly (which some mean as twice a week) is said.
            let w = r.words[r.i]
            r.put(.repeats)
            r.put(.period(.week, every: 2, text: w.text))
            if w.key == "biweekly" { r.put(.reading(Phrase("%1$s is read as %2$s", w.text, Phrase("every 2 weeks")))) }
            return r.took(1)
        },
        PhraseRule("weekly, monthly", at: ["weekly", "monthly"], ["weekly on monday at 9", "monthly on the 1st at 9"], makes: [.repeats, .everyWeek, .everyMonth]) { r throws(ScheduleError) in
            r.put(.repeats)
            if r.key(r.i) == "monthly" {
                r.put(.everyMonth(r.words[r.i].text))
            } else {
                r.put(.everyWeek(r.words[r.i].text))
            }
            return r.took(1)
        },
        PhraseRule("hourly", at: ["hourly"], ["hourly from 9 to 5"], makes: [.repeats, .step]) { r throws(ScheduleError) in
            r.put(.repeats)
            r.put(.step(count: 3600, unit: .seconds(1), text: r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("business days", at: ["business"], ["every business day at 9"], makes: [.days]) { r throws(ScheduleError) in
            // every business day: Monday to Friday.
            guard r.isKey(r.i + 1, "day") else { return .notHere }
            r.put(.days(weekdaySet, text: r.text(r.i..<r.i + 2), many: true, named: false))
            return r.took(2)
        },

        // MARK: Days of the month

        PhraseRule("the month's first day (첫날)", at: ["firstday"], ["매월 첫날 오전 9시"], makes: [.monthDay]) { r throws(ScheduleError) in
            r.put(.monthDay(1, last: nil))
            return r.took(1)
        },
        PhraseRule("the month's last day (월말, 말일)", at: ["monthend", "lastday"], ["월말 오후 6시", "매월 말일 오전 9시", "eom at 5pm"], makes: [.monthDay]) { r throws(ScheduleError) in
            // 월말, eom, 말일: the month's last day; of this month unless every month is said.
            r.put(.monthDay(-1, last: r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("end or beginning of the month", at: ["end", "beginning"], ["end of the month at 5pm", "end of every month at 9", "beginning of next month at 9"], makes: [.repeats, .monthly, .monthDay, .monthOffset]) { r throws(ScheduleError) in
            // end of the month, end of every month, end of next month, beginning of next month.
            let i = r.i, key = r.key(i)
            var k = i + 1
            if r.isKey(i - 1, "month"), key == "end" {
                r.put(.monthDay(-1, last: r.text(i - 1..<i + 1)))
                return r.took(1)
            }
            guard r.isKey(k, "of") else { return .refused }
            k += 1
            if r.isKey(k, "the") { k += 1 }
            // Which month, read whole before anything is set ("end of next" alone is refused;
            // it read past the phrase's end: the fuzz target's find).
            let which = r.isKey(k, "every", "next", "this") ? r.key(k) : nil
            if which != nil { k += 1 }
            guard r.isKey(k, "month") else { return .refused }
            switch which {
            case "every": r.put(.monthly, .repeats)
            case "next": r.put(.monthOffset(1, r.text(k - 1..<k + 1)))
            case "this": r.put(.monthOffset(0, r.text(k - 1..<k + 1)))
            default: break
            }
            r.put(.monthDay(key == "end" ? -1 : 1, last: r.text(i..<k + 1)))
            r.i = k + 1
            return .read
        },
        PhraseRule("a place in the month", at: ["first", "second", "third", "fourth", "fifth", "last"],
                   ["the first monday of the month at 9", "last friday of every month at 5pm", "매월 첫째 월요일 오전 9시", "the first of next month at 9"], makes: [.monthly, .ofTheMonth, .days, .place, .monthDay, .monthOffset]) { r throws(ScheduleError) in
            let n = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1][r.key(r.i) ?? ""] ?? 1
            return .final(r.readPlace(n, from: r.i, skip: 1))
        },
        PhraseRule("month end", at: ["month"], ["month end at 6pm"], makes: [.monthDay]) { r throws(ScheduleError) in
            guard r.isKey(r.i + 1, "end") else { return .notHere }
            r.put(.monthDay(-1, last: r.text(r.i..<r.i + 2)))
            return r.took(2)
        },
        PhraseRule("each month (달마다)", at: ["month"], ["달마다 1일 오전 9시"], makes: [.repeats, .monthly]) { r throws(ScheduleError) in
            guard r.isKey(r.i + 1, "each") else { return .notHere }
            r.put(.monthly)
            r.put(.repeats)
            return r.took(2)
        },
        PhraseRule("of the month", at: ["month"], ["on the 15th of the month at 9", "last friday at 5pm of the month"], makes: [.monthly, .ofTheMonth]) { r throws(ScheduleError) in
            // A weekday's place "of the month" is every month's; a day of it alone the coming
            // one, once, unless the phrase repeats ("of every month" is read as every).
            guard r.pieces.monthly || !r.pieces.places.isEmpty || !r.pieces.monthDays.isEmpty else { return .refused }
            if r.pieces.monthly || !r.pieces.places.isEmpty {
                r.put(.monthly)
            } else {
                r.put(.ofTheMonth(r.text(r.i..<r.i + 1)))
            }
            return r.took(1)
        },

        // MARK: Holidays

        PhraseRule("fixed-date holiday", at: ["st", "apr", "christmas", "new", "newyear", "valentine", "halloween", "삼일절", "어린이날", "현충일", "광복절",
                                              "개천절", "한글날", "신정", "화이트데이", "만우절", "빼빼로데이", "patrick", "boxing", "leap", "veterans", "bonfire",
                                              "bastille", "anzac", "remembrance", "canada", "australia", "nye", "all", "pi", "ides", "윤일", "pepero", "어버이날", "white"],
                   ["christmas eve at 7pm", "new year's day at 10am", "every halloween at 6pm", "valentine's day 2030 at 8pm", "white day 7pm", "크리스마스 이브 오후 7시", "어린이날 오전 10시", "크리스마스 (금) 오전 9시", "크리스마스 다음날 오전 10시"], makes: [.days, .date, .holidayShift]) { r throws(ScheduleError) in
            // A holiday on a fixed date: that date, this year's or the next. Christmas eve,
            // 크리스마스 이브, is the day before, never an evening ("eve" was read as a casual
            // "evening" and put christmas eve at 7pm on the 25th); new year's eve is 31 December.
            // "st" and "apr" are no holiday without the words after them.
            guard let (month, day, length) = r.holiday(r.i) else { return r.isKey(r.i, "st", "apr", "white") ? .notHere : .refused }
            // Its year after it, written out: "valentine's day 2030 at 8pm" (2030 was 20:30).
            if let year = r.number(r.i + length), r.word(r.i + length)?.digits == 4, (1970...2200).contains(year) {
                try r.setDate(year, month, day, r.i..<r.i + length + 1)
            } else {
                try r.setDate(nil, month, day, r.i..<r.i + length)
            }
            r.readHolidayShift()
            return .read
        },
        PhraseRule("holiday whose date moves", at: ["easter", "good", "thanksgiving", "black", "blackfriday", "memorial", "labor", "election", "mothering",
                                                    "parents", "seollal", "chuseok"],
                   ["easter sunday at 10am", "thanksgiving at noon", "부활절 오전 10시", "설날 아침 9시", "추석 당일 오전 10시", "chuseok at 9am", "추석 전날 오후 2시"], makes: [.movable, .holidayShift]) { r throws(ScheduleError) in
            // Mother's day and father's day: their day differs by country (May's second Sunday
            // in the US, Mothering Sunday in the UK, 어버이날 in Korea): refused, never a
            // title's words beside today's time.
            if r.isKey(r.i, "parents") {
                guard r.isKey(r.i + 1, "day") else { return .notHere }
                throw ScheduleError(r.text(r.i..<r.i + 2), Phrase("ambiguous day"), detail: Phrase("its day differs by country"),
                                    accepted: Phrase("say its date (may 10, june 21)"))
            }
            // A holiday whose date moves: its coming day, once (stage three finds it).
            guard let (holiday, length) = r.movableHoliday(r.i) else { return .refused }
            try r.setMovable(holiday, length: length)
            r.readHolidayShift()
            return .read
        },
        PhraseRule("the day before or after a holiday", at: ["day"], ["the day before christmas at 9am", "the day after thanksgiving at 10"],
                   makes: [.date, .movable, .holidayShift]) { r throws(ScheduleError) in
            // "the day before christmas", "day after thanksgiving"; 추석 전날 and 크리스마스
            // 다음날 are read with their holiday, by its row (``PhraseReader/readHolidayShift()``).
            let start = r.i
            guard r.words[start].text == "day", let said = r.word(start + 1)?.text, said == "before" || said == "after" else { return .notHere }
            let k = start + 2
            if let (month, day, length) = r.holiday(k) {
                r.i = k
                try r.setDate(nil, month, day, k..<k + length)
            } else if let (holiday, length) = r.movableHoliday(k) {
                r.i = k
                try r.setMovable(holiday, length: length)
            } else {
                return .notHere
            }
            r.put(.holidayShift(said == "before" ? -1 : 1, r.text(start..<k)))
            return .read
        },

        // MARK: Days

        PhraseRule("on the weekend", at: ["weekends"], ["on the weekend at 10am"], makes: [.weekend]) { r throws(ScheduleError) in
            // on the weekend: the coming one, once.
            let w = r.words[r.i]
            guard r.isKey(r.i - 1, "the"), !w.text.hasSuffix("s"), !r.pieces.repeats else { return .notHere }
            r.put(.weekend(r.text(r.i - 1..<r.i + 1)))
            return r.took(1)
        },
        PhraseRule("except", at: ["except"], ["every day except sunday at 9", "weekdays except friday at 8", "일요일 빼고 매일 오전 9시"], makes: [.days, .except]) { r throws(ScheduleError) in
            // "every day except sunday", "weekdays but friday": the days after it are left
            // out; 일요일 빼고, 주말 제외하고: the days before it.
            guard r.pieces.exceptText == nil else { return .refused }
            let english = r.words[r.i].text.allSatisfy(\.isASCII)
            if !english {
                guard let last = r.lastDays, last.end == r.i else { return .refused }
                r.restore(last.before)
                r.put(.except(last.days, text: r.text(last.start..<r.i + 1), timesBefore: r.timesSaid))
                return r.took(1)
            }
            let said = r.pieces, start = r.i
            r.i += 1
            if r.isKey(r.i, "on") || r.word(r.i)?.text == "for" { r.i += 1 }
            if r.isKey(r.i, "weekdays", "weekends") {
                r.lastDays = (r.isKey(r.i, "weekdays") ? weekdaySet : weekendSet, r.i, r.i + 1, said)
                r.i += 1
            } else if !r.readWeekdays() {
                r.i = start
                return .refused
            }
            r.restore(said)
            r.put(.except(r.lastDays?.days ?? [], text: r.text(start..<r.i), timesBefore: r.timesSaid))
            return .read
        },
        PhraseRule("weekdays, weekends", at: ["weekdays", "weekends"], ["weekdays at 8", "weekends at 10am", "평일 오전 8시", "주말마다 오전 10시"], makes: [.days]) { r throws(ScheduleError) in
            let w = r.words[r.i], days = w.key == "weekdays" ? weekdaySet : weekendSet
            r.lastDays = (days, r.i, r.i + 1, r.pieces)
            r.put(.days(days, text: w.text, many: true, named: false))
            // "every other weekday": every second working day, or working days every other week?
            if r.pieces.other, r.pieces.period?.unit == .week {
                throw r.failure(r.text(max(0, r.i - 2)..<r.i + 1), Phrase("ambiguous schedule"),
                                Phrase("every second working day, or the working days of every other week? say every 2 days, or every other week on mon-fri"))
            }
            return r.took(1)
        },
        PhraseRule("the day after tomorrow", at: ["day"], ["the day after tomorrow at 9am"], makes: [.dayOffset]) { r throws(ScheduleError) in
            guard r.isKey(r.i + 1, "after"), r.isKey(r.i + 2, "tomorrow") else { return .notHere }
            guard r.pieces.dayOffset == nil else { return .refused }
            r.put(.dayOffset(2, r.text(r.i..<r.i + 3)))
            return r.took(3)
        },
        PhraseRule("today, tomorrow", at: ["today", "tomorrow", "overmorrow", "in3days", "tonight"],
                   ["tomorrow at 9am", "tonight at 10", "내일 오후 3시", "모레 오전 9시", "글피 오전 9시"], makes: [.dayOffset]) { r throws(ScheduleError) in
            guard r.pieces.dayOffset == nil, let key = r.key(r.i) else { return .refused }
            let w = r.words[r.i]
            r.put(.dayOffset(["today": 0, "tonight": 0, "tomorrow": 1, "overmorrow": 2, "in3days": 3][key] ?? 0, w.text))
            if key == "tonight" { r.pendingHalf = (.night, w.text) }
            // "tomorrow morning", 내일 아침: the half goes with the hour said after it.
            return r.took(1)
        },
        PhraseRule("next, this", at: ["next", "this", "nextnext"],
                   ["next monday at 9", "this friday at 5pm", "next week on tuesday at 9", "next month on the 5th at 9", "this weekend at 10am",
                    "this evening at 7", "다음 주 월요일 오전 9시", "다다음 월요일 오전 9시"], makes: [.dayOffset, .week, .nextDay, .thisDay, .laterDay, .monthOffset, .yearOffset, .weekend]) { r throws(ScheduleError) in
            let key = r.key(r.i)
            r.i += 1
            let i = r.i
            if r.isKey(i, "week") {
                r.put(.week(key == "next" ? 1 : key == "nextnext" ? 2 : 0))
                r.i += 1
            } else if r.isKey(i, "year"), key == "next", r.pieces.yearOffset == nil {
                // next year: a date of next year.
                r.put(.yearOffset(1, r.text(i - 1..<i + 1)))
                r.i += 1
            } else if r.isKey(i, "month"), key != "nextnext" {
                // 다음 달, next month, 이번 달: a day of that month, once.
                guard r.pieces.monthOffset == nil else { return .refused }
                r.put(.monthOffset(key == "next" ? 1 : 0, r.text(i - 1..<i + 1)))
                r.i += 1
            } else if r.isKey(i, "weekends"), key == "next" || key == "this" {
                // this weekend, 이번 주말: the coming one, once; 다음 주말 the one after.
                r.put(.weekend(r.text(i - 1..<i + 1)))
                if key == "next" { r.put(.week(1)) }
                r.i += 1
            } else if key == "nextnext", let (_, plural) = r.weekday(i), !plural, r.pieces.laterDay == nil {
                // 다다음 월요일: the Monday after next.
                r.put(.laterDay(r.text(i - 1..<i + 1), weekFrom: false))
            } else if r.weekday(i) != nil, key != "nextnext" {
                if key == "next" { r.put(.nextDay(r.text(i - 1..<i + 1))) }
                if key == "this" { r.put(.thisDay) }
            } else if key == "this", let half = halves[r.key(i) ?? ""], half != .am, half != .pm {
                // this morning, this evening: today's, passed or not.
                guard r.pieces.dayOffset == nil else { return .refused }
                r.put(.dayOffset(0, r.text(i - 1..<i + 1)))
            } else if key == "this" {
                // 오는 15일, 다가오는 2월 29일: the coming one, which a date is anyway.
            } else {
                return .refused
            }
            return .read
        },
        PhraseRule("next year (내년)", at: ["nextyear"], ["내년 3월 1일 오전 9시"], makes: [.yearOffset]) { r throws(ScheduleError) in
            guard r.pieces.yearOffset == nil else { return .refused }
            r.put(.yearOffset(1, r.words[r.i].text))
            return r.took(1)
        },

        // MARK: Once, from now

        PhraseRule("once", at: ["once"], ["once tomorrow at 9"], makes: [.once]) { r throws(ScheduleError) in
            r.put(.once)
            return r.took(1)
        },
        PhraseRule("from now", at: ["now"], ["now + 20 minutes", "지금부터 2시간 후"], makes: [.relative]) { r throws(ScheduleError) in
            // 지금부터 2시간 후: from now, as "in" is.
            if r.isKey(r.i + 1, "since") {
                r.i += 2
                return .final(try r.readDuration(role: .relative))
            }
            // at's "now + 20 minutes".
            guard r.isMark(r.i + 1, "+") else { return .refused }
            r.i += 2
            return .final(try r.readDuration(role: .relative))
        },
        PhraseRule("after a duration", at: ["after"], ["after 25 minutes"], makes: [.relative]) { r throws(ScheduleError) in
            // "after 25 minutes": in 25 minutes (only a duration: "after 2pm" is no window yet;
            // "after 9h" may be after 09:00, not read).
            guard r.i == 0, r.word(r.i + 2)?.text != "h" else { return .notHere }
            r.i += 1
            return .final(try r.readDuration(role: .relative))
        },
        PhraseRule("in", at: ["in"], ["in 20 minutes", "tomorrow in the morning at 8"], makes: [.relative]) { r throws(ScheduleError) in
            // "in 20 minutes"; "8 in the morning" is read with its hour, "in the morning" alone is a half of the day.
            if r.isKey(r.i + 1, "the"), let half = halves[r.key(r.i + 2) ?? ""] {
                if r.isPluralHalf(r.i + 2) { r.put(.repeats) }
                if let pending = r.pendingHalf { r.put(.half(pending.0, pending.1)) }
                r.pendingHalf = (half, r.text(r.i..<r.i + 3))
                return r.took(3)
            }
            r.i += 1
            return .final(try r.readDuration(role: .relative))
        },

        // MARK: Minutes of each hour, parts of the day

        PhraseRule("each (마다)", at: ["each"], ["주말마다 오전 10시", "아침마다 7시"], makes: [.repeats]) { r throws(ScheduleError) in
            // 주말마다, 아침마다, 말일마다: every one of what was said before (after a number,
            // 6시 30분마다 is no step anybody says: refused).
            guard r.i > 0, r.words[r.i - 1].number == nil, !r.isKey(r.i - 1, "minutes", "seconds", "hours") else { return .refused }
            r.put(.repeats)
            return r.took(1)
        },
        PhraseRule("quarter past each hour", at: ["half", "quarter"], ["every hour at quarter past", "every hour at half past"], makes: [.minuteMark]) { r throws(ScheduleError) in
            // "every hour at quarter past", "at half past", "at quarter to": a minute of each
            // hour, when no hour follows (with one, "half past 4", the time rule read it).
            let key = r.key(r.i)
            guard r.isKey(r.i + 1, "past", "until"), r.number(r.i + 2) == nil, !(key == "half" && r.isKey(r.i + 1, "until")),
                  r.pieces.minuteMark == nil else { return .refused }
            r.put(.minuteMark(key == "half" ? 30 : r.isKey(r.i + 1, "past") ? 15 : 45, r.text(r.i..<r.i + 2)))
            return r.took(2)
        },
        PhraseRule("and", at: ["and"], ["at 9 and 5pm"], makes: [.joined]) { r throws(ScheduleError) in
            if !r.pieces.times.isEmpty { r.put(.joined) }
            return r.took(1)
        },
        PhraseRule("on the hour", at: ["on"], ["every hour on the hour"], makes: [.minuteMark]) { r throws(ScheduleError) in
            // every hour on the hour: at :00.
            guard r.isKey(r.i + 1, "the"), r.word(r.i + 2)?.text == "hour", r.pieces.minuteMark == nil else { return .notHere }
            r.put(.minuteMark(0, r.text(r.i..<r.i + 3)))
            return r.took(3)
        },
        PhraseRule("on the hour (정각)", at: ["sharp"], ["매시간 정각"], makes: [.minuteMark]) { r throws(ScheduleError) in
            // 매시간 정각: at :00 (9시 정각 is 9:00, sharp).
            guard r.words[r.i].text == "정각", r.pieces.minuteMark == nil, !r.saidTimeBefore(r.i) else { return .notHere }
            r.put(.minuteMark(0, r.words[r.i].text))
            return r.took(1)
        },
        PhraseRule("sharp", at: ["sharp"], ["daily at 9 sharp", "tomorrow at 9:30am sharp"], makes: []) { r throws(ScheduleError) in
            // "at 9 sharp", "9am sharp": the time as said. Only after a time: elsewhere it is a
            // title's word ("sharpen the knives" aside, "buy a sharp knife").
            guard r.words[r.i].text == "sharp" else { return .notHere }
            return r.saidTimeBefore(r.i) ? r.took(1) : .refused
        },
        PhraseRule("on the dot", at: ["on"], ["at 10 on the dot", "sunday at 9 on the dot"], makes: []) { r throws(ScheduleError) in
            // "at 10 on the dot": the time as said, as "sharp" is. Only after a time.
            guard r.isKey(r.i + 1, "the"), r.isKey(r.i + 2, "dot"), r.saidTimeBefore(r.i) else { return .notHere }
            return r.took(3)
        },
        PhraseRule("little words", at: ["at", "on", "the", "of", "sharp"], ["on monday at 9", "내일 9시 정각"], makes: []) { r throws(ScheduleError) in
            r.took(1)
        },
        PhraseRule("eve after a day", at: ["eve"], ["sunday eve at 7", "tmrw eve at 6"], makes: []) { r throws(ScheduleError) in
            // "sunday eve", "tmrw eve": that day's evening, as British English says it. A
            // holiday's eve (christmas eve) is the holiday rule's: the day before.
            guard r.weekday(r.i - 1) != nil || r.isKey(r.i - 1, "tomorrow", "today", "tonight"), r.pendingHalf == nil else { return .notHere }
            r.pendingHalf = (.evening, r.words[r.i].text)
            return r.took(1)
        },
        PhraseRule("part of the day", at: Set(halves.keys).subtracting(["am", "pm"]),
                   ["tomorrow morning at 8", "every morning and evening at 8", "saturday mornings at 9", "아침저녁 8시"], makes: [.half, .repeats]) { r throws(ScheduleError) in
            let i = r.i, w = r.words[i]
            guard let half = halves[w.key ?? ""] else { return .refused }
            if r.isPluralHalf(i) { r.put(.repeats) }
            if let pending = r.pendingHalf {
                // "every morning and evening at 8", 아침저녁 8시: the hour said after goes with both.
                if r.isKey(i - 1, "and") || r.isMark(i - 1, ",") || (halves[r.key(i - 1) ?? ""] != nil && r.words[i - 1].span.upperBound == w.span.lowerBound) {
                    r.awaitingHour.append(pending)
                } else {
                    r.put(.half(pending.0, pending.1))
                }
            }
            r.pendingHalf = (half, w.text)
            return r.took(1)
        },
    ]
}
