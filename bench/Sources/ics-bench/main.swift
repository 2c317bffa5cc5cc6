// iCalendar in and out at scale, whole processes as a person runs them (issue 16):
// `nudge export -o FILE` with 100,000 alerts stored (goal <= 1 s) and `nudge import FILE`
// of a 10,000-event calendar from another application (goal <= 1 s), medians of RUNS.
//
//   .build/release/ics-bench [RUNS]     (make bench runs it)
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import NudgeCore
import NudgeStore

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let nudge = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nudge").path
guard access(nudge, X_OK) == 0 else { print("no \(nudge): build it with make release"); exit(64) }
// ICS_BENCH_KEEP=DIR keeps the stores and files there, to look at or profile afterwards.
let kept = ProcessInfo.processInfo.environment["ICS_BENCH_KEEP"]
let root = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("nudge-ics-bench-\(getpid())").path
try? FileManager.default.removeItem(atPath: root)
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { if kept == nil { try? FileManager.default.removeItem(atPath: root) } }
unsetenv("DBUS_SESSION_BUS_ADDRESS")
setenv("LANG", "C.UTF-8", 1)

/// Median wall seconds of a command over `runs`, `prepare` before each.
func time(_ argv: [String], home: String, prepare: () -> Void = {}) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        prepare()
        let start = wallSeconds()
        var status: Int32 = 0
        waitpid(spawn(argv, environment: ["XDG_DATA_HOME": home]), &status, 0)
        samples.append(wallSeconds() - start)
        if (status >> 8) & 0xff != 0 { print("\(argv.joined(separator: " ")) failed: exit \((status >> 8) & 0xff)"); exit(1) }
    }
    return median(samples)
}

// MARK: Export of 100,000 alerts

let exportHome = root + "/export"
do {
    let store = try AppDatabase.open(path: exportHome + "/nudge/nudge.sqlite")
    let now = Date()
    let days: [Set<Weekday>] = [Schedule.everyDay, [.monday, .tuesday, .wednesday, .thursday, .friday], [.saturday, .sunday]]
    let cron = try CronExpression("0 9 1 * mon")
    let zones = [nil, "Europe/Berlin", "America/New_York", "Asia/Seoul", "Australia/Sydney"]
    var batch: [Alert] = []
    for i in 0..<100_000 {
        let schedule: Schedule = switch i % 5 {
        case 0: .daily(times: [LocalTime(hour: i % 24, minute: i % 60)!], days: days[i % 3])
        case 1: .daily(times: stride(from: 9 * 60 + 30, through: 21 * 60 + 30, by: 30).map { LocalTime(hour: $0 / 60, minute: $0 % 60)! }, days: days[i % 3])
        case 2: .interval(seconds: 60 * (15 + i % 90), anchor: now, days: Schedule.everyDay)
        case 3: .once(now.addingTimeInterval(Double(3600 + i)))
        default: .cron(cron)
        }
        batch.append(Alert(title: "Alert \(i), with; marks", body: i % 2 == 0 ? "물 마시기" : "", schedule: schedule,
                           timeZone: zones[i % zones.count], created: now))
        if batch.count == 10_000 { try store.save(batch); batch.removeAll() }
    }
}
let exported = root + "/all.ics"
let exportTime = time([nudge, "export", "-o", exported], home: exportHome)
let size = (try? FileManager.default.attributesOfItem(atPath: exported)[.size] as? Int) ?? 0
print("nudge export -o FILE, 100,000 alerts (5 kinds, 5 zones): median \(ms(exportTime)) of \(runs); \(size / 1_000_000) MB")
// The anchor: the same store written out by sqlite3 itself (.dump, a plain SQLite read).
let dumpTime = time(["sqlite3", exportHome + "/nudge/nudge.sqlite", ".dump"], home: exportHome)
figure("nudge export, 100,000 alerts", exportTime * 1000, "ms", anchor: "sqlite3 .dump of the store", dumpTime * 1000)

// MARK: Import of a 10,000-event calendar

var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Bench//Other calendar//EN\r\n"
// Calendars' own rules too: every other week until a date, a number of times, every 3 days.
let rules = ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MINUTELY;INTERVAL=30;BYHOUR=9,10,11,12",
             "FREQ=DAILY;BYDAY=SA,SU;BYHOUR=8,20;BYMINUTE=0", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20301231T000000Z",
             "FREQ=DAILY;COUNT=2000", "FREQ=DAILY;INTERVAL=3"]
let tzids = [";TZID=Europe/Berlin", ";TZID=America/New_York", "", ";TZID=Asia/Seoul"]
for i in 0..<10_000 {
    text += "BEGIN:VEVENT\r\nUID:event-\(i)@bench\r\nDTSTAMP:20260101T000000Z\r\n"
    text += "DTSTART\(tzids[i % tzids.count]):20260105T\(String(format: "%02d", 6 + i % 12))\(i % 2 == 0 ? "00" : "30")00\r\n"
    text += "RRULE:\(rules[i % rules.count])\r\n"
    if i % 10 == 0 { text += "EXDATE\(tzids[i % tzids.count]):20301104T\(String(format: "%02d", 6 + i % 12))\(i % 2 == 0 ? "00" : "30")00\r\n" }
    text += "SUMMARY:Event \(i)\\, with a comma\r\nDESCRIPTION:Line one\\nline two\r\n"
    text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT\(i % 4 * 5)M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
}
text += "END:VCALENDAR\r\n"
let calendar = root + "/other.ics"
try text.write(toFile: calendar, atomically: true, encoding: .utf8)
let importHome = root + "/import"
let importTime = time([nudge, "import", calendar], home: importHome) {
    try? FileManager.default.removeItem(atPath: importHome)
}
print("nudge import FILE, 10,000 events (8 rules, 4 zones, alarms, EXDATEs) into an empty store: median \(ms(importTime)) of \(runs); \(text.utf8.count / 1_000_000) MB")
let again = time([nudge, "import", calendar], home: importHome)
print("the same again (every event already there): median \(ms(again))")
// The anchor: sqlite3 reading the exported store's dump into an empty one (a plain SQLite write).
let dumped = root + "/dump.sql"
runChild(["sh", "-c", "sqlite3 \"$0\" .dump > \"$1\"", exportHome + "/nudge/nudge.sqlite", dumped])
let loadTime = time(["sh", "-c", "rm -f \"$0\" && sqlite3 \"$0\" < \"$1\"", root + "/loaded.sqlite", dumped], home: importHome)
figure("nudge import, 10,000 events", importTime * 1000, "ms", anchor: "sqlite3 loading a 100,000-alert dump", loadTime * 1000)
