/// A classic five-field cron expression, `minute hour day-of-month month day-of-week`,
/// with lists, ranges, steps and names, and the `@hourly`/`@daily`/`@weekly`/`@monthly`
/// shorthands. When both day fields are restricted, a day matching either one matches,
/// as in cron.
public struct CronExpression: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The text it was read from.
    public let text: String
    /// The times of day it fires, sorted: every hour of the hour field with every minute
    /// of the minute field, which are not kept apart.
    public let times: [LocalTime]
    // The day fields as bit masks, bit n set when value n matches, each as narrow as its
    // values: a schedule is as large as its largest case, and the daemon holds 100,000.
    let daysOfMonth: UInt32
    let months: UInt16
    let weekdays: UInt8
    let domRestricted: Bool
    let dowRestricted: Bool

    static let shorthand = ["@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
                            "@weekly": "0 0 * * 0", "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// What a cron expression may be, for a message about one.
    // TRANSLATORS: the forms a cron expression may take (the field names are cron's own words).
    public static let accepted = Phrase("use 5 fields 'minute hour day-of-month month day-of-week' with *, lists, ranges, steps and names, or @hourly, @daily, @weekly, @monthly")

    /// Reads an expression; a bad field is an error naming it.
    public init(_ text: String) throws(ScheduleError) {
        self.text = text
        let trimmed = text.trimmingSpaces
        let expanded = trimmed.hasPrefix("@") ? Self.shorthand[trimmed.lowercased()] : trimmed
        guard let expanded else { throw ScheduleError(trimmed, Phrase("invalid cron shorthand"), accepted: Self.accepted) }
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            // TRANSLATORS: %d is how many fields the expression has.
            throw ScheduleError(text, Phrase("invalid cron expression (%d fields, not 5)", fields.count), accepted: Self.accepted)
        }
        let minutes = try Self.field(fields[0], "minute", 0...59, names: [])
        let hours = try Self.field(fields[1], "hour", 0...23, names: [])
        daysOfMonth = UInt32(try Self.field(fields[2], "day-of-month", 1...31, names: []))
        months = UInt16(try Self.field(fields[3], "month", 1...12, names: Self.monthNames, nameBase: 1))
        // 7 is Sunday too, as in cron.
        let dow = try Self.field(fields[4], "day-of-week", 0...7, names: Self.dayNames)
        weekdays = UInt8((dow | dow >> 7) & 0x7F)
        domRestricted = !fields[2].hasPrefix("*")
        dowRestricted = !fields[4].hasPrefix("*")
        var times: [LocalTime] = []
        times.reserveCapacity(hours.nonzeroBitCount * minutes.nonzeroBitCount)
        var h = hours
        while h != 0 {
            let hour = h.trailingZeroBitCount
            h &= h - 1
            var m = minutes
            while m != 0 {
                times.append(LocalTime(hour: hour, minute: m.trailingZeroBitCount)!)
                m &= m - 1
            }
        }
        self.times = times
    }

    /// The values each field matches, for writing the expression in another form (an
    /// iCalendar RRULE): `nil` for a day field left as `*` (weekdays 0 = Sunday).
    public var fields: (minutes: [Int], hours: [Int], daysOfMonth: [Int]?, months: [Int], weekdays: [Int]?) {
        func values(_ mask: UInt64) -> [Int] { (0..<64).filter { mask & (1 << UInt64($0)) != 0 } }
        let minutes = times.reduce(UInt64(0)) { $0 | 1 << ($1.secondOfDay / 60 % 60) }
        let hours = times.reduce(UInt64(0)) { $0 | 1 << ($1.secondOfDay / 3600) }
        return (values(minutes), values(hours), domRestricted ? values(UInt64(daysOfMonth)) : nil, values(UInt64(months)),
                dowRestricted ? values(UInt64(weekdays)) : nil)
    }

    /// Encoded as its text.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Decoded by reading its text again.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    /// Whether the expression fires on a day.
    public func matches(_ day: CivilDay) -> Bool {
        let (_, month, dom) = day.components
        guard months & 1 << month != 0 else { return false }
        let domOK = daysOfMonth & 1 << dom != 0, dowOK = weekdays & 1 << day.weekday.rawValue != 0
        switch (domRestricted, dowRestricted) {
        case (true, true): return domOK || dowOK
        case (true, false): return domOK
        case (false, true): return dowOK
        case (false, false): return true
        }
    }

    /// The text it was read from.
    public var description: String { text }

    static func field(_ text: String, _ name: String, _ range: ClosedRange<Int>, names: [String],
                      nameBase: Int = 0) throws(ScheduleError) -> UInt64 {
        func bad(_ token: String, _ why: Phrase) -> ScheduleError {
            // TRANSLATORS: cron: %s is the field's name (minute, hour, day-of-month, month, day-of-week), as cron calls it.
            ScheduleError(token, Phrase("invalid cron %s field", name), detail: why, accepted: names.isEmpty
                // TRANSLATORS: cron: %1$s is the field's name, %2$d and %3$d its smallest and largest values.
                ? Phrase("%1$s takes %2$d–%3$d, *, lists a,b, ranges a-b and steps */n", name, range.lowerBound, range.upperBound)
                : Phrase("%1$s takes %2$d–%3$d or names, *, lists a,b, ranges a-b and steps */n", name, range.lowerBound, range.upperBound))
        }
        func value(_ token: Substring) throws(ScheduleError) -> Int {
            if let n = Int(token), range.contains(n) { return n }
            if let index = names.firstIndex(of: token.lowercased()) { return index + nameBase }
            throw bad(String(token), Phrase("out of range or unknown"))
        }
        var result: UInt64 = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard !pieces[0].isEmpty, pieces.count == 1 || !pieces[1].contains(where: { $0 == "/" }) else { throw bad(String(part), Phrase("malformed")) }
            var step = 1
            if pieces.count == 2 {
                guard let s = Int(pieces[1]), s > 0 else { throw bad(String(part), Phrase("the step must be 1 or more")) }
                step = s
            }
            let lower: Int, upper: Int
            if pieces[0] == "*" {
                (lower, upper) = (range.lowerBound, range.upperBound)
            } else if let dash = pieces[0].firstIndex(of: "-") {
                lower = try value(pieces[0][..<dash])
                upper = try value(pieces[0][pieces[0].index(after: dash)...])
                guard lower <= upper else { throw bad(String(part), Phrase("the range runs backwards")) }
            } else {
                lower = try value(pieces[0])
                upper = pieces.count == 2 ? range.upperBound : lower
            }
            for n in stride(from: lower, through: upper, by: step) { result |= 1 << n }
        }
        return result
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
