import Foundation

/// Water: amounts as people type them, and the day a drink counts for.
public enum Water {
    /// The most one drink may be: more at once is a typo, not a glass.
    public static let maxDrink = 5000

    /// Millilitres in a US fluid ounce.
    static let millilitresPerOunce = 29.5735295625

    /// Why an amount cannot be read: the token and what is wrong, as a phrase.
    public struct AmountError: Error, Sendable, Hashable, CustomStringConvertible {
        public var phrase: Phrase
        public var description: String { phrase.description }
    }

    /// An amount in whole millilitres: `250`, `250ml`, `25cl`, `0.3l`, `8oz` (US fluid
    /// ounces), rounded to the nearest; from 1 ml to `limit`.
    public static func millilitres(_ text: String, limit: Int = maxDrink) throws(AmountError) -> Int {
        let token = text.trimmingSpaces.lowercased()
        let digits = token.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = String(token.dropFirst(digits.count)).trimmingSpaces
        let factor: Double?
        switch unit {
        case "", "ml": factor = 1
        case "cl": factor = 10
        case "l": factor = 1000
        case "oz", "floz", "fl oz": factor = millilitresPerOunce
        default: factor = nil
        }
        // TRANSLATORS: the forms an amount of water may take (keep the units as they are typed).
        let accepted = Phrase("use a number with ml, cl, l or oz, e.g. 250ml, 0.3l, 8oz")
        guard let factor, !digits.isEmpty, digits.filter({ $0 == "." }).count <= 1, let number = Double(digits) else {
            // TRANSLATORS: %1$s is the amount as typed, quoted; %2$s the forms accepted.
            throw AmountError(phrase: Phrase("invalid amount %1$s (%2$s)", text.quotedForMessage(), accepted))
        }
        // Compared as a Double first, before rounding to whole millilitres, so the range
        // said is the range taken (0.5ml and 5000.4ml are outside it, not rounded into
        // it), and 99999999999999999999l, no Int, is too.
        let amount = number * factor, exact = amount.rounded()
        guard amount.isFinite, amount >= 1, amount <= Double(limit), let value = Int(exactly: exact), value <= limit else {
            // TRANSLATORS: %1$s is the amount as typed, quoted; %2$d the most allowed in millilitres.
            throw AmountError(phrase: Phrase("invalid amount %1$s: it must be from 1 ml to %2$d ml", text.quotedForMessage(), limit))
        }
        return value
    }

    /// `2,000 ml`: millilitres grouped by thousands.
    public static func text(_ millilitres: Int) -> String {
        number(millilitres) + " ml"
    }

    /// `2,000`: a number grouped by thousands.
    public static func number(_ value: Int) -> String {
        var digits = String(value.magnitude), grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (value < 0 ? "-" : "") + digits + grouped
    }

    /// The drink day holding an instant: days begin `dayStart` seconds after local midnight
    /// (04:00 for night owls), so a glass at 01:30 still counts for the evening before.
    public static func day(containing instant: Date, zone: TimeZone, dayStart: Int) -> (day: CivilDay, start: Date, end: Date) {
        let clock = CivilZone(zone)
        let local = clock.local(instant)
        let day = local.second < dayStart ? local.day.advanced(by: -1) : local.day
        let time = LocalTime(hour: dayStart / 3600, minute: dayStart / 60 % 60)!
        return (day, clock.instant(day, time), clock.instant(day.advanced(by: 1), time))
    }
}

extension Water {
    /// One drink day's total.
    public struct DayTotal: Sendable, Hashable {
        public var day: CivilDay
        public var millilitres: Int
    }

    /// The totals of every drink day from `first` to `last` (both included), from drinks
    /// sorted by time; days without a drink are 0.
    public static func totals(_ drinks: [(at: Date, millilitres: Int)], from first: CivilDay, through last: CivilDay,
                              zone: TimeZone, dayStart: Int) -> [DayTotal] {
        guard first <= last else { return [] }
        var totals = (0...first.distance(to: last)).map { DayTotal(day: first.advanced(by: $0), millilitres: 0) }
        // Sorted by time, drinks come day by day: a day's bounds are worked out once.
        var current: (day: CivilDay, start: Date, end: Date)?
        for drink in drinks {
            if current.map({ drink.at < $0.start || drink.at >= $0.end }) ?? true {
                current = day(containing: drink.at, zone: zone, dayStart: dayStart)
            }
            let index = first.distance(to: current!.day)
            if index >= 0 && index < totals.count { totals[index].millilitres += drink.millilitres }
        }
        return totals
    }

    /// Days at goal in a row: the run that reaches `today` (or yesterday, while today is
    /// not there yet), and the longest run in `totals`.
    public static func streaks(_ totals: [DayTotal], goal: Int, today: CivilDay) -> (current: Int, longest: Int) {
        var longest = 0, run = 0, current = 0
        var previous: CivilDay?
        for total in totals.sorted(by: { $0.day < $1.day }) {
            let met = total.millilitres >= goal
            run = met ? (previous.map { $0.advanced(by: 1) == total.day } ?? false ? run + 1 : 1) : 0
            previous = met ? total.day : nil
            longest = max(longest, run)
            if total.day == today || total.day == today.advanced(by: -1) {
                if met { current = run } else if total.day == today.advanced(by: -1) { current = 0 }
            }
        }
        return (current, longest)
    }
}

/// Where the person's water stands: the settings and one drink day's total, as read from
/// the store. Water reminders follow it: their pop-up shows the progress and offers the
/// cup, and once the goal is met the rest of that drink day is skipped.
public struct WaterProgress: Sendable, Hashable {
    /// The daily goal, in millilitres.
    public var goal: Int
    /// The cup size, in millilitres: what "Drank" logs.
    public var cup: Int
    /// When a drink day starts, in seconds after local midnight.
    public var dayStart: Int
    /// The drink day the total is for, and its bounds.
    public var day: CivilDay
    public var start: Date
    public var end: Date
    /// The millilitres drunk that day.
    public var intake: Int
    /// The last drink logged, of any day.
    public var lastDrink: Date?

    /// The progress of the drink day holding `now`, in `zone`, with that day's total.
    public init(goal: Int, cup: Int, dayStart: Int, intake: Int, lastDrink: Date?, now: Date, zone: TimeZone) {
        (self.goal, self.cup, self.dayStart, self.intake, self.lastDrink) = (goal, cup, dayStart, intake, lastDrink)
        (day, start, end) = Water.day(containing: now, zone: zone, dayStart: dayStart)
    }

    /// The total of the drink day holding `instant`: the known one, 0 for a later day
    /// (nothing was drunk in it when this was read); `nil` for an earlier day.
    public func intake(at instant: Date) -> Int? {
        if instant < start { return nil }
        return instant < end ? intake : 0
    }

    /// Whether the goal is met for the drink day holding `instant`.
    public func goalMet(at instant: Date) -> Bool {
        instant >= start && instant < end && intake >= goal
    }
}
