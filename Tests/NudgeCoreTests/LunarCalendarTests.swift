import Foundation
@testable import NudgeCore
import Testing

/// 설날 and 추석 from the sky (``LunarCalendar``): the days Korea keeps, and the method
/// itself on China's meridian against the Chinese calendar of the system's ICU.
struct LunarCalendarTests {
    @Test func koreasDays() {
        let seollal = [2024: "2024-02-10", 2025: "2025-01-29", 2026: "2026-02-17", 2027: "2027-02-07", 2028: "2028-01-27",
                       2029: "2029-02-13", 2030: "2030-02-03"]
        let chuseok = [2024: "2024-09-17", 2025: "2025-10-06", 2026: "2026-09-25", 2027: "2027-09-15", 2028: "2028-10-03",
                       2029: "2029-09-22", 2030: "2030-09-12"]
        for (year, day) in seollal { #expect(LunarCalendar.newYear(year).description == day, "설날 \(year)") }
        for (year, day) in chuseok { #expect(LunarCalendar.midAutumn(year).description == day, "추석 \(year)") }
        // A day after China's where a new moon falls just after Beijing's midnight.
        #expect(LunarCalendar.newYear(2027, offset: 8 * 3600).description == "2027-02-06")
        #expect(LunarCalendar.newYear(2028, offset: 8 * 3600).description == "2028-01-26")
    }

    /// The same rules on China's meridian give the Chinese calendar's new year and mid-autumn
    /// day, as ICU keeps them, in every year from 1950 to 2150 but one.
    @Test func theMethodOnChinasMeridianIsTheChineseCalendar() throws {
        var chinese = Calendar(identifier: .chinese)
        let beijing = TimeZone(secondsFromGMT: 8 * 3600)!
        chinese.timeZone = beijing
        func icu(_ year: Int, month: Int, day: Int, from start: (Int, Int), days: Int) -> String? {
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = beijing
            var date = gregorian.date(from: DateComponents(year: year, month: start.0, day: start.1, hour: 12))!
            for _ in 0..<days {
                let parts = chinese.dateComponents([.month, .day, .isLeapMonth], from: date)
                if parts.month == month, parts.day == day, parts.isLeapMonth == false {
                    let g = gregorian.dateComponents([.year, .month, .day], from: date)
                    return CivilDay(year: g.year!, month: g.month!, day: g.day!)!.description
                }
                date = date.addingTimeInterval(86_400)
            }
            return nil
        }
        var differ: [String] = []
        for year in 1950...2150 {
            let newYear = LunarCalendar.newYear(year, offset: 8 * 3600).description
            let midAutumn = LunarCalendar.midAutumn(year, offset: 8 * 3600).description
            let icuNewYear = icu(year, month: 1, day: 1, from: (1, 15), days: 45)
            let icuMidAutumn = icu(year, month: 8, day: 15, from: (8, 25), days: 60)
            if newYear != icuNewYear { differ.append("new year \(year): \(newYear), ICU \(icuNewYear ?? "none")") }
            if midAutumn != icuMidAutumn { differ.append("mid-autumn \(year): \(midAutumn), ICU \(icuMidAutumn ?? "none")") }
        }
        // 2148: the sun reaches 300° 29 minutes after Beijing's midnight on a new moon's day by
        // this method, and before it by ICU's, past either's precision a century and more on
        // (ΔT alone is uncertain by minutes there).
        #expect(differ == ["new year 2148: 2148-02-20, ICU 2148-01-21"], "\(differ)")
    }
}
