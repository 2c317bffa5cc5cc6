import Foundation
import NudgeCore
import Testing

/// "Remind me" in one line, as the desktop's search hears it: the title and when told
/// apart, each reading of a time said two ways offered, and words left over giving none.
/// At Tuesday 2026-03-10 14:20 in Seoul, whatever the machine's date, zone or language.
struct RemindMeTests {
    static let zone = TimeZone(identifier: "Asia/Seoul")!
    static let now = try! ScheduleParser.instant("2026-03-10 14:20", zone: zone)

    func once(_ text: String) throws -> Schedule { .once(try ScheduleParser.instant(text, zone: Self.zone)) }

    func readings(_ line: String, defaultTime: LocalTime? = nil) -> [RemindMe.Reading] {
        RemindMe.readings(line, now: Self.now, zone: Self.zone, defaultTime: defaultTime)
    }

    /// One reading: its title, its words of when, and the one-shot it makes.
    @Test(arguments: [
        ("call mum tomorrow at 6pm", "call mum", "tomorrow at 6pm", "2026-03-11 18:00"),
        ("remind me to call mum at 6pm tomorrow", "call mum", "at 6pm tomorrow", "2026-03-11 18:00"),
        ("Remind me to take the 3 pills at 9pm", "take the 3 pills", "at 9pm", "2026-03-10 21:00"),
        ("remind me at 5pm to call mum", "call mum", "at 5pm", "2026-03-10 17:00"),
        ("물 마시기 30분 후", "물 마시기", "30분 후", "2026-03-10 14:50"),
        ("내일 오후 3시에 엄마한테 전화하라고 알려줘", "엄마한테 전화하기", "내일 오후 3시에", "2026-03-11 15:00"),
        ("내일 오전 10시 회의 알려줘", "회의", "내일 오전 10시", "2026-03-11 10:00"),
        ("Dentist: friday at 4:30pm", "Dentist", "friday at 4:30pm", "2026-03-13 16:30"),
    ])
    func aTitleAndWhen(_ line: String, _ title: String, _ when: String, _ instant: String) throws {
        let found = readings(line)
        try #require(found.count == 1, "\(line): \(found)")
        #expect(found[0].title == title)
        #expect(found[0].when == when)
        #expect(found[0].phrase.schedule == (try once(instant)))
    }

    @Test func aRepeatingScheduleAfterADash() throws {
        let found = readings("Stand up — every weekday at 9:30")
        try #require(found.count == 1)
        #expect(found[0].title == "Stand up")
        #expect(found[0].when == "every weekday at 9:30")
        #expect(found[0].phrase.flags?.contains("--at 09:30") == true)
    }

    /// A bare hour gives both readings, the one taken first (on a named day the waking day's,
    /// else the next not yet passed); so does a colon time 1–6.
    @Test(arguments: [
        ("call mum tomorrow at 9", ["2026-03-11 09:00", "2026-03-11 21:00"], ["tomorrow at 9", "tomorrow at 9pm"]),
        ("call mum at 3", ["2026-03-10 15:00", "2026-03-11 03:00"], ["at 3", "at 3am"]),
        ("회의 금요일 2시", ["2026-03-13 14:00", "2026-03-13 02:00"], ["금요일 2시", "금요일 새벽 2시"]),
        ("run tomorrow at 2:30", ["2026-03-11 02:30", "2026-03-11 14:30"], ["tomorrow at 2:30", "tomorrow at 2:30pm"]),
    ])
    func aTimeSaidTwoWaysGivesBoth(_ line: String, _ instants: [String], _ whens: [String]) throws {
        let found = readings(line)
        #expect(try found.map(\.phrase.schedule) == instants.map(once), "\(line): \(found.map(\.when))")
        #expect(found.map(\.when) == whens)
    }

    /// Words left over, no title, or nothing that reads: no reminder.
    @Test(arguments: ["call mum tomorrow at 6pm please", "water", "물", "in 30 minutes", "tomorrow at 6pm", "remind me",
                      "call mum", "", "   ", "— at 6pm"])
    func noReading(_ line: String) {
        #expect(readings(line).isEmpty, "\(line): \(readings(line).map { ($0.title, $0.when) })")
    }

    /// A day without a time reads only with the default reminder time.
    @Test func aDayAloneTakesTheDefaultTime() throws {
        #expect(readings("dentist friday").isEmpty)
        let found = readings("dentist friday", defaultTime: LocalTime(hour: 9, minute: 0))
        #expect(try found.map(\.phrase.schedule) == [once("2026-03-13 09:00")])
    }

    /// A pasted page, many words, or a control character: no reminder, and no long search.
    @Test func aLineTooLongOrUnfitIsNoReminder() {
        #expect(readings(String(repeating: "a ", count: 100_000) + "at 6pm").isEmpty)
        #expect(readings("call\u{07}mum at 6pm").isEmpty)
        #expect(readings("call\u{1B}[31m at 6pm").isEmpty)
        // 90 words within the length: a title of 89, when the last two.
        let many = Array(repeating: "word", count: 89).joined(separator: " ") + " at 6pm"
        #expect(readings(many).map(\.when) == ["at 6pm"])
    }

    @Test func titlesMatchEveryTermFolded() {
        let title = RemindMe.folded("Café — Drink Water 💧")
        #expect(RemindMe.matches(title, terms: ["water"].map(RemindMe.folded)))
        #expect(RemindMe.matches(title, terms: ["CAFE", "drink"].map(RemindMe.folded)))
        #expect(!RemindMe.matches(title, terms: ["water", "tea"].map(RemindMe.folded)))
        #expect(RemindMe.matches(RemindMe.folded("물 마시기"), terms: ["물"]))
        #expect(!RemindMe.matches(title, terms: []))
    }
}
