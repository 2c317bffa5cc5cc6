import Foundation

/// Stage two of reading a phrase: the words (``PhraseWords``, stage one) into the pieces
/// they say (``PhrasePieces``: times, days, a step, a window, a count, an edge). It walks
/// the words once with a cursor and knows nothing of the clock: what the pieces make is
/// stage three's (``PhrasePieces/schedule(now:zone:)``). A word it cannot place is named,
/// with its neighbours, as typed.
struct PhraseReader {
    typealias StepUnit = PhrasePieces.StepUnit

    let words: [PhraseWord]
    let source: [Character]
    /// The cursor: the word being read.
    var i = 0
    /// What the words said so far.
    var pieces = PhrasePieces()
    /// A half of the day said before the hour it goes with (오후 3시, tomorrow morning at 8).
    var pendingHalf: (SaidTime.Half, String)?
    /// Parts of the day joined to the one pending ("morning and evening at 8"): they take
    /// the hour it takes, or their own when none is said.
    var awaitingHour: [(SaidTime.Half, String)] = []
    /// A window's end is being read: minutes followed by 간격 or 마다 are the step.
    var readingWindowEnd = false
    /// Words not read, by their places, neighbours together.
    var leftover: [Range<Int>] = []

    init(words: [PhraseWord], source: [Character]) {
        (self.words, self.source) = (words, source)
    }


    // MARK: Looking at words

    func word(_ k: Int) -> PhraseWord? { k >= 0 && k < words.count ? words[k] : nil }
    func key(_ k: Int) -> String? { word(k)?.key }
    func number(_ k: Int) -> Int? { word(k)?.number }
    func isKey(_ k: Int, _ keys: String...) -> Bool { key(k).map(keys.contains) ?? false }
    func isMark(_ k: Int, _ c: Character) -> Bool { word(k)?.isMark(c) ?? false }
    /// The words in `range` as typed: a piece of a Korean word is named with the whole
    /// word it was cut from ('주, 뒤' was named for 일주일 뒤's left-over pieces).
    func typed(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        var lower = words[range.lowerBound].span.lowerBound, upper = words[range.upperBound - 1].span.upperBound
        guard lower < upper, upper <= source.count else { return text(range) }
        while lower > 0, PhraseWords.isHangul(source[lower - 1]), PhraseWords.isHangul(source[lower]) { lower -= 1 }
        while upper < source.count, PhraseWords.isHangul(source[upper]), PhraseWords.isHangul(source[upper - 1]) { upper += 1 }
        return String(source[lower..<upper])
    }

    /// The words in `range` as written (lowercased).
    func text(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return String(source[words[range.lowerBound].span.lowerBound..<words[range.upperBound - 1].span.upperBound])
    }

    static let halves: [String: SaidTime.Half] = [
        "am": .am, "pm": .pm, "dawn": .dawn, "morning": .morning, "daytime": .daytime, "lunch": .daytime,
        "afternoon": .afternoon, "evening": .evening, "night": .night,
    ]

    /// Whether a weekday is at `k`: a name, or 월 and 일 not after a number (12월 is December).
    func weekday(_ k: Int) -> (Weekday, plural: Bool)? {
        guard let key = key(k) else { return nil }
        if let day = PhraseWords.weekdayKeys[key] { return (day, false) }
        if key.hasSuffix("s"), let day = PhraseWords.weekdayKeys[String(key.dropLast())] { return (day, true) }
        if key == "월" || key == "일", number(k - 1) == nil { return (key == "월" ? .monday : .sunday, false) }
        return nil
    }

    // MARK: Reading

    /// The pieces of the whole phrase; a word left over is refused, named as typed.
    mutating func readAll() throws(ScheduleError) -> PhrasePieces {
        while i < words.count {
            let start = i
            if try readOne(), i > start { continue }
            i = start
            // Neighbouring words left over are named as written together.
            if let last = leftover.last, last.upperBound == i { leftover[leftover.count - 1] = last.lowerBound..<i + 1 } else { leftover.append(i..<i + 1) }
            i += 1
        }
        if let pending = pendingHalf { pieces.halves.append(pending) }
        pieces.halves += awaitingHour
        guard leftover.isEmpty else {
            // TRANSLATORS: a schedule phrase had words Nudge did not read; %s names them.
            throw ScheduleError(leftover.map(typed).joined(separator: ", "), Phrase("words not understood"),
                                detail: Phrase("nothing is stored when a word is left over"), accepted: SchedulePhrase.forms)
        }
        return pieces
    }

    /// Reads what starts at `i`; false when nothing does.
    mutating func readOne() throws(ScheduleError) -> Bool {
        let w = words[i]
        if case .instant(let whole) = w.kind {
            pieces.instant = (whole, w.text)
            i += 1
            return true
        }
        if try readFrequency() { return true }
        // 1년마다: every year.
        if number(i) == 1, isKey(i + 1, "year"), isKey(i + 2, "each") {
            pieces.repeats = true
            pieces.yearly = text(i..<i + 3)
            i += 3
            return true
        }
        // 매주 한 번, 매달 한 번: once in each, not a one-shot.
        if number(i) == 1, isKey(i + 1, "times"), isKey(i - 1, "weekly", "monthly", "daily") {
            i += 2
            return true
        }
        // 한 번: once, as list says a one-shot.
        if number(i) == 1, isKey(i + 1, "times") {
            pieces.once = true
            i += 2
            return true
        }
        if try readDate() { return true }
        if try readTimeOrWindow() { return true }
        if try readDuration() { return true }
        if readWeekdays() { return true }
        guard let key = w.key else {
            if w.isMark(",") || w.isMark("&") {
                if !pieces.times.isEmpty { pieces.joined = true }
                i += 1
                return true
            }
            if w.isMark("(") || w.isMark(")") || w.isMark("@") { i += 1; return true }
            return false
        }
        switch key {
        case "every":
            let start = i
            pieces.repeats = true
            i += 1
            if isKey(i, "other") { pieces.other = true; i += 1 }
            // "every hour", "every minute": one of the unit.
            if let unit = stepUnit(self.key(i)), case .seconds(let size) = unit {
                // every hour; every other hour is every two.
                pieces.step = (pieces.other ? 2 * size : size, .seconds(1), text(start..<i + 1))
                i += 1
                // 매 시간마다.
                if isKey(i, "each") { i += 1 }
            } else if isKey(i, "day") {
                if !pieces.other { pieces.everyDaySaid = true }
                i += 1
            } else if isKey(i, "week") {
                i += 1
            } else if isKey(i, "month") {
                pieces.monthly = true
                i += 1
                // every month end.
                if isKey(i, "end") { pieces.monthDays.append(-1); i += 1 }
            } else if isKey(i, "year") {
                pieces.yearly = text(start..<i + 1)
                i += 1
            } else if let n = number(i), isKey(i + 1, "st"), isKey(i + 2, "day", "week", "month"), (2...12).contains(n) {
                // every 2nd day, every 3rd week: every N.
                let unit: Schedule.Period.Unit = isKey(i + 2, "day") ? .day : isKey(i + 2, "week") ? .week : .month
                pieces.period = (unit, n)
                pieces.periodText = text(start..<i + 3)
                if unit == .month { pieces.monthly = true }
                i += 3
                return true
            } else if isKey(i, "single"), isKey(i + 1, "day") {
                pieces.everyDaySaid = true
                i += 2
            }
            if pieces.other, pieces.step == nil {
                // every other day / week / month / friday.
                let unit: Schedule.Period.Unit = words[i - 1].key == "day" ? .day : words[i - 1].key == "month" ? .month : .week
                pieces.period = (unit, 2)
                pieces.periodText = text(start..<i)
            }
            return true
        case "daily": pieces.repeats = true; pieces.everyDaySaid = true
        case "yearly":
            // 매년, annually: a date every year.
            pieces.repeats = true
            pieces.yearly = w.text
        case "otherday":
            // 격일: every other day.
            pieces.repeats = true
            pieces.period = (.day, 2)
            pieces.periodText = w.text
        case "othermonth", "quarterly", "halfyearly":
            // 격월, 분기마다, quarterly, 반년마다: every 2, 3 or 6 months.
            pieces.repeats = true
            pieces.monthly = true
            pieces.period = (.month, key == "othermonth" ? 2 : key == "quarterly" ? 3 : 6)
            pieces.periodText = w.text
            if isKey(i + 1, "each") { i += 1 }
        case "fortnightly", "biweekly":
            // Every other week; biweekly (which some mean as twice a week) is said.
            pieces.repeats = true
            pieces.period = (.week, 2)
            pieces.periodText = w.text
            if key == "biweekly" { pieces.readings.append(Phrase("%1$s is read as %2$s", w.text, Phrase("every 2 weeks"))) }
        case "business" where isKey(i + 1, "day"):
            // every business day: Monday to Friday.
            pieces.days.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
            pieces.dayTexts.append(text(i..<i + 2))
            pieces.manyDays = true
            i += 2
            return true
        case "firstday":
            // 첫날: the month's first day.
            pieces.monthDays.append(1)
        case "monthend":
            // 월말, eom: the month's last day; of this month unless every month is said.
            pieces.monthDays.append(-1)
            pieces.lastDaySaid = w.text
        case "end", "beginning":
            // end of the month, end of every month, end of next month, beginning of next month.
            var k = i + 1
            if isKey(i - 1, "month"), key == "end" {
                pieces.monthDays.append(-1)
                pieces.lastDaySaid = text(i - 1..<i + 1)
                break
            }
            guard isKey(k, "of") else { return false }
            k += 1
            if isKey(k, "the") { k += 1 }
            if isKey(k, "every") { pieces.monthly = true; pieces.repeats = true; k += 1 }
            else if isKey(k, "next") { pieces.monthOffset = (1, text(k..<k + 2)); k += 1 }
            else if isKey(k, "this") { pieces.monthOffset = (0, text(k..<k + 2)); k += 1 }
            guard isKey(k, "month") else { return false }
            pieces.monthDays.append(key == "end" ? -1 : 1)
            pieces.lastDaySaid = text(i..<k + 1)
            i = k + 1
            return true
        case "weekly": pieces.repeats = true
        case "monthly": pieces.repeats = true; pieces.monthly = true
        case "hourly": pieces.repeats = true; pieces.step = (3600, .seconds(1), w.text)
        case "otherweek": pieces.repeats = true; pieces.period = (.week, 2); pieces.periodText = w.text
        case "weekends" where isKey(i - 1, "the") && !w.text.hasSuffix("s") && !pieces.repeats:
            // on the weekend: the coming one, once.
            pieces.weekend = text(i - 1..<i + 1)
        case "christmas":
            try setDate(nil, 12, 25, i..<i + 1)
            return true
        case "weekdays", "weekends":
            pieces.days.formUnion(key == "weekdays" ? [.monday, .tuesday, .wednesday, .thursday, .friday] : [.saturday, .sunday])
            pieces.dayTexts.append(w.text)
            pieces.manyDays = true
            // "every other weekday": every second working day, or working days every other week?
            if pieces.other, pieces.period?.unit == .week {
                throw failure(text(max(0, i - 2)..<i + 1), Phrase("ambiguous schedule"),
                              Phrase("every second working day, or the working days of every other week? say every 2 days, or every other week on mon-fri"))
            }
        case "day" where isKey(i + 1, "after") && isKey(i + 2, "tomorrow"):
            // the day after tomorrow
            guard pieces.dayOffset == nil else { return false }
            pieces.dayOffset = (2, text(i..<i + 3))
            i += 3
            return true
        case "today", "tomorrow", "overmorrow", "in3days", "tonight":
            guard pieces.dayOffset == nil else { return false }
            pieces.dayOffset = (["today": 0, "tonight": 0, "tomorrow": 1, "overmorrow": 2, "in3days": 3][key]!, w.text)
            if key == "tonight" { pendingHalf = (.night, w.text) }
            i += 1
            // "tomorrow morning", 내일 아침: the half goes with the hour said after it.
            return true
        case "lastday":
            // 말일: the month's last day; of every month only when said (매월 말일).
            pieces.monthDays.append(-1)
            pieces.lastDaySaid = w.text
        case "next", "this", "nextnext":
            i += 1
            if isKey(i, "week") {
                pieces.week = key == "next" ? 1 : key == "nextnext" ? 2 : 0
                i += 1
            } else if isKey(i, "month"), key != "nextnext" {
                // 다음 달, next month, 이번 달: a day of that month, once.
                guard pieces.monthOffset == nil else { return false }
                pieces.monthOffset = (key == "next" ? 1 : 0, text(i - 1..<i + 1))
                i += 1
            } else if isKey(i, "weekends"), key == "next" || key == "this" {
                // this weekend, 이번 주말: the coming one, once; 다음 주말 the one after.
                pieces.weekend = text(i - 1..<i + 1)
                if key == "next" { pieces.week = 1 }
                i += 1
            } else if let (day, _) = weekday(i), key != "nextnext" {
                if key == "next" { pieces.nextDay = text(i - 1..<i + 1) }
                if key == "this" { pieces.thisDay = true }
                _ = day
            } else if key == "this", let half = Self.halves[self.key(i) ?? ""], half != .am, half != .pm {
                // this morning, this evening: today's, passed or not.
                guard pieces.dayOffset == nil else { return false }
                pieces.dayOffset = (0, text(i - 1..<i + 1))
            } else if key == "this" {
                // 오는 15일, 다가오는 2월 29일: the coming one, which a date is anyway.
            } else {
                return false
            }
            return true
        case "first", "second", "third", "fourth", "fifth", "last":
            let n = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1][key]!
            return readPlace(n, from: i, skip: 1)
        case "once": pieces.once = true
        case "each":
            // 주말마다, 아침마다, 말일마다: every one of what was said before (after a number,
            // 6시 30분마다 is no step anybody says: refused).
            guard i > 0, words[i - 1].number == nil, !isKey(i - 1, "minutes", "seconds", "hours") else { return false }
            pieces.repeats = true
        case "now":
            // 지금부터 2시간 후: from now, as "in" is.
            if isKey(i + 1, "since") {
                i += 2
                return try readDuration(role: .relative)
            }
            // at's "now + 20 minutes".
            guard isMark(i + 1, "+") else { return false }
            i += 2
            guard try readDuration(role: .relative) else { return false }
            return true
        case "in":
            // "in 20 minutes"; "8 in the morning" is read with its hour, "in the morning" alone is a half of the day.
            if isKey(i + 1, "the"), let half = Self.halves[self.key(i + 2) ?? ""] {
                if let pending = pendingHalf { pieces.halves.append(pending) }
                pendingHalf = (half, text(i..<i + 3))
                i += 3
                return true
            }
            i += 1
            return try readDuration(role: .relative)
        case "half", "quarter":
            return try readTimeOrWindow()
        case "month" where isKey(i + 1, "each"):
            // 달마다: every month.
            pieces.monthly = true
            pieces.repeats = true
            i += 2
            return true
        case "month" where isKey(i + 1, "end"):
            // month end.
            pieces.monthDays.append(-1)
            pieces.lastDaySaid = text(i..<i + 2)
            i += 2
            return true
        case "month":
            // "of the month", "each month".
            guard pieces.monthly || !pieces.places.isEmpty || !pieces.monthDays.isEmpty else { return false }
            pieces.monthly = true
        case "and":
            if !pieces.times.isEmpty { pieces.joined = true }
        case "at", "on", "the", "of", "sharp":
            break
        default:
            if let half = Self.halves[key], key != "am", key != "pm" {
                if let pending = pendingHalf {
                    // "every morning and evening at 8", 아침저녁 8시: the hour said after goes with both.
                    if isKey(i - 1, "and") || isMark(i - 1, ",") || (Self.halves[self.key(i - 1) ?? ""] != nil && words[i - 1].span.upperBound == w.span.lowerBound) { awaitingHour.append(pending) } else { pieces.halves.append(pending) }
                }
                pendingHalf = (half, w.text)
            } else if key == "noon" || key == "midnight" {
                return try readTimeOrWindow()
            } else {
                return false
            }
        }
        i += 1
        return true
    }

    /// How often: twice a day, three times a day, once a week, once an hour, 하루 두 번,
    /// 하루 2번, 한 달에 두 번.
    mutating func readFrequency() throws(ScheduleError) -> Bool {
        let start = i
        var count: Int?, k = i
        func unit(_ at: Int) -> StepUnit? {
            switch key(at) {
            case "day", "daily": .day
            case "week", "weekly": .week
            case "month", "monthly": .month
            case "hours": .seconds(3600)
            default: nil
            }
        }
        if isKey(k, "twice") { count = 2; k += 1 } else if isKey(k, "once") { count = 1; k += 1 } else if let n = number(k), isKey(k + 1, "times") { count = n; k += 2 }
        if let n = count {
            // twice a day, twice daily, 3 times per week, once an hour; "once" alone is a one-shot.
            var article = false
            if isKey(k, "an", "per") { k += 1; article = true }
            guard let found = unit(k), article || (n > 1 && isKey(k, "daily", "weekly", "monthly")) else { return false }
            i = k + 1
            try setFrequency(n, found, start)
            return true
        }
        // 하루 두 번, 한 달에 두 번, 일주일에 세 번.
        guard number(k) == 1, let found = unit(k + 1), !isKey(k + 1, "hours") else { return false }
        k += 2
        if isKey(k, "at") { k += 1 }
        // 하루 한 번 is once a day, not once.
        let n: Int
        if isKey(k, "once") { n = 1; k -= 1 } else if let said = number(k), said >= 1, isKey(k + 1, "times") { n = said } else { return false }
        i = k + 2
        try setFrequency(n, found, start)
        return true
    }

    mutating func setFrequency(_ n: Int, _ unit: StepUnit, _ start: Int) throws(ScheduleError) {
        let said = text(start..<i)
        guard pieces.frequency == nil, (1...24).contains(n) else { throw failure(said, Phrase("more than one step")) }
        pieces.repeats = true
        switch unit {
        case .seconds(let size):
            guard n == 1, pieces.step == nil else { throw failure(said, Phrase("more than one step")) }
            pieces.step = (size, .seconds(1), said)
        case .day: pieces.everyDaySaid = true
        case .month: pieces.monthly = true
        case .week: break
        }
        pieces.frequency = (n, unit, said)
    }

    func stepUnit(_ key: String?) -> StepUnit? {
        switch key {
        case "hours": .seconds(3600)
        case "minutes": .seconds(60)
        case "seconds": .seconds(1)
        default: nil
        }
    }

    /// `the first monday (of the month)`, 매월 첫째 월요일, `the last day`, 마지막 날,
    /// `1st monday`, 두 번째 화요일.
    /// `2nd friday`, 두 번째 화요일: the first to the fifth. "0nd fri" was every Friday
    /// (found by the phrase fuzz target: list's words for it did not read back).
    mutating func readPlace(numbered n: Int, from start: Int, skip: Int) throws(ScheduleError) -> Bool {
        guard (1...5).contains(n) else { throw failure(text(start..<start + skip + 1), Phrase("invalid day of the month")) }
        return readPlace(n, from: start, skip: skip)
    }

    mutating func readPlace(_ n: Int, from start: Int, skip: Int) -> Bool {
        var k = start + skip
        if isKey(k, "th") { k += 1 }
        // 첫째 주 월요일, 마지막 주 금요일: the week's weekday is the month's place.
        if isKey(k, "week"), weekday(k + 1) != nil { k += 1 }
        if let (day, _) = weekday(k) {
            pieces.places.append((n, text(start..<k + 1)))
            pieces.days.insert(day)
            pieces.dayTexts.append(words[k].text)
            i = k + 1
        } else if isKey(k, "day"), n == -1 {
            pieces.monthDays.append(-1)
            i = k + 1
        } else {
            return false
        }
        // "of the month", "of every month": said after; 매월, monthly, every: said before.
        if isKey(i, "of"), isKey(i + 1, "the", "every"), isKey(i + 2, "month") {
            pieces.monthly = true
            i += 3
        } else if isKey(i, "of"), isKey(i + 1, "month") {
            pieces.monthly = true
            i += 2
        }
        return true
    }

    // MARK: Dates

    /// `2026-12-01`, `12월 1일`, `2026년 12월 1일`, `dec 1`, `december 1st, 2026`, `1 dec`,
    /// `the 15th` and 15일 of a month (a day of every month). `12/1` is refused.
    mutating func readDate() throws(ScheduleError) -> Bool {
        let start = i
        // "day 3 of the month", "day 1, day 15 of the month": as `list` says days of every
        // month (found by the phrase fuzz target: it did not read back). Only whole, so
        // "every day 9am" stays every day.
        if isKey(i, "day"), number(i + 1) != nil {
            var k = i, found: [Int] = []
            while isKey(k, "day"), let n = number(k + 1), (1...31).contains(n) {
                found.append(n)
                k += 2
                guard isMark(k, ","), isKey(k + 1, "day") else { break }
                k += 1
            }
            if !found.isEmpty, isKey(k, "of"), isKey(k + 1, "the", "every"), isKey(k + 2, "month") {
                pieces.monthDays += found
                pieces.monthly = true
                i = k + 3
                return true
            }
        }
        guard let first = number(i) else {
            // dec 1 [, 2026]
            guard let key = key(i), let month = PhraseWords.monthKeys.firstIndex(of: key), let day = number(i + 1) else { return false }
            var k = i + 2
            if isKey(k, "st") { k += 1 }
            var year: Int?
            if isMark(k, ","), let y = number(k + 1), words[k + 1].digits == 4 { year = y; k += 2 } else if let y = number(k), words[k].digits == 4 { year = y; k += 1 }
            try setDate(year, month + 1, day, start..<k)
            return true
        }
        // 2026-12-01, 2026.3.20
        if words[i].digits >= 4, isMark(i + 1, "-") || isMark(i + 1, "."), let m = number(i + 2), isMark(i + 3, words[i + 1].isMark("-") ? "-" : "."),
           let d = number(i + 4) {
            try setDate(first, m, d, i..<i + 5)
            return true
        }
        // 3.15 오후 2시, 4.1 오전 9시: month and day, as Koreans write a date before a time
        // (9.30 alone, or 9.30pm, is a time).
        if words[i].digits <= 2, isMark(i + 1, "."), let d = number(i + 2), words[i + 2].digits <= 2, (1...12).contains(first), (1...31).contains(d),
           (number(i + 3) != nil && isKey(i + 4, "시")) || (key(i + 3).map { Self.halves[$0] != nil } == true && !words[i + 3].text.allSatisfy(\.isASCII)) {
            try setDate(nil, first, d, i..<i + 3)
            return true
        }
        // 12/1 could be December 1 or January 12.
        if isMark(i + 1, "/"), let second = number(i + 2), words[i].digits <= 2, words[i + 2].digits <= 2 {
            let dmy = first <= 12 && second <= 31 ? "\(first)월 \(second)일" : "\(second)월 \(first)일"
            throw ScheduleError(text(i..<i + 3), Phrase("ambiguous date"),
                                detail: Phrase("it is written both day first and month first"),
                                // TRANSLATORS: %1$s is an example ISO date (2026-12-01), %2$s the same in Korean (12월 1일).
                                accepted: Phrase("give the date as %1$s, dec 1 or %2$s", "YYYY-MM-DD", dmy))
        }
        // 2026년 12월 1일, 12월 1일
        var k = i, year: Int?
        if isKey(k + 1, "year"), words[k].digits == 4 { year = first; k += 2 }
        if let month = number(k), isKey(k + 1, "월") {
            guard let day = number(k + 2), isKey(k + 3, "일") else {
                throw ScheduleError(text(start..<k + 2), Phrase("invalid date"), detail: Phrase("a month needs its day"), accepted: Phrase("give e.g. 12월 1일 or dec 1"))
            }
            k += 4
            // 11월 24일 (화), as list says it: the weekday must be the date's.
            try setDate(year, month, day, start..<k)
            return true
        }
        if year != nil { return false }
        // 1 december [2026], 1st of december
        var m = i + 1
        if isKey(m, "st") { m += 1 }
        if isKey(m, "of") { m += 1 }
        if let key = key(m), let month = PhraseWords.monthKeys.firstIndex(of: key) {
            var end = m + 1, year: Int?
            if let y = number(end), words[end].digits == 4 { year = y; end += 1 }
            try setDate(year, month + 1, first, i..<end)
            return true
        }
        // 15일 and "the 15th" of every month; 1st monday is a place.
        if isKey(i + 1, "일") || isKey(i + 1, "st") {
            if isKey(i + 1, "st"), weekday(i + 2) != nil { return try readPlace(numbered: first, from: i, skip: 2) }
            guard (1...31).contains(first) else { throw ScheduleError(text(i..<i + 2), Phrase("invalid date"), accepted: Phrase("a day of the month is 1 to 31")) }
            // "2일마다" is every second day, "15일 후" fifteen days on: a duration.
            if isKey(i + 1, "일"), isKey(i + 2, "each", "after", "interval") || (isKey(i + 2, "at") && number(i + 3) == 1 && isKey(i + 4, "times")) {
                return false
            }
            pieces.monthDays.append(first)
            i += 2
            return true
        }
        // 두 번째 화요일
        if isKey(i + 1, "th"), weekday(i + 2) != nil { return try readPlace(numbered: first, from: i, skip: 1) }
        return false
    }

    mutating func setDate(_ year: Int?, _ month: Int, _ day: Int, _ range: Range<Int>) throws(ScheduleError) {
        let said = text(range)
        guard pieces.date == nil, pieces.instant == nil else {
            throw ScheduleError(said, Phrase("more than one date"), accepted: SchedulePhrase.forms)
        }
        guard (1...12).contains(month), (1...31).contains(day), CivilDay(year: year ?? 2000, month: month, day: day) != nil else {
            throw ScheduleError(said, Phrase("invalid date"), accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        if let year, !Limits.years.contains(year) {
            throw ScheduleError(said, Phrase("year out of range"), detail: Phrase("the year must be from %1$d to %2$d", Limits.years.lowerBound, Limits.years.upperBound),
                                accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        pieces.date = (year, month, day, said)
        i = range.upperBound
        // A weekday in brackets after it, as list writes it: "11월 24일 (화)".
        if isMark(i, "("), weekday(i + 1) != nil, isMark(i + 2, ")") {
            pieces.dayTexts.append(words[i + 1].text)
            pieces.days.insert(weekday(i + 1)!.0)
            i += 3
        }
    }

    // MARK: Times

    /// Whether two words for the half of the day give an hour the same time (아침 and 오전
    /// for 9; 새벽 and 오후 for 3 do not).
    static func agrees(_ a: SaidTime.Half, _ b: SaidTime.Half, hour: Int) -> Bool {
        guard let x = try? SaidTime(hour: hour, half: a, text: "").readings().map(\.time),
              let y = try? SaidTime(hour: hour, half: b, text: "").readings().map(\.time) else { return false }
        return x == y
    }

    /// One time of day at `i`, or nil. A number alone is an hour.
    mutating func readTime() throws(ScheduleError) -> SaidTime? {
        let start = i
        var half: (SaidTime.Half, String)?
        // 오후 3시, 아침 8시: the half before the hour.
        if let key = key(i), let h = Self.halves[key], let hour = number(i + 1) {
            // 아침 오전 9시, 밤 오후 11시: a part of the day said before must agree.
            if let pending = pendingHalf, !Self.agrees(pending.0, h, hour: hour),
               isKey(i - 1, "and") || isMark(i - 1, ",") || (Self.halves[self.key(i - 1) ?? ""] != nil && words[i - 1].span.upperBound == words[i].span.lowerBound) {
                // 아침저녁 8시, morning and evening 8: two parts of the day, one hour.
                awaitingHour.append(pending)
                pendingHalf = nil
                half = (h, words[i].text)
            } else if let pending = pendingHalf {
                guard Self.agrees(pending.0, h, hour: hour) else {
                    throw ScheduleError(text(i - 1..<i + 2), Phrase("invalid time"), detail: Phrase("the words for the half of the day disagree"),
                                        accepted: SchedulePhrase.forms)
                }
                pendingHalf = nil
                // The part of the day stays: 금요일 밤 오전 1시 is the night after Friday.
                half = pending
            } else {
                half = (h, words[i].text)
            }
            i += 1
        } else if let pending = pendingHalf, number(i) != nil {
            half = pending
        }
        if isKey(i, "noon") || isKey(i, "midnight") {
            i += 1
            return SaidTime(hour: isKey(i - 1, "noon") ? 12 : 0, half: isKey(i - 1, "noon") ? .noon : .midnight, text: words[i - 1].text)
        }
        // twenty past 6, ten to 4 (minutes said in words; "9 to 5" in digits is a window).
        if let minutes = number(i), words[i].digits == 0, (1...29).contains(minutes), isKey(i + 1, "past", "until"), let hour = number(i + 2), (1...12).contains(hour) {
            let before = isKey(i + 1, "until")
            var time = SaidTime(hour: before ? hour - 1 : hour, minute: before ? 60 - minutes : minutes, text: text(i..<i + 3))
            if before && hour == 1 { time.hour = 12 }
            i += 3
            return finish(time, half: half, start: start)
        }
        // half past 9, quarter past 9, quarter to 10.
        if isKey(i, "half", "quarter"), isKey(i + 1, "past", "until"), let hour = number(i + 2) {
            let quarter = isKey(i, "quarter"), before = isKey(i + 1, "until")
            guard !(isKey(i, "half") && before) else { return nil }
            var time = SaidTime(hour: before ? hour - 1 : hour, minute: quarter ? (before ? 45 : 15) : 30, text: text(i..<i + 3))
            if before && hour == 1 { time.hour = 12 }
            i += 3
            return finish(time, half: half, start: start)
        }
        guard let hour = number(i) else { i = start; return nil }
        // A number with a unit after it is a duration, with a month a date; 1.5시간 too.
        if stepUnit(key(i + 1)) != nil || isKey(i + 1, "day", "week", "month", "일", "월", "year", "st", "th", "times")
            || (isMark(i + 1, ".") && number(i + 2) != nil && stepUnit(key(i + 3)) != nil) {
            i = start
            return nil
        }
        var time = SaidTime(hour: hour, text: words[i].text)
        i += 1
        if words[i - 1].digits == 4, !isMark(i, ":") {
            // 1700, 0830: hours and minutes on a 24-hour clock.
            guard hour % 100 < 60, hour / 100 < 24 else { i = start; return nil }
            time.hour = hour / 100
            time.minute = hour % 100
            time.clock = true
        } else if isMark(i, "."), let minute = number(i + 1), words[i + 1].digits == 2, minute < 60, !isMark(i + 2, ".") {
            // 9.30, 3.45pm: a dot for the colon, as spoken (the half of the day is read as for 9).
            time.minute = minute
            i += 2
        } else if isMark(i, ":"), let minute = number(i + 1), words[i + 1].digits == 2 {
            time.minute = minute
            time.clock = true
            i += 2
            if isMark(i, ":"), let second = number(i + 1), words[i + 1].digits == 2 {
                time.second = second
                i += 2
            }
        } else if isKey(i, "시") {
            i += 1
            if isKey(i, "half") {
                time.minute = 30
                i += 1
            } else if let minute = number(i), isKey(i + 1, "minutes"), !(readingWindowEnd && isKey(i + 2, "each", "interval")) {
                // (9시~18시 30분 간격: the minutes before 간격 or 마다 after a window are its step.)
                time.minute = minute
                i += 2
                if let second = number(i), isKey(i + 1, "seconds") {
                    time.second = second
                    i += 2
                }
                // 9시 10분 후 is 9:10 (ten minutes after nine), 9시 10분 전 8:50.
                if isKey(i, "after") {
                    i += 1
                } else if isKey(i, "before"), minute > 0 {
                    time.hour -= 1
                    time.minute = 60 - minute
                    if time.hour == 0 && hour <= 12 { time.hour = 12 }
                    i += 1
                }
            }
        } else if isKey(i, "oclock") {
            i += 1
        }
        // 9am, 9 pm: English says the half after the hour (오전, 오후 come before theirs).
        if let key = key(i), key == "am" || key == "pm", words[i].text.allSatisfy(\.isASCII) {
            // "tonight 9pm", "tomorrow morning 8am": a part of the day said before agrees.
            let suffix = Self.halves[key]!
            if let said = half {
                // A part of the day said before must agree, and stays: "friday night at 1am"
                // is the night after Friday.
                guard said.0 != .am, said.0 != .pm, Self.agrees(said.0, suffix, hour: time.hour) else {
                    throw ScheduleError(text(start..<i + 1), Phrase("invalid time"), detail: Phrase("it says the half of the day twice"), accepted: SchedulePhrase.forms)
                }
                if said.1 == pendingHalf?.1 { pendingHalf = nil }
            } else {
                half = (suffix, words[i].text)
            }
            i += 1
        }
        time.text = text(start..<i)
        return finish(time, half: half, start: start)
    }

    /// A time with its half of the day: said before it, or after it ("8 in the morning",
    /// "9 at night").
    mutating func finish(_ time: SaidTime, half: (SaidTime.Half, String)?, start: Int) -> SaidTime {
        var time = time
        if let half {
            time.half = half.0
            if let pending = pendingHalf, pending == half { pendingHalf = nil }
            if !awaitingHour.isEmpty {
                for (other, said) in awaitingHour {
                    var joined = time
                    joined.half = other
                    joined.text = said + " " + time.text
                    pieces.times.append(joined)
                }
                if !awaitingHour.isEmpty { pieces.joined = true }
                awaitingHour = []
            }
        } else {
            var k = i
            if isKey(k, "in"), isKey(k + 1, "the") { k += 2 } else if isKey(k, "at") { k += 1 }
            if k > i, let key = key(k), let h = Self.halves[key], key != "am", key != "pm" {
                time.half = h
                i = k + 1
            }
        }
        time.text = text(start..<i)
        return time
    }

    /// A time, a list of times (`at 9:00 and 13:00`), or a window: `from 9:30 to 21:30`,
    /// `between 9 and 17`, `9:30 AM–9:30 PM`, `9시부터 18시까지`, `9시~18시`.
    mutating func readTimeOrWindow() throws(ScheduleError) -> Bool {
        let start = i
        if isKey(i, "from", "between") {
            let between = isKey(i, "between")
            i += 1
            // "from now": counted from now, as "in" is.
            if isKey(i, "now") { i = start; return false }
            guard let first = try readTime() else { i = start; return false }
            guard isKey(i, between ? "and" : "until") || isMark(i, "~") || isMark(i, "-") else {
                try setWindow(first, nil)
                return true
            }
            i += 1
            readingWindowEnd = true
            defer { readingWindowEnd = false }
            guard let second = try readTime() else { i = start; return false }
            try setWindow(first, second)
            return true
        }
        if isKey(i, "until") {
            i += 1
            guard let end = try readTime() else { i = start; return false }
            try setWindow(nil, end)
            return true
        }
        guard let time = try readTime() else { return false }
        // 9시부터, 21시까지, 9:30 AM–9:30 PM, 9시~18시
        if isKey(i, "since") {
            i += 1
            try setWindow(time, nil)
        } else if isKey(i, "till") {
            i += 1
            try setWindow(nil, time)
        } else if isMark(i, "~") || isMark(i, "-") || isKey(i, "until") {
            let mark = i
            i += 1
            readingWindowEnd = true
            defer { readingWindowEnd = false }
            guard let end = try readTime() else { i = mark; pieces.times.append(time); return true }
            try setWindow(time, end)
        } else {
            pieces.times.append(time)
        }
        return true
    }

    mutating func setWindow(_ start: SaidTime?, _ end: SaidTime?) throws(ScheduleError) {
        if let start {
            guard pieces.windowStart == nil else { throw ScheduleError(start.text, Phrase("more than one start"), accepted: SchedulePhrase.forms) }
            pieces.windowStart = start
        }
        if let end {
            guard pieces.windowEnd == nil else { throw ScheduleError(end.text, Phrase("more than one end"), accepted: SchedulePhrase.forms) }
            pieces.windowEnd = end
        }
    }

    // MARK: Durations

    enum Role { case relative, step, either }

    /// `20 minutes`, `1h30m`, `an hour`, `half an hour`, `1시간 30분`, `두 시간`, `2 days`;
    /// what it is for is said around it: `in`, 후, 뒤 (once, after it) or `every`, 마다, 간격.
    mutating func readDuration(role: Role = .either) throws(ScheduleError) -> Bool {
        let start = i
        /// A count of a unit as `--every` and `--in` take it: below a billion.
        func tooLarge(_ n: Int) throws(ScheduleError) {
            guard n < 1_000_000_000 else {
                throw ScheduleError(text(i..<i + 2), Phrase("invalid duration"), detail: Phrase("the number is too large"), accepted: SchedulePhrase.forms)
            }
        }
        var seconds = 0, calendar: (Int, StepUnit)?
        if isKey(i, "half"), isKey(i + 1, "an"), isKey(i + 2, "hours") {
            seconds = 1800
            i += 3
        } else if isKey(i, "half"), isKey(i + 1, "hours") {
            // 반 시간, every half hour.
            seconds = 1800
            i += 2
        } else if isKey(i, "an"), isKey(i + 1, "half"), isKey(i + 2, "hours") {
            // in a half hour.
            seconds = 1800
            i += 3
        } else if let whole = number(i), isMark(i + 1, "."), let fraction = number(i + 2), words[i + 2].digits <= 3,
                  let unit = stepUnit(key(i + 3)), case .seconds(let size) = unit, whole < 1_000_000 {
            // 1.5시간, in 1.5 hours, every 1.25 hours: whole seconds only.
            let scale = Int(pow(10.0, Double(words[i + 2].digits)))
            let total = whole * size * scale + fraction * size
            guard total % scale == 0 else {
                throw ScheduleError(text(i..<i + 4), Phrase("invalid duration"), detail: Phrase("say it in whole minutes: 1h30m"), accepted: SchedulePhrase.forms)
            }
            seconds = total / scale
            i += 4
        } else {
            var lastSize = Int.max
            while true {
                // a couple (of) hours: two.
                if isKey(i, "an"), word(i + 1)?.text == "couple" { i += 1 }
                let n: Int
                if let value = number(i) { n = value } else if isKey(i, "an") { n = 1 } else { break }
                let of = word(i)?.text == "couple" && isKey(i + 1, "of") ? 1 : 0
                guard let unitKey = key(i + 1 + of) else { if i > start, isKey(i - 1, "an") { i -= 1 }; break }
                if let unit = stepUnit(unitKey), case .seconds(let size) = unit {
                    // 1h30m, not 1h 1h or 30m 1h.
                    guard calendar == nil, size < lastSize else { break }
                    // Before any arithmetic: `in 1 hour 1000000000 minutes` overflowed (a trap).
                    try tooLarge(n)
                    // 1h30m, not 1h90m: a smaller unit stays below the one before it.
                    if lastSize != Int.max, n * size >= lastSize {
                        throw ScheduleError(text(i..<i + 2), Phrase("invalid duration"), detail: Phrase("say it in the larger unit: 2h30m, not 1h90m"),
                                            accepted: SchedulePhrase.forms)
                    }
                    lastSize = size
                    seconds += n * size
                    // 한 시간 반: an hour and a half.
                    if unitKey == "hours", isKey(i + 2, "half") {
                        seconds += 1800
                        i += 1
                    } else if unitKey == "hours", isKey(i + 2, "and"), isKey(i + 3, "an"), isKey(i + 4, "half") {
                        seconds += 1800
                        i += 3
                    }
                } else if ["day", "일"].contains(unitKey) {
                    guard seconds == 0, calendar == nil, !isKey(i + 2, "th") else { break }
                    try tooLarge(n)
                    calendar = (n, .day)
                } else if unitKey == "week" {
                    guard seconds == 0, calendar == nil else { break }
                    try tooLarge(n)
                    calendar = (n, .week)
                } else if unitKey == "month" {
                    guard seconds == 0, calendar == nil else { break }
                    try tooLarge(n)
                    calendar = (n, .month)
                } else if unitKey == "fortnight" {
                    // in a fortnight: two weeks.
                    guard seconds == 0, calendar == nil else { break }
                    try tooLarge(n)
                    calendar = (2 * n, .week)
                } else {
                    break
                }
                i += 2 + of
                if isKey(i, "and") && (number(i + 1) != nil) { i += 1 }
            }
        }
        guard i > start else { return false }
        let said = text(start..<i)
        // What it is for: after it (마다, 간격, 후, later), or before it.
        var resolved = role
        if isKey(i, "each", "interval") {
            guard role != .relative else { i = start; return false }
            resolved = .step
            i += 1
        } else if isKey(i, "at"), number(i + 1) == 1, isKey(i + 2, "times") {
            // 3일에 한 번, 2시간에 한 번: once every so long.
            guard role != .relative else { i = start; return false }
            resolved = .step
            i += 3
        } else if isKey(i, "at"), isKey(i + 1, "once") {
            // 20분에 한번.
            guard role != .relative else { i = start; return false }
            resolved = .step
            i += 2
        } else if isKey(i, "after") || (isKey(i, "from") && isKey(i + 1, "now", "today")) {
            guard role != .step else { i = start; return false }
            resolved = .relative
            i += isKey(i, "from") ? 2 : 1
        } else if role == .either {
            // "every" before it has been read already: what it counts is a step.
            if pieces.repeats && start > 0 && isKey(start - 1, "every", "other") && (pieces.step == nil || pieces.stepsPair(calendar != nil)) {
                resolved = .step
            } else {
                i = start
                return false
            }
        }
        if resolved == .relative {
            guard pieces.relative == nil else { throw ScheduleError(said, Phrase("more than one duration"), accepted: SchedulePhrase.forms) }
            var total = seconds
            if let (n, unit) = calendar {
                switch unit {
                case .day: total = n * 86_400
                case .week: total = n * 7 * 86_400
                // Months are days of the calendar: said with a time of day, or refused.
                default: total = n * 31 * 86_400
                }
            }
            do { try Limits.check(.in, seconds: total) } catch {
                throw ScheduleError(said, Phrase("invalid duration"), detail: Phrase("it must be %s", Limits.Quantity.in.rangePhrase),
                                    accepted: SchedulePhrase.forms)
            }
            pieces.relative = (total, said)
            pieces.relativeDays = calendar.map { ($0.0, $0.1) }
        } else {
            let new: (count: Int, unit: StepUnit, text: String) = calendar.map { ($0.0, $0.1, said) } ?? (seconds, .seconds(1), said)
            if let old = pieces.step, pieces.stepsPair(calendar != nil) {
                // "every 30 min, 09:00–18:00, Mon, every 2 weeks" (as list says a window of
                // steps every other week; the phrase fuzz target's find: it did not read
                // back), "1시간 30분마다, 2주마다": the days, weeks or months are the period
                // beside the step of time.
                let (time, dayStep) = calendar != nil ? (old, new) : (new, old)
                let unit: Schedule.Period.Unit
                switch dayStep.unit {
                case .day: unit = .day
                case .week: unit = .week
                default: unit = .month
                }
                pieces.step = time
                if dayStep.count > 1 {
                    pieces.period = (unit, dayStep.count)
                    pieces.periodText = dayStep.text
                }
                return true
            }
            guard pieces.step == nil else { throw ScheduleError(said, Phrase("more than one step"), accepted: SchedulePhrase.forms) }
            pieces.repeats = true
            if let (n, unit) = calendar {
                pieces.step = (n, unit, said)
            } else {
                pieces.step = (seconds, .seconds(1), said)
            }
        }
        return true
    }

    // MARK: Weekdays

    /// `mon wed fri`, `mon-fri`, `monday to friday`, `sat and sun`, 월수금, 월~금, `Mon, Wed`.
    mutating func readWeekdays() -> Bool {
        guard let (first, plural) = weekday(i) else { return false }
        let start = i
        var chosen: [Weekday] = [first]
        var many = plural, range = false
        i += 1
        while true {
            if (isMark(i, "-") || isMark(i, "~") || isKey(i, "until", "since")), let (last, _) = weekday(i + 1) {
                var d = chosen.last!
                while d != last {
                    d = Weekday(rawValue: (d.rawValue + 1) % 7)!
                    chosen.append(d)
                }
                // 월요일부터 금요일까지
                i += isKey(i, "since") && isKey(i + 2, "till") ? 3 : 2
                many = true
                range = true
            } else if (isMark(i, ",") || isKey(i, "and") || isMark(i, "/") || isMark(i, "&")), let (next, _) = weekday(i + 1) {
                chosen.append(next)
                i += 2
                many = true
            } else if let (next, _) = weekday(i) {
                chosen.append(next)
                i += 1
                many = true
            } else {
                break
            }
        }
        // 금요일마다: every Friday.
        if isKey(i, "each") {
            pieces.repeats = true
            i += 1
        }
        // "friday next week", 금요일 (in a date, "11월 24일 (화)", read with it).
        if isKey(i, "next"), isKey(i + 1, "week") {
            pieces.week = 1
            i += 2
        }
        pieces.days.formUnion(chosen)
        pieces.dayTexts.append(text(start..<i))
        if many { pieces.manyDays = true }
        if !range { pieces.dayNamed = true }
        return true
    }
}

extension PhraseReader {
    func failure(_ token: String, _ problem: Phrase, _ detail: Phrase? = nil) -> ScheduleError {
        ScheduleError(token, problem, detail: detail, accepted: SchedulePhrase.forms)
    }
}
