import Foundation

extension Schedule {
    /// The schedule in words, e.g. "every 30 min, 09:30–21:30, Mon–Fri" or "daily at 09:00",
    /// in the words given (`--json` keeps the English).
    public func summary(in zone: TimeZone, timeStyle: TimeStyle = .iso, language: Language = .english) -> String {
        switch self {
        case .daily(let times, let days):
            let sorted = times.sorted()
            let dayText = Self.describe(days, language: language)
            if sorted.count >= 3, let step = Self.uniformStep(sorted) {
                let (every, from, to) = (Self.duration(step, language: language), timeStyle.time(sorted[0]), timeStyle.time(sorted[sorted.count - 1]))
                return dayText.isEmpty
                    // TRANSLATORS: a schedule: %1$s is a step (30 min), %2$s and %3$s the window's first and last times.
                    ? format(language.tr("every %1$s, %2$s–%3$s"), every, from, to)
                    // TRANSLATORS: a schedule: %1$s is a step, %2$s–%3$s the window, %4$s the days (Mon–Fri).
                    : format(language.tr("every %1$s, %2$s–%3$s, %4$s"), every, from, to, dayText)
            }
            let at = sorted.map(timeStyle.time).joined(separator: ", ")
            // One day a week says "every": "Fri at 17:00" alone reads as this Friday.
            // TRANSLATORS: a weekly schedule: %1$s is one day (Fri), %2$s one or more times of day.
            if days.count == 1 { return format(language.tr("every %1$s at %2$s"), dayText, at) }
            return dayText.isEmpty
                // TRANSLATORS: a schedule: %s is one or more times of day (09:00, 12:00).
                ? format(language.tr("daily at %s"), at)
                // TRANSLATORS: a schedule: %1$s is the days (Mon–Fri, or Sat, Sun), %2$s the times of day.
                : format(language.tr("%1$s at %2$s"), dayText, at)
        case .interval(let seconds, _, let days):
            let dayText = Self.describe(days, language: language)
            let every = Self.duration(seconds, language: language)
            return dayText.isEmpty
                // TRANSLATORS: a schedule: %s is a step (45 min, 1 h 30 min).
                ? format(language.tr("every %s"), every)
                // TRANSLATORS: a schedule: %1$s is a step, %2$s the days (Mon–Fri).
                : format(language.tr("every %1$s, %2$s"), every, dayText)
        case .once(let instant):
            // TRANSLATORS: a one-shot schedule: %s is the date and time.
            return format(language.tr("once, %s"), timeStyle.dated(instant, zone))
        case .cron(let cron):
            // Monthly and yearly rules in words, as the phrase reader reads them back.
            if let words = cron.words(timeStyle: timeStyle, language: language) { return words }
            // TRANSLATORS: a cron schedule: %s is the expression as given (0 18 * * fri).
            return format(language.tr("cron %s"), cron.text)
        case .afterAnswer(let seconds, let window, let days):
            let every = Self.duration(seconds, language: language)
            let dayText = Self.describe(days, language: language)
            // TRANSLATORS: a schedule counted from the last answer: %s is a step (45 min).
            var text = format(language.tr("%s after the last answer"), every)
            if let window { text += ", \(timeStyle.time(window.start))–\(timeStyle.time(window.end))" }
            if !dayText.isEmpty { text += ", " + dayText }
            return text
        case .restricted(let base, let restriction):
            var text: String
            if case .daily(let times, let days) = base, days.count == 7, let period = restriction.period, period.unit == .day {
                // TRANSLATORS: a schedule: %1$d is a number of days (2 or more), %2$s one or more times of day.
                text = format(language.tr("every %1$d days at %2$s"), period.every, times.sorted().map(timeStyle.time).joined(separator: ", "))
            } else if case .daily(let times, let days) = base, days.count == 7, let period = restriction.period, period.unit == .week,
                      times.count >= 3, Self.uniformStep(times.sorted()) != nil {
                // A window of steps on every day of alternate weeks says "every day": without it,
                // "every 30 min, 09:00–10:00, every 2 weeks" asks which day of the week (found by
                // the everyday word soup: the window's words did not read back).
                // TRANSLATORS: a window of steps on every day: %s is the window (every 30 min, 09:00–21:30).
                text = format(language.tr("every day, %s"), base.summary(in: zone, timeStyle: timeStyle, language: language))
                    + ", " + period.summary(language: language)
            } else {
                text = base.summary(in: zone, timeStyle: timeStyle, language: language)
                if let period = restriction.period { text += ", " + period.summary(language: language) }
            }
            if !restriction.monthDays.isEmpty {
                let days = restriction.monthDays.map { Restriction.monthDay($0, language: language) }.joined(separator: ", ")
                text += ", " + format(language.tr("%s of every month"), days)
            }
            if !restriction.places.isEmpty {
                // TRANSLATORS: weekdays by their place in the month: %s is a list (first Mon, last Fri).
                text += ", " + format(language.tr("%s of every month"), restriction.places.map { $0.summary(language: language) }.joined(separator: ", "))
            }
            // TRANSLATORS: a schedule's first showing: %s is a date and time.
            if let from = restriction.from { text += ", " + format(language.tr("from %s"), timeStyle.dated(from, zone)) }
            // TRANSLATORS: a schedule's last showing: %s is a date and time.
            if let until = restriction.until { text += ", " + format(language.tr("until %s"), timeStyle.dated(until, zone)) }
            if restriction.except.count == 1, let only = restriction.except.first {
                // TRANSLATORS: a schedule's one left-out showing: %s is a date and time.
                text += ", " + format(language.tr("except %s"), timeStyle.dated(only, zone))
            } else if restriction.except.count > 1 {
                // TRANSLATORS: a schedule's showings left out: %d is how many (2 or more).
                text += ", " + format(language.tr("except %d times"), restriction.except.count)
            }
            if restriction.also.count == 1, let only = restriction.also.first {
                // TRANSLATORS: a schedule's one showing added to its rule (a calendar's RDATE, or an occurrence moved there): %s is a date and time.
                text += ", " + format(language.tr("also %s"), timeStyle.dated(only, zone))
            } else if restriction.also.count > 1 {
                // TRANSLATORS: a schedule's showings added to its rule (a calendar's RDATE, or occurrences moved there): %d is how many (2 or more).
                text += ", " + format(language.tr("also %d other times"), restriction.also.count)
            }
            return text
        case .place(let trigger):
            return trigger.summary(timeStyle: timeStyle, language: language)
        }
    }

    /// The months' short names, marked for translation (Korean says 3월).
    static let monthNames = [
        // TRANSLATORS: the months' short names (Jan to Dec), as in "every year on Mar 15 at 09:00".
        Phrase("Jan").template, Phrase("Feb").template, Phrase("Mar").template, Phrase("Apr").template, Phrase("May").template, Phrase("Jun").template,
        Phrase("Jul").template, Phrase("Aug").template, Phrase("Sep").template, Phrase("Oct").template, Phrase("Nov").template, Phrase("Dec").template,
    ]

    static func uniformStep(_ times: [LocalTime]) -> Int? {
        let step = times[1].secondOfDay - times[0].secondOfDay
        guard step > 0 else { return nil }
        for (a, b) in zip(times, times.dropFirst()) where b.secondOfDay - a.secondOfDay != step { return nil }
        return step
    }

    /// `30 min`, `1 h`, `1 h 30 min`, `90 s`, in the words given.
    public static func duration(_ seconds: Int, language: Language = .english) -> String {
        // TRANSLATORS: a duration in seconds (90 s).
        if seconds % 60 != 0 { return format(language.tr("%d s"), seconds) }
        let minutes = seconds / 60
        // TRANSLATORS: a duration in minutes (30 min).
        if minutes < 60 { return format(language.tr("%d min"), minutes) }
        return minutes % 60 == 0
            // TRANSLATORS: a duration in hours (2 h).
            ? format(language.tr("%d h"), minutes / 60)
            // TRANSLATORS: a duration in hours and minutes (1 h 30 min).
            : format(language.tr("%1$d h %2$d min"), minutes / 60, minutes % 60)
    }

    /// "" for every day, else `Mon–Fri`, `Sat–Sun`, or a list `Mon, Wed`.
    static func describe(_ days: Set<Weekday>, language: Language) -> String {
        if days.count == 7 { return "" }
        let order: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let chosen = order.filter(days.contains)
        if chosen.count >= 3, let first = order.firstIndex(of: chosen[0]),
           order[first..<(first + chosen.count)].elementsEqual(chosen) {
            return "\(chosen[0].shortName(language))–\(chosen[chosen.count - 1].shortName(language))"
        }
        return chosen.map { $0.shortName(language) }.joined(separator: ", ")
    }
}

extension CronExpression {
    /// A rule on days of every month, or on one day of the year, in words: "day 1, day 15
    /// of every month at 09:00", "every year on Mar 15 at 09:00" (매월 1일 오전 9:00, 매년 3월
    /// 15일 오전 9:00); `nil` for what only cron's five fields say.
    func words(timeStyle: TimeStyle, language: Language) -> String? {
        let f = fields
        guard f.weekdays == nil, let days = f.daysOfMonth, !days.isEmpty, !times.isEmpty, times.count <= 12 else { return nil }
        let at = times.map(timeStyle.time).joined(separator: ", ")
        if f.months.count == 12 {
            let list = days.map { Schedule.Restriction.monthDay($0, language: language) }.joined(separator: ", ")
            return format(language.tr("%1$s at %2$s"), format(language.tr("%s of every month"), list), at)
        }
        guard f.months.count == 1, days.count == 1, (1...12).contains(f.months[0]) else { return nil }
        // TRANSLATORS: a yearly schedule: %1$s is the month (Mar), %2$d the day of the month, %3$s one or more times of day.
        return format(language.tr("every year on %1$s %2$d at %3$s"), language.tr(Schedule.monthNames[f.months[0] - 1]), days[0], at)
    }
}
