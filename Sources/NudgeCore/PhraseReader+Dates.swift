import Foundation

/// The phrase reader (stage two). Dates: 2026-12-01, 12월 1일, dec 1, the 15th, 3.15 before a time, a place in the month.
extension PhraseReader {
    // MARK: Dates

    /// `2026-12-01`, `12월 1일`, `2026년 12월 1일`, `dec 1`, `december 1st, 2026`, `1 dec`,
    /// `the 15th` and 15일 of a month (a day of every month), `14/11`, `12/25/2026`, `25.12.`;
    /// `12/1` in the locale's order (refused without one).
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
                for day in found { put(.monthDay(day, last: nil)) }
                put(.monthly)
                i = k + 3
                return true
            }
        }
        guard let first = number(i) else {
            // dec 1 [, 2026], Dec. 5, Sept. 30th
            guard let (month, after) = month(at: i), let day = number(after) else { return false }
            var k = after + 1
            if isKey(k, "st") { k += 1 }
            var year: Int?
            if isMark(k, ","), let y = number(k + 1), words[k + 1].digits == 4 { year = y; k += 2 } else if let y = number(k), words[k].digits == 4 { year = y; k += 1 }
            try setDate(year, month, day, start..<k)
            return true
        }
        // 2026-12-01, 2026.3.20, 2026/12/25, and 2027. 1. 3. as Koreans write it
        if words[i].digits >= 4, let mark = ["-", ".", "/"].first(where: { isMark(i + 1, $0) }), let m = number(i + 2), isMark(i + 3, mark),
           let d = number(i + 4) {
            try setDate(first, m, d, i..<(mark == "." && isMark(i + 5, ".") ? i + 6 : i + 5))
            return true
        }
        // 25.12. and 25.12.2026, as German and much of Europe write a date: the day first.
        // Only with the dot after the month or a year of four digits (25.12 is no date; 7.05.
        // after "at" is a time at the end of a sentence).
        if words[i].digits <= 2, isMark(i + 1, "."), let m = number(i + 2), words[i + 2].digits <= 2, isMark(i + 3, "."), !isKey(i - 1, "at"),
           (1...12).contains(m), (1...31).contains(first), !isKey(i + 4, "am", "pm") {
            if let year = number(i + 4), words[i + 4].digits == 4 {
                try setDate(year, m, first, i..<i + 5)
            } else if let year = number(i + 4), words[i + 4].span.lowerBound == words[i + 3].span.upperBound {
                // 6.1.27: the day first and a year written short where the locale writes the
                // day first; 27.1.5 is a year first in Korean: unclear elsewhere.
                guard dateOrder == .dayFirst, words[i + 4].digits == 2 else {
                    throw ScheduleError(text(i..<i + 5), Phrase("ambiguous date"), detail: Phrase("it is written both day first and month first"),
                                        accepted: Phrase("give the date as %1$s, dec 1 or %2$s", "YYYY-MM-DD", "\(m)월 \(first)일"))
                }
                put(.reading(Phrase("%1$s is read as %2$s", text(i + 4..<i + 5), String(2000 + year))))
                try setDate(2000 + year, m, first, i..<i + 5)
            } else {
                try setDate(nil, m, first, i..<i + 4)
            }
            return true
        }
        // 3.15 오후 2시, 4.1 오전 9시: month and day, as Koreans write a date before a time
        // (9.30 alone, or 9.30pm, is a time).
        if words[i].digits <= 2, isMark(i + 1, "."), let d = number(i + 2), words[i + 2].digits <= 2, (1...12).contains(first), (1...31).contains(d),
           (number(i + 3) != nil && isKey(i + 4, "시")) || (key(i + 3).map { Self.halves[$0] != nil } == true && !words[i + 3].text.allSatisfy(\.isASCII)) {
            try setDate(nil, first, d, i..<i + 3)
            return true
        }
        // 14/11 and 12/25 in the one order they allow, 12/25/2026 with its year; 12/1, which
        // could be December 1 or January 12, in the order of the person's locale, said.
        if isMark(i + 1, "/"), let second = number(i + 2), words[i].digits <= 2, words[i + 2].digits <= 2 {
            var end = i + 3, year: Int?
            if isMark(end, "/"), let y = number(end + 1), words[end + 1].digits == 4 {
                year = y
                end += 2
            } else if isMark(end, "/"), let y = number(end + 1), words[end + 1].digits == 2 {
                // 1/4/27: a year of this century written short, said. 26/12/31 may be a year
                // first (as Korean writes it) or a day: unclear.
                if first >= 13, (1...12).contains(second), CivilDay(year: 2000 + first, month: second, day: y) != nil {
                    throw ScheduleError(text(i..<end + 2), Phrase("ambiguous date"), detail: Phrase("it is written both day first and month first"),
                                        accepted: Phrase("give the date as %1$s, dec 1 or %2$s", "YYYY-MM-DD", "\(second)월 \(y)일"))
                }
                year = 2000 + y
                put(.reading(Phrase("%1$s is read as %2$s", text(end + 1..<end + 2), String(2000 + y))))
                end += 2
            } else if let y = number(isMark(end, ",") ? end + 1 : end), words[isMark(end, ",") ? end + 1 : end].digits == 4, Limits.years.contains(y),
                      y >= 1970, !isMark(isMark(end, ",") ? end + 2 : end + 1, ":") {
                // 12/25 2030, 12/25, 2030: the year after it, as after dec 25.
                year = y
                end += isMark(end, ",") ? 2 : 1
            }
            let monthFirst = (1...12).contains(first) && (1...31).contains(second), dayFirst = (1...12).contains(second) && (1...31).contains(first)
            var order = monthFirst ? DateOrder.monthFirst : .dayFirst
            if monthFirst, dayFirst, first != second {
                guard let dateOrder else {
                    let dmy = "\(first)월 \(second)일"
                    throw ScheduleError(text(i..<end), Phrase("ambiguous date"),
                                        detail: Phrase("it is written both day first and month first"),
                                        // TRANSLATORS: %1$s is an example ISO date (2026-12-01), %2$s the same in Korean (12월 1일).
                                        accepted: Phrase("give the date as %1$s, dec 1 or %2$s", "YYYY-MM-DD", dmy))
                }
                order = dateOrder
                let said = text(i..<end)
                switch order {
                // TRANSLATORS: %s is a date written with numbers (3/4), read as March 4 because the locale writes the month first.
                case .monthFirst: put(.reading(Phrase("%s is read month first, as your locale writes dates", said)))
                // TRANSLATORS: %s is a date written with numbers (3/4), read as 3 April because the locale writes the day first.
                case .dayFirst: put(.reading(Phrase("%s is read day first, as your locale writes dates", said)))
                }
            }
            try setDate(year, order == .monthFirst ? first : second, order == .monthFirst ? second : first, i..<end)
            return true
        }
        // 2026년 12월 1일, 12월 1일
        var k = i, year: Int?
        if isKey(k + 1, "year"), words[k].digits == 4 { year = first; k += 2 }
        // 27년 3월 1일: a year of this century written short, before its month only; said.
        if isKey(k + 1, "year"), words[k].digits == 2, number(k + 2) != nil, isKey(k + 3, "월") {
            year = 2000 + first
            put(.reading(Phrase("%1$s is read as %2$s", text(k..<k + 2), String(2000 + first))))
            k += 2
        }
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
        // 5. Sept., as German writes the day: a number with a period.
        if m == i + 1, isMark(m, "."), month(at: m + 1) != nil { m += 1 }
        if let (month, after) = month(at: m) {
            var end = after, year: Int?
            if let y = number(end), words[end].digits == 4 { year = y; end += 1 }
            try setDate(year, month, first, i..<end)
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
            put(.monthDay(first, last: nil))
            i += 2
            return true
        }
        // 두 번째 화요일
        if isKey(i + 1, "th"), weekday(i + 2) != nil { return try readPlace(numbered: first, from: i, skip: 1) }
        return false
    }

    /// The month named at `k` (1 to 12) and the word after it, past the period of a short
    /// form (Dec., Sept.).
    func month(at k: Int) -> (month: Int, after: Int)? {
        guard let key = key(k), let month = PhraseWords.monthKeys.firstIndex(of: key) else { return nil }
        let short = words[k].text.count < 5 && words[k].text != "may"
        return (month + 1, short && isMark(k + 1, ".") ? k + 2 : k + 1)
    }

    mutating func setDate(_ year: Int?, _ month: Int, _ day: Int, _ range: Range<Int>) throws(ScheduleError) {
        let said = text(range)
        // The same date twice, as a date and its holiday's name (3월 1일 삼일절): one date.
        if let date = pieces.date, date.month == month, date.day == day, year == nil || date.year == nil || year == date.year {
            if date.year == nil, let year { put(.date(year: year, month: date.month, day: date.day, text: date.text)) }
            i = range.upperBound
            return
        }
        guard pieces.date == nil, pieces.instant == nil, pieces.movable == nil else {
            throw ScheduleError(said, Phrase("more than one date"), accepted: SchedulePhrase.forms)
        }
        // The year first: a calendar's arithmetic on a year of eleven digits overflows (a trap
        // the everyday word soup found once 10000-01-01 was read as a date).
        if let year, !Limits.years.contains(year) {
            throw ScheduleError(said, Phrase("year out of range"), detail: Phrase("the year must be from %1$d to %2$d", Limits.years.lowerBound, Limits.years.upperBound),
                                accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        guard (1...12).contains(month), (1...31).contains(day), CivilDay(year: year ?? 2000, month: month, day: day) != nil else {
            throw ScheduleError(said, Phrase("invalid date"), accepted: Phrase("give e.g. 2026-12-01, dec 1 or 12월 1일"))
        }
        put(.date(year: year, month: month, day: day, text: said))
        i = range.upperBound
        // A weekday in brackets after it, as list writes it: "11월 24일 (화)".
        if isMark(i, "("), weekday(i + 1) != nil, isMark(i + 2, ")") {
            put(.days([weekday(i + 1)!.0], text: words[i + 1].text, many: false, named: false))
            i += 3
        }
    }
}
