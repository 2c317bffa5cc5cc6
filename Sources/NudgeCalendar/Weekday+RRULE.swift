import ICalendar
import NudgeCore

extension Weekday {
    /// RRULE's two letters for the days, Sunday first (as the raw values).
    static let rruleNames = RecurrenceRule.Day.allCases.map(\.rawValue)

    /// `MO`, as BYDAY and WKST write it.
    var rruleName: String { Self.rruleNames[rawValue] }

    /// The day an RRULE day names.
    init(_ day: RecurrenceRule.Day) {
        self.init(rawValue: RecurrenceRule.Day.allCases.firstIndex(of: day)!)!
    }

    /// The RRULE day for this one.
    var rruleDay: RecurrenceRule.Day { RecurrenceRule.Day.allCases[rawValue] }
}
