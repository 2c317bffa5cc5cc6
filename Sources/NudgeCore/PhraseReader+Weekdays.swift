import Foundation

/// The phrase reader (stage two). Weekdays: mon wed fri, mon-fri, 월수금, 월~금, 금요일마다.
extension PhraseReader {
    // MARK: Weekdays

    /// `mon wed fri`, `mon-fri`, `monday to friday`, `sat and sun`, 월수금, 월~금, `Mon, Wed`.
    mutating func readWeekdays() -> Bool {
        guard let (first, plural) = weekday(i) else { return false }
        // A day said twice in a row ("SAT sat", "friday fri") is no list and no second day:
        // left over ("study for SAT sat at 10am" was every Saturday).
        if let (before, _) = weekday(i - 1), before == first { return false }
        let start = i, before = pieces
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
            } else if (isMark(i, ",") || isKey(i, "and") || isMark(i, "/") || isMark(i, "&")), let (next, _) = weekday(i + 1), !chosen.contains(next) {
                chosen.append(next)
                i += 2
                many = true
            } else if let (next, _) = weekday(i), !chosen.contains(next) {
                chosen.append(next)
                i += 1
                many = true
            } else {
                break
            }
        }
        // 금요일마다: every Friday.
        if isKey(i, "each") {
            put(.repeats)
            i += 1
        }
        // "monday after next": a week after the coming one.
        if !many, isKey(i, "after"), isKey(i + 1, "next"), !isKey(i + 2, "week"), pieces.laterDay == nil {
            i += 2
            put(.laterDay(text(start..<i), weekFrom: false))
        }
        // British "friday week", "monday week": a week after the coming one, as "a week from
        // friday" (not "friday weekly", nor a plural: "mondays week" is no day).
        if !many, !plural, word(i)?.text == "week", pieces.laterDay == nil, !pieces.repeats, pieces.week == nil {
            i += 1
            put(.laterDay(text(start..<i), weekFrom: true))
        }
        // "friday next week", 금요일 (in a date, "11월 24일 (화)", read with it).
        if isKey(i, "next"), isKey(i + 1, "week") {
            put(.week(1))
            i += 2
        }
        lastDays = (Set(chosen), start, i, before)
        put(.days(Set(chosen), text: text(start..<i), many: many, named: !range))
        return true
    }
}
