import Foundation

/// The phrase reader (stage two). Times of day and windows: 9am, 오후 3시 반, 9.30, 1700, half past 9, from 9 to 18, 9시부터.
extension PhraseReader {
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
        if let (time, length) = besideNoonOrMidnight(i) {
            i += length
            return time
        }
        if isKey(i, "noon") || isKey(i, "midnight") {
            i += 1
            return SaidTime(hour: isKey(i - 1, "noon") ? 12 : 0, half: isKey(i - 1, "noon") ? .noon : .midnight, text: words[i - 1].text)
        }
        // one thirty, six forty-five, seven fifteen pm: an hour and its minutes, both in words
        // (with digits, "9 30" is no time; "at 6 30" neither).
        if let hour = number(i), words[i].digits == 0, (1...12).contains(hour), let tens = number(i + 1), words[i + 1].digits == 0,
           [10, 15, 20, 30, 40, 50].contains(tens) {
            var k = i + 2, minutes = tens
            // forty five, forty-five: the tens and a unit.
            if tens >= 20, tens % 10 == 0 {
                let unit = isMark(k, "-") ? k + 1 : k
                if let n = number(unit), words[unit].digits == 0, (1...9).contains(n) { minutes += n; k = unit + 1 }
            }
            // Not a length ("one thirty minutes") nor a count of something.
            if !isKey(k, "minutes", "hours", "seconds", "day", "week", "month", "year", "times") {
                var time = SaidTime(hour: hour, minute: minutes, text: text(i..<k))
                i = k
                takeSuffixHalf(&time, &half, start: start)
                return finish(time, half: half, start: start)
            }
        }
        // twenty past 6, ten to 4, ten after 3 (minutes said in words; "9 to 5" in digits is a window).
        if let minutes = number(i), words[i].digits == 0, (1...29).contains(minutes), isKey(i + 1, "past", "until") || word(i + 1)?.text == "after",
           let hour = number(i + 2), (1...12).contains(hour) {
            let before = isKey(i + 1, "until")
            var time = SaidTime(hour: before ? hour - 1 : hour, minute: before ? 60 - minutes : minutes, text: text(i..<i + 3))
            if before && hour == 1 { time.hour = 12 }
            i += 3
            takeSuffixHalf(&time, &half, start: start)
            return finish(time, half: half, start: start)
        }
        // half past 9, quarter past 9, quarter to 10, (a) quarter after 3.
        if isKey(i, "an"), isKey(i + 1, "quarter"), isKey(i + 2, "past", "until") || word(i + 2)?.text == "after", number(i + 3) != nil { i += 1 }
        if isKey(i, "half", "quarter"), isKey(i + 1, "past", "until") || (isKey(i, "quarter") && word(i + 1)?.text == "after"), let hour = number(i + 2) {
            let quarter = isKey(i, "quarter"), before = isKey(i + 1, "until")
            guard !(isKey(i, "half") && before) else { return nil }
            var time = SaidTime(hour: before ? hour - 1 : hour, minute: quarter ? (before ? 45 : 15) : 30, text: text(i..<i + 3))
            if before && hour == 1 { time.hour = 12 }
            i += 3
            takeSuffixHalf(&time, &half, start: start)
            return finish(time, half: half, start: start)
        }
        // half 4, half eight: British for half past (4:30, read as a spoken hour is).
        if word(i)?.text == "half", let hour = number(i + 1), (1...12).contains(hour), words[i + 1].digits <= 2,
           words[i].span.upperBound < words[i + 1].span.lowerBound, !isMark(i + 2, ":"), !isMark(i + 2, "."),
           stepUnit(key(i + 2)) == nil, !isKey(i + 2, "시", "day", "week", "month", "year", "st", "times") {
            var time = SaidTime(hour: hour, minute: 30, text: text(i..<i + 2))
            i += 2
            takeSuffixHalf(&time, &half, start: start)
            return finish(time, half: half, start: start)
        }
        // 21h, 21h30, 9h15, 09h: the hour and an h written onto it, on the 24-hour clock. Not
        // a duration: not after every or other, not before what says one (마다, later, from
        // now, minutes), and 1h–6h (a duration as often as a time) not at all.
        if let hour = number(i), let h = word(i + 1), h.text == "h", words[i].span.upperBound == h.span.lowerBound,
           words[i].digits == 2 ? hour <= 23 : (7...9).contains(hour), !isKey(i - 1, "every", "other") {
            var minute = 0, end = i + 2
            if let m = number(i + 2), words[i + 2].digits == 2, h.span.upperBound == words[i + 2].span.lowerBound, m < 60 {
                minute = m
                end += 1
            }
            // An hour alone (12h, 8h) is a time past 12, with a leading zero, or where a time
            // is said (at 10h, from 9h, tomorrow 10h); else it may be "in 12 hours".
            let said = isKey(i - 1, "at", "from", "between", "until", "and") || isMark(i - 1, "-") || isMark(i - 1, "~")
                || pieces.dayOffset != nil || pieces.date != nil || !pieces.days.isEmpty
            let alone = end == i + 2 && hour <= 12 && words[i].text.first != "0" && !said
            let after = end
            let duration = alone || stepUnit(key(after)) != nil || isKey(after, "each", "interval", "after", "at")
                || (isKey(after, "from") && isKey(after + 1, "now", "today"))
                || (word(after).map { words[end - 1].span.upperBound == $0.span.lowerBound && !$0.isMark("-") && !$0.isMark("~") } ?? false)
            if !duration {
                i = end
                let time = SaidTime(hour: hour, minute: minute, clock: true, text: text(start..<end))
                return finish(time, half: half, start: start)
            }
        }
        guard let hour = number(i) else { i = start; return nil }
        // A Korean number word is an hour only with 시 after it: 한 주 (a week), 두 번 (twice)
        // in a title are no times (a set written without our tables: "저녁 8시 한 주 계획
        //세우기" rang at 13:00 too).
        if words[i].digits == 0, words[i].text.contains(where: PhraseWords.isHangul), !isKey(i + 1, "시") { i = start; return nil }
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
            // 9.30, 3.45pm: a dot for the colon, as spoken (the half of the day is read as for 9);
            // 07.05 and 19.05 are on the 24-hour clock, as 07:05 is. "on 5.12" is a date.
            guard !isKey(start - 1, "on") else { i = start; return nil }
            time.minute = minute
            if words[i - 1].digits == 2, words[i - 1].text.hasPrefix("0") || hour >= 13 { time.clock = true }
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

    /// am or pm after a time said in words ("half past 6pm", "ten to 4 pm"), where no part of
    /// the day was said before it.
    mutating func takeSuffixHalf(_ time: inout SaidTime, _ half: inout (SaidTime.Half, String)?, start: Int) {
        guard half == nil, let key = key(i), key == "am" || key == "pm", words[i].text.allSatisfy(\.isASCII) else { return }
        half = (Self.halves[key]!, words[i].text)
        i += 1
        time.text = text(start..<i)
    }

    /// A time some minutes from noon or midnight at `k`, on the 24-hour clock: "quarter to
    /// midnight" (23:45), "5 mins before midnight", "ten past noon", "half past midnight"
    /// (00:30), 자정 5분 전 (23:55), 정오 10분 후 (12:10). With the words it takes.
    func besideNoonOrMidnight(_ k: Int) -> (SaidTime, length: Int)? {
        func base(_ at: Int) -> Int? { isKey(at, "noon") ? 12 * 60 : isKey(at, "midnight") ? 24 * 60 : nil }
        func before(_ at: Int) -> Bool? {
            if isKey(at, "until", "before") || word(at)?.text == "before" { return true }
            return isKey(at, "past", "after") ? false : nil
        }
        var minutes: Int, isBefore: Bool, length: Int, noon: Int
        if let at = base(k), let n = number(k + 1), isKey(k + 2, "minutes"), let b = before(k + 3) {
            // 자정 5분 전: the hour first, as Korean says it.
            (minutes, isBefore, length, noon) = (n, b, 4, at)
        } else {
            var m: Int, used: Int
            if isKey(k, "quarter") { (m, used) = (15, 1) } else if isKey(k, "half") { (m, used) = (30, 1) } else if let n = number(k) {
                (m, used) = isKey(k + 1, "minutes") ? (n, 2) : (n, 1)
            } else {
                return nil
            }
            // "every 10 minutes until midnight" is a step and its end; "10 minutes to midnight" a time.
            guard let b = before(k + used), let at = base(k + used + 1), !(isKey(k, "half") && b), !isKey(k - 1, "every", "other"),
                  !(used == 2 && isKey(k + used, "until") && word(k + used)?.text != "to") else { return nil }
            (minutes, isBefore, length, noon) = (m, b, used + 2, at)
        }
        guard (1...59).contains(minutes) else { return nil }
        // Midnight before is the end of the day (23:55); after, its start (00:05).
        let total = isBefore ? noon - minutes : noon % (24 * 60) + minutes
        var time = SaidTime(hour: total / 60, minute: total % 60, clock: true, text: text(k..<k + length))
        time.pastMidnight = !isBefore && noon == 24 * 60
        return (time, length)
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
                    put(.time(joined))
                }
                if !awaitingHour.isEmpty { put(.joined) }
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
        // every hour after 2pm: a window from it (14:00, 15:00, …), to the day's end, as 이후
        // (which takes in its time) and as a writer without our tables meant it.
        if isKey(i, "after"), words[i].text == "after", pieces.step != nil || words[i...].contains(where: { $0.key == "every" || $0.key == "hourly" }) {
            i += 1
            guard var first = try readTime() else { i = start; return false }
            first.text = text(start..<i)
            try setWindow(first, nil)
            return true
        }
        if isKey(i, "until") {
            i += 1
            // "every 15 min, until Wed, Nov 25, 2026, 11:00 AM": how list says a step that
            // stops; the date and time that follow are read as a date and a time.
            if pieces.step != nil, pieces.untilDated == nil, weekday(i) != nil || { if case .instant? = word(i)?.kind { true } else { false } }() {
                put(.untilDated(text(start..<i)))
                return true
            }
            guard let end = try readTime() else { i = start; return false }
            try setWindow(nil, end)
            return true
        }
        guard let time = try readTime() else { return false }
        // 9시부터, 21시까지, 9:30 AM–9:30 PM, 9시~18시
        if isKey(i, "since") {
            i += 1
            try setWindow(time, nil)
        } else if isKey(i, "after"), words[i].text == "이후" {
            // 오후 3시 이후 매시간: from it (이후 takes in its time).
            i += 1
            var first = time
            first.text = text(start..<i)
            try setWindow(first, nil)
        } else if isKey(i, "till") {
            i += 1
            try setWindow(nil, time)
        } else if isMark(i, "~") || isMark(i, "-") || isKey(i, "until") {
            let mark = i
            i += 1
            readingWindowEnd = true
            defer { readingWindowEnd = false }
            guard let end = try readTime() else { i = mark; put(.time(time)); return true }
            try setWindow(time, end)
        } else {
            put(.time(time))
        }
        return true
    }

    mutating func setWindow(_ start: SaidTime?, _ end: SaidTime?) throws(ScheduleError) {
        if let start {
            guard pieces.windowStart == nil else { throw ScheduleError(start.text, Phrase("more than one start"), accepted: SchedulePhrase.forms) }
            put(.windowStart(start))
        }
        if let end {
            guard pieces.windowEnd == nil else { throw ScheduleError(end.text, Phrase("more than one end"), accepted: SchedulePhrase.forms) }
            put(.windowEnd(end))
        }
    }
}
