import Foundation
import NudgeCore
import Testing

struct WaterTests {
    @Test(arguments: [("250", 250), ("250ml", 250), ("250 ml", 250), ("25cl", 250), ("0.3l", 300), ("2L", 2000),
                      ("8oz", 237), ("8 fl oz", 237), ("1.5l", 1500), ("5000ml", 5000), ("0.0004l", 0)])
    func amountsAsPeopleTypeThem(text: String, millilitres: Int) throws {
        if millilitres == 0 {
            #expect(throws: Water.AmountError.self) { try Water.millilitres(text) }
        } else {
            #expect(try Water.millilitres(text) == millilitres)
        }
    }

    @Test(arguments: ["0", "-1", "5001ml", "6l", "", "ml", "2x", "1..5l", "250 cups", "1e3", "99999999999999999999l", "9223372036854775807oz"])
    func badAmountsSayWhy(text: String) {
        let error = #expect(throws: Water.AmountError.self) { try Water.millilitres(text) }
        #expect(error?.description.hasPrefix("invalid amount ") == true)
    }

    @Test func millilitresAreGroupedByThousands() {
        #expect(Water.text(0) == "0 ml")
        #expect(Water.text(750) == "750 ml")
        #expect(Water.text(2000) == "2,000 ml")
        #expect(Water.text(1_234_567) == "1,234,567 ml")
    }

    /// A day that starts at 04:00 keeps a glass at 01:30 with the evening before, also on
    /// the nights the clocks change (Berlin, 2026-03-29 and 2026-10-25).
    @Test func drinkDaysStartWhenThePersonSays() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let late = Water.day(containing: utc("2026-11-23T00:30:00Z"), zone: berlin, dayStart: 4 * 3600)
        #expect(late.day.description == "2026-11-22")
        #expect(late.start == utc("2026-11-22T03:00:00Z"))
        #expect(late.end == utc("2026-11-23T03:00:00Z"))
        let midnight = Water.day(containing: utc("2026-11-23T00:30:00Z"), zone: berlin, dayStart: 0)
        #expect(midnight.day.description == "2026-11-23")
        // Spring forward (02:00 → 03:00 on 03-29): 01:30 belongs to the day of 03-28, which
        // runs from 04:00 CET to 04:00 CEST, 23 hours.
        let spring = Water.day(containing: utc("2026-03-29T00:30:00Z"), zone: berlin, dayStart: 4 * 3600)
        #expect(spring.day.description == "2026-03-28")
        #expect(spring.end.timeIntervalSince(spring.start) == 23 * 3600)
        // Fall back (03:00 → 02:00 on 10-25): the day of 10-24 runs 25 hours.
        let fall = Water.day(containing: utc("2026-10-25T00:30:00Z"), zone: berlin, dayStart: 4 * 3600)
        #expect(fall.day.description == "2026-10-24")
        #expect(fall.end.timeIntervalSince(fall.start) == 25 * 3600)
    }
}
