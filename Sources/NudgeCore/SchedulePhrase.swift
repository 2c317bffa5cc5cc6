import Foundation

/// What a schedule phrase was read as: the schedule the flags would make, and what was
/// chosen on the person's behalf (a bare hour in a one-shot), to be said back to them.
public struct PhraseReading: Sendable, Hashable {
    /// The schedule.
    public var schedule: Schedule
    /// What was chosen where the words left a choice, each a phrase to show.
    public var notes: [Phrase]
    /// The flags that make the same schedule, as said (`--in 20m`, `--every 2h --from
    /// 09:00 --until 18:00`); `nil` when only words say it (every other Friday).
    public var flags: String?
}

/// Reads a schedule said in words, English or Korean ("every weekday at 9:30", "매일 오전
/// 9시", "평일 오전 9시 30분부터 오후 9시 30분까지 30분마다") into the ``Schedule`` the flags
/// make: one meaning, two spellings. Pure: the clock and the zone come in as values, and
/// both languages are read whatever the person's is. It never guesses silently: words left
/// over, a bare hour in a repeating schedule, 12시, "next friday" and 12/1 are refused with
/// the readings; the one choice it makes (a bare hour in a one-shot takes the next such
/// time) comes back in ``PhraseReading/notes``. The grammar is in the README.
public enum SchedulePhrase {
    /// The most UTF-8 bytes a phrase may have; a longer one is refused at once.
    public static let maxLength = PhraseWords.maxLength

    // TRANSLATORS: what a schedule phrase may say (keep the examples: they are what to type).
    static let forms = Phrase("say e.g. every weekday at 9:30, in 20 minutes, tomorrow 9am, every 30 minutes from 9:30 to 21:30, 매일 오전 9시")

    /// The schedule `text` says, read at `now` in `zone`.
    public static func read(_ text: String, now: Date, zone: TimeZone) throws(ScheduleError) -> PhraseReading {
        guard text.utf8.count <= PhraseWords.maxLength else {
            // TRANSLATORS: %d is the most characters a schedule phrase may have.
            // Twenty characters, and no more than forty scalars: one character can carry any
            // number of combining marks.
            var head = String(text.prefix(20))
            if head.unicodeScalars.count > 40 { head = String(String.UnicodeScalarView(head.unicodeScalars.prefix(40))) }
            throw ScheduleError(head + "…", Phrase("schedule phrase too long"),
                                // TRANSLATORS: %d is the most bytes of UTF-8 a schedule phrase may have (a Korean letter is 3).
                                detail: Phrase("it may have at most %d bytes", PhraseWords.maxLength), accepted: forms)
        }
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw ScheduleError("", Phrase("no schedule given"), accepted: forms) }
        // A cron expression is read as cron reads it ("cron 0 9 * * mon-fri", as list says it).
        if trimmed.lowercased().hasPrefix("cron ") {
            let schedule = Schedule.cron(try CronExpression(String(trimmed.dropFirst(5))))
            return PhraseReading(schedule: schedule, notes: [], flags: schedule.flagsText(in: zone))
        }
        // A place is a name, read as written (networks' names are case-sensitive).
        if let trigger = try PlaceTrigger.phrase(trimmed) {
            return PhraseReading(schedule: .place(trigger), notes: [], flags: trigger.flagsText)
        }
        let (words, source) = PhraseWords.split(trimmed, zone: zone)
        var reader = PhraseReader(words: words, source: source, now: now, zone: zone)
        try reader.readAll()
        var reading = try reader.schedule()
        reading.flags = reader.flags ?? reading.schedule.flagsText(in: zone)
        return reading
    }
}

/// A time of day as said: its numbers, and what says which half of the day it is in.
struct SaidTime: Sendable, Hashable {
    enum Half: Sendable, Hashable {
        case am, pm, dawn, morning, daytime, afternoon, evening, night, noon, midnight
    }

    var hour: Int
    var minute = 0
    var second = 0
    var half: Half?
    /// Written on a 24-hour clock (`9:30`, `21:00`), which says the half of the day.
    var clock = false
    var text: String

    /// Its readings: one when the words say it; a spoken hour 1–12 without a half of the
    /// day has two (9시: 09:00 or 21:00; 12시: noon or midnight). A reading may fall on the
    /// next day (밤 12시 is 24:00).
    func readings() throws(ScheduleError) -> [(time: LocalTime, nextDay: Bool)] {
        let bad = ScheduleError(text, Phrase("invalid time"), accepted: SchedulePhrase.forms)
        guard (0...59).contains(minute), (0...59).contains(second) else { throw bad }
        func at(_ h: Int, nextDay: Bool = false) throws(ScheduleError) -> (time: LocalTime, nextDay: Bool) {
            guard let time = LocalTime(hour: h, minute: minute, second: second) else { throw bad }
            return (time, nextDay)
        }
        func wrong(_ detail: Phrase) -> ScheduleError { ScheduleError(text, Phrase("invalid time"), detail: detail, accepted: SchedulePhrase.forms) }
        switch half {
        case .noon: return [try at(12)]
        case .midnight: return [try at(0)]
        case .am:
            // 오전 0시 is said too.
            guard (0...12).contains(hour) else { throw wrong(Phrase("the hour must be 1–12 with am, pm, 오전 or 오후")) }
            return [try at(hour % 12)]
        case .pm:
            guard (1...12).contains(hour) else { throw wrong(Phrase("the hour must be 1–12 with am, pm, 오전 or 오후")) }
            return [try at(hour % 12 + 12)]
        case .dawn:
            guard (1...12).contains(hour) else { throw wrong(Phrase("새벽 is 1 to 6 o'clock, 12 for midnight")) }
            return [try at(hour % 12)]
        case .morning:
            guard (1...11).contains(hour) else { throw wrong(Phrase("the morning is 1 to 11 o'clock")) }
            return [try at(hour)]
        case .daytime:
            // 낮 and 점심: 12 is noon, 1 to 7 after it, 8 to 11 before.
            guard (1...12).contains(hour) else { throw wrong(Phrase("the day is 8 o'clock to 7")) }
            return [try at(hour == 12 ? 12 : hour <= 7 ? hour + 12 : hour)]
        case .afternoon:
            guard (1...7).contains(hour) || hour == 12 else { throw wrong(Phrase("the afternoon is 12 to 7 o'clock")) }
            return [try at(hour == 12 ? 12 : hour + 12)]
        case .evening:
            guard (1...11).contains(hour) else { throw wrong(Phrase("the evening is 1 to 11 o'clock")) }
            return [try at(hour + 12)]
        case .night:
            // 밤 12시 is midnight at the night's end, and 밤 1시 an hour after it (25:00, as
            // korean-datetime's lexicon has it).
            if hour == 12 || (1...4).contains(hour) { return [try at(hour % 12, nextDay: true)] }
            guard (5...11).contains(hour) else { throw wrong(Phrase("the night is 5 o'clock to 4 in the morning")) }
            return [try at(hour + 12)]
        case nil:
            // 24:00 is the end of the day: the next day's 00:00.
            if hour == 24, minute == 0, second == 0 { return [try at(0, nextDay: true)] }
            if clock || hour == 0 || (13...23).contains(hour) {
                guard (0...23).contains(hour) else { throw bad }
                return [try at(hour)]
            }
            if hour == 24, minute == 0, second == 0 { return [try at(0, nextDay: true)] }
            guard (1...12).contains(hour) else { throw bad }
            return hour == 12 ? [try at(12), try at(0)] : [try at(hour), try at(hour + 12)]
        }
    }
}

/// Reads the words of a phrase into what it says, then makes the schedule of it.
struct PhraseReader {
    enum StepUnit {
        case seconds(Int), day, week, month
        var isWeek: Bool { if case .week = self { true } else { false } }
    }

    let words: [PhraseWord]
    let source: [Character]
    let now: Date
    let zone: TimeZone
    var i = 0

    var times: [SaidTime] = []
    var windowStart: SaidTime?
    var windowEnd: SaidTime?
    /// `every 30 minutes`, `30분마다`, `every 2 days`.
    var step: (count: Int, unit: StepUnit, text: String)?
    /// Every day said (daily, every day, 매일): every other week then needs no weekday
    /// ("daily at 17:00, every 2 weeks", as list says every day of alternate weeks).
    var everyDaySaid = false
    /// A step of days, weeks or months said beside a step of time (`every 2 weeks`).
    var periodText: String?
    /// `in 20 minutes`, `20분 후`.
    var relative: (seconds: Int, text: String)?
    /// `3일 후`, `in 2 weeks`: days, weeks or months on, which a time of day may follow.
    var relativeDays: (Int, StepUnit)?
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
    var repeats = false
    var once = false
    /// `every other`, 격주.
    var other = false
    var period: (unit: Schedule.Period.Unit, every: Int)?
    var places: [(Int, String)] = []
    var monthDays: [Int] = []
    var monthly = false
    /// Parts of the day said without an hour ("every morning", 저녁).
    var halves: [(SaidTime.Half, String)] = []
    /// A half of the day said before the hour it goes with (오후 3시, tomorrow morning at 8).
    var pendingHalf: (SaidTime.Half, String)?
    var leftover: [Range<Int>] = []
    /// Times said as a list ("9:00 and 13:00", "오전 9시, 오후 1시"): with no day, every day.
    var joined = false
    /// "this wednesday": this one, even when its time has passed.
    var thisDay = false
    /// The flags as said, where they say more than the schedule keeps (a window's end).
    var flags: String?

    init(words: [PhraseWord], source: [Character], now: Date, zone: TimeZone) {
        (self.words, self.source, self.now, self.zone) = (words, source, now, zone)
    }

    // MARK: Looking at words

    func word(_ k: Int) -> PhraseWord? { k >= 0 && k < words.count ? words[k] : nil }
    func key(_ k: Int) -> String? { word(k)?.key }
    func number(_ k: Int) -> Int? { word(k)?.number }
    func isKey(_ k: Int, _ keys: String...) -> Bool { key(k).map(keys.contains) ?? false }
    func isMark(_ k: Int, _ c: Character) -> Bool { word(k)?.isMark(c) ?? false }
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

    mutating func readAll() throws(ScheduleError) {
        while i < words.count {
            let start = i
            if try readOne(), i > start { continue }
            i = start
            // Neighbouring words left over are named as written together.
            if let last = leftover.last, last.upperBound == i { leftover[leftover.count - 1] = last.lowerBound..<i + 1 } else { leftover.append(i..<i + 1) }
            i += 1
        }
        if let pending = pendingHalf { halves.append(pending) }
        guard leftover.isEmpty else {
            // TRANSLATORS: a schedule phrase had words Nudge did not read; %s names them.
            throw ScheduleError(leftover.map(text).joined(separator: ", "), Phrase("words not understood"),
                                detail: Phrase("nothing is stored when a word is left over"), accepted: SchedulePhrase.forms)
        }
    }

    /// Reads what starts at `i`; false when nothing does.
    mutating func readOne() throws(ScheduleError) -> Bool {
        let w = words[i]
        if case .instant(let date) = w.kind {
            instant = (date, w.text)
            i += 1
            return true
        }
        // 한 번: once, as list says a one-shot.
        if number(i) == 1, isKey(i + 1, "times") {
            once = true
            i += 2
            return true
        }
        if try readDate() { return true }
        if try readTimeOrWindow() { return true }
        if try readDuration() { return true }
        if readWeekdays() { return true }
        guard let key = w.key else {
            if w.isMark(",") || w.isMark("&") {
                if !times.isEmpty { joined = true }
                i += 1
                return true
            }
            if w.isMark("(") || w.isMark(")") { i += 1; return true }
            return false
        }
        switch key {
        case "every":
            let start = i
            repeats = true
            i += 1
            if isKey(i, "other") { other = true; i += 1 }
            // "every hour", "every minute": one of the unit.
            if let unit = stepUnit(self.key(i)), case .seconds(let size) = unit {
                // every hour; every other hour is every two.
                step = (other ? 2 * size : size, .seconds(1), text(start..<i + 1))
                i += 1
            } else if isKey(i, "day") {
                if !other { everyDaySaid = true }
                i += 1
            } else if isKey(i, "week") {
                i += 1
            } else if isKey(i, "month") {
                monthly = true
                i += 1
            }
            if other, step == nil {
                // every other day / week / month / friday.
                let unit: Schedule.Period.Unit = words[i - 1].key == "day" ? .day : words[i - 1].key == "month" ? .month : .week
                period = (unit, 2)
                periodText = text(start..<i)
            }
            return true
        case "daily": repeats = true; everyDaySaid = true
        case "weekly": repeats = true
        case "monthly": repeats = true; monthly = true
        case "hourly": repeats = true; step = (3600, .seconds(1), w.text)
        case "otherweek": repeats = true; period = (.week, 2); periodText = w.text
        case "weekdays", "weekends":
            days.formUnion(key == "weekdays" ? [.monday, .tuesday, .wednesday, .thursday, .friday] : [.saturday, .sunday])
            dayTexts.append(w.text)
            manyDays = true
            // "every other weekday": every second working day, or working days every other week?
            if other, period?.unit == .week {
                throw failure(text(max(0, i - 2)..<i + 1), Phrase("ambiguous schedule"),
                              Phrase("every second working day, or the working days of every other week? say every 2 days, or every other week on mon-fri"))
            }
        case "day" where isKey(i + 1, "after") && isKey(i + 2, "tomorrow"):
            // the day after tomorrow
            guard dayOffset == nil else { return false }
            dayOffset = (2, text(i..<i + 3))
            i += 3
            return true
        case "today", "tomorrow", "overmorrow", "in3days", "tonight":
            guard dayOffset == nil else { return false }
            dayOffset = (["today": 0, "tonight": 0, "tomorrow": 1, "overmorrow": 2, "in3days": 3][key]!, w.text)
            if key == "tonight" { pendingHalf = (.night, w.text) }
            i += 1
            // "tomorrow morning", 내일 아침: the half goes with the hour said after it.
            return true
        case "lastday":
            // 말일: the month's last day.
            monthDays.append(-1)
            monthly = true
        case "next", "this", "nextnext":
            i += 1
            if isKey(i, "week") {
                week = key == "next" ? 1 : key == "nextnext" ? 2 : 0
                i += 1
            } else if let (day, _) = weekday(i), key != "nextnext" {
                if key == "next" { nextDay = text(i - 1..<i + 1) }
                if key == "this" { thisDay = true }
                _ = day
            } else if key == "this", let half = Self.halves[self.key(i) ?? ""], half != .am, half != .pm {
                // this morning, this evening: today's, passed or not.
                guard dayOffset == nil else { return false }
                dayOffset = (0, text(i - 1..<i + 1))
            } else if key == "this" {
                // 오는 15일, 다가오는 2월 29일: the coming one, which a date is anyway.
            } else {
                return false
            }
            return true
        case "first", "second", "third", "fourth", "fifth", "last":
            let n = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1][key]!
            return readPlace(n, from: i, skip: 1)
        case "once": once = true
        case "now":
            // at's "now + 20 minutes".
            guard isMark(i + 1, "+") else { return false }
            i += 2
            guard try readDuration(role: .relative) else { return false }
            return true
        case "in":
            // "in 20 minutes"; "8 in the morning" is read with its hour, "in the morning" alone is a half of the day.
            if isKey(i + 1, "the"), let half = Self.halves[self.key(i + 2) ?? ""] {
                if let pending = pendingHalf { halves.append(pending) }
                pendingHalf = (half, text(i..<i + 3))
                i += 3
                return true
            }
            i += 1
            return try readDuration(role: .relative)
        case "half", "quarter":
            return try readTimeOrWindow()
        case "month":
            // "of the month", "each month".
            guard monthly || !places.isEmpty || !monthDays.isEmpty else { return false }
            monthly = true
        case "and":
            if !times.isEmpty { joined = true }
        case "at", "on", "the", "of", "sharp":
            break
        default:
            if let half = Self.halves[key], key != "am", key != "pm" {
                if let pending = pendingHalf { halves.append(pending) }
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
        if let (day, _) = weekday(k) {
            places.append((n, text(start..<k + 1)))
            days.insert(day)
            dayTexts.append(words[k].text)
            i = k + 1
        } else if isKey(k, "day"), n == -1 {
            monthDays.append(-1)
            i = k + 1
        } else {
            return false
        }
        // "of the month", "of every month": said after; 매월, monthly, every: said before.
        if isKey(i, "of"), isKey(i + 1, "the", "every"), isKey(i + 2, "month") {
            monthly = true
            i += 3
        } else if isKey(i, "of"), isKey(i + 1, "month") {
            monthly = true
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
                monthDays += found
                monthly = true
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
        // 2026-12-01
        if words[i].digits == 4, isMark(i + 1, "-"), let m = number(i + 2), isMark(i + 3, "-"), let d = number(i + 4) {
            try setDate(first, m, d, i..<i + 5)
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
            monthDays.append(first)
            i += 2
            return true
        }
        // 두 번째 화요일
        if isKey(i + 1, "th"), weekday(i + 2) != nil { return try readPlace(numbered: first, from: i, skip: 1) }
        return false
    }

    mutating func setDate(_ year: Int?, _ month: Int, _ day: Int, _ range: Range<Int>) throws(ScheduleError) {
        let said = text(range)
        guard date == nil, instant == nil else {
            throw ScheduleError(said, Phrase("more than one date"), accepted: SchedulePhrase.forms)
        }
        guard (1...12).contains(month), (1...31).contains(day), CivilDay(year: year ?? 2000, month: month, day: day) != nil else {
            throw ScheduleError(said, Phrase("invalid date"), accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        if let year, !Limits.years.contains(year) {
            throw ScheduleError(said, Phrase("invalid date"), detail: Phrase("the year must be from %1$d to %2$d", Limits.years.lowerBound, Limits.years.upperBound),
                                accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        date = (year, month, day, said)
        i = range.upperBound
        // A weekday in brackets after it, as list writes it: "11월 24일 (화)".
        if isMark(i, "("), weekday(i + 1) != nil, isMark(i + 2, ")") {
            dayTexts.append(words[i + 1].text)
            days.insert(weekday(i + 1)!.0)
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
            if let pending = pendingHalf {
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
        // A number with a unit after it is a duration, with a month a date.
        if stepUnit(key(i + 1)) != nil || isKey(i + 1, "day", "week", "month", "일", "월", "year", "st", "th", "times") {
            i = start
            return nil
        }
        var time = SaidTime(hour: hour, text: words[i].text)
        i += 1
        if isMark(i, ":"), let minute = number(i + 1), words[i + 1].digits == 2 {
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
            } else if let minute = number(i), isKey(i + 1, "minutes") {
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
            guard let end = try readTime() else { i = mark; times.append(time); return true }
            try setWindow(time, end)
        } else {
            times.append(time)
        }
        return true
    }

    mutating func setWindow(_ start: SaidTime?, _ end: SaidTime?) throws(ScheduleError) {
        if let start {
            guard windowStart == nil else { throw ScheduleError(start.text, Phrase("more than one start"), accepted: SchedulePhrase.forms) }
            windowStart = start
        }
        if let end {
            guard windowEnd == nil else { throw ScheduleError(end.text, Phrase("more than one end"), accepted: SchedulePhrase.forms) }
            windowEnd = end
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
        } else {
            var lastSize = Int.max
            while true {
                let n: Int
                if let value = number(i) { n = value } else if isKey(i, "an") { n = 1 } else { break }
                guard let unitKey = key(i + 1) else { break }
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
                } else {
                    break
                }
                i += 2
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
        } else if isKey(i, "after") || (isKey(i, "from") && isKey(i + 1, "now")) {
            guard role != .step else { i = start; return false }
            resolved = .relative
            i += isKey(i, "from") ? 2 : 1
        } else if role == .either {
            // "every" before it has been read already: what it counts is a step.
            if repeats && start > 0 && isKey(start - 1, "every", "other") && (step == nil || stepsPair(calendar != nil)) {
                resolved = .step
            } else {
                i = start
                return false
            }
        }
        if resolved == .relative {
            guard relative == nil else { throw ScheduleError(said, Phrase("more than one duration"), accepted: SchedulePhrase.forms) }
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
            relative = (total, said)
            relativeDays = calendar.map { ($0.0, $0.1) }
        } else {
            let new: (count: Int, unit: StepUnit, text: String) = calendar.map { ($0.0, $0.1, said) } ?? (seconds, .seconds(1), said)
            if let old = step, stepsPair(calendar != nil) {
                // "every 30 min, 09:00–18:00, Mon, every 2 weeks" (as list says a window of
                // steps every other week; the phrase fuzz target's find: it did not read
                // back), "1시간 30분마다, 2주마다": the days, weeks or months are the period
                // beside the step of time.
                let (time, days) = calendar != nil ? (old, new) : (new, old)
                let unit: Schedule.Period.Unit
                switch days.unit {
                case .day: unit = .day
                case .week: unit = .week
                default: unit = .month
                }
                step = time
                if days.count > 1 {
                    period = (unit, days.count)
                    periodText = days.text
                }
                return true
            }
            guard step == nil else { throw ScheduleError(said, Phrase("more than one step"), accepted: SchedulePhrase.forms) }
            repeats = true
            if let (n, unit) = calendar {
                step = (n, unit, said)
            } else {
                step = (seconds, .seconds(1), said)
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
        var many = plural
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
            repeats = true
            i += 1
        }
        // "friday next week", 금요일 (in a date, "11월 24일 (화)", read with it).
        if isKey(i, "next"), isKey(i + 1, "week") {
            week = 1
            i += 2
        }
        days.formUnion(chosen)
        dayTexts.append(text(start..<i))
        if many { manyDays = true }
        return true
    }
}

extension PhraseReader {
    // MARK: Making the schedule

    func failure(_ token: String, _ problem: Phrase, _ detail: Phrase? = nil) -> ScheduleError {
        ScheduleError(token, problem, detail: detail, accepted: SchedulePhrase.forms)
    }

    mutating func schedule() throws(ScheduleError) -> PhraseReading {
        let clock = CivilZone(zone)
        let today = clock.local(now).day
        var notes: [Phrase] = []

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
        if let next = nextDay {
            let day = Array(days).first ?? .monday
            let coming = Self.coming(day, after: today), following = coming.advanced(by: 7)
            let format = { (d: CivilDay) in Phrase("%1$s (%2$s)", d.description, Phrase(d.weekday.shortName)) }
            throw ScheduleError(next, Phrase("ambiguous day"),
                                // TRANSLATORS: "next friday": %1$s is the coming one's date, %2$s the one a week after.
                                detail: Phrase("the coming one (%1$s) or the one after (%2$s)?", format(coming), format(following)),
                                accepted: Phrase("say this friday or friday next week (이번 주 금요일, 다음 주 금요일), or the date"))
        }
        // Parts of the day said alone: their hours.
        // A time said twice is one time ("9am 9am", "noon 12pm").
        var saidTimes: [SaidTime] = []
        for time in times where !saidTimes.contains(where: { (try? $0.readings().map(\.time)) == (try? time.readings().map(\.time)) && (try? time.readings().count) == 1 }) {
            saidTimes.append(time)
        }
        for (half, text) in halves {
            let hour: [SaidTime.Half: Int] = [.dawn: 6, .morning: 9, .daytime: 12, .afternoon: 15, .evening: 19, .night: 21]
            guard let h = hour[half] else { throw failure(text, Phrase("words not understood")) }
            saidTimes.append(SaidTime(hour: h, clock: true, text: text))
            // TRANSLATORS: a part of the day said without an hour: %1$s as said (evening), %2$s the time taken (19:00).
            notes.append(Phrase("%1$s is read as %2$s", text, LocalTime(hour: h, minute: 0)!.description))
        }
        // 5일 오전 9시, the 5th at 9am: without 매월 or "every month", the coming one, once.
        if monthDays.count == 1, let d = monthDays.first, d > 0, !monthly, !repeats, step == nil, period == nil, places.isEmpty,
           date == nil, instant == nil, dayOffset == nil, days.isEmpty {
            guard let said = saidTimes.first else { throw failure("\(d)", Phrase("no time of day given"), Phrase("say at what time: tomorrow 9am, 내일 오전 9시")) }
            var (year, month, _) = today.components
            var found: CivilDay?
            for _ in 0..<13 {
                if let day = CivilDay(year: year, month: month, day: d), try latest(said, on: day, clock: clock) > now { found = day; break }
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
            guard let found else { throw failure("\(d)", Phrase("invalid date")) }
            let (y, m, _) = found.components
            date = (y, m, d, "\(d)")
            monthDays = []
            // TRANSLATORS: a day of the month said without its month: %1$d the day, %2$s the date taken.
            notes.append(Phrase("day %1$d is read as %2$s, the next such date", d, found.description))
        }

        // "last friday", 첫째 월요일: of which month? Every month is said (매월, of the month, every).
        if (!places.isEmpty || monthDays.contains(-1)), !monthly, !repeats {
            throw failure(places.first?.1 ?? "last day", Phrase("which month?"), Phrase("say of the month, every or 매월 for every month, or give the date"))
        }
        let isRepeating = repeats || manyDays || step != nil || !places.isEmpty || !monthDays.isEmpty || period != nil
            || (saidTimes.count > 1 && joined && times.count == saidTimes.count && date == nil && instant == nil && dayOffset == nil && days.isEmpty && !once)
        if once && isRepeating && (repeats || manyDays || step != nil) { throw failure("once", Phrase("it says once and a repeating schedule")) }

        guard isRepeating else { return try oneShot(saidTimes, today: today, clock: clock, notes: &notes) }
        var reading = try repeating(saidTimes, today: today)
        reading.notes = notes + reading.notes
        return reading
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

    mutating func repeating(_ saidTimes: [SaidTime], today: CivilDay) throws(ScheduleError) -> PhraseReading {
        var windowNotes: [Phrase] = []
        if let instant { throw failure(instant.1, Phrase("a date does not go with a repeating schedule")) }
        if let date { throw failure(date.text, Phrase("a date does not go with a repeating schedule"), Phrase("say the days it repeats on, or leave out the repeating words")) }
        if let dayOffset { throw failure(dayOffset.1, Phrase("a day does not go with a repeating schedule")) }
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
            switch (windowStart, windowEnd) {
            case (nil, nil):
                base = .interval(seconds: seconds, anchor: now, days: weekdays)
            case (let from?, let until?):
                let window = try windowTimes(from, until)
                let (startReadings, endReadings) = (try from.readings(), try until.readings())
                if startReadings.count > 1 || endReadings.count > 1 {
                    // TRANSLATORS: a window said with bare hours: %1$s as said (9 – 5), %2$s the one reading that makes a window (09:00–17:00).
                    windowNotes.append(Phrase("%1$s is read as %2$s", "\(from.text) – \(until.text)", "\(window.start)–\(window.end)"))
                }
                base = .daily(times: window.times(every: seconds), days: weekdays)
                flags = "--every \(Schedule.flagDuration(seconds)) --from \(window.start) --until \(window.end)" + Schedule.daysFlag(weekdays)
            default:
                throw failure((windowStart ?? windowEnd)!.text, Phrase("a window needs a start and an end"), Phrase("say from 9:30 to 21:30, or 9시부터 18시까지"))
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
            for time in saidTimes {
                let reading = try only(time)
                if reading.nextDay && !days.isEmpty && weekdays.count < 7 {
                    // 밤 12시 on a day is midnight at its end: the next day's 00:00.
                    shifts.insert(true)
                } else {
                    shifts.insert(false)
                }
                locals.append(reading.time)
                if time.half == .midnight, !days.isEmpty, weekdays.count < 7 {
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
                if count > 1 { restriction.period = try makePeriod(periodUnit, count, said: said, base: base) }
            }
        }
        if let (unit, every) = period {
            guard restriction.period == nil else { throw failure("", Phrase("more than one step")) }
            // 격주 오전 9시, every other week at 9am: on which day of the week?
            if unit == .week, days.isEmpty, !everyDaySaid { throw failure(dayTexts.first ?? periodText ?? step?.text ?? "", Phrase("which day of the week?"), Phrase("say e.g. 격주 금요일 오후 5시, every other friday at 5pm")) }
            restriction.period = try makePeriod(unit, every, said: "", base: base)
        }
        for (place, said) in places {
            guard let found = Schedule.Place(place, days.count == 1 ? days.first! : .monday), days.count == 1 else {
                throw failure(said, Phrase("invalid day of the month"))
            }
            restriction.places.append(found)
        }
        if !monthDays.isEmpty {
            // Days of the month by number are cron's; from its end, a restriction's.
            if monthDays.allSatisfy({ $0 > 0 }), days.isEmpty, case .daily(let times, _) = base, restriction.isEmpty {
                let hours = Set(times.map(\.hour)), minutes = Set(times.map(\.minute))
                if hours.count * minutes.count == times.count, times.allSatisfy({ $0.second == 0 }) {
                    func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
                    let expression = "\(list(minutes.sorted())) \(list(hours.sorted())) \(list(Array(Set(monthDays)).sorted())) * *"
                    // 매월 31일 has no showing in a month of 30 days: said.
                    let short = monthDays.filter { $0 >= 29 }.map {
                        // TRANSLATORS: a day of every month that some months lack: %1$d the day (31).
                        Phrase("day %1$d is skipped in months without it; for the last day of each month say 말일 or the last day of the month", $0)
                    }
                    return PhraseReading(schedule: .cron(try CronExpression(expression)), notes: short, flags: nil)
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
        if restriction.narrowsDays && base.isInterval {
            throw failure(step?.text ?? "", Phrase("steps of time do not go with every other day or days of the month"),
                          Phrase("say from when to when: every 2 hours from 9 to 18"))
        }
        // The window's flags say the base alone: a restriction (every other week, days of the
        // month) is no flag's, so none are echoed (they were, and made another schedule).
        if !restriction.isEmpty { flags = nil }
        return PhraseReading(schedule: restriction.isEmpty ? base : .restricted(base, restriction), notes: windowNotes, flags: nil)
    }

    /// Whether a step said now goes with the one said before: one of time, the other of
    /// days, weeks or months, and no period said yet.
    func stepsPair(_ newIsCalendar: Bool) -> Bool {
        guard let step, period == nil else { return false }
        if case .seconds = step.unit { return newIsCalendar }
        return !newIsCalendar
    }

    /// Every Nth day, week or month from the one the schedule first fires in.
    func makePeriod(_ unit: Schedule.Period.Unit, _ every: Int, said: String, base: Schedule) throws(ScheduleError) -> Schedule.Period {
        let first = base.occurrences(after: now, count: 1, in: zone).first.map { CivilZone(zone).local($0).day } ?? CivilZone(zone).local(now).day
        guard let period = Schedule.Period(unit: unit, every: every, anchor: first) else { throw failure(said, Phrase("invalid duration")) }
        return period
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
        guard windows.count == 1 else {
            let readings = windows.map { "\($0.start)–\($0.end)" }.joined(separator: ", ")
            throw ScheduleError("\(from.text) – \(until.text)", Phrase("ambiguous window"),
                                // TRANSLATORS: %s lists the windows a phrase could mean (09:00–11:00, 09:00–23:00).
                                detail: Phrase("it could be %s", readings),
                                accepted: Phrase("say am or pm, 오전 or 오후, or write it on a 24-hour clock (21:00)"))
        }
        return window
    }

    mutating func oneShot(_ saidTimes: [SaidTime], today: CivilDay, clock: CivilZone, notes: inout [Phrase]) throws(ScheduleError) -> PhraseReading {
        if windowStart != nil || windowEnd != nil {
            throw failure((windowStart ?? windowEnd)!.text, Phrase("a window needs a step"), Phrase("say every 30 minutes from 9:30 to 21:30"))
        }
        if let (instant, said) = instant {
            guard saidTimes.isEmpty, date == nil, dayOffset == nil, days.isEmpty else { throw failure(said, Phrase("more than one date")) }
            guard instant > now else { throw failure(said, Phrase("that time has passed")) }
            return PhraseReading(schedule: .once(instant), notes: [], flags: nil)
        }
        guard saidTimes.count <= 1 else { throw failure(saidTimes[1].text, Phrase("more than one time for once")) }
        guard let said = saidTimes.first else {
            let token = date?.text ?? dayOffset?.1 ?? dayTexts.first ?? ""
            throw failure(token, token.isEmpty ? Phrase("no schedule given") : Phrase("no time of day given"),
                          Phrase("say at what time: tomorrow 9am, 내일 오전 9시"))
        }
        // The days it may fall on, first to last.
        var day: CivilDay?
        var dayNamed = false
        if let date {
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
            if let week {
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
                } else if !thisDay, try latest(said, on: day!, clock: clock) <= now {
                    // Today's time passed: the same weekday next week ("this wednesday" stays today's).
                    day = day!.advanced(by: 7)
                }
            }
            dayNamed = true
        } else if let offset = dayOffset {
            day = today.advanced(by: offset.0)
            dayNamed = true
        } else if week != nil {
            throw failure(dayTexts.first ?? "week", Phrase("which day of the week?"))
        }
        let readings = try said.readings()
        if said.half == .midnight, dayNamed {
            throw ScheduleError(said.text, Phrase("ambiguous time"), detail: Phrase("midnight at the start of the day or at its end?"),
                                accepted: Phrase("say 0:00 or 24:00, or 밤 12시 for the end of the day"))
        }
        if readings.count > 1 && said.hour == 12 && said.half == nil { throw ambiguous(said, readings.map(\.time)) }
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
        }
        return PhraseReading(schedule: .once(chosen), notes: notes, flags: nil)
    }

    /// The last instant a time may mean on a day (to know whether the day has passed).
    func latest(_ said: SaidTime, on day: CivilDay, clock: CivilZone) throws(ScheduleError) -> Date {
        try said.readings().map { clock.instant($0.nextDay ? day.advanced(by: 1) : day, $0.time) }.max()!
    }
}
