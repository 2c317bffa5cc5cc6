import Foundation

extension Schedule {
    /// A compact, exact text form for storage, read back by ``init(storageText:)`` without a
    /// JSON decoder (a store of 100,000 alerts is read in milliseconds): times as seconds of
    /// the day, days as a bit mask (bit 0 Sunday), instants as seconds since 1970.
    ///
    ///     at 34200,36000 62
    ///     every 1800 1763800000.25 127
    ///     once 1764576000
    ///     cron */15 9-17 * * mon-fri
    ///     after 2700 34200-77400 62
    ///     after 2700 - 127
    ///     at 32400 127;every day 2 20457 1;from 1767600000;until 1798675200;except 1767772800,1767859200
    ///     at 32400 34;places 1:1,-1:5
    ///     at 32400 127;monthdays -1
    ///     once 1764576000;also 1764662400,1764748800
    ///
    /// A restriction follows its schedule after semicolons, which no schedule holds:
    /// `every UNIT N ANCHOR-DAY WEEK-START`, `places PLACE:WEEKDAY,…`, `monthdays D,…`, `from`, `until`,
    /// `except` and `also` (sorted). A one-shot takes only `except` and `also`.
    public var storageText: String {
        switch self {
        case .daily(let times, let days):
            "at \(times.map { String($0.secondOfDay) }.joined(separator: ",")) \(Self.mask(days))"
        case .interval(let seconds, let anchor, let days):
            "every \(seconds) \(anchor.timeIntervalSince1970) \(Self.mask(days))"
        case .once(let instant):
            "once \(instant.timeIntervalSince1970)"
        case .cron(let cron):
            "cron \(cron.text)"
        case .afterAnswer(let seconds, let window, let days):
            "after \(seconds) \(window.map { "\($0.start.secondOfDay)-\($0.end.secondOfDay)" } ?? "-") \(Self.mask(days))"
        case .restricted(let base, let restriction):
            base.storageText + restriction.storageText
        case .place(let trigger):
            trigger.storageText
        }
    }

    /// Reads ``storageText``; `nil` when the text is not one. It reads bytes, not
    /// Characters: a big store holds one of these per alert.
    public init?(storageText text: String) {
        if text.hasPrefix("place ") {
            guard let trigger = PlaceTrigger(storageText: text) else { return nil }
            self = .place(trigger)
            return
        }
        var text = text
        guard let parsed = text.withUTF8({ bytes -> Schedule? in
            guard let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) else { return Self.parse(storage: bytes) }
            guard let base = Self.parse(storage: UnsafeBufferPointer(rebasing: bytes[..<semicolon])),
                  let restriction = Restriction(storageText: String(decoding: UnsafeBufferPointer(rebasing: bytes[semicolon...]), as: UTF8.self)),
                  base.canBeRestricted || base.isOnce && restriction.onlyInstants,
                  !(restriction.narrowsDays && base.isInterval) else { return nil }
            return .restricted(base, restriction)
        }) else { return nil }
        self = parsed
    }

    /// Whether it is steps of elapsed time (which a period does not narrow: its days are
    /// not a calendar's).
    public var isInterval: Bool {
        if case .interval = self { return true }
        return false
    }

    /// Whether it is a one-shot.
    public var isOnce: Bool {
        if case .once = self { return true }
        return false
    }

    /// Whether a restriction can narrow it: a daily, interval or cron schedule.
    public var canBeRestricted: Bool {
        switch self {
        case .daily, .interval, .cron: true
        case .once, .afterAnswer, .restricted, .place: false
        }
    }

    private static func parse(storage bytes: UnsafeBufferPointer<UInt8>) -> Schedule? {
        var scanner = ByteScanner(bytes: bytes)
        switch scanner.word() {
        case "at":
            var times: [LocalTime] = []
            repeat {
                guard let second = scanner.integer(), (0..<86400).contains(second) else { return nil }
                times.append(LocalTime(hour: second / 3600, minute: second / 60 % 60, second: second % 60)!)
            } while scanner.skip(UInt8(ascii: ","))
            guard scanner.skip(UInt8(ascii: " ")), let days = days(scanner.integer()), scanner.atEnd else { return nil }
            return .daily(times: times, days: days)
        case "every":
            guard let seconds = scanner.integer(), seconds > 0, scanner.skip(UInt8(ascii: " ")),
                  let anchor = Double(scanner.word()), Limits.storedInstants.contains(anchor), let days = days(scanner.integer()), scanner.atEnd else { return nil }
            return .interval(seconds: seconds, anchor: Date(timeIntervalSince1970: anchor), days: days)
        case "once":
            guard let instant = Double(scanner.word()), Limits.storedInstants.contains(instant), scanner.atEnd else { return nil }
            return .once(Date(timeIntervalSince1970: instant))
        case "cron":
            return (try? CronExpression(scanner.rest())).map(Schedule.cron)
        case "after":
            guard let seconds = scanner.integer(), seconds > 0, scanner.skip(UInt8(ascii: " ")) else { return nil }
            var window: DayWindow?
            if !scanner.skip(UInt8(ascii: "-")) {
                guard let start = scanner.integer().flatMap(LocalTime.init(secondOfDay:)), scanner.skip(UInt8(ascii: "-")),
                      let end = scanner.integer().flatMap(LocalTime.init(secondOfDay:)),
                      let both = DayWindow(start: start, end: end) else { return nil }
                window = both
            }
            guard scanner.skip(UInt8(ascii: " ")), let days = days(scanner.integer()), scanner.atEnd else { return nil }
            return .afterAnswer(seconds: seconds, window: window, days: days)
        default:
            return nil
        }
    }

    static func mask(_ days: Set<Weekday>) -> Int {
        days.reduce(0) { $0 | 1 << $1.rawValue }
    }

    static func days(_ mask: Int?) -> Set<Weekday>? {
        guard let mask, (1...127).contains(mask) else { return nil }
        if mask == 127 { return Schedule.everyDay }
        return Set(Weekday.allCases.filter { mask & 1 << $0.rawValue != 0 })
    }
}

extension Schedule.Restriction {
    /// `;every day 2 20457 1;from 1767600000;until 1798675200;except 1,2`: what follows a
    /// restricted schedule's ``Schedule/storageText``.
    var storageText: String {
        var text = ""
        if let period { text += ";every \(period.unit.rawValue) \(period.every) \(period.anchor.daysSinceEpoch) \(period.weekStart.rawValue)" }
        if !places.isEmpty { text += ";places " + places.map { "\($0.place):\($0.weekday.rawValue)" }.joined(separator: ",") }
        if !monthDays.isEmpty { text += ";monthdays " + monthDays.map(String.init).joined(separator: ",") }
        if let from { text += ";from \(from.timeIntervalSince1970)" }
        if let until { text += ";until \(until.timeIntervalSince1970)" }
        if !except.isEmpty { text += ";except " + except.sorted().map { "\($0.timeIntervalSince1970)" }.joined(separator: ",") }
        if !also.isEmpty { text += ";also " + also.sorted().map { "\($0.timeIntervalSince1970)" }.joined(separator: ",") }
        return text
    }

    /// Reads ``storageText``; `nil` when it is not one, or narrows nothing.
    init?(storageText text: String) {
        self.init()
        for segment in text.split(separator: ";", omittingEmptySubsequences: false).dropFirst() {
            let language = segment.split(separator: " ", omittingEmptySubsequences: false)
            func instant(_ word: Substring) -> Date? { Double(word).flatMap { Limits.storedInstants.contains($0) ? Date(timeIntervalSince1970: $0) : nil } }
            switch (language.first, language.count) {
            case ("every", 5):
                guard period == nil, let unit = Schedule.Period.Unit(rawValue: String(language[1])), let every = Int(language[2]),
                      let anchor = Int(language[3]), let start = Int(language[4]).flatMap(Weekday.init(rawValue:)),
                      let found = Schedule.Period(unit: unit, every: every, anchor: CivilDay(daysSinceEpoch: anchor), weekStart: start)
                else { return nil }
                period = found
            case ("places", 2):
                guard places.isEmpty else { return nil }
                for item in language[1].split(separator: ",", omittingEmptySubsequences: false) {
                    let pair = item.split(separator: ":", omittingEmptySubsequences: false)
                    guard pair.count == 2, let place = Int(pair[0]), let weekday = Int(pair[1]).flatMap(Weekday.init(rawValue:)),
                          let found = Schedule.Place(place, weekday) else { return nil }
                    places.append(found)
                }
            case ("monthdays", 2):
                guard monthDays.isEmpty else { return nil }
                let days = language[1].split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
                guard days.allSatisfy({ $0.map { (1...31).contains(abs($0)) || $0 == Schedule.Restriction.lastWeekday } ?? false }) else { return nil }
                monthDays = days.compactMap { $0 }
            case ("from", 2):
                guard from == nil, let found = instant(language[1]) else { return nil }
                from = found
            case ("until", 2):
                guard until == nil, let found = instant(language[1]) else { return nil }
                until = found
            case ("except", 2):
                guard except.isEmpty else { return nil }
                let instants = language[1].split(separator: ",", omittingEmptySubsequences: false).map(instant)
                guard !instants.isEmpty, instants.count <= Self.maxExcept, instants.allSatisfy({ $0 != nil }) else { return nil }
                except = Set(instants.compactMap { $0 })
            case ("also", 2):
                guard also.isEmpty else { return nil }
                let instants = language[1].split(separator: ",", omittingEmptySubsequences: false).map(instant)
                guard !instants.isEmpty, instants.count <= Self.maxExcept, instants.allSatisfy({ $0 != nil }) else { return nil }
                also = Set(instants.compactMap { $0 })
            default:
                return nil
            }
        }
        if isEmpty { return nil }
    }
}

/// Reads words and numbers from bytes.
private struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index == bytes.count }

    /// Up to the next space (which it consumes) or the end.
    mutating func word() -> String {
        let start = index
        while index < bytes.count && bytes[index] != UInt8(ascii: " ") { index += 1 }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if index < bytes.count { index += 1 }
        return word
    }

    /// A run of decimal digits; `nil` when there is none.
    mutating func integer() -> Int? {
        var value = 0, digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func rest() -> String {
        defer { index = bytes.count }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index...]), as: UTF8.self)
    }
}
