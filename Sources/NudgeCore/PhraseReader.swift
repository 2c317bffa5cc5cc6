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
    /// What the words said so far: written only by ``put(_:)`` (and set back by
    /// ``restore(_:)`` after a reading tried and given up).
    private(set) var pieces = PhrasePieces()
    /// A half of the day said before the hour it goes with (오후 3시, tomorrow morning at 8).
    var pendingHalf: (SaidTime.Half, String)?
    /// Parts of the day joined to the one pending ("morning and evening at 8"): they take
    /// the hour it takes, or their own when none is said.
    var awaitingHour: [(SaidTime.Half, String)] = []
    /// A window's end is being read: minutes followed by 간격 or 마다 are the step.
    var readingWindowEnd = false
    /// Words not read, by their places, neighbours together.
    var leftover: [Range<Int>] = []
    /// The days said last, where their words end, and the pieces' days before them: 빼고
    /// after them leaves them out (일요일 빼고).
    var lastDays: (days: Set<Weekday>, start: Int, end: Int, before: PhrasePieces)?
    /// The order the person's locale writes a numeric date in: 3/4 is read in it, and said;
    /// `nil` (C, or not known): refused as written both ways.
    var dateOrder: DateOrder?
    /// The rules that read, in order, when asked for (`PhraseRulesTests`): nil, nothing kept.
    var trace: [String]?
    /// The kinds of piece made, in order, while a trace is kept: each rule's are those made
    /// while it read.
    var made: [PhrasePiece.Kind] = []
    var madeBy: [String: Set<PhrasePiece.Kind>] = [:]

    init(words: [PhraseWord], source: [Character]) {
        (self.words, self.source) = (words, source)
    }


    /// Pieces a rule found: the one way the words become pieces.
    mutating func put(_ found: PhrasePiece...) {
        for piece in found {
            pieces.add(piece)
            if trace != nil || Self.checksMakes { made.append(piece.kind) }
        }
    }

    /// How many times of day were said so far, a part of the day waiting for its hour too.
    var timesSaid: Int { pieces.times.count + pieces.halves.count + (pendingHalf == nil ? 0 : 1) }

    /// Whether each rule that reads is checked to have made only the kinds of piece its row
    /// says (debug builds: every phrase a test reads checks the table).
    static let checksMakes = _isDebugAssertConfiguration()

    func checkMakes(_ rule: PhraseRule, since mark: Int) {
        let undeclared = Set(made[mark...]).subtracting(rule.makes)
        guard !undeclared.isEmpty else { return }
        let kinds = undeclared.map(\.rawValue).sorted().joined(separator: ",")
        if ProcessInfo.processInfo.environment["NUDGE_PRINT_MAKES"] != nil {
            FileHandle.standardError.write(Data("MAKES\t\(rule.name)\t\(kinds)\n".utf8))
        } else {
            assertionFailure("the rule \(rule.name) made \(kinds), which its row of the table does not say")
        }
    }

    /// The pieces as they were before a reading that was tried and given up.
    mutating func restore(_ before: PhrasePieces) {
        pieces = before
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

    /// Whether a step of whole hours was said (every hour, 매시간, 2시간마다).
    var hourlyStep: Bool {
        guard let step = pieces.step, case .seconds(let unit) = step.unit else { return false }
        return (step.count * unit) % 3600 == 0
    }

    /// Whether the words before `k` end a time of day (9시, 9:00, 9am): 정각 after one is
    /// "sharp", not a minute of every hour.
    func saidTimeBefore(_ k: Int) -> Bool {
        number(k - 1) != nil || isKey(k - 1, "시", "minutes", "am", "pm", "oclock", "noon", "midnight")
    }

    /// Whether the part of the day at `k` is said in the plural ("saturday mornings",
    /// "evenings"): like "mondays", it repeats (it was once, on the coming Saturday).
    func isPluralHalf(_ k: Int) -> Bool {
        guard let word = word(k), let key = word.key, Self.halves[key] != nil, word.readAs == nil else { return false }
        return word.text.count > key.count && word.text.hasSuffix("s")
    }

    /// A holiday on a fixed date at `k`, and how many words say it: christmas (day),
    /// christmas eve, new year's day (and eve), valentine's (day), halloween, 크리스마스 (이브), 새해 첫날,
    /// 신정, 삼일절, 어린이날, 현충일, 광복절, 개천절, 한글날, 발렌타인데이 (밸런타인데이), 할로윈 (핼러윈),
    /// 화이트데이, 만우절, 빼빼로데이.
    func holiday(_ k: Int) -> (month: Int, day: Int, length: Int)? {
        guard let key = key(k) else { return nil }
        switch key {
        case "christmas":
            if isKey(k + 1, "eve") { return (12, 24, 2) }
            return (12, 25, isKey(k + 1, "day") && word(k + 1)?.text == "day" ? 2 : 1)
        case "new":
            // new year's day, new years day; new year's eve, the day before (31 December).
            guard isKey(k + 1, "year") else { return nil }
            if isKey(k + 2, "eve") { return (12, 31, 3) }
            guard isKey(k + 2, "day"), word(k + 2)?.text == "day" else { return nil }
            return (1, 1, 3)
        case "newyear":
            // 새해 첫날, 새해 첫 날; 새해 전날 is new year's eve.
            if isKey(k + 1, "firstday") { return (1, 1, 2) }
            if isKey(k + 1, "daybefore") { return (12, 31, 2) }
            if isKey(k + 1, "first"), isKey(k + 2, "day") { return (1, 1, 3) }
            return nil
        case "st":
            // st patrick's day, st paddy's day.
            guard isKey(k + 1, "patrick"), let (month, day, length) = holiday(k + 1) else { return nil }
            return (month, day, 1 + length)
        case "patrick", "boxing", "leap", "veterans", "bonfire", "bastille", "anzac", "remembrance", "canada", "australia":
            // st patrick's day (3/17), boxing day (12/26), leap day (2/29), veterans day
            // (11/11), bonfire night (11/5), bastille day (7/14), anzac day (4/25),
            // remembrance day (11/11), canada day (7/1), australia day (1/26): said with
            // their day (or night), never alone.
            let dates: [String: (Int, Int)] = ["patrick": (3, 17), "boxing": (12, 26), "leap": (2, 29), "veterans": (11, 11), "bonfire": (11, 5),
                                               "bastille": (7, 14), "anzac": (4, 25), "remembrance": (11, 11), "canada": (7, 1), "australia": (1, 26)]
            let after = key == "bonfire" ? "night" : "day"
            guard let (month, day) = dates[key], isKey(k + 1, after), word(k + 1)?.text == after else { return nil }
            return (month, day, 2)
        case "apr", "all", "pi", "pepero", "white":
            // april fools (day), all saints (day), pi day, pepero day, white day (화이트데이): a
            // name and, for the first two, day.
            let named: [String: (String, Int, Int)] = ["apr": ("fools", 4, 1), "all": ("saints", 11, 1), "pi": ("day", 3, 14), "pepero": ("day", 11, 11),
                                                       "white": ("day", 3, 14)]
            guard let (next, month, day) = named[key], isKey(k + 1, next) else { return nil }
            let dayAfter = !["pi", "pepero", "white"].contains(key) && isKey(k + 2, "day") && word(k + 2)?.text == "day"
            return (month, day, dayAfter ? 3 : 2)
        case "nye":
            // nye: new year's eve, as texting writes it.
            return (12, 31, 1)
        case "ides":
            // the ides of march (15 March).
            guard isKey(k + 1, "of"), isKey(k + 2, "mar") else { return nil }
            return (3, 15, 3)
        default:
            guard let (month, day) = PhraseWords.holidays[key] else { return nil }
            // valentine's day, valentines day.
            return (month, day, key == "valentine" && word(k + 1)?.text == "day" ? 2 : 1)
        }
    }

    /// A holiday whose date moves at `k`, with the words it takes: easter (sunday, monday),
    /// good friday, thanksgiving (day), black friday, memorial day, labor day, election day,
    /// 부활절 (월요일), 블랙프라이데이.
    func movableHoliday(_ k: Int) -> (MovableHoliday, length: Int)? {
        func day(_ at: Int) -> Bool { isKey(at, "day") && word(at)?.text == "day" }
        switch key(k) {
        case "easter":
            guard let (weekday, plural) = weekday(k + 1), !plural else { return (.easter, 1) }
            return weekday == .sunday ? (.easter, 2) : weekday == .monday ? (.easterMonday, 2) : (.easter, 1)
        case "good": return weekday(k + 1).map { $0 == (.friday, false) } == true ? (.goodFriday, 2) : nil
        case "thanksgiving": return (.thanksgiving, day(k + 1) ? 2 : 1)
        case "black": return weekday(k + 1).map { $0 == (.friday, false) } == true ? (.blackFriday, 2) : nil
        case "blackfriday": return (.blackFriday, 1)
        case "memorial": return day(k + 1) ? (.memorialDay, 2) : nil
        case "labor": return day(k + 1) ? (.laborDay, 2) : nil
        case "election": return day(k + 1) ? (.electionDay, 2) : nil
        case "mothering": return weekday(k + 1).map { $0 == (.sunday, false) } == true ? (.motheringSunday, 2) : nil
        // 설날, 구정, seollal; 추석, 한가위, chuseok; 당일 after them is the day itself.
        case "seollal": return (.seollal, isKey(k + 1, "당일") ? 2 : 1)
        case "chuseok": return (.chuseok, isKey(k + 1, "당일") ? 2 : 1)
        default: return nil
        }
    }

    /// England's bank holidays at `k`: "(early) may (day) bank holiday", "spring bank
    /// holiday", "summer bank holiday", "august bank holiday".
    func bankHoliday(_ k: Int) -> (MovableHoliday, length: Int)? {
        var j = k
        if word(j)?.text == "early", word(j + 1)?.text == "may" { j += 1 }
        let holiday: MovableHoliday
        switch word(j)?.text {
        case "may": holiday = .earlyMayBankHoliday
        case "spring": holiday = .springBankHoliday
        case "summer", "august": holiday = .summerBankHoliday
        default: return nil
        }
        j += 1
        if holiday == .earlyMayBankHoliday, word(j)?.text == "day" { j += 1 }
        guard word(j)?.text == "bank", word(j + 1)?.text == "holiday" else { return nil }
        return (holiday, j + 2 - k)
    }

    /// A holiday whose date moves at `k` set as the date: its coming day, once (stage
    /// three finds it).
    mutating func setMovable(_ holiday: MovableHoliday, length: Int) throws(ScheduleError) {
        guard pieces.movable == nil, pieces.date == nil else { throw failure(text(i..<i + length), Phrase("more than one date")) }
        put(.movable(holiday, text(i..<i + length)))
        i += length
    }

    /// 전날, 다음날, 이튿날 after a holiday just read (추석 전날, 크리스마스 다음날): the day before or
    /// after it.
    mutating func readHolidayShift() {
        guard let key = key(i), key == "daybefore" || key == "dayafter", pieces.holidayShift == nil else { return }
        put(.holidayShift(key == "daybefore" ? -1 : 1, words[i].text))
        i += 1
    }

    /// "same time", "the same time", "this time", 같은 시간, 이 시간 at `k`: how many words.
    func sameTime(_ k: Int) -> Int? {
        let skip = isKey(k, "the") ? 1 : 0
        if (isKey(k + skip, "same") && word(k + skip)?.text == "same" || (skip == 0 && isKey(k, "this") && word(k)?.text == "this")),
           word(k + skip + 1)?.text == "time" {
            return skip + 2
        }
        if isKey(k, "same") || word(k)?.text == "이", isKey(k + 1, "hours"), word(k + 1)?.text.hasPrefix("시간") == true, number(k - 1) == nil {
            return 2
        }
        return nil
    }

    /// Whether a weekday is at `k`: a name, or 월 and 일 not after a number (12월 is December).
    func weekday(_ k: Int) -> (Weekday, plural: Bool)? {
        guard let key = key(k) else { return nil }
        // "the sun", "the sat": the words, not Sunday and Saturday ("read the sun at 10am").
        if isKey(k - 1, "the"), let text = word(k)?.text, ["sun", "sat", "wed"].contains(text) { return nil }
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
        // A part of the day with no hour after it: said alone.
        if let pending = pendingHalf { put(.half(pending.0, pending.1)) }
        for (half, said) in awaitingHour { put(.half(half, said)) }
        guard leftover.isEmpty else {
            // TRANSLATORS: a schedule phrase had words Nudge did not read; %s names them.
            throw ScheduleError(leftover.map(typed).joined(separator: ", "), Phrase("words not understood"),
                                detail: Phrase("nothing is stored when a word is left over"), accepted: SchedulePhrase.forms)
        }
        return pieces
    }

    /// Reads what starts at `i` with the first rule of ``rules`` that takes it; false when
    /// none does.
    mutating func readOne() throws(ScheduleError) -> Bool {
        for rule in Self.rules(at: words[i].key) {
            let mark = made.count
            switch try rule.read(&self) {
            case .read:
                if Self.checksMakes { checkMakes(rule, since: mark) }
                if trace != nil {
                    trace?.append(rule.name)
                    madeBy[rule.name, default: []].formUnion(made[mark...])
                }
                return true
            case .refused:
                made.removeSubrange(mark...)
                return false
            case .notHere:
                made.removeSubrange(mark...)
                continue
            }
        }
        return false
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
        put(.repeats)
        switch unit {
        case .seconds(let size):
            guard n == 1, pieces.step == nil else { throw failure(said, Phrase("more than one step")) }
            put(.step(count: size, unit: .seconds(1), text: said))
        case .day: put(.everyDay)
        case .month: put(.monthly)
        case .week: break
        }
        put(.frequency(count: n, unit: unit, text: said))
    }

    /// How long a step goes on, from now: "for the next hour", "for 2 hours", "over the next
    /// 30 minutes", "for another 3 days"; 앞으로 1시간 동안 (동안 alone is read with its
    /// duration, ``readDuration(role:)``).
    mutating func readLasting() throws(ScheduleError) -> Bool {
        let start = i
        // Looked for only after a number: the reader comes here at every word.
        func saysLength() -> Bool { (i + 1...i + 6).contains { isKey($0, "during") || Self.lengthWords[word($0)?.text ?? ""] != nil } }
        if isKey(i, "ahead") || (number(i) != nil && pieces.lasting == nil && saysLength()) {
            let before = pieces
            // 앞으로 3일 (동안), 3일 동안, 3일간: a length, read before a date takes 3일 for
            // the 3rd; 앞으로 only before a length.
            let ahead = isKey(i, "ahead")
            if ahead { i += 1 }
            if try readDuration(role: ahead ? .lasting : .either), let lasting = pieces.lasting {
                put(.lasting(count: lasting.count, unit: lasting.unit, text: text(start..<i)))
                return true
            }
            i = start
            restore(before)
            return false
        }
        guard let said = word(i)?.text else { return false }
        if said == "next", number(i + 1) != nil {
            // "next 2 hours" (stretch every 20 min): a count is a length; "next week" is a date's.
            i += 1
            guard try readDuration(role: .lasting) else { i = start; return false }
            saidLasting(from: start)
            return true
        }
        // for, over, during, within the next hour; "in the next hour" (in alone is "in 20 minutes").
        switch said {
        case "for", "over", "during", "within": break
        case "in" where isKey(i + 1, "next") || (isKey(i + 1, "the") && isKey(i + 2, "next")): break
        default: return false
        }
        i += 1
        if isKey(i, "the"), isKey(i + 1, "next") { i += 2 } else if isKey(i, "next") || word(i)?.text == "another" { i += 1 }
        if i > start + 1, let unit = key(i), ["hours", "minutes", "day", "week"].contains(unit), number(i - 1) == nil {
            // "the next hour", "the next day": one of it.
            guard pieces.lasting == nil else { throw ScheduleError(text(start..<i + 1), Phrase("more than one duration"), accepted: SchedulePhrase.forms) }
            switch stepUnit(unit) {
            case .seconds(let size)?: put(.lasting(count: size, unit: .seconds(1), text: ""))
            default: put(.lasting(count: 1, unit: unit == "day" ? .day : .week, text: ""))
            }
            i += 1
        } else if !(try readDuration(role: .lasting)) {
            i = start
            return false
        }
        saidLasting(from: start)
        return true
    }

    /// The length just read, with all its words from `start` ("for the next 2 hours").
    mutating func saidLasting(from start: Int) {
        guard let lasting = pieces.lasting else { return }
        put(.lasting(count: lasting.count, unit: lasting.unit, text: text(start..<i)))
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
        // 둘째, 넷째 주 일요일, the first and third monday: places of one weekday.
        var places = [n]
        let ordinals = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]
        while isMark(k, ",") || isKey(k, "and"), let next = key(k + 1).flatMap({ ordinals[$0] }) {
            places.append(next)
            k += 2
            if isKey(k, "th") { k += 1 }
        }
        // 첫째 주 월요일, 마지막 주 금요일: the week's weekday is the month's place.
        if isKey(k, "week"), weekday(k + 1) != nil { k += 1 }
        if let (day, _) = weekday(k) {
            for place in places { put(.place(place, text(start..<k + 1))) }
            put(.days([day], text: words[k].text, many: false, named: false))
            i = k + 1
        } else if isKey(k, "day"), n == -1, places.count == 1 {
            put(.monthDay(-1, last: nil))
            i = k + 1
        } else if n == -1, places.count == 1, isKey(k, "weekdays") && !words[k].text.hasSuffix("s")
                    || (isKey(k, "business") && isKey(k + 1, "day")) {
            // the last weekday (working day, business day) of the month, 마지막 평일: its last
            // Monday to Friday, every month (the sets written without our tables meant it so).
            put(.monthDay(Schedule.Restriction.lastWeekday, last: nil), .monthly)
            i = k + (isKey(k, "business") ? 2 : 1)
        } else if places.count == 1, n > 0, isKey(k, "of"), isKey(k + 1, "next", "this"), isKey(k + 2, "month"), pieces.monthOffset == nil {
            // the first of next month: that day of that month, once.
            put(.monthDay(n, last: nil), .monthOffset(isKey(k + 1, "next") ? 1 : 0, text(k + 1..<k + 3)))
            i = k + 3
            return true
        } else if places.count == 1, isKey(k, "of"), isKey(k + 1, "month") || (isKey(k + 1, "the", "every") && isKey(k + 2, "month")) {
            // the first of every month, the last of the month: a day of the month.
            put(.monthDay(n, last: n == -1 ? text(start..<k) : nil))
            i = k
        } else {
            return false
        }
        // "of the month", "of every month": said after; 매월, monthly, every: said before.
        // A weekday's place "of the month" is every month's (the sets written without our
        // tables meant "last friday of the month at 4pm" so); a day of it alone ("the last
        // day of the month at 6pm") is the coming one, once, as they meant that.
        let ofTheMonth = pieces.places.isEmpty ? PhrasePiece.ofTheMonth(text(i..<min(i + 3, words.count))) : .monthly
        if isKey(i, "of"), isKey(i + 1, "every"), isKey(i + 2, "month") {
            put(.monthly)
            i += 3
        } else if isKey(i, "of"), isKey(i + 1, "the"), isKey(i + 2, "month") {
            put(ofTheMonth)
            i += 3
        } else if isKey(i, "of"), isKey(i + 1, "month") {
            put(pieces.places.isEmpty ? .ofTheMonth(text(i..<i + 2)) : .monthly)
            i += 2
        }
        return true
    }
}

extension PhraseReader {
    func failure(_ token: String, _ problem: Phrase, _ detail: Phrase? = nil) -> ScheduleError {
        ScheduleError(token, problem, detail: detail, accepted: SchedulePhrase.forms)
    }
}
