@testable import ICalendar
import Testing

/// RRULE values read and written with plain text: RFC 5545 §3.3.10 alone.
struct RecurrenceRuleTests {
    @Test func everyPartIsReadAndWrittenBackInOneOrder() throws {
        let text = "FREQ=MONTHLY;INTERVAL=2;WKST=SU;BYMONTH=1,6;BYDAY=1MO,-1FR,WE;BYMONTHDAY=13,-1;BYYEARDAY=100,-1;"
            + "BYWEEKNO=20,-53;BYHOUR=9,17;BYMINUTE=0,30;BYSECOND=0,60;BYSETPOS=1,-1;COUNT=10"
        let rule = try RecurrenceRule(parsing: text)
        #expect(rule.frequency == .monthly && rule.interval == 2 && rule.weekStart == .sunday && rule.count == 10)
        #expect(rule.byDay == [.init(.monday, place: 1), .init(.friday, place: -1), .init(.wednesday)])
        #expect(rule.byMonthDay == [13, -1] && rule.bySecond == [0, 60] && rule.bySetPos == [1, -1])
        #expect(rule.description == text)
        #expect(try RecurrenceRule(parsing: rule.description) == rule)
    }

    @Test func namesAndValuesInAnyCaseAndAnyOrderComeBackInTheOneOrder() throws {
        let rule = try RecurrenceRule(parsing: "until=20261231T235959z;byminute=30;freq=weekly;byday=mo,+2tu")
        #expect(rule.description == "FREQ=WEEKLY;BYDAY=MO,2TU;BYMINUTE=30;UNTIL=20261231T235959Z")
        // Empty parts, as some programs write a rule's end, say nothing.
        #expect(try RecurrenceRule(parsing: "FREQ=WEEKLY;;BYDAY=MO;") == RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO"))
        for until in ["20261231", "20261231T235959", "20261231T235959Z"] {
            #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=" + until).until == until)
        }
    }

    @Test func aValueGivenTwiceIsTakenOnceInItsFirstPlace() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=17,9,17,9;BYDAY=MO,1MO,MO")
        #expect(rule.byHour == [17, 9])
        #expect(rule.byDay == [.init(.monday), .init(.monday, place: 1)])
        #expect(rule.description == "FREQ=DAILY;BYDAY=MO,1MO;BYHOUR=17,9")
    }

    @Test func aRuleTheRFCDoesNotAllowSaysWhichPartAndWhy() {
        let refused: [(String, String, String)] = [
            ("FREQ", "FREQ", "not NAME=value"),
            ("FREQ=DAILY;=9", "=9", "not NAME=value"),
            ("FREQ=DAILY;FREQ=WEEKLY", "FREQ", "given twice: a rule names each part once"),
            ("BYHOUR=9", "without FREQ", "a rule needs one"),
            ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY", "not a frequency"),
            ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0", "not a positive number"),
            ("FREQ=DAILY;WKST=XX", "WKST=XX", "not a day"),
            ("FREQ=DAILY;BYHOUR=9,24", "BYHOUR=9,24", "24 is not in 0…23"),
            ("FREQ=DAILY;BYMINUTE=x", "BYMINUTE=X", "X is not in 0…59"),
            ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0", "0 is not a day of the month"),
            ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32", "32 is not in -31…31"),
            ("FREQ=WEEKLY;BYDAY=MX", "BYDAY=MX", "MX is not a day"),
            ("FREQ=YEARLY;BYDAY=54MO", "BYDAY=54MO", "54MO: a day's place is 1 to 53, or -1 to -53 from the end"),
            ("FREQ=YEARLY;BYDAY=0MO", "BYDAY=0MO", "0MO: a day's place is 1 to 53, or -1 to -53 from the end"),
            ("FREQ=DAILY;COUNT=0", "COUNT=0", "not a positive number"),
            ("FREQ=DAILY;UNTIL=2026", "UNTIL=2026", "not a DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS, Z for UTC)"),
            ("FREQ=DAILY;COUNT=3;UNTIL=20261231", "COUNT with UNTIL", "a rule ends one way or the other, not both"),
        ]
        for (text, part, reason) in refused {
            #expect(throws: RecurrenceRule.Error(part: part, reason: reason), "\(text)") { try RecurrenceRule(parsing: text) }
        }
    }

    @Test func aValueMadeInCodeIsWrittenAsItIsRead() throws {
        var rule = RecurrenceRule(.weekly)
        rule.interval = 2
        rule.weekStart = .monday
        rule.byDay = [.init(.tuesday), .init(.thursday)]
        (rule.byHour, rule.byMinute) = ([8, 20], [15])
        rule.until = "20270101T000000Z"
        #expect(rule.description == "FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=TU,TH;BYHOUR=8,20;BYMINUTE=15;UNTIL=20270101T000000Z")
        #expect(try RecurrenceRule(parsing: rule.description) == rule)
    }
}
