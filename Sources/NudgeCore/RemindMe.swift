import Foundation

/// "Remind me" in words, as the desktop's search hears it (GNOME's overview, KRunner): one
/// line holding a title and when, told apart. Pure: the clock, the zone and the default
/// reminder time come in as values.
///
/// The rule (the README says it): the request words go first — "remind me to", "remind me",
/// "reminder:" before, 알려줘/알려 주세요/알림 after (with their 라고: "전화하라고" is
/// "전화하기"). Then the longest run of words at the end, or else at the start, that reads
/// whole as a schedule is when, and the rest is the title: "call mum tomorrow at 6pm",
/// "물 마시기 30분 후", "내일 오후 3시에 엄마한테 전화하기", "Stand up — every weekday at 9:30".
/// A dash, colon or comma between them, and a "to" starting the title ("at 5pm to call
/// mum"), go. Words that read neither way leave no reading: a phrase with words left over
/// is no reminder.
///
/// A time read one way where the words allow another (a bare hour, a colon time 1–6) gives
/// one reading per way, the one taken first ("at 9" → 9pm and 9am): a search offers both and
/// never guesses.
public enum RemindMe {
    /// One way to read the line: the title, the words of when (as read: the other reading
    /// of a bare hour says it, "tomorrow at 9pm"), and what they make now.
    public struct Reading: Sendable, Hashable {
        public var title: String
        public var when: String
        public var phrase: PhraseReading

        public init(title: String, when: String, phrase: PhraseReading) {
            self.title = title
            self.when = when
            self.phrase = phrase
        }
    }

    /// The most characters a line may have: a title and a phrase at their longest.
    public static let maxLength = Limits.Field.title.limit + SchedulePhrase.maxLength
    /// The most words when is looked for in: the longest everyday schedule has a dozen
    /// ("every 30 minutes from 9:30 to 21:30 on weekdays"); a pasted page stays cheap.
    static let maxWhenWords = 24

    /// Every reading of `line` at `now`: none when it is no reminder. A wake-up ("wake me up
    /// at 6:30", 6시에 깨워줘) is a morning: of its readings, the first in the morning (03:00–
    /// 11:59) alone, titled "wake up" (기상), where there is one.
    public static func readings(_ line: String, now: Date, zone: TimeZone, defaultTime: LocalTime? = nil, dateOrder: DateOrder? = nil) -> [Reading] {
        let found = readingsOfLine(line, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder)
        guard let first = found.first, let title = wakeTitles[folded(first.title)] else { return found }
        let clock = CivilZone(zone)
        let morning = found.first { reading in
            guard let next = reading.phrase.schedule.occurrences(after: now, count: 1, in: zone).first else { return false }
            return (3..<12).contains(clock.local(next).second / 3600)
        }
        guard var reading = morning else { return found.map { var other = $0; other.title = title; return other } }
        reading.title = title
        return [reading]
    }

    /// The note of a day read at the default reminder time.
    static let defaultTimeNote = "at %1$s, your default reminder time; say a time to choose another"

    /// Whether `when` (of `words` words), said before a title, may be the title's own words:
    /// one word of a day, a holiday or a part of the day (tonight show, midnight mass), or a
    /// part of the day with no number (friday night lights, saturday night fever). Not when
    /// it says a number (tomorrow 9am, 세 시), a step (hourly, every hour), or ends in a
    /// Korean particle of time (자정에, 정오쯤).
    static func titleMayHoldIt(_ when: String, words: Int, _ reading: PhraseReading) -> Bool {
        let found = PhraseWords.split(when, zone: TimeZone(identifier: "UTC")!).0
        // 점심때, 저녁때: "at the time of", a time said (점심때 은행 가기), never a title's word.
        if found.contains(where: { $0.number != nil }) || reading.schedule.isStep || when.hasSuffix("에") || when.hasSuffix("쯤") || when.hasSuffix("때") { return false }
        // Noon and midnight with other words of when are a time said (tomorrow at noon, 매일 자정).
        if words > 1, found.contains(where: { $0.key == "noon" || $0.key == "midnight" }) { return false }
        return words == 1 || found.contains { partKeys.contains($0.key ?? "") }
    }

    static let partKeys: Set<String> = ["morning", "afternoon", "evening", "night", "tonight", "dawn", "daytime", "lunch", "noon", "midnight"]

    /// A wake-up's words, and its title.
    static let wakeTitles: [String: String] = [
        "wake me up": "wake up", "wake me": "wake up", "wake up": "wake up", "wake-up call": "wake up", "wake up call": "wake up",
        "깨워줘": "기상", "깨워 줘": "기상", "깨워주세요": "기상", "깨워 주세요": "기상", "나 깨워줘": "기상", "기상": "기상",
    ]

    static func readingsOfLine(_ line: String, now: Date, zone: TimeZone, defaultTime: LocalTime?, dateOrder: DateOrder?) -> [Reading] {
        guard line.count <= maxLength else { return [] }
        let words = request(line).split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return [] }
        func reading(_ phrase: String) -> Result<PhraseReading, ScheduleError> {
            // No suggestion is looked for: a refusal here only means "not this split".
            do throws(ScheduleError) {
                return .success(try SchedulePhrase.read(phrase, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder, suggesting: false))
            } catch {
                return .failure(error)
            }
        }
        func read(_ phrase: String) -> PhraseReading? { try? reading(phrase).get() }
        // Words that read whole as a schedule have no title ("tomorrow at 6pm" is not
        // "tomorrow", at 6pm); nor do words refused whole for what they say rather than for
        // words not understood ("31/11 at 9am", "2026.11.20 오후 2시"): the date refused would
        // be the title of a reminder at the time left.
        switch reading(trimmedWhen(words.joined(separator: " "))) {
        case .success: return []
        case .failure(let refusal) where !["words not understood", "ambiguous time"].contains(refusal.problem.template): return []
        case .failure: break
        }
        // Longest when first; at the end before at the start.
        for length in stride(from: min(words.count - 1, maxWhenWords), through: 1, by: -1) {
            for atEnd in [true, false] {
                var whenWords = Array(atEnd ? words.suffix(length) : words.prefix(length))
                var titleWords = Array(atEnd ? words.prefix(words.count - length) : words.suffix(words.count - length))
                // A number starting when belongs to the title before it ("chapter 10 tomorrow",
                // "room 101 at 5pm"): when starts at a word that says it is a time.
                // A day of the month before its month's name is a date ("dinner 12 april at 3pm",
                // "flight 7 oct 2:30am").
                // So does a number in words ("Alpha one" was Alpha at 1:00, "Apollo eleven").
                if atEnd, whenWords[0].allSatisfy(\.isNumber) || PhraseWords.englishNumbers[whenWords[0].lowercased()] != nil,
                   !(whenWords.count > 1 && monthNames.contains(whenWords[1].lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".,")))) { continue }
                // So does an ordinal without "the" or "on" ("celebrate our 25th at 7pm", "mark's
                // 30th at 8pm" are no dates), and a part of the day after a title's words
                // ("game night friday at 8pm", "fight night at 1": the title's night).
                // An ordinal before a weekday or "of" a month is a date's ("book club 1st monday
                // of every month 7pm", "fireworks 4th of july at 9:30pm").
                let ordinalDate = whenWords.count > 1 && (PhraseWords.weekdayKeys[String(whenWords[1].lowercased().prefix(3))] != nil
                    || whenWords[1].lowercased() == "of" && whenWords.count > 2 && monthNames.contains(whenWords[2].lowercased()))
                if atEnd, !titleWords.isEmpty, isOrdinal(whenWords[0]) && !ordinalDate || partsOfDay.contains(whenWords[0].lowercased()) { continue }
                // And noon or midnight alone after them ("high noon"; "lunch at noon" says at).
                if atEnd, !titleWords.isEmpty, whenWords.count == 1, ["noon", "midnight", "midday"].contains(whenWords[0].lowercased()) { continue }
                // 저녁, 아침, 점심 are meals too: before a title ("7시 반에 저녁 먹기") the meal is
                // the title's when the words before it say the time alone.
                if !atEnd, let last = whenWords.last, meals.contains(last) {
                    // Where they do not ("물 마시기 저녁" before 8시), a shorter when is tried.
                    guard whenWords.count > 1, read(trimmedWhen(whenWords.dropLast().joined(separator: " "))) != nil else { continue }
                    titleWords.insert(whenWords.removeLast(), at: 0)
                }
                // A word of how often next to the title that says nothing more than the rest of
                // when ("every monday 8:30 weekly report", "매주 월요일 9시 주간 회의") is the
                // title's: the next split, shorter, gives it to the title.
                if whenWords.count > 1, let edge = atEnd ? whenWords.first : whenWords.last, howOften.contains(edge.lowercased()),
                   let whole = read(trimmedWhen(whenWords.joined(separator: " "))),
                   case let restText = trimmedWhen((atEnd ? Array(whenWords.dropFirst()) : Array(whenWords.dropLast())).joined(separator: " ")),
                   let rest = read(restText), whole.schedule == rest.schedule, saysItRepeats(restText) {
                    continue
                }
                // A holiday's name next to the title that says no more than the rest of when
                // ("march 14 at 6pm white day gift", 글피 오후 3시 어버이날 선물 사기): the
                // title's.
                if !atEnd, whenWords.count > 1, !titleWords.isEmpty {
                    // Its name whole: "day" alone (every day) starts none.
                    for k in 1...min(3, whenWords.count - 1) where isHoliday(whenWords.suffix(k).joined(separator: " "))
                        && !["day", "days", "eve", "night"].contains(whenWords.suffix(k).first!.lowercased()) {
                        let restText = trimmedWhen(whenWords.dropLast(k).joined(separator: " "))
                        guard let rest = read(restText), let whole = read(trimmedWhen(whenWords.joined(separator: " "))), whole.schedule == rest.schedule,
                              let named = trimmedTitle((whenWords.suffix(k) + titleWords).joined(separator: " "), atEnd: false) else { continue }
                        return [Reading(title: named, when: restText, phrase: rest)]
                    }
                }
                // A word of how often between a when that does not repeat and the title
                // ("monday at 9 weekly report"): the title's (a weekly report, on Monday) or
                // when's (every Monday). Both, the title's first, and `nudge add` asks.
                if !atEnd, whenWords.count > 1, let edge = whenWords.last, howOften.contains(edge.lowercased()), !titleWords.isEmpty,
                   case let restText = trimmedWhen(whenWords.dropLast().joined(separator: " ")), !saysItRepeats(restText),
                   let rest = read(restText), let whole = read(trimmedWhen(whenWords.joined(separator: " "))), whole.schedule != rest.schedule,
                   let named = trimmedTitle(([edge] + titleWords).joined(separator: " "), atEnd: false),
                   let plain = trimmedTitle(titleWords.joined(separator: " "), atEnd: false), read(named) == nil {
                    return [Reading(title: named, when: restText, phrase: rest),
                            Reading(title: plain, when: trimmedWhen(whenWords.joined(separator: " ")), phrase: whole)]
                }
                let when = trimmedWhen(whenWords.joined(separator: " "))
                guard !when.isEmpty, when.utf8.count <= SchedulePhrase.maxLength,
                      let title = trimmedTitle(titleWords.joined(separator: " "), atEnd: atEnd) else { continue }
                // A title that ends in a word that only leads into when ("payday on the last",
                // "cards a week from") had when cut short: the words of when that were not
                // read would be lost, and the rest read as something else. No reading.
                // A title that holds a time of its own ("call mum at 6pm and take pill at
                // 9pm"): two reminders, or one of them lost. No reading. (Looked at only once
                // when reads: the search reads every line it is given.)
                let dangling = {
                    atEnd && (titleWords.last.map { danglers.contains($0.lowercased()) } == true || endsLikeADate(titleWords)) || saysATime(title)
                }
                let result = reading(when)
                switch result {
                case .success where dangling(): return []
                case .failure(let refusal) where refusal.problem.template == "ambiguous time" && dangling(): return []
                default: break
                }
                switch result {
                case .success(let first) where !atEnd && (titleMayHoldIt(when, words: whenWords.count, first) || first.notes.contains { $0.template == defaultTimeNote }):
                    // When before the title without a number (friday night lights, tonight show,
                    // midnight mass, christmas tree with a default time set, Mon Ami cafe): a
                    // title's words as often as a day; the next split is tried, and none reads.
                    _ = first
                    continue
                case .success(let first):
                    // A title that is itself a time ("정오에" before 점심) leaves it unclear which is which;
                    // so does one that starts or ends with words of when ("tomorrow call mum at 6pm",
                    // "in 2 days call mum at 9am", 내일 엄마 전화 오후 6시): those would be dropped.
                    if read(title) != nil { return [] }
                    switch saysOnlyHowOften(titleWords, when: when, first: first, reading: reading) ? .none : edgeWhen(titleWords, reading) {
                    case .when:
                        // "tomorrow call mum at 6pm", "halloween party at 7pm", 매일 물 마시기
                        // 오전 9시: a day at the title's start and the time at its end are one
                        // when around the title; otherwise unclear.
                        guard atEnd else { return [] }
                        return around(titleWords, when: when, read: reading)
                    case .length:
                        // "study for 2 hours tomorrow at 9am": a length beside no step is the
                        // title's; beside a step ("next 2 hours stretch every 20 min") it was
                        // the step's, and would be lost.
                        if first.schedule.isStep { return [] }
                    case .none: break
                    case .day(let k):
                        // "sunday school at 9am": a day's name at the title's edge may be a name
                        // (Sunday School, Mon Ami) or when (monday call mum at 6pm): both, the
                        // title's first, as the search offers them; `nudge add` asks.
                        var found = others(of: Reading(title: title, when: when, phrase: first), read: read)
                        var rest = titleWords
                        let day = rest.remove(at: k)
                        let joined = k == 0 ? day + " " + when : when + " " + day
                        if let other = trimmedTitle(rest.joined(separator: " "), atEnd: atEnd), let phrase = read(joined),
                           !found.contains(where: { $0.phrase.schedule == phrase.schedule }) {
                            found.append(Reading(title: other, when: joined, phrase: phrase))
                        }
                        return found
                    }
                    var found = others(of: Reading(title: title, when: when, phrase: first), read: read)
                    // A word read as a day only by a typo's correction may be a name ("call frida
                    // at 3pm"): the title's too, offered second ("thrusday" is Thursday more often).
                    if atEnd, whenWords.count > 1, isTypo(whenWords[0]) {
                        let rest = trimmedWhen(whenWords.dropFirst().joined(separator: " "))
                        if let other = read(rest), other.schedule != first.schedule,
                           let named = trimmedTitle((titleWords + [whenWords[0]]).joined(separator: " "), atEnd: true) {
                            found.append(Reading(title: named, when: rest, phrase: other))
                        }
                    }
                    return found
                case .failure(let refusal) where refusal.problem.template == "ambiguous time":
                    // "new years day brunch at 11": the day at the title's start says the hour's half.
                    if atEnd, case .when = edgeWhen(titleWords, reading) { return around(titleWords, when: when, read: reading) }
                    // "every day at 9": each reading, never a guess.
                    let said: [String] = refusal.detail?.arguments.compactMap { part -> String? in
                        if case .text(let text) = part { return text }
                        return nil
                    } ?? []
                    guard said.count == 4 else { return [] }
                    let both = [said[0], said[2]].compactMap { other -> Reading? in
                        guard let when = replacingLast(refusal.token, with: other, in: when), let phrase = read(when) else { return nil }
                        return Reading(title: title, when: when, phrase: phrase)
                    }
                    return both.count == 2 ? both : []
                case .failure(let refusal) where refusal.problem.template == "a length of time needs a step":
                    // "study for 2 hours tomorrow at 9am": the length may be the title's; a shorter when is tried.
                    continue
                case .failure(let refusal) where !atEnd && refusal.problem.template == "no time of day given":
                    // A day at the start whose time comes at the end ("new years day brunch at
                    // 11"): read around the title once the time is found.
                    continue
                case .failure(let refusal) where refusal.problem.template != "words not understood":
                    // Words of a schedule refused as a whole ("next friday at 2pm", "on 3/12",
                    // "every day at 25:00"): a shorter when would leave some in the title, and
                    // read something else than was meant.
                    return []
                case .failure:
                    continue
                }
            }
        }
        return []
    }

    /// When said on both sides of the title: a day before it ("tomorrow", "christmas eve",
    /// 매일), a time after it ("at 6pm"); the day alone asks at what time. Read as one when
    /// ("tomorrow at 6pm"), the title between. A holiday's name may be the title's too
    /// ("christmas shopping at 3pm" is today's shopping as often as the 25th's): both, the day
    /// said first, and `nudge add` asks. None when the words do not part that way.
    static func around(_ titleWords: [String], when: String, read reading: (String) -> Result<PhraseReading, ScheduleError>) -> [Reading] {
        for k in stride(from: min(4, titleWords.count - 1), through: 1, by: -1) {
            let day = trimmedWhen(titleWords.prefix(k).joined(separator: " "))
            // The day may end in its part ("tomorrow night call mum at 9": tomorrow night at
            // 9 is 21:00); the title never starts with one (it would be the day's).
            let partOfDay = titleWords.prefix(k).last.map { partsOfDay.contains($0.lowercased()) } ?? false
            // Nor with a unit (tomorrow week, British for 8 days: "week dentist" is no title).
            if let next = titleWords.dropFirst(k).first, partsOfDay.contains(next.lowercased()) || units.contains(next.lowercased()) { continue }
            var needsTime = partOfDay
            if case .failure(let alone) = reading(day), alone.problem.template == "no time of day given" { needsTime = true }
            guard namesADay(day), needsTime,
                  let title = trimmedTitle(titleWords.dropFirst(k).joined(separator: " "), atEnd: true),
                  case .none = edgeWhen(Array(titleWords.dropFirst(k)), reading),
                  case .success(let phrase) = reading(day + " " + when) else { continue }
            var found = [Reading(title: title, when: day + " " + when, phrase: phrase)]
            if isHoliday(day), let whole = trimmedTitle(titleWords.joined(separator: " "), atEnd: true), case .success(let other) = reading(when),
               other.schedule != phrase.schedule {
                found.append(Reading(title: whole, when: when, phrase: other))
            }
            return found
        }
        return []
    }

    /// Whether `said` names a day beyond doubt: today, tomorrow, 내일, every day, 매일, a
    /// holiday, a date with its month (12/25, dec 25, 12월 25일). Not a number or an ordinal
    /// alone ("10th anniversary", 1일 1식), nor 일 (work, or Sunday?), nor a weekend or a part
    /// of the day ("weekend plans", "morning pages"): those are a title's as often.
    static func namesADay(_ said: String) -> Bool {
        if said.range(of: #"\d{1,4}\s*[/.-]\s*\d{1,2}|\d{1,2}\s*월\s*\d{1,2}\s*일"#, options: .regularExpression) != nil { return true }
        let (words, _) = PhraseWords.split(said, zone: TimeZone(identifier: "UTC")!)
        let isNumber = { (word: PhraseWord) in if case .number = word.kind { true } else { false } }
        // The 4th of july: an ordinal of a month.
        if words.count >= 3, isOrdinal(words[0].text + (words[1].text.count == 2 && words[1].text.allSatisfy(\.isLetter) ? words[1].text : "")),
           words.contains(where: { PhraseWords.monthKeys.contains($0.key ?? "") }) { return true }
        guard let first = words.first, !isNumber(first) else { return false }
        let keys = Set(words.compactMap(\.key))
        if !keys.isDisjoint(with: dayKeys) || !keys.isDisjoint(with: holidayKeys) { return true }
        // A weekday with 마다 or every ("목요일마다", "every thursday"): days said.
        if keys.contains("each"), words.contains(where: { PhraseWords.weekdayKeys[$0.key ?? ""] != nil }) { return true }

        // 매주, 매달, 매년 (every week, month, year): days said, as 매일 is ("weekly report" is a title's).
        if said.hasPrefix("매"), !keys.isDisjoint(with: ["weekly", "monthly", "yearly"]) { return true }
        return !keys.isDisjoint(with: Set(PhraseWords.monthKeys)) && words.contains(where: isNumber)
    }

    /// Units of time, which start no title after a day.
    static let units: Set<String> = ["week", "weeks", "month", "months", "year", "years", "day", "days", "hour", "hours", "minute", "minutes"]

    /// Words that say nothing of when alone.
    static let littleWords: Set<String> = ["the", "on", "at", "of", "a", "an", "to", "in", "for", "by", "and", "with"]

    /// Whether a title's last words look like a date or a day that did not read ("dentist
    /// december first", "party on the twelfth", "dentist tues.", "dentist 12.1", "book club
    /// 2nd tuesday of the month"): when would be cut from them, and today's time taken.
    static func endsLikeADate(_ titleWords: [String]) -> Bool {
        guard let last = titleWords.last?.lowercased() else { return false }
        let bare = last.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
        if ["month", "week", "weekday", "weekdays"].contains(bare) { return true }
        if last.hasSuffix("."), PhraseWords.weekdayKeys[String(bare.prefix(3))] != nil || PhraseWords.monthKeys.contains(String(bare.prefix(3))) { return true }
        if PhraseWords.monthKeys.contains(String(bare.prefix(3))), monthNames.contains(bare) { return true }
        if ordinalWords.contains(bare) || isOrdinal(bare) { return true }
        return last.range(of: #"^\d{1,4}[./-]\d{1,2}([./-]\d{1,4})?\.?$"#, options: .regularExpression) != nil
    }

    /// Words that say only how often, which a title may hold (daily standup, weekly report).
    static let howOften: Set<String> = ["daily", "weekly", "monthly", "yearly", "annual", "nightly", "hourly", "주간", "월간", "연간", "일일"]

    static let monthNames: Set<String> = ["jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july",
                                          "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december"]
    static let ordinalWords: Set<String> = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                                            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                                            "eighteenth", "nineteenth", "twentieth", "thirtieth"]

    /// Whether `word` is read as another word only by a typo's correction ("frida" as
    /// friday): at when's start beside a title, a name as often.
    static func isTypo(_ word: String) -> Bool {
        let lower = word.lowercased()
        guard lower.allSatisfy({ $0.isASCII && $0.isLetter }), PhraseWords.englishWords[lower] == nil, PhraseWords.englishCasual[lower] == nil else { return false }
        return PhraseWords.typo(lower) != nil
    }

    static let dayKeys: Set<String> = ["today", "tomorrow", "tonight", "overmorrow", "in3days", "daily", "every", "nextyear"]

    /// Whether `text` holds a time of day written out (6pm, 9:30, 오후 6시).
    static func saysATime(_ text: String) -> Bool {
        text.range(of: #"(?i)\b\d{1,2}(:\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b|(오전|오후|저녁|아침|밤|새벽)\s?\d{1,2}\s?시"#, options: .regularExpression) != nil
    }

    /// 25th, 2nd, 1st: a day of the month said alone.
    static func isOrdinal(_ word: String) -> Bool {
        let lower = word.lowercased()
        let digits = lower.prefix { $0.isASCII && $0.isNumber }
        return (1...2).contains(digits.count) && ["st", "nd", "rd", "th"].contains(String(lower.dropFirst(digits.count)))
    }

    /// The parts of the day a title holds as often as when does (game night, morning pages).
    static let partsOfDay: Set<String> = ["night", "morning", "evening", "afternoon"]

    /// Whether `said` starts with a holiday's name (christmas, halloween, 어린이날).
    static func isHoliday(_ said: String) -> Bool {
        let (words, _) = PhraseWords.split(said, zone: TimeZone(identifier: "UTC")!)
        guard let key = words.first?.key else { return false }
        return holidayKeys.contains(key)
    }

    static let holidayKeys = Set(PhraseReader.rules.filter { $0.name.contains("holiday") }.flatMap(\.starts))

    /// Whether a line that gave no reading still starts or ends with words of when ("park for
    /// 2 hours at 3pm": a length without a step; "tea 25:00"): its title and when
    /// could not be told apart, which is another answer than "no schedule in it".
    public static func saysWhen(_ line: String, now: Date, zone: TimeZone, dateOrder: DateOrder? = nil) -> Bool {
        guard line.count <= maxLength else { return false }
        let words = request(line).split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return false }
        let found = edgeWhen(words) { phrase -> Result<PhraseReading, ScheduleError> in
            do throws(ScheduleError) {
                return .success(try SchedulePhrase.read(phrase, now: now, zone: zone, defaultTime: nil, dateOrder: dateOrder, suggesting: false))
            } catch {
                return .failure(error)
            }
        }
        // A day's name alone may be a name (Sunday School): no schedule in it.
        switch found {
        case .when, .length: return true
        case .none, .day: return false
        }
    }

    /// Whether the title's first or last words say when: they read as a schedule, or are
    /// refused for what they say rather than as words not understood ("tomorrow" alone asks at
    /// what time); `.day` for a day's name alone at an edge, which may be a name (Sunday
    /// School). A number alone ("call 911") is the title's.
    enum Edge { case none, when, day(Int), length }

    static func edgeWhen(_ words: [String], _ reading: (String) -> Result<PhraseReading, ScheduleError>) -> Edge {
        var day: Int?, length = false
        for k in 1...min(4, words.count) {
            for (atStart, part) in [(true, words.prefix(k)), (false, words.suffix(k))] {
                // A number alone is the title's (call 911), and so is a meal moved to it (7시 반에 저녁
                // 먹기), and a part of the day alone (game night, morning pages, evening walk).
                if k == 1, part.first!.allSatisfy(\.isNumber) || meals.contains(part.first!) || partsOfDay.contains(part.first!.lowercased()) { continue }
                let said = trimmedWhen(part.joined(separator: " "))
                guard !said.isEmpty else { continue }
                let hit: Bool
                switch reading(said) {
                case .success: hit = true
                case .failure(let refusal) where refusal.problem.template == "a length of time needs a step":
                    length = true
                    continue
                // Little words alone ("the", "on the", "at") say no schedule: a title's ("the
                // report at 5pm", "on call at 5pm" had no reading).
                case .failure(let refusal) where refusal.problem.template == "no schedule given":
                    hit = !part.allSatisfy { littleWords.contains($0.lowercased()) }
                case .failure(let refusal): hit = refusal.problem.template != "words not understood"
                }
                guard hit else { continue }
                if k == 1, day == nil, isDayName(said) {
                    day = atStart ? 0 : words.count - 1
                    continue
                }
                return .when
            }
        }
        return day.map { .day($0) } ?? (length ? .length : .none)
    }

    /// Whether the title's only words of when are one word of how often at its edge that adds
    /// nothing to `first` ("weekly report" before or after "every monday 8:30", "daily
    /// standup every weekday at 9:30"): the title's, as "daily standup" names a meeting.
    /// Where it adds something ("daily standup at 9:30" is every day) it is when's.
    static func saysOnlyHowOften(_ titleWords: [String], when: String, first: PhraseReading,
                                 reading: (String) -> Result<PhraseReading, ScheduleError>) -> Bool {
        guard titleWords.count > 1 else { return false }
        for atStart in [true, false] {
            guard let edge = atStart ? titleWords.first : titleWords.last, howOften.contains(edge.lowercased()) else { continue }
            let joined = atStart ? edge + " " + when : when + " " + edge
            guard saysItRepeats(when), let with = try? reading(joined).get(), with.schedule == first.schedule else { return false }
            let rest = atStart ? Array(titleWords.dropFirst()) : Array(titleWords.dropLast())
            if case .none = edgeWhen(rest, reading) { return true }
            return false
        }
        return false
    }

    /// Whether `when` says in a word that it repeats (every, 매주, mondays, weekdays): a word
    /// of how often beside it then says nothing more ("9am and 5pm daily" says it is daily).
    static func saysItRepeats(_ when: String) -> Bool {
        let (words, _) = PhraseWords.split(when, zone: TimeZone(identifier: "UTC")!)
        return words.contains { word in
            guard let key = word.key else { return false }
            if repeatKeys.contains(key) { return true }
            return PhraseWords.weekdayKeys[key] != nil && word.text.count > 3 && word.text.hasSuffix("s")
        }
    }

    static let repeatKeys: Set<String> = ["every", "each", "daily", "weekly", "monthly", "yearly", "hourly", "nightly", "fortnightly", "biweekly",
                                          "quarterly", "weekdays", "weekends", "otherweek", "othermonth", "otherday"]

    /// Whether `said` is one word naming a day of the week (sunday, Mon, 월요일).
    static func isDayName(_ said: String) -> Bool {
        let (words, _) = PhraseWords.split(said, zone: TimeZone(identifier: "UTC")!)
        guard words.count == 1, let key = words[0].key else { return false }
        return PhraseWords.weekdayKeys[key] != nil || PhraseWords.weekdayKeys[String(key.dropLast())] != nil
    }

    /// Words that end no title: they lead into a day or a time ("on the last working day",
    /// "a week from tomorrow", "every other", "the day after", "10 past midnight", "5 mins
    /// before midnight").
    static let danglers: Set<String> = ["the", "every", "each", "last", "next", "from", "of", "a", "an", "until", "till", "this", "other",
                                        "past", "before", "after"]

    /// The meals that are parts of the day too.
    static let meals: Set<String> = ["아침", "점심", "저녁", "아침에", "점심에", "저녁에"]

    /// `first` and every other reading of its times, the waking day's first: a bare hour or
    /// a colon time the core read one way (9 → 9pm), and a colon time 7–11 (7:30 → 7:30pm),
    /// which the core keeps on the 24-hour clock without a word.
    static func others(of first: Reading, read: (String) -> PhraseReading?) -> [Reading] {
        var found = [first]
        var choices = first.phrase.choices.map { ($0.said, $0.other) }
        for word in first.when.split(separator: " ") {
            let word = String(word)
            guard let colon = word.firstIndex(of: ":"), let hour = Int(word[..<colon]), (7...11).contains(hour), !word.hasPrefix("0"),
                  word[word.index(after: colon)...].count == 2, word[word.index(after: colon)...].allSatisfy(\.isNumber),
                  !choices.contains(where: { $0.0 == word }) else { continue }
            choices.append((word, word + "pm"))
        }
        for (said, other) in choices {
            guard let when = replacingLast(said, with: other, in: first.when), let phrase = read(when),
                  !found.contains(where: { $0.phrase.schedule == phrase.schedule }) else { continue }
            let reading = Reading(title: first.title, when: when, phrase: phrase)
            // A colon time 1–6 is the afternoon's first, as a bare hour on a named day is.
            if let colon = said.firstIndex(of: ":"), let hour = Int(said[..<colon]), (1...6).contains(hour), !said.hasPrefix("0"), other.hasSuffix("pm") {
                found.insert(reading, at: 0)
            } else {
                found.append(reading)
            }
        }
        return found
    }

    /// `line` without the words that ask for a reminder.
    public static func request(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        // "call mum at 6pm." and "…at 6pm!": the sentence's end is no word.
        while let last = text.last, ".!?。！？".contains(last) { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        // Texting's asking words: please, pls, plz at either end ("pls remind me 2 call mum at
        // 6", "call mum at 6 please"), 리마인드 before or after.
        func dropPolite() {
            var changed = true
            while changed {
                changed = false
                let lower = text.lowercased()
                for word in ["please", "pls", "plz"] {
                    if lower.hasPrefix(word + " ") || lower.hasPrefix(word + ", ") {
                        text = String(text.dropFirst(word.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
                        changed = true
                    } else if lower.hasSuffix(" " + word) || lower.hasSuffix("," + word) {
                        text = String(text.dropLast(word.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
                        changed = true
                    }
                    if changed { break }
                }
            }
        }
        // A closing that says nothing of when: emoji or marks alone (🎉, :), ❤️), thanks.
        func dropClosing() {
            while true {
                var words = text.split(separator: " ").map(String.init)
                guard let last = words.last, words.count > 1 else { return }
                let lower = last.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "!.,"))
                if last.contains(where: { $0.isLetter || $0.isNumber }) && !["thanks", "thx", "부탁해", "부탁해요", "부탁합니다", "부탁드려요"].contains(lower) {
                    if lower == "you", words.count > 2, words[words.count - 2].lowercased() == "thank" { words.removeLast() } else { return }
                }
                words.removeLast()
                text = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
            }
        }
        dropClosing()
        dropPolite()
        // "hey", "can you", "could you" before the asking words ("hey can you remind me to …").
        let openers = ["hey, ", "hey ", "hi ", "ok ", "can you ", "could you ", "would you ", "will you "]
        var opened = true
        while opened {
            opened = false
            for opener in openers where text.lowercased().hasPrefix(opener) {
                let rest = text.lowercased().dropFirst(opener.count)
                guard ["remind", "ping", "nudge", "please", "pls", "plz"].contains(where: { rest.hasPrefix($0) })
                        || openers.contains(where: { rest.hasPrefix($0) }) else { continue }
                text = String(text.dropFirst(opener.count))
                opened = true
                break
            }
        }
        dropPolite()
        let lower = text.lowercased()
        // A phone's typos of the asking words too (rmind, remnd, reminde), and "abt".
        for prefix in ["remind me to ", "remind me 2 ", "remind me about ", "remind me abt ", "remind me of ", "remind me ", "reminder to ", "reminder: ", "reminder ",
                       "rmind me to ", "rmind me ", "remnd me to ", "remnd me ", "reminde me to ", "reminde me ", "remimd me to ", "remimd me ",
                       "remind em to ", "remid me to ", "remid me ",
                       "nudge me to ", "nudge me ", "ping me to ", "ping me ", "리마인드: ", "리마인드 해줘 ", "리마인드해줘 ", "리마인드 해 줘 ",
                       "리마인드 "] where lower.hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count))
            break
        }
        dropPolite()
        // "remind me plz to call the bank", "remind me abt": what is left of the asking.
        for prefix in ["to ", "abt ", "about "] where text.lowercased().hasPrefix(prefix) && text.count > prefix.count + 2 {
            text = String(text.dropFirst(prefix.count))
            break
        }
        // A lone vowel or consonant typed after the asking words (알려줘ㅜ, 알려줘ㅓ, ㅋㅋ).
        while let last = text.unicodeScalars.last, (0x3131...0x318E).contains(last.value), text.count > 1 {
            text = String(text.dropLast()).trimmingCharacters(in: .whitespaces)
        }
        // 알려줘 before, as texting puts it (알려줘 회의 내일 오전 8시).
        for prefix in ["알려 주세요 ", "알려주세요 ", "알려 줘요 ", "알려줘요 ", "알려 줘 ", "알려줘 ", "알려줘, ", "알려 줘, "]
        where text.hasPrefix(prefix) && text.count > prefix.count {
            text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        for suffix in ["알려 주세요", "알려주세요", "알려 줘요", "알려줘요", "알려 줘", "알려줘", "알려 줄래", "알려줄래", "리마인드 해줘", "리마인드해줘",
                       "리마인드 해 줘", "리마인드", "알림", "알려주새요", "알려져", "알랴줘", "알려줭", "알려둬", "알려쥬", "알려줘여"]
        where text.hasSuffix(suffix) && text.count > suffix.count {
            text = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            // 좀 before it asks softly ("치과 좀 알려줘"): no word of the title.
            if text.hasSuffix(" 좀") { text = String(text.dropLast(2)) }
            text = Self.asked(text)
            return text
        }
        // Asked without the asking words, as texting leaves them out ("매달 1일 오전 9시에
        // 월세 내라고"): the same.
        return Self.asked(text)
    }

    /// What to do, said as asked: 전화하라고 → 전화하기, 약 먹으라고 → 약 먹기, 빨래 꺼내라고
    /// → 빨래 꺼내기; a thing: 약속이라고 → 약속; a fact: 은행 가야 한다고 → 은행 가야 한다.
    static func asked(_ said: String) -> String {
        var text = said
        if text.hasSuffix("이라고") {
            text = String(text.dropLast(3))
        } else if text.hasSuffix("으라고") {
            text = String(text.dropLast(3)) + "기"
        } else if text.hasSuffix("다고") {
            text = String(text.dropLast(1))
        } else if text.hasSuffix("라고") {
            // A thing without a final consonant (회의라고, 파티라고, 데이트라고) is no verb's.
            let before = text.dropLast(2).last.map(String.init) ?? ""
            text = String(text.dropLast(2)) + (["의", "티", "트", "드", "프", "스", "크", "터", "데", "미"].contains(before) ? "" : "기")
        }
        return text
    }

    /// The words of when without the marks that joined them to the title.
    static func trimmedWhen(_ when: String) -> String {
        var text = when
        while let first = text.first, "—–-:,".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        while let last = text.last, "—–-:,".contains(last) { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        return text
    }

    /// The title without the marks and the "to" that joined it to when; `nil` when nothing
    /// is left or it is too long.
    static func trimmedTitle(_ title: String, atEnd: Bool) -> String? {
        var text = title
        let marks = "—–-:,"
        while let last = text.last, marks.contains(last) { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        while let first = text.first, marks.contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        if !atEnd, text.lowercased().hasPrefix("to "), text.count > 3 { text = String(text.dropFirst(3)) }
        // "set alarm for 6am", "meeting for tomorrow at 9": the "for" that joined it to when.
        if atEnd, text.lowercased().hasSuffix(" for") { text = String(text.dropLast(4)) }
        // What `nudge add` would refuse (too long, a control character) is no title.
        guard text.contains(where: { $0.isLetter || $0.isNumber || $0.isSymbol }), (try? Limits.check(.title, text)) != nil else { return nil }
        return text
    }

    /// `text` with the last `said` standing alone (not inside a longer word) replaced.
    static func replacingLast(_ said: String, with other: String, in text: String) -> String? {
        var end = text.endIndex
        while let range = text.range(of: said, options: .backwards, range: text.startIndex..<end) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            // Not inside a longer word; a Korean particle may follow (10시 반에).
            let alone = !(before.map { $0.isLetter || $0.isNumber } ?? false)
                && !(after.map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == ":" } ?? false)
            if alone { return text.replacingCharacters(in: range, with: other) }
            end = range.lowerBound
        }
        return nil
    }

    /// A title as a search compares it: case, accents and width folded.
    public static func folded(_ text: String) -> String {
        // ASCII alone folds to its lower case: ten times cheaper than Foundation's folding,
        // which the first search after a change does for every title.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        // So does ASCII beside Hangul syllables and compatibility jamo, which Foundation's
        // folding leaves as they are (every one checked; conjoining jamo may compose, and
        // take the long way): a Korean title folds five times cheaper.
        if text.unicodeScalars.allSatisfy({ $0.value < 0x80 || (0xAC00...0xD7A3).contains($0.value) || (0x3131...0x318E).contains($0.value) }) {
            return String(String.UnicodeScalarView(text.unicodeScalars.map { (0x41...0x5A).contains($0.value) ? Unicode.Scalar($0.value + 0x20)! : $0 }))
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{00A0}", with: " ")
    }

    /// Whether a title (``folded(_:)``) holds every term (each ``folded(_:)``): "water",
    /// "물", "call mum".
    public static func matches(_ foldedTitle: String, terms foldedTerms: [String]) -> Bool {
        !foldedTerms.isEmpty && foldedTerms.allSatisfy { foldedTitle.contains($0) }
    }
}

extension Schedule {
    /// Whether it is a step of time (every 20 minutes), restricted or not.
    public var isStep: Bool {
        switch self {
        case .interval: true
        case .restricted(let base, _): base.isStep
        default: false
        }
    }
}
