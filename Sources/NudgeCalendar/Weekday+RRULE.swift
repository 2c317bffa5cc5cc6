import ICalendar
import NudgeCore

extension Weekday {
    /// RRULE's two letters for the days, Sunday first (as the raw values).
    static let rruleNames = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// `MO`, as BYDAY and WKST write it.
    var rruleName: String { Self.rruleNames[rawValue] }

    /// The day RRULE's two letters name; `nil` for anything else.
    init?(rruleName: some StringProtocol) {
        guard let index = Self.rruleNames.firstIndex(of: String(rruleName)) else { return nil }
        self.init(rawValue: index)
    }
}
