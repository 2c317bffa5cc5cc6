import Foundation

/// Holidays whose date moves from year to year, with the rule that places each: Easter by
/// the Gregorian computus (the Western churches'), Mothering Sunday three weeks before it,
/// the United States' by their place in the month, and England's bank holidays by theirs
/// (a year a government moves one, as 2020 moved May's to a Friday, is not known). A
/// one-shot takes the coming one; a repeat is refused, since a schedule repeats on fixed
/// dates.
enum MovableHoliday: Sendable, CaseIterable {
    case easter, goodFriday, easterMonday, thanksgiving, blackFriday, memorialDay, laborDay, electionDay
    case motheringSunday, earlyMayBankHoliday, springBankHoliday, summerBankHoliday
    /// Korea's lunar new year (설날) and harvest festival (추석), on Korea's meridian.
    case seollal, chuseok

    /// Its day in `year` where the clock's `zone` is, or nil where that place keeps it on a
    /// day the words alone do not say. Canada's Thanksgiving is October's second Monday;
    /// Korea's Memorial Day is 현충일 (6 June); Australia's Labour Day differs from state to
    /// state. Elsewhere the United States' days, as an English speaker abroad means them.
    func day(in year: Int, zone: TimeZone) -> CivilDay? {
        let id = zone.identifier
        switch self {
        case .thanksgiving where Self.canadianZones.contains(id): return Self.nth(2, .monday, month: 10, year: year)
        case .memorialDay where id == "Asia/Seoul": return CivilDay(year: year, month: 6, day: 6)
        case .laborDay where id.hasPrefix("Australia/"): return nil
        default: return day(in: year)
        }
    }

    /// The zones of Canada (the tz database's, with their old names).
    static let canadianZones: Set<String> = [
        "America/St_Johns", "America/Halifax", "America/Glace_Bay", "America/Moncton", "America/Goose_Bay", "America/Toronto", "America/Montreal",
        "America/Nipigon", "America/Thunder_Bay", "America/Iqaluit", "America/Pangnirtung", "America/Winnipeg", "America/Rainy_River",
        "America/Resolute", "America/Rankin_Inlet", "America/Regina", "America/Swift_Current", "America/Edmonton", "America/Cambridge_Bay",
        "America/Yellowknife", "America/Inuvik", "America/Creston", "America/Dawson_Creek", "America/Fort_Nelson", "America/Whitehorse",
        "America/Dawson", "America/Vancouver", "America/Atikokan", "America/Blanc-Sablon", "Canada/Atlantic", "Canada/Central", "Canada/Eastern",
        "Canada/Mountain", "Canada/Newfoundland", "Canada/Pacific", "Canada/Saskatchewan", "Canada/Yukon",
    ]

    /// Its day in `year`, as the United States, the Western churches and England keep it.
    func day(in year: Int) -> CivilDay {
        switch self {
        case .easter: Self.easterSunday(year)
        case .goodFriday: Self.easterSunday(year).advanced(by: -2)
        case .easterMonday: Self.easterSunday(year).advanced(by: 1)
        // The fourth Thursday of November, and the day after.
        case .thanksgiving: Self.nth(4, .thursday, month: 11, year: year)
        case .blackFriday: Self.nth(4, .thursday, month: 11, year: year).advanced(by: 1)
        // The last Monday of May.
        case .memorialDay: Self.nth(5, .monday, month: 5, year: year)
        // The first Monday of September.
        case .laborDay: Self.nth(1, .monday, month: 9, year: year)
        // The Tuesday after the first Monday of November.
        case .electionDay: Self.nth(1, .monday, month: 11, year: year).advanced(by: 1)
        // The fourth Sunday of Lent (the UK's and Ireland's mother's day).
        case .motheringSunday: Self.easterSunday(year).advanced(by: -21)
        // England's: the first Monday of May, the last of May, the last of August.
        case .earlyMayBankHoliday: Self.nth(1, .monday, month: 5, year: year)
        case .springBankHoliday: Self.nth(5, .monday, month: 5, year: year)
        case .summerBankHoliday: Self.nth(5, .monday, month: 8, year: year)
        case .seollal: LunarCalendar.newYear(year)
        case .chuseok: LunarCalendar.midAutumn(year)
        }
    }

    /// Easter Sunday in the Gregorian calendar (the anonymous algorithm of 1876, Meeus/Jones/Butcher).
    static func easterSunday(_ year: Int) -> CivilDay {
        let a = year % 19, b = year / 100, c = year % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDay(year: year, month: month, day: day)!
    }

    /// The `n`th `weekday` of a month (n 1–4), or with 5 its last.
    static func nth(_ n: Int, _ weekday: Weekday, month: Int, year: Int) -> CivilDay {
        let first = CivilDay(year: year, month: month, day: 1)!
        let firstSuch = first.advanced(by: (weekday.rawValue - first.weekday.rawValue + 7) % 7)
        guard n == 5 else { return firstSuch.advanced(by: 7 * (n - 1)) }
        var last = firstSuch
        while last.advanced(by: 7).components.month == month { last = last.advanced(by: 7) }
        return last
    }
}
