import Foundation

/// A time of day as said: its numbers, and what says which half of the day it is in.
struct SaidTime: Sendable, Hashable {
    enum Half: Sendable, Hashable {
        case am, pm, dawn, morning, daytime, afternoon, evening, night, noon, midnight
    }

    var hour: Int
    var minute = 0
    var second = 0
    var half: Half?
    /// Written on a 24-hour clock (`9:30`, `21:00`), which says the half of the day.
    var clock = false
    /// Said as minutes after midnight (half past midnight, 자정 10분 후): on a day said by
    /// name, after that day's start or after its end, as midnight alone is.
    var pastMidnight = false
    var text: String

    /// Its readings: one when the words say it; a spoken hour 1–12 without a half of the
    /// day has two (9시: 09:00 or 21:00; 12시: noon or midnight). A reading may fall on the
    /// next day (밤 12시 is 24:00).
    func readings() throws(ScheduleError) -> [(time: LocalTime, nextDay: Bool)] {
        let bad = ScheduleError(text, Phrase("invalid time"), accepted: SchedulePhrase.forms)
        guard (0...59).contains(minute), (0...59).contains(second) else { throw bad }
        func at(_ h: Int, nextDay: Bool = false) throws(ScheduleError) -> (time: LocalTime, nextDay: Bool) {
            guard let time = LocalTime(hour: h, minute: minute, second: second) else { throw bad }
            return (time, nextDay)
        }
        func wrong(_ detail: Phrase) -> ScheduleError { ScheduleError(text, Phrase("invalid time"), detail: detail, accepted: SchedulePhrase.forms) }
        switch half {
        case .noon: return [try at(12)]
        case .midnight: return [try at(0)]
        case .am:
            // 오전 0시 is said too.
            guard (0...12).contains(hour) else { throw wrong(Phrase("the hour must be 1–12 with am, pm, 오전 or 오후")) }
            return [try at(hour % 12)]
        case .pm:
            guard (1...12).contains(hour) else { throw wrong(Phrase("the hour must be 1–12 with am, pm, 오전 or 오후")) }
            return [try at(hour % 12 + 12)]
        case .dawn:
            guard (1...12).contains(hour) else { throw wrong(Phrase("새벽 is 1 to 6 o'clock, 12 for midnight")) }
            return [try at(hour % 12)]
        case .morning:
            guard (1...11).contains(hour) else { throw wrong(Phrase("the morning is 1 to 11 o'clock")) }
            return [try at(hour)]
        case .daytime:
            // 낮 and 점심: 12 is noon, 1 to 7 after it, 8 to 11 before.
            guard (1...12).contains(hour) else { throw wrong(Phrase("the day is 8 o'clock to 7")) }
            return [try at(hour == 12 ? 12 : hour <= 7 ? hour + 12 : hour)]
        case .afternoon:
            guard (1...7).contains(hour) || hour == 12 else { throw wrong(Phrase("the afternoon is 12 to 7 o'clock")) }
            return [try at(hour == 12 ? 12 : hour + 12)]
        case .evening:
            guard (1...11).contains(hour) else { throw wrong(Phrase("the evening is 1 to 11 o'clock")) }
            return [try at(hour + 12)]
        case .night:
            // 밤 12시 is midnight at the night's end, and 밤 1시 an hour after it (25:00, as
            // korean-datetime's lexicon has it).
            if hour == 12 || (1...4).contains(hour) { return [try at(hour % 12, nextDay: true)] }
            guard (5...11).contains(hour) else { throw wrong(Phrase("the night is 5 o'clock to 4 in the morning")) }
            return [try at(hour + 12)]
        case nil:
            // 24:00 is the end of the day: the next day's 00:00.
            if hour == 24, minute == 0, second == 0 { return [try at(0, nextDay: true)] }
            if clock || hour == 0 || (13...23).contains(hour) {
                guard (0...23).contains(hour) else { throw bad }
                return [try at(hour)]
            }
            if hour == 24, minute == 0, second == 0 { return [try at(0, nextDay: true)] }
            guard (1...12).contains(hour) else { throw bad }
            return hour == 12 ? [try at(12), try at(0)] : [try at(hour), try at(hour + 12)]
        }
    }
}