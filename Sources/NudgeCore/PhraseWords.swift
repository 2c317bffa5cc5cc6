import Foundation

/// A schedule phrase cut into words: numbers, words by what they mean (English and Korean
/// words for one idea share a key: `mon` is "monday", "Mon" and "월요일"), and marks.
/// Korean is written without spaces between a number, its counter and a particle
/// ("9시30분부터"), so a run of Hangul is cut at the longest word known at each place.
struct PhraseWord: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// Digits, or a Korean or English number word (세 시, 십오 분, two hours).
        case number(Int)
        /// A known word, by its key.
        case word(String)
        /// `:` `-` `~` (every dash and tilde of a range) `,` `/` `.` `+` `(` `)`.
        case mark(Character)
        /// A whole ISO-8601 instant with its offset (`2026-12-01T09:00:05+01:00`).
        case instant(Date)
        /// Nothing Nudge knows.
        case unknown
    }

    var kind: Kind
    /// As typed, for a message.
    var text: String
    /// How many digits a number was written with (`0` for a number word).
    var digits = 0
    /// Where it is in the phrase as read (lowercased, compatibility forms folded).
    var span: Range<Int> = 0..<0
    /// The word as read, when what was typed is a casual spelling or a typo of it (tmrw,
    /// tomorow, 낼, 월욜): said back in the echo ("tomorow → tomorrow").
    var readAs: String?

    var number: Int? { if case .number(let n) = kind { n } else { nil } }
    var key: String? { if case .word(let key) = kind { key } else { nil } }
    func isMark(_ c: Character) -> Bool { kind == .mark(c) }
    func isWord(_ keys: String...) -> Bool { key.map(keys.contains) ?? false }
}

enum PhraseWords {
    /// The longest phrase read: longer text is refused before it is cut.
    static let maxLength = 500

    /// The words of `text` and the text they were cut from (lowercased, compatibility
    /// forms folded: full-width digits are digits).
    static func split(_ text: String, zone: TimeZone) -> (words: [PhraseWord], source: [Character]) {
        // ASCII is its own compatibility form; Foundation's folding and replacing took a fifth
        // of a phrase's reading, so they run only where they can change something.
        var text = text.utf8.allSatisfy({ $0 < 0x80 }) ? text.lowercased() : text.precomposedStringWithCompatibilityMapping.lowercased()
        if text.contains(where: { $0 == "." || $0 == "'" || $0 == "’" }) {
            // "5 p.m" too: a sentence's end took the last dot (RemindMe.request).
            for (from, to) in [("a.m.", "am"), ("p.m.", "pm"), ("a.m", "am"), ("p.m", "pm"), ("o'clock", "oclock"), ("o’clock", "oclock")] {
                text = text.replacingOccurrences(of: from, with: to)
            }
        }
        var words: [PhraseWord] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i], first = words.count, from = i
            defer {
                // What was added here spans what was read here; a Korean run's words share it.
                if words.count > first {
                    // Words made of fewer characters than their texts (mwf read as m / w / f)
                    // all span what was read: spans past the text ran off its end (the phrase
                    // fuzz target's find, "…itz-mwf" at the end).
                    let whole = words[first...].reduce(0) { $0 + $1.text.count } != i - from
                    var at = from
                    for k in first..<words.count {
                        let length = words[k].text.count
                        words[k].span = words.count - first == 1 || whole ? from..<i : at..<(at + length)
                        at += length
                    }
                } else if words.count == first, let last = words.last, last.kind == .unknown, i > from, !c.isWhitespace {
                    // A character of the unknown word before, appended to it: its span grows (a space does not).
                    words[words.count - 1].span = last.span.lowerBound..<i
                }
            }
            if c.isWhitespace || c == "\u{200B}" || c == "\u{FEFF}" {
                i += 1
            } else if c == "'" || c == "’", i == 0 || chars[i - 1].isWhitespace || chars[i - 1] == ",", i + 2 < chars.count,
                      chars[i + 1].isASCII, chars[i + 1].isNumber, chars[i + 2].isASCII, chars[i + 2].isNumber,
                      i + 3 == chars.count || !(chars[i + 3].isLetter || chars[i + 3].isNumber) {
                // '27: a year written short, this century's ("jan 2 '27 at 9am").
                words.append(PhraseWord(kind: .number(2000 + Int(String(chars[i + 1...i + 2]))!), text: String(chars[i...i + 2]), digits: 4))
                i += 3
            } else if c.isASCII && c.isNumber {
                if let (instant, end) = isoInstant(chars, from: i, zone: zone) {
                    words.append(PhraseWord(kind: .instant(instant), text: String(chars[i..<end])))
                    i = end
                    continue
                }
                var j = i
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                let digits = String(chars[i..<j])
                // 2moro, 2nite, 2day: the word, typed short.
                var k = j
                while k < chars.count, chars[k].isASCII, chars[k].isLetter { k += 1 }
                if digits == "2", let standard = ["moro": "tomorrow", "morow": "tomorrow", "morrow": "tomorrow", "mrw": "tomorrow", "mro": "tomorrow",
                                                  "nite": "tonight", "night": "tonight", "nyt": "tonight", "day": "today"][String(chars[j..<k])] {
                    var read = english(standard)
                    read.text = String(chars[i..<k])
                    read.readAs = standard
                    words.append(read)
                    i = k
                    continue
                }
                // Nine digits after leading zeros at most, as `--every 999999999s`; more are
                // Int.max, too large for anything (0000005 is 5).
                let value = digits.drop(while: { $0 == "0" }).count <= 9 ? Int(digits)! : Int.max
                words.append(PhraseWord(kind: .number(value), text: digits, digits: digits.count))
                i = j
            } else if c.isASCII && c.isLetter {
                var j = i
                while j < chars.count, chars[j].isASCII, chars[j].isLetter { j += 1 }
                let word = String(chars[i..<j])
                // M/W/F, Tu/Th/Sa, m-f: days by their letters, three or more in a list, or a range of two.
                if let (days, end) = dayLetters(chars, from: i) {
                    words += days
                    i = end
                    continue
                }
                // weeknights: weekday nights (every Monday to Friday, the hour the evening's).
                if ["weeknight", "weeknights"].contains(word.lowercased()) {
                    var days = english("weekdays"), nights = english("nights")
                    (days.text, nights.text) = (String(word.prefix(4)), String(word.dropFirst(4)))
                    words += [days, nights]
                    i = j
                    continue
                }
                // mwf, as a timetable writes Monday, Wednesday and Friday: read as M/W/F.
                if word.lowercased() == "mwf" {
                    for (n, name) in ["monday", "wednesday", "friday"].enumerated() {
                        if n > 0 { words.append(PhraseWord(kind: .mark("/"), text: "/")) }
                        var day = english(name)
                        day.text = String(Array(word)[n])
                        words.append(day)
                    }
                    i = j
                    continue
                }
                // new year's, valentine's, st patrick's, veterans': the word with its 's, read as
                // the plural is (years, valentines); the apostrophe was a word of its own, left
                // over. Only these:
                // monday's is no "mondays" (every Monday).
                if j + 1 < chars.count, chars[j] == "'" || chars[j] == "’", chars[j + 1] == "s",
                   j + 2 == chars.count || !(chars[j + 2].isASCII && chars[j + 2].isLetter),
                   ["year", "valentine", "patrick", "paddy", "patty", "veteran", "fool", "saint", "mother", "father"].contains(word.lowercased()) {
                    var read = english(word + "s")
                    read.text = String(chars[i..<j + 2])
                    words.append(read)
                    i = j + 2
                    continue
                }
                // veterans', all saints': the plural with its apostrophe after.
                if j < chars.count, chars[j] == "'" || chars[j] == "’", j + 1 == chars.count || !(chars[j + 1].isASCII && chars[j + 1].isLetter),
                   ["veterans", "saints", "fools"].contains(word.lowercased()) {
                    var read = english(word)
                    read.text = String(chars[i..<j + 1])
                    words.append(read)
                    i = j + 1
                    continue
                }
                if word.count > 3, word.hasSuffix("ish"), englishWords[String(word.dropLast(3))] != nil {
                    // 3pmish, noonish: the time, and an "about" after it.
                    words.append(english(String(word.dropLast(3))))
                    words.append(PhraseWord(kind: .word("about"), text: "ish"))
                } else if (word == "a" || word == "p"), i > 0, chars[i - 1].isASCII, chars[i - 1].isNumber {
                    // 9a, 5p: short for am and pm, written onto the hour.
                    words.append(PhraseWord(kind: .word(word == "a" ? "am" : "pm"), text: word))
                } else {
                    words.append(english(word))
                }
                i = j
            } else if isHangul(c) {
                var j = i
                while j < chars.count, isHangul(chars[j]) { j += 1 }
                // What follows the run, past spaces: a Sino-Korean number is one only before 분 or 초.
                var k = j
                while k < chars.count, chars[k].isWhitespace { k += 1 }
                words += korean(Array(chars[i..<j]), next: k < chars.count ? chars[k] : nil)
                i = j
            } else if let mark = marks[c] {
                words.append(PhraseWord(kind: .mark(mark), text: String(c)))
                i += 1
            } else {
                // Anything else is not understood; neighbours of its kind are named together.
                if let last = words.last, last.kind == .unknown, i > 0, !chars[i - 1].isWhitespace {
                    words[words.count - 1].text.append(c)
                } else {
                    words.append(PhraseWord(kind: .unknown, text: String(c)))
                }
                i += 1
            }
        }
        return (words, chars)
    }

    static let marks: [Character: Character] = [
        ":": ":", "-": "-", "–": "~", "—": "~", "~": "~", "〜": "~", "∼": "~", ",": ",", "、": ",", "/": "/", ".": ".",
        "+": "+", "(": "(", ")": ")", "·": ",", "&": "&", "@": "@",
    ]

    /// The days' letters (m, tu, w, th, f, sa, su; t alone is Tuesday or Thursday, not read).
    static let dayLetterNames = ["m": "monday", "tu": "tuesday", "w": "wednesday", "th": "thursday", "f": "friday", "sa": "saturday", "su": "sunday"]

    /// Days written by their letters at `start`: M/W/F, Tu/Th/Sa (three or more: "M/F" may be
    /// a title's; two where neither is one letter, Tu/Th, or T/Th as timetables write Tuesday
    /// and Thursday), m-f (a range); each letter a word of its day, the marks between kept.
    static func dayLetters(_ chars: [Character], from start: Int) -> ([PhraseWord], Int)? {
        var words: [PhraseWord] = [], i = start, separators = Set<Character>(), oneLetter = 0
        while true {
            var j = i
            while j < chars.count, chars[j].isASCII, chars[j].isLetter { j += 1 }
            let letters = String(chars[i..<j])
            // T before /Th is Tuesday (T/Th); alone it may be either.
            let tThenTh = letters == "t" && j + 2 < chars.count && chars[j] == "/" && String(chars[j + 1...j + 2]) == "th"
                && (j + 3 == chars.count || !(chars[j + 3].isASCII && chars[j + 3].isLetter))
            guard let name = tThenTh ? "tuesday" : dayLetterNames[letters] else { return nil }
            if letters.count == 1, !tThenTh { oneLetter += 1 }
            var day = english(name)
            day.text = String(chars[i..<j])
            words.append(day)
            guard j + 1 < chars.count, chars[j] == "/" || chars[j] == "-", chars[j + 1].isASCII, chars[j + 1].isLetter else {
                i = j
                break
            }
            separators.insert(chars[j])
            words.append(PhraseWord(kind: .mark(chars[j]), text: String(chars[j])))
            i = j + 1
        }
        let days = words.filter { $0.key != nil }.count
        guard separators.count == 1, i == chars.count || !(chars[i].isASCII && (chars[i].isLetter || chars[i].isNumber)),
              separators.first == "/" ? days >= 3 || (days == 2 && oneLetter == 0) : days == 2 else { return nil }
        return (words, i)
    }

    static func isHangul(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return false }
        return (0xAC00...0xD7A3).contains(scalar.value)
    }

    /// `2026-12-01T09:00:05+01:00` (the `T` is what makes it one: `2026-12-01 9:00` is a
    /// date and a time).
    static func isoInstant(_ chars: [Character], from start: Int, zone: TimeZone) -> (Date, Int)? {
        let shape = "dddd-dd-ddtdd:dd"
        guard start + shape.count <= chars.count else { return nil }
        for (offset, expected) in shape.enumerated() {
            let c = chars[start + offset]
            switch expected {
            case "d": guard c.isASCII && c.isNumber else { return nil }
            default: guard c == expected else { return nil }
            }
        }
        var end = start + shape.count
        while end < chars.count, "0123456789:+-z.".contains(chars[end]) { end += 1 }
        let text = String(chars[start..<end]).uppercased()
        // `ScheduleParser.instant` reads a space or a T, and the zone's offset when none is given.
        guard let instant = try? ScheduleParser.instant(text, zone: zone) else { return nil }
        return (instant, end)
    }

    // MARK: English

    static let englishWords: [String: String] = {
        var words: [String: String] = [:]
        let groups: [String: [String]] = [
            "every": ["every", "each"], "daily": ["daily", "everyday"], "nightly": ["nightly"], "weekly": ["weekly"], "monthly": ["monthly"],
            "hourly": ["hourly"], "day": ["day", "days"], "week": ["week", "weeks"], "month": ["month", "months"],
            "weekdays": ["weekday", "weekdays", "workday", "workdays"], "weekends": ["weekend", "weekends"],
            "am": ["am"], "pm": ["pm"], "noon": ["noon", "midday"], "midnight": ["midnight"],
            "morning": ["morning", "mornings"], "afternoon": ["afternoon", "afternoons"], "evening": ["evening", "evenings"],
            "night": ["night", "nights"], "tonight": ["tonight"], "at": ["at", "around", "by"], "about": ["about", "approx", "approximately", "roughly", "ish"],
            "yearly": ["yearly", "annually", "annual"], "year": ["year", "years"], "twice": ["twice"], "times": ["times", "x"],
            "per": ["per"], "fortnight": ["fortnight", "fortnights"], "fortnightly": ["fortnightly"], "biweekly": ["biweekly"], "quarterly": ["quarterly"],
            "business": ["business", "working"], "end": ["end"], "beginning": ["beginning"], "monthend": ["eom"], "single": ["single"],
            "christmas": ["christmas", "xmas"], "eve": ["eve"], "on": ["on"], "in": ["in"], "new": ["new"],
            "valentine": ["valentine", "valentines"], "halloween": ["halloween"], "except": ["except", "excluding", "but"],
            "boxing": ["boxing"], "leap": ["leap"], "bonfire": ["bonfire"], "veterans": ["veterans"], "bastille": ["bastille"], "anzac": ["anzac"], "remembrance": ["remembrance"],
            "canada": ["canada"], "australia": ["australia"], "seollal": ["seollal"], "chuseok": ["chuseok"],
            "parents": ["mothers", "fathers"], "nye": ["nye"],
            "easter": ["easter"], "good": ["good"], "thanksgiving": ["thanksgiving"], "black": ["black"],
            "memorial": ["memorial"], "labor": ["labor", "labour"], "election": ["election"], "mothering": ["mothering"],
            "same": ["same"], "pepero": ["pepero"], "white": ["white"], "fools": ["fool", "fools"], "all": ["all"], "saints": ["saint", "saints"], "pi": ["pi"], "ides": ["ides"],
            "patrick": ["patrick", "patricks", "paddy", "paddys", "patty", "pattys"],
            "from": ["from", "starting"], "until": ["to", "until", "till", "til", "through", "thru"], "between": ["between"],
            "and": ["and", "plus"], "the": ["the"], "of": ["of"], "an": ["an", "a"], "half": ["half"], "next": ["next"],
            "this": ["this", "coming"], "other": ["other"], "first": ["first"], "second": ["second"], "third": ["third"],
            "fourth": ["fourth"], "fifth": ["fifth"], "last": ["last", "final"], "today": ["today"],
            "tomorrow": ["tomorrow"], "now": ["now"], "once": ["once"], "oclock": ["oclock"], "sharp": ["sharp"], "dot": ["dot"],
            "hours": ["h", "hr", "hrs", "hour", "hours"], "minutes": ["m", "min", "mins", "minute", "minutes"],
            "seconds": ["s", "sec", "secs", "seconds"], "after": ["after", "later"],
            "st": ["st", "nd", "rd", "th"], "cron": ["cron"], "quarter": ["quarter"], "past": ["past"],
            "mon": ["mon", "monday", "mondays"], "tue": ["tue", "tues", "tuesday", "tuesdays"],
            "wed": ["wed", "weds", "wednesday", "wednesdays"], "thu": ["thu", "thur", "thurs", "thursday", "thursdays"],
            "fri": ["fri", "friday", "fridays"], "sat": ["sat", "saturday", "saturdays"], "sun": ["sun", "sunday", "sundays"],
            "jan": ["jan", "january"], "feb": ["feb", "february"], "mar": ["mar", "march"], "apr": ["apr", "april"],
            "may": ["may"], "jun": ["jun", "june"], "jul": ["jul", "july"], "aug": ["aug", "august"],
            "sep": ["sep", "sept", "september"], "oct": ["oct", "october"], "nov": ["nov", "november"], "dec": ["dec", "december"],
        ]
        for (key, spellings) in groups { for spelling in spellings { words[spelling] = key } }
        return words
    }()

    static let englishNumbers: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "eleven": 11, "twelve": 12, "couple": 2, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "ninety": 90,
    ]

    /// Weekdays' keys, and which are the plural that means "every".
    static let weekdayKeys: [String: Weekday] = [
        "sun": .sunday, "mon": .monday, "tue": .tuesday, "wed": .wednesday, "thu": .thursday, "fri": .friday, "sat": .saturday,
    ]
    static let monthKeys = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Casual spellings, read as the word they stand for.
    static let englishCasual: [String: String] = [
        "tmrw": "tomorrow", "tomoz": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "tmro": "tomorrow", "tonite": "tonight", "nite": "night",
        "tdy": "today", "morn": "morning", "wensday": "wednesday", "wendsday": "wednesday", "tues": "tuesday", "evng": "evening", "dya": "day", "evry": "every", "hrly": "hourly",
        "nxt": "next", "wkday": "weekday", "wkdays": "weekdays", "wknd": "weekend", "wknds": "weekends", "tu": "tuesday",
        "arvo": "afternoon",
        // Typos a phone's keyboard makes, met in the sets written without our tables.
        "tommorow": "tomorrow", "tommorrow": "tomorrow", "tomorow": "tomorrow", "wendesday": "wednesday", "wednsday": "wednesday",
        "thursay": "thursday", "thrusday": "thursday", "firday": "friday", "fridy": "friday", "satruday": "saturday", "saturady": "saturday",
        "sundy": "sunday", "mondy": "monday", "minuets": "minutes", "minuts": "minutes", "yaers": "years",
    ]

    /// The words a typo is read as: one letter off (left out, added, changed, or two
    /// swapped), or two in a long word. Short words are never guessed: too many are one
    /// letter from another.
    static let typoTargets = [
        "tomorrow", "tonight", "today", "every", "everyday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
        "sunday", "minutes", "minute", "hours", "morning", "evening", "afternoon", "weekday", "weekdays", "weekend", "weekends",
        "daily", "weekly", "monthly", "hourly", "january", "february", "march", "april", "august", "september", "october",
        "november", "december", "midnight", "between", "thanksgiving", "christmas", "halloween",
    ]

    /// The optimal-string-alignment distance (Damerau-Levenshtein without repeated edits).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard abs(a.count - b.count) <= 2 else { return 3 }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The one word `typed` is a typo of, if there is exactly one.
    static func typo(_ typed: String) -> String? {
        guard typed.count >= 5 else { return nil }
        let chars = Array(typed), allowed = typed.count >= 7 ? 2 : 1
        // The first letter is kept: bimonthly is no typo of monthly.
        let near = typoTargets.filter { $0.first == typed.first }.map { ($0, distance(chars, Array($0))) }.filter { $0.1 <= allowed }
        guard let best = near.map(\.1).min() else { return nil }
        let found = near.filter { $0.1 == best }
        return found.count == 1 ? found[0].0 : nil
    }

    static func english(_ word: String) -> PhraseWord {
        if let n = englishNumbers[word] { return PhraseWord(kind: .number(n), text: word) }
        guard let key = englishWords[word] else {
            // A casual spelling or a typo: read as the word, and said.
            if let standard = englishCasual[word] ?? typo(word), englishWords[standard] != nil {
                var read = english(standard)
                read.text = word
                read.readAs = standard
                return read
            }
            return PhraseWord(kind: .unknown, text: word)
        }
        // "mondays" is "every monday".
        // "thurs" and "tues" are one day: only a whole name with an s is many.
        if weekdayKeys[key] != nil, word.hasSuffix("days") || word == "mons" {
            return PhraseWord(kind: .word(key + "s"), text: word)
        }
        return PhraseWord(kind: .word(key), text: word)
    }

    // MARK: Korean

    /// Korean words by their key: the same keys as English where the idea is the same;
    /// 월 and 일 keep their own (a month or Monday, a day or Sunday, by what comes before).
    static let koreanWords: [String: String] = [
        "매일": "daily", "날마다": "daily", "매주": "weekly", "매월": "monthly", "매달": "monthly", "격주": "otherweek",
        "매시간": "hourly", "매시": "hourly",
        "평일": "weekdays", "주중": "weekdays", "주말": "weekends",
        "월요일": "mon", "화요일": "tue", "수요일": "wed", "목요일": "thu", "금요일": "fri", "토요일": "sat", "일요일": "sun",
        "월": "월", "화": "tue", "수": "wed", "목": "thu", "금": "fri", "토": "sat", "일": "일",
        "오전": "am", "오후": "pm", "새벽": "dawn", "아침": "morning", "낮": "daytime", "점심": "lunch", "저녁": "evening",
        "밤": "night", "정오": "noon", "자정": "midnight", "한낮": "daytime", "오늘밤": "tonight",
        "시": "시", "시간": "hours", "분": "minutes", "초": "seconds", "반": "half", "전": "before", "정각": "sharp", "정시": "onthehour", "정시마다": "onthehour", "정각마다": "onthehour",
        "부터": "since", "에서": "since", "까지": "till", "마다": "each", "간격": "interval", "간격으로": "interval",
        "에": "at", "에는": "at", "으로": "at", "로": "at", "의": "of", "은": "at", "는": "at",
        "와": "and", "과": "and", "랑": "and", "이랑": "and", "하고": "and", "그리고": "and", "및": "and",
        "후": "after", "뒤": "after", "이후": "after", "있다가": "after", "지나서": "after", "후에": "after", "뒤에": "after",
        "오늘": "today", "내일": "tomorrow", "모레": "overmorrow", "내일모레": "overmorrow", "글피": "in3days",
        "다음": "next", "이번": "this", "주": "week", "년": "year", "개월": "month", "달": "month", "날": "day",
        "첫째": "first", "첫번째": "first", "첫": "first", "둘째": "second", "두번째": "second", "셋째": "third",
        "세번째": "third", "넷째": "fourth", "네번째": "fourth", "다섯째": "fifth", "다섯번째": "fifth", "마지막": "last",
        "번째": "th", "번": "times", "한번": "once", "지금": "now", "요일": "weekday",
        "다다음": "nextnext", "다가오는": "this", "오는": "this", "말일": "lastday",
        "쯤": "about", "경": "about", "무렵": "about", "전후": "about", "대략": "about", "즈음": "about",
        "이따": "today", "이따가": "today", "주일": "week", "매": "every", "씩": "sharp",
        "매년": "yearly", "매해": "yearly", "해마다": "yearly", "격일": "otherday", "격월": "othermonth", "분기": "quarterly",
        "분기마다": "quarterly", "반년마다": "halfyearly", "월말": "monthend", "다달이": "monthly", "사이": "till", "사이에": "till",
        "첫날": "firstday", "크리스마스": "christmas", "이브": "eve", "예": "at", "새해": "newyear",
        "동안": "during", "앞으로": "ahead", "빼고": "except", "제외": "except", "제외하고": "except", "점심때": "lunch", "내년": "nextyear", "삼일절": "삼일절", "어린이날": "어린이날", "현충일": "현충일", "광복절": "광복절", "개천절": "개천절", "한글날": "한글날",
        "신정": "신정", "발렌타인데이": "valentine", "밸런타인데이": "valentine", "할로윈": "halloween", "핼러윈": "halloween",
        "화이트데이": "화이트데이", "빼빼로데이": "빼빼로데이", "만우절": "만우절",
        "윤일": "윤일", "같은": "same", "점심시간": "lunch", "어버이날": "어버이날", "부활절": "easter", "블랙프라이데이": "blackfriday", "땡스기빙": "thanksgiving", "일일": "daily", "설날": "seollal", "구정": "seollal", "추석": "chuseok", "한가위": "chuseok", "당일": "당일",
        "전날": "daybefore", "다음날": "dayafter", "이튿날": "dayafter",
    ]

    /// Holidays on a fixed date, by their keys: (month, day). New year's day (새해 첫날) and
    /// Christmas (eve) are read by their words (PhraseReader).
    static let holidays: [String: (month: Int, day: Int)] = [
        "valentine": (2, 14), "halloween": (10, 31),
        "삼일절": (3, 1), "어린이날": (5, 5), "현충일": (6, 6), "광복절": (8, 15), "개천절": (10, 3), "한글날": (10, 9),
        "신정": (1, 1), "화이트데이": (3, 14), "만우절": (4, 1), "빼빼로데이": (11, 11), "윤일": (2, 29), "어버이날": (5, 8),
    ]

    /// Casual spellings and common typos, read as the words they stand for.
    static let koreanCasual: [String: String] = [
        "낼": "내일", "낼모레": "내일모레", "담주": "다음 주", "담쭈": "다음 주", "담달": "다음 달", "맨날": "매일", "네일": "내일",
        "모래": "모레", "오휴": "오후", "어후": "오후", "오젼": "오전", "저넉": "저녁", "씨": "시", "시건": "시간", "뒤애": "뒤에",
        "월욜": "월요일", "화욜": "화요일", "수욜": "수요일", "목욜": "목요일", "금욜": "금요일", "토욜": "토요일", "일욜": "일요일",
        "금요알": "금요일", "월요알": "월요일",
        // Typos a phone's keyboard makes, met in the sets written without our tables.
        "다움": "다음", "일료일": "일요일", "수오일": "수요일", "화요잉": "화요일", "금요잉": "금요일", "빰": "밤", "저녘": "저녁", "낼모래": "내일모레",
        "내일모래": "내일모레", "아칭": "아침", "오훙": "오후", "다음쭈": "다음 주",
    ]

    /// Native Korean counts of days (이틀 is two days, 보름 fifteen, 일주일 a week): a number
    /// and its unit.
    static let koreanDayCounts: [String: (Int, String)] = [
        "하루": (1, "day"), "이틀": (2, "day"), "사흘": (3, "day"), "나흘": (4, "day"), "닷새": (5, "day"), "엿새": (6, "day"),
        "이레": (7, "day"), "열흘": (10, "day"), "보름": (15, "day"), "일주일": (1, "week"),
    ]

    /// Native Korean numbers, said for hours (세 시, 열한 시) and counts (두 시간).
    static let nativeNumbers: [String: Int] = [
        "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "열한": 11, "열두": 12,
        "하나": 1, "둘": 2, "셋": 3, "넷": 4,
    ]

    static let sinoDigits: [Character: Int] = ["일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9]

    static let longestKorean = (koreanWords.keys.map(\.count) + nativeNumbers.keys.map(\.count) + koreanCasual.keys.map(\.count) + koreanDayCounts.keys.map(\.count)).max()!

    /// A run of Hangul cut at the longest known word at each place. `next` is the first
    /// character after the run (past spaces): a Sino-Korean number (십오, 삼십) is read only
    /// before 분 or 초, where minutes and seconds are said with one.
    static func korean(_ run: [Character], next: Character?) -> [PhraseWord] {
        var words: [PhraseWord] = []
        var i = 0
        while i < run.count {
            if let (value, end) = sino(run, from: i), end < run.count ? "분초".contains(run[end]) : next.map("분초".contains) ?? false {
                words.append(PhraseWord(kind: .number(value), text: String(run[i..<end])))
                i = end
                continue
            }
            // 석 달, 넉 달: three and four, said only before 달.
            if "석넉".contains(run[i]), i + 1 < run.count ? run[i + 1] == "달" : next == "달" {
                words.append(PhraseWord(kind: .number(run[i] == "석" ? 3 : 4), text: String(run[i])))
                i += 1
                continue
            }
            // 한 20분 뒤: about 20 minutes (한 before a number written in digits).
            if run == ["한"], let next, next.isASCII, next.isNumber {
                words.append(PhraseWord(kind: .word("about"), text: "한"))
                i += 1
                continue
            }
            var matched = false
            for length in stride(from: min(longestKorean, run.count - i), through: 1, by: -1) {
                let piece = String(run[i..<(i + length)])
                if koreanNotDates.contains(piece) {
                    // 월세, 화분: a word of its own, whole.
                    words.append(PhraseWord(kind: .unknown, text: piece))
                } else if piece == "분간" {
                    // 30분간: for 30 minutes (30분 동안).
                    words.append(PhraseWord(kind: .word("minutes"), text: "분"))
                    words.append(PhraseWord(kind: .word("during"), text: "간"))
                } else if let (n, unit) = koreanDayCounts[piece] {
                    words.append(PhraseWord(kind: .number(n), text: piece))
                    words.append(PhraseWord(kind: .word(unit), text: ""))
                } else if let standard = koreanCasual[piece] {
                    // 낼, 담주, 월욜, 오휴: read as the words they stand for, and said. The
                    // first of them carries what was typed, the rest nothing.
                    let read = korean(Array(standard.replacingOccurrences(of: " ", with: "")), next: nil)
                    for (k, var word) in read.enumerated() {
                        word.text = k == 0 ? piece : ""
                        word.readAs = k == 0 ? standard : nil
                        words.append(word)
                    }
                } else if let n = nativeNumbers[piece] {
                    words.append(PhraseWord(kind: .number(n), text: piece))
                } else if let key = koreanWords[piece] {
                    words.append(PhraseWord(kind: .word(key), text: piece))
                } else {
                    continue
                }
                i += length
                matched = true
                break
            }
            if !matched {
                if let last = words.last, last.kind == .unknown {
                    words[words.count - 1].text.append(run[i])
                } else {
                    words.append(PhraseWord(kind: .unknown, text: String(run[i])))
                }
                i += 1
            }
        }
        return wholeWords(words)
    }

    /// Words a Korean run holds whole that would cut into a day or a time word and another
    /// word (월세 is rent, not 월 세; 화분 a plant pot, not 화 분; 예매 a booking, not 예 매 "at
    /// every", which made 영화 예매 오전 7시 daily): never a date.
    static let koreanNotDates: Set<String> = ["월세", "화분", "수분", "일반", "수시", "일시",
                                              "예매", "경매", "매매", "도매", "소매", "매장", "매진", "매출", "매수", "매도", "매니저", "매너", "매직", "매트"]

    /// A run's words, where a one-letter day word (월, 화, 수, 목, 금, 토, 일) beside a word not
    /// known is part of that word: 금연, 일기, 생일, 목요 are words of their own, never Friday,
    /// Sunday or Thursday (목요 is Thursday in 목요일 only).
    static func wholeWords(_ words: [PhraseWord]) -> [PhraseWord] {
        func isDayLetter(_ word: PhraseWord) -> Bool {
            word.key != nil && word.readAs == nil && word.text.count == 1 && "월화수목금토일".contains(word.text)
        }
        var out: [PhraseWord] = []
        for word in words {
            if let last = out.last, last.kind == .unknown && (isDayLetter(word) || word.kind == .unknown) || (isDayLetter(last) && word.kind == .unknown) {
                out[out.count - 1] = PhraseWord(kind: .unknown, text: last.text + word.text)
                continue
            }
            out.append(word)
        }
        return out
    }

    /// A Sino-Korean number up to 99 at `start` (오, 십오, 삼십, 사십오), and where it ends.
    static func sino(_ run: [Character], from start: Int) -> (Int, Int)? {
        var i = start, value = 0
        if i < run.count, let d = sinoDigits[run[i]], i + 1 < run.count, run[i + 1] == "십" {
            value = d * 10
            i += 2
        } else if i < run.count, run[i] == "십" {
            value = 10
            i += 1
        }
        if i < run.count, let d = sinoDigits[run[i]] {
            value += d
            i += 1
        }
        return i > start ? (value, i) : nil
    }
}
