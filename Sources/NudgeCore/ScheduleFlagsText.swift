import Foundation

extension Schedule {
    /// The flags that make this schedule (`--at 09:00 --days mon-fri`, `--every 30m --from
    /// 09:30 --until 21:30`, `--on '2026-12-01 09:00'`): what a phrase is echoed as. `nil`
    /// for what only a phrase or a calendar says (every other week, the first Monday).
    public func flagsText(in zone: TimeZone) -> String? {
        switch self {
        case .daily(let times, let days):
            let sorted = times.sorted()
            if sorted.count >= 3, let step = Self.uniformStep(sorted) {
                return "--every \(Self.flagDuration(step)) --from \(sorted[0]) --until \(sorted[sorted.count - 1])" + Self.daysFlag(days)
            }
            return sorted.map { "--at \($0)" }.joined(separator: " ") + Self.daysFlag(days)
        case .interval(let seconds, _, let days):
            return "--every \(Self.flagDuration(seconds))" + Self.daysFlag(days)
        case .once(let instant):
            let (day, second) = CivilZone(zone).local(instant)
            return "--on '\(day) \(LocalTime(secondOfDay: second)!)'"
        case .cron(let cron):
            return "--cron '\(cron.text)'"
        case .afterAnswer(let seconds, let window, let days):
            return "--every \(Self.flagDuration(seconds)) --after-done" + (window.map { " --from \($0.start) --until \($0.end)" } ?? "") + Self.daysFlag(days)
        case .restricted:
            return nil
        case .place(let trigger):
            return trigger.flagsText
        }
    }

    /// `30m`, `2h`, `1h30m`, `90s`: as `--every` reads it.
    static func flagDuration(_ seconds: Int) -> String {
        if seconds % 60 != 0 { return "\(seconds)s" }
        let (h, m) = (seconds / 3600, seconds / 60 % 60)
        return (h > 0 ? "\(h)h" : "") + (m > 0 ? "\(m)m" : "")
    }

    /// ` --days mon-fri`, ` --days sat,sun`, ` --days mon,wed,fri`; nothing for every day.
    static func daysFlag(_ days: Set<Weekday>) -> String {
        guard days.count < 7 else { return "" }
        let order: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let chosen = order.filter(days.contains)
        let names = chosen.map { $0.shortName.lowercased() }
        // Three days or more in a row, round the week too: mon-fri, fri-mon.
        if chosen.count >= 3, let start = order.firstIndex(where: { days.contains($0) && !days.contains(order[($0.rawValue + 5) % 7]) }),
           (0..<chosen.count).allSatisfy({ days.contains(order[(start + $0) % 7]) }) {
            return " --days \(order[start].shortName.lowercased())-\(order[(start + chosen.count - 1) % 7].shortName.lowercased())"
        }
        return " --days " + names.joined(separator: ",")
    }
}

extension ScheduleFlags {
    /// Reads flags as ``Schedule/flagsText(in:)`` writes them (`--at 09:00 --days mon-fri`,
    /// `--leave 'Kim'\''s Home'`): words split as a POSIX shell splits them, single quotes
    /// and backslashes outside them. `nil` for a word that is not a schedule flag.
    public init?(echoed text: String) {
        var words: [String] = [], word = "", quoted = false, started = false, escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "'" {
                quoted.toggle()
                started = true
            } else if character == "\\" && !quoted {
                escaped = true
                started = true
            } else if character == " " && !quoted {
                if started { words.append(word) }
                (word, started) = ("", false)
            } else {
                word.append(character)
                started = true
            }
        }
        guard !quoted, !escaped else { return nil }
        if started { words.append(word) }
        self.init()
        var index = 0
        while index < words.count {
            var flag = words[index]
            if flag == "--after-done" {
                afterAnswer = true
                index += 1
                continue
            }
            let value: String
            if flag.hasPrefix("--"), let equals = flag.firstIndex(of: "=") {
                // `--arrive=-33.9,151.2,300m`: an option and its value in one word (a value
                // is never split: a name like '--a=b' was, found by the phrase fuzz target).
                value = String(flag[flag.index(after: equals)...])
                flag = String(flag[..<equals])
                index += 1
            } else {
                guard index + 1 < words.count else { return nil }
                value = words[index + 1]
                index += 2
            }
            switch flag {
            case "--at": at.append(value)
            case "--days": days = value
            case "--every": every = value
            case "--from": from = value
            case "--until": until = value
            case "--on": on = value
            case "--in": self.in = value
            case "--cron": cron = value
            case "--arrive": arrive = value
            case "--leave": leave = value
            case "--once-per": oncePer = value
            default: return nil
            }
        }
    }
}
