import Foundation

/// The phrase reader (stage two). Durations, for a step or for once: 20 minutes, 1h30m, 반 시간, 1.5시간, 이틀, a couple of hours.
extension PhraseReader {
    // MARK: Durations

    enum Role { case relative, step, lasting, either }

    /// Korean units that say "for so long" themselves: 3일간, 2주간, 10분간, 2시간동안.
    static let lengthWords: [String: (String, Bool)] = [
        "일간": ("day", true), "일동안": ("day", true), "주간": ("week", true), "주일간": ("week", true), "주동안": ("week", true),
        "분간": ("minutes", true), "분동안": ("minutes", true), "시간동안": ("hours", true), "초간": ("seconds", true),
    ]

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
        /// 3일간, 10분간, 2시간동안: a length said in the unit's own word.
        var during = false
        if isKey(i, "half"), isKey(i + 1, "an"), isKey(i + 2, "hours") {
            seconds = 1800
            i += 3
        } else if isKey(i, "half"), isKey(i + 1, "hours") {
            // 반 시간, every half hour.
            seconds = 1800
            i += 2
        } else if let k = isKey(i, "an") ? i + 1 : isKey(i, "quarter") ? i : nil, isKey(k, "quarter"),
                  isKey(k + 1, "hours") || (isKey(k + 1, "of") && isKey(k + 2, "an") && isKey(k + 3, "hours")) {
            // in a quarter of an hour, a quarter hour: 15 minutes.
            seconds = 900
            i = isKey(k + 1, "hours") ? k + 2 : k + 4
        } else if let n = number(i), n < 1_000_000, isKey(i + 1, "and"), isKey(i + 2, "an"), isKey(i + 3, "half"), isKey(i + 4, "hours") {
            // in 2 and a half hours: two hours and thirty minutes.
            seconds = n * 3600 + 1800
            i += 5
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
                // 3일간: the unit that says "for so long" itself ends the duration (1시간 30분간).
                let lengthWord = Self.lengthWords[word(i + 1 + of)?.text ?? ""]?.0
                guard let unitKey = lengthWord ?? key(i + 1 + of) else { if i > start, isKey(i - 1, "an") { i -= 1 }; break }
                if lengthWord != nil { during = true }
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
                if during { break }
                if isKey(i, "and") && (number(i + 1) != nil) { i += 1 }
            }
        }
        guard i > start else { return false }
        let said = text(start..<i)
        // What it is for: after it (마다, 간격, 후, later), or before it.
        var resolved = role
        if role == .lasting || isKey(i, "during") || during {
            // How long a step goes on: "for 2 hours", 1시간 동안.
            guard role == .lasting || role == .either else { i = start; return false }
            if isKey(i, "during") { i += 1 }
            resolved = .lasting
        } else if isKey(i, "each", "interval") {
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
        } else if isKey(i, "after"), words[i].text == "after", role != .relative, start > 0, isKey(start - 1, "every"), word(i + 1) != nil {
            // "every 30 min after 9pm": a step, and the window's start after it.
            resolved = .step
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
        if resolved == .lasting {
            guard pieces.lasting == nil else { throw ScheduleError(said, Phrase("more than one duration"), accepted: SchedulePhrase.forms) }
            // As long as `--in` reaches, at most (an end 100,000 years on was stored, and no
            // Nudge could read that store's schedule again).
            var total = seconds
            if let (n, unit) = calendar { total = n.multipliedReportingOverflow(by: unit.isWeek ? 7 * 86_400 : 86_400).partialValue }
            do { try Limits.check(.in, seconds: total) } catch {
                throw ScheduleError(said, Phrase("invalid duration"), detail: Phrase("it must be %s", Limits.Quantity.in.rangePhrase),
                                    accepted: SchedulePhrase.forms)
            }
            if let (n, unit) = calendar {
                // Months are no length of time a step goes on for (28 to 31 days).
                switch unit {
                case .day, .week: break
                default: throw ScheduleError(said, Phrase("invalid duration"), detail: Phrase("say it in days or weeks"), accepted: SchedulePhrase.forms)
                }
                put(.lasting(count: n, unit: unit, text: text(start..<i)))
            } else {
                put(.lasting(count: seconds, unit: .seconds(1), text: text(start..<i)))
            }
            return true
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
            put(.relative(seconds: total, text: said, days: calendar.map { ($0.0, $0.1) }))
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
                put(.step(count: time.count, unit: time.unit, text: time.text))
                if dayStep.count > 1 { put(.period(unit, every: dayStep.count, text: dayStep.text)) }
                return true
            }
            guard pieces.step == nil else { throw ScheduleError(said, Phrase("more than one step"), accepted: SchedulePhrase.forms) }
            put(.repeats)
            if let (n, unit) = calendar {
                put(.step(count: n, unit: unit, text: said))
            } else {
                put(.step(count: seconds, unit: .seconds(1), text: said))
            }
        }
        return true
    }
}
