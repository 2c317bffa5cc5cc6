/// An RRULE value (RFC 5545 §3.3.10): how an event repeats, read from its text and
/// written back. It checks what the RFC says a rule is (each part once, FREQ present,
/// numbers in their ranges, COUNT and UNTIL not both) and nothing about what a program
/// can do with it.
///
/// Written back, the parts come in one order (`FREQ`, `INTERVAL`, `WKST`, `BYMONTH`,
/// `BYDAY`, `BYMONTHDAY`, `BYYEARDAY`, `BYWEEKNO`, `BYHOUR`, `BYMINUTE`, `BYSECOND`,
/// `BYSETPOS`, `COUNT`, `UNTIL`), the values of each as read (a value given twice once),
/// so reading what was written gives the same rule.
public struct RecurrenceRule: Sendable, Hashable, CustomStringConvertible {
    /// `FREQ`.
    public enum Frequency: String, Sendable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A day of the week as RRULE writes it (`BYDAY`, `WKST`).
    public enum Day: String, Sendable, CaseIterable {
        case sunday = "SU", monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR", saturday = "SA"
    }

    /// A `BYDAY` value: a day, every one of them (`place` 0) or its place in the month or
    /// year (`1MO`, `-1FR`).
    public struct DayOfWeek: Sendable, Hashable, CustomStringConvertible {
        /// 0 for every such day; otherwise 1…53 from the start, −1…−53 from the end.
        public var place: Int
        public var day: Day

        public init(_ day: Day, place: Int = 0) { (self.day, self.place) = (day, place) }

        public var description: String { (place == 0 ? "" : String(place)) + day.rawValue }
    }

    /// Why a text is not a rule: the part that is wrong (`INTERVAL=0`) and why.
    public struct Error: Swift.Error, Sendable, Equatable {
        /// The part as written (`BYHOUR=25`), or what is missing (`without FREQ`).
        public var part: String
        /// Why, in a few words.
        public var reason: String
    }

    public var frequency: Frequency
    /// `INTERVAL`; `nil` when not given (1).
    public var interval: Int?
    /// `WKST`; `nil` when not given (Monday).
    public var weekStart: Day?
    public var byMonth: [Int]?
    public var byDay: [DayOfWeek]?
    public var byMonthDay: [Int]?
    public var byYearDay: [Int]?
    public var byWeekNo: [Int]?
    public var byHour: [Int]?
    public var byMinute: [Int]?
    public var bySecond: [Int]?
    public var bySetPos: [Int]?
    public var count: Int?
    /// `UNTIL` as written: a DATE (`20261231`) or a DATE-TIME, floating or UTC
    /// (`20261231T235959Z`); its meaning depends on the event's DTSTART.
    public var until: String?

    /// A rule of `frequency` with nothing else.
    public init(_ frequency: Frequency) { self.frequency = frequency }

    /// The rule a text says (`FREQ=WEEKLY;BYDAY=MO,WE`), names and values in any case.
    public init(parsing text: String) throws(Error) {
        var parts: [String: String] = [:]
        // An empty part (`FREQ=WEEKLY;BYDAY=MO;`, as some programs end a rule) says nothing.
        for part in text.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, !pair[0].isEmpty else { throw Error(part: String(part), reason: "not NAME=value") }
            let name = pair[0].uppercased()
            guard parts[name] == nil else { throw Error(part: name, reason: "given twice: a rule names each part once") }
            parts[name] = pair[1].uppercased()
        }
        guard let freq = parts["FREQ"] else { throw Error(part: "without FREQ", reason: "a rule needs one") }
        guard let frequency = Frequency(rawValue: freq) else { throw Error(part: "FREQ=\(freq)", reason: "not a frequency") }
        self.frequency = frequency
        if let text = parts["INTERVAL"] {
            guard let n = Int(text), n >= 1 else { throw Error(part: "INTERVAL=\(text)", reason: "not a positive number") }
            interval = n
        }
        if let text = parts["WKST"] {
            guard let day = Day(rawValue: text) else { throw Error(part: "WKST=\(text)", reason: "not a day") }
            weekStart = day
        }
        /// `noZero`: why 0 is not a value, for the parts that count from either end.
        func numbers(_ name: String, _ range: ClosedRange<Int>, noZero: String? = nil) throws(Error) -> [Int]? {
            guard let text = parts[name] else { return nil }
            var values: [Int] = [], seen: Set<Int> = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let n = Int(item), range.contains(n) else {
                    throw Error(part: "\(name)=\(text)", reason: "\(Self.short(item)) is not in \(range.lowerBound)…\(range.upperBound)")
                }
                if n == 0, let noZero { throw Error(part: "\(name)=\(text)", reason: noZero) }
                // The same value twice says nothing more (and 270,000 of them must not
                // make a rule of a megabyte).
                if seen.insert(n).inserted { values.append(n) }
            }
            return values
        }
        byMonth = try numbers("BYMONTH", 1...12)
        byMonthDay = try numbers("BYMONTHDAY", -31...31, noZero: "0 is not a day of the month")
        byYearDay = try numbers("BYYEARDAY", -366...366, noZero: "0 is not a day of the year")
        byWeekNo = try numbers("BYWEEKNO", -53...53, noZero: "0 is not a week of the year")
        byHour = try numbers("BYHOUR", 0...23)
        byMinute = try numbers("BYMINUTE", 0...59)
        bySecond = try numbers("BYSECOND", 0...60)
        bySetPos = try numbers("BYSETPOS", -366...366, noZero: "0 is not a place in the set")
        if let text = parts["BYDAY"] {
            var days: [DayOfWeek] = [], seen: Set<DayOfWeek> = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let day = Day(rawValue: String(item.suffix(2))) else {
                    throw Error(part: "BYDAY=\(text)", reason: "\(Self.short(item)) is not a day")
                }
                let ordinal = item.dropLast(2)
                guard let place = ordinal.isEmpty ? 0 : Int(ordinal.hasPrefix("+") ? ordinal.dropFirst() : ordinal),
                      ordinal.isEmpty || (1...53).contains(abs(place)) else {
                    throw Error(part: "BYDAY=\(text)", reason: "\(Self.short(item)): a day's place is 1 to 53, or -1 to -53 from the end")
                }
                let value = DayOfWeek(day, place: place)
                if seen.insert(value).inserted { days.append(value) }
            }
            byDay = days
        }
        if let text = parts["COUNT"] {
            guard let n = Int(text), n >= 1 else { throw Error(part: "COUNT=\(text)", reason: "not a positive number") }
            count = n
        }
        if let text = parts["UNTIL"] {
            guard Self.isDateOrDateTime(text) else {
                throw Error(part: "UNTIL=\(text)", reason: "not a DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS, Z for UTC)")
            }
            until = text
        }
        if count != nil && until != nil { throw Error(part: "COUNT with UNTIL", reason: "a rule ends one way or the other, not both") }
    }

    /// The rule's text, its parts in the order the type's documentation gives.
    public var description: String {
        func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
        var parts = ["FREQ=" + frequency.rawValue]
        if let interval { parts.append("INTERVAL=\(interval)") }
        if let weekStart { parts.append("WKST=" + weekStart.rawValue) }
        if let byMonth { parts.append("BYMONTH=" + list(byMonth)) }
        if let byDay { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
        if let byMonthDay { parts.append("BYMONTHDAY=" + list(byMonthDay)) }
        if let byYearDay { parts.append("BYYEARDAY=" + list(byYearDay)) }
        if let byWeekNo { parts.append("BYWEEKNO=" + list(byWeekNo)) }
        if let byHour { parts.append("BYHOUR=" + list(byHour)) }
        if let byMinute { parts.append("BYMINUTE=" + list(byMinute)) }
        if let bySecond { parts.append("BYSECOND=" + list(bySecond)) }
        if let bySetPos { parts.append("BYSETPOS=" + list(bySetPos)) }
        if let count { parts.append("COUNT=\(count)") }
        if let until { parts.append("UNTIL=" + until) }
        return parts.joined(separator: ";")
    }

    /// `YYYYMMDD`, or `YYYYMMDDTHHMMSS` with an optional `Z`: the shape only (the
    /// calendar's sense of it is the reader's to check against DTSTART).
    static func isDateOrDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") } }
        switch bytes.count {
        case 8: return digits(0..<8)
        case 15, 16: return digits(0..<8) && bytes[8] == UInt8(ascii: "T") && digits(9..<15) && (bytes.count == 15 || bytes[15] == UInt8(ascii: "Z"))
        default: return false
        }
    }

    /// A value for a message: at most 20 characters, with "…" when cut.
    static func short(_ text: some StringProtocol) -> String {
        text.count > 20 ? text.prefix(20) + "…" : String(text)
    }
}
