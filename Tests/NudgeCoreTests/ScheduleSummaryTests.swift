import Foundation
import NudgeCore
import Testing

struct ScheduleSummaryTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        (ScheduleFlags(days: "mon-fri", every: "30m", from: "09:30", until: "21:30"), "every 30 min, 09:30–21:30, Mon–Fri"),
        (ScheduleFlags(at: ["9:00"]), "daily at 09:00"),
        (ScheduleFlags(at: ["14:00", "9:00"], days: "sat,sun"), "Sat, Sun at 09:00, 14:00"),
        (ScheduleFlags(every: "1h30m"), "every 1 h 30 min"),
        (ScheduleFlags(on: "2026-12-01 09:00"), "once, 2026-12-01T09:00:00Z"),
        (ScheduleFlags(cron: "0 9 1 * mon"), "cron 0 9 1 * mon"),
        // Monthly and yearly rules in words (issue 44), as the phrase reader reads them back.
        (ScheduleFlags(cron: "0 9 1,15 * *"), "day 1, day 15 of every month at 09:00"),
        (ScheduleFlags(cron: "30 18 15 3 *"), "every year on Mar 15 at 18:30"),
        (ScheduleFlags(cron: "0 9 1 1,7 *"), "cron 0 9 1 1,7 *"),
    ])
    func inWords(flags: ScheduleFlags, language: String) throws {
        let schedule = try ScheduleParser.schedule(flags, now: Date(timeIntervalSince1970: 1_795_348_800), zone: utc)
        #expect(schedule.summary(in: utc) == language)
    }
}
