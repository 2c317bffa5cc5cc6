import Foundation

/// The schedule flags as typed (`--at`, `--days`, `--every`, `--from`, `--until`, `--in`,
/// `--on`, `--cron`), before they are read.
public struct ScheduleFlags: Sendable, Hashable {
    /// `--at HH:MM`, repeatable.
    public var at: [String] = []
    /// `--days LIST`.
    public var days: String?
    /// `--every DURATION`.
    public var every: String?
    /// `--from HH:MM`.
    public var from: String?
    /// `--until HH:MM`.
    public var until: String?
    /// `--in DURATION`.
    public var `in`: String?
    /// `--on DATE [TIME]`.
    public var on: String?
    /// `--cron EXPR`.
    public var cron: String?
    /// `--after-done`: count `--every` from the last answer.
    public var afterAnswer = false
    /// The schedule said in words ("every weekday at 9:30", "매일 오전 9시"), instead of
    /// the other flags.
    public var phrase: String?
    /// `--arrive PLACE`: on arriving at a place.
    public var arrive: String?
    /// `--leave PLACE`: on leaving a place.
    public var leave: String?
    /// `--once-per DURATION`: a place reminder's rest after it came up.
    public var oncePer: String?

    /// Flags as given; every one is optional.
    public init(at: [String] = [], days: String? = nil, every: String? = nil, from: String? = nil,
                until: String? = nil, in inDuration: String? = nil, on: String? = nil, cron: String? = nil,
                afterAnswer: Bool = false, phrase: String? = nil, arrive: String? = nil, leave: String? = nil, oncePer: String? = nil) {
        self.at = at
        self.days = days
        self.every = every
        self.from = from
        self.until = until
        self.in = inDuration
        self.on = on
        self.cron = cron
        self.afterAnswer = afterAnswer
        self.phrase = phrase
        self.arrive = arrive
        self.leave = leave
        self.oncePer = oncePer
    }
}

/// Reads schedules, times, weekdays, durations and zones from the CLI's words. Every
/// error names the token and shows the accepted forms.
public enum ScheduleParser {
    // TRANSLATORS: the forms a time of day may take (keep the examples as they are).
    static let timeForms = Phrase("use HH:MM (24 h), HH:MM:SS, or 9:30am / 9pm")
    // TRANSLATORS: the forms days may take (keep the words mon…sun, weekdays, weekends, daily: they are what to type).
    static let dayForms = Phrase("use mon…sun or full names, lists and ranges (mon-fri, sat,sun), weekdays, weekends, daily")
    // TRANSLATORS: the forms a duration may take.
    static let durationForms = Phrase("use numbers with units, the largest first, each once: 90s, 20m, 1h30m, 10 min, 1시간 30분")
    // TRANSLATORS: the forms a date may take.
    static let dateForms = Phrase("use YYYY-MM-DD [HH:MM[:SS]] or ISO-8601 like 2026-12-01T09:00:05+01:00")

    /// A wall-clock time: `9:30`, `09:30:15`, `9:30am`, `9pm`, `12am` (midnight).
    public static func time(_ text: String) throws(ScheduleError) -> LocalTime {
        let lower = text.lowercased().trimmingSpaces
        var body = Substring(lower)
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where body.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            body = body.dropLast(suffix.count)
            while body.last == " " { body = body.dropLast() }
            break
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (meridiem != nil ? 1...3 : 2...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              parts.dropFirst().allSatisfy({ $0.count == 2 }) else {
            throw ScheduleError(text, Phrase("invalid time"), accepted: timeForms)
        }
        var hour = Int(parts[0])!
        let minute = parts.count > 1 ? Int(parts[1])! : 0
        let second = parts.count > 2 ? Int(parts[2])! : 0
        if let meridiem {
            guard (1...12).contains(hour) else { throw ScheduleError(text, Phrase("invalid time"), detail: Phrase("the hour must be 1–12 with am/pm"), accepted: timeForms) }
            hour = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard let time = LocalTime(hour: hour, minute: minute, second: second) else {
            throw ScheduleError(text, Phrase("invalid time"), accepted: timeForms)
        }
        return time
    }

    /// A set of weekdays: `mon-fri`, `sat,sun`, `Monday`, `weekdays`, `weekends`, `daily`.
    public static func days(_ text: String) throws(ScheduleError) -> Set<Weekday> {
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        func day(_ token: String) throws(ScheduleError) -> Weekday {
            let t = token.lowercased().trimmingSpaces
            if let i = names.firstIndex(of: t) ?? full.firstIndex(of: t) ?? (t.count >= 3 ? full.firstIndex(where: { $0.hasPrefix(t) }) : nil) {
                return Weekday(rawValue: i)!
            }
            throw ScheduleError(token, Phrase("invalid day"), accepted: dayForms)
        }
        var result = Set<Weekday>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            switch part.lowercased().trimmingSpaces {
            case "daily", "everyday", "all": result.formUnion(Weekday.allCases)
            case "weekdays": result.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
            case "weekends", "weekend": result.formUnion([.saturday, .sunday])
            default:
                if let dash = part.firstIndex(of: "-") {
                    let a = try day(String(part[..<dash])), b = try day(String(part[part.index(after: dash)...]))
                    // A range may wrap round the week: fri-mon.
                    var d = a
                    while true {
                        result.insert(d)
                        if d == b { break }
                        d = Weekday(rawValue: (d.rawValue + 1) % 7)!
                    }
                } else {
                    result.insert(try day(part))
                }
            }
        }
        return result
    }

    /// A duration in whole seconds: `90s`, `20m`, `1h30m`, `2h`, `1h30m15s`.
    public static func duration(_ text: String, for quantity: Limits.Quantity) throws(ScheduleError) -> Int {
        let seconds = try duration(text)
        do {
            try Limits.check(quantity, seconds: seconds)
        } catch {
            // TRANSLATORS: %1$s is what the duration is for (snooze, --every…); %2$s its allowed range.
            throw ScheduleError(text, Phrase("invalid %s", quantity.label),
                                detail: Phrase("it must be %s", quantity.rangePhrase), accepted: durationForms)
        }
        return seconds
    }

    /// A duration as the flags write it (`1h30m`) or as a person says it, in English or
    /// Korean: `10 min`, `1 hour 30 minutes`, `an hour and a half`, `10분`, `1시간 30분`,
    /// `1시간 반`, `1.5h`, `2일`. Units go from the largest down, each once.
    static func duration(_ text: String) throws(ScheduleError) -> Int {
        let bad = ScheduleError(text, Phrase("invalid duration"), accepted: durationForms)
        guard let total = DurationWords.seconds(text) else { throw bad }
        guard total > 0 else { throw ScheduleError(text, Phrase("invalid duration"), detail: Phrase("it must be more than 0"), accepted: durationForms) }
        return total
    }

    /// A time zone by IANA name (`Europe/Berlin`), or `UTC`.
    public static func zone(_ text: String) throws(ScheduleError) -> TimeZone {
        if PosixTZ.isAmbiguousOffsetName(text) {
            throw ScheduleError(text, Phrase("ambiguous time zone"),
                                detail: Phrase("POSIX reads it as hours west of UTC, most people as hours east"),
                                accepted: Phrase("use an IANA name: Etc/GMT-3 is UTC+03:00, Etc/GMT+3 is UTC-03:00"))
        }
        guard !text.isEmpty, let zone = TimeZone(identifier: text) else {
            throw ScheduleError(text, Phrase("unknown time zone"), accepted: Phrase("use an IANA name such as Europe/Berlin, America/New_York or UTC"))
        }
        return zone
    }

    /// An instant: `2026-12-01 09:00` (local in `zone`), `2026-12-01` (midnight), or
    /// ISO-8601 with seconds and an offset (`2026-12-01T09:00:05+01:00`, `…Z`).
    public static func instant(_ text: String, zone: TimeZone) throws(ScheduleError) -> Date {
        let t = text.trimmingSpaces
        let bad = ScheduleError(text, Phrase("invalid date"), accepted: dateForms)
        let separator = t.firstIndex(where: { $0 == "T" || $0 == " " })
        let datePart = separator.map { String(t[..<$0]) } ?? t
        var rest = separator.map { String(t[t.index(after: $0)...]).trimmingSpaces } ?? ""
        let ymd = datePart.split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, ymd[0].count == 4, ymd[1].count == 2, ymd[2].count == 2,
              let y = Int(ymd[0]), let m = Int(ymd[1]), let d = Int(ymd[2]), let day = CivilDay(year: y, month: m, day: d) else {
            throw bad
        }
        // TRANSLATORS: %1$d and %2$d are the first and last years allowed (1970, 9999).
        let outOfRange = ScheduleError(text, Phrase("invalid date"), detail: Phrase("the year must be from %1$d to %2$d", Limits.years.lowerBound, Limits.years.upperBound),
                                       accepted: dateForms)
        guard Limits.years.contains(y) else { throw outOfRange }
        var offset: Int?
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offset = 0
            rest.removeLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let text = rest[rest.index(after: sign)...].replacingOccurrences(of: ":", with: "")
            guard text.count == 4, let hh = Int(text.prefix(2)), let mm = Int(text.suffix(2)), hh < 24, mm < 60 else { throw bad }
            offset = (rest[sign] == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
            rest = String(rest[..<sign])
        }
        let time: LocalTime
        do {
            time = rest.isEmpty ? LocalTime(hour: 0, minute: 0)! : try Self.time(rest)
        } catch {
            throw bad
        }
        let instant = offset.map { Date(timeIntervalSince1970: TimeInterval(day.daysSinceEpoch * 86400 + time.secondOfDay - $0)) }
            ?? CivilZone(zone).instant(day, time)
        // An offset can carry a date in range out of it (9999-12-31T23:59-12:00 is in 10000
        // in UTC): the instant itself must be in those years, in UTC and in the zone.
        guard Limits.inYears(instant, zone: zone) else { throw outOfRange }
        return instant
    }

    /// `--arrive` or `--leave` with its hours (`--from`, `--until`), days and rest.
    static func placeTrigger(_ place: String, _ flags: ScheduleFlags) throws(ScheduleError) -> PlaceTrigger {
        if flags.afterAnswer {
            throw ScheduleError("--after-done", Phrase("invalid schedule"), detail: Phrase("it counts --every from the last answer, and no --every is given"),
                                accepted: Phrase("use e.g. --every 45m --after-done --from 09:30 --until 21:30"))
        }
        let spot = try PlaceTrigger.spot(place)
        let days = try flags.days.map { (text) throws(ScheduleError) in try Self.days(text) } ?? Schedule.everyDay
        var window: DayWindow?
        switch (flags.from, flags.until) {
        case (nil, nil): break
        case (let from?, let until?):
            guard let both = DayWindow(start: try time(from), end: try time(until)) else {
                throw ScheduleError(until, Phrase("invalid window"), detail: Phrase("--until must not be before --from"),
                                    accepted: Phrase("use e.g. --from 09:30 --until 21:30"))
            }
            window = both
        default:
            throw ScheduleError(flags.from ?? flags.until ?? "", Phrase("a window needs both --from and --until"),
                                accepted: Phrase("use --from 09:30 --until 21:30"))
        }
        let oncePer = try flags.oncePer.map { (text) throws(ScheduleError) in try duration(text, for: .oncePer) }
        return PlaceTrigger(edge: flags.arrive != nil ? .arrive : .leave, spot: spot, window: window, days: days, oncePer: oncePer)
    }

    /// A whole schedule from its flags. `now` anchors `--in` and windowless `--every`; a
    /// phrase naming a day without a time of day takes `defaultTime` (see
    /// ``SchedulePhrase/read(_:now:zone:defaultTime:)``).
    public static func schedule(_ flags: ScheduleFlags, now: Date, zone: TimeZone, defaultTime: LocalTime? = nil,
                                dateOrder: DateOrder? = nil) throws(ScheduleError) -> Schedule {
        if let phrase = flags.phrase {
            var others = flags
            others.phrase = nil
            guard others == ScheduleFlags() else {
                throw ScheduleError(phrase, Phrase("a schedule phrase and schedule flags"), detail: Phrase("give one or the other"),
                                    accepted: Phrase("use the phrase alone, or --at, --every, --in, --on, --cron, --arrive or --leave"))
            }
            return try SchedulePhrase.read(phrase, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder).schedule
        }
        let kinds = [!flags.at.isEmpty, flags.every != nil, flags.in != nil, flags.on != nil, flags.cron != nil, flags.arrive != nil, flags.leave != nil]
        guard kinds.filter({ $0 }).count == 1 else {
            let given = zip(["--at", "--every", "--in", "--on", "--cron", "--arrive", "--leave"], kinds).filter(\.1).map(\.0)
            throw ScheduleError(given.joined(separator: " "), given.isEmpty ? Phrase("no schedule given") : Phrase("more than one schedule"),
                                detail: Phrase("give exactly one"), accepted: Phrase("use --at, --every, --in, --on, --cron, --arrive or --leave"))
        }
        if let place = flags.arrive ?? flags.leave {
            return .place(try placeTrigger(place, flags))
        }
        if let oncePer = flags.oncePer {
            throw ScheduleError(oncePer, Phrase("--once-per needs --arrive or --leave"), accepted: Phrase("use e.g. --arrive office-wifi --once-per 4h"))
        }
        let days = try flags.days.map { (text) throws(ScheduleError) in try Self.days(text) } ?? Schedule.everyDay
        if (flags.from != nil || flags.until != nil) && flags.every == nil {
            throw ScheduleError(flags.from ?? flags.until ?? "", Phrase("--from/--until need --every"),
                                accepted: Phrase("use --every 30m --from 09:30 --until 21:30"))
        }
        if flags.afterAnswer && flags.every == nil {
            throw ScheduleError("--after-done", Phrase("invalid schedule"), detail: Phrase("it counts --every from the last answer, and no --every is given"),
                                accepted: Phrase("use e.g. --every 45m --after-done --from 09:30 --until 21:30"))
        }
        if flags.days != nil && (flags.in != nil || flags.on != nil || flags.cron != nil) {
            throw ScheduleError(flags.days ?? "", Phrase("--days does not go with a one-shot or --cron"),
                                accepted: Phrase("use --days with --at or --every"))
        }
        if !flags.at.isEmpty {
            var times: [LocalTime] = []
            for text in flags.at { times.append(try time(text)) }
            return .daily(times: Array(Set(times)).sorted(), days: days)
        }
        if let every = flags.every {
            let seconds = try duration(every, for: .every)
            switch (flags.from, flags.until) {
            case (nil, nil):
                if flags.afterAnswer { return .afterAnswer(seconds: seconds, window: nil, days: days) }
                return .interval(seconds: seconds, anchor: now, days: days)
            case (let from?, let until?):
                guard let window = DayWindow(start: try time(from), end: try time(until)) else {
                    throw ScheduleError(until, Phrase("invalid window"), detail: Phrase("--until must not be before --from"),
                                        accepted: Phrase("use e.g. --from 09:30 --until 21:30"))
                }
                if flags.afterAnswer { return .afterAnswer(seconds: seconds, window: window, days: days) }
                return .daily(times: window.times(every: seconds), days: days)
            default:
                throw ScheduleError(flags.from ?? flags.until ?? "", Phrase("a window needs both --from and --until"),
                                    accepted: Phrase("use --from 09:30 --until 21:30"))
            }
        }
        if let text = flags.in { return .once(now.addingTimeInterval(TimeInterval(try duration(text, for: .in)))) }
        if let text = flags.on { return .once(try instant(text, zone: zone)) }
        return .cron(try CronExpression(flags.cron ?? ""))
    }
}
