// The CLI against a big store: whole-process wall time of `nudge add`, `nudge list --json`
// and `nudge next ID` with 100,000 alerts stored (medians). Goals (issue 4): add <= 50 ms,
// list --json <= 1 s, next ID <= 30 ms.
// Run with: make bench (release build), or .build/release/store-bench [ALERTS] [RUNS]
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import NudgeCore
import NudgeStore
import Platform

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 15 : 15
let nudge = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("nudge").path

// STORE_BENCH_KEEP=DIR keeps the filled store there, to look at or profile afterwards.
let kept = ProcessInfo.processInfo.environment["STORE_BENCH_KEEP"]
let home = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("nudge-store-bench-\(getpid())").path
try? FileManager.default.removeItem(atPath: home + "/nudge")
try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
defer { if kept == nil { try? FileManager.default.removeItem(atPath: home) } }
setenv("XDG_DATA_HOME", home, 1)
unsetenv("DBUS_SESSION_BUS_ADDRESS")

// Every kind of schedule, in a repeatable mix.
var generator = SystemRandomNumberGenerator()
let now = Date()
let days: [Set<Weekday>] = [Schedule.everyDay, [.monday, .tuesday, .wednesday, .thursday, .friday], [.saturday, .sunday]]
let cron = try CronExpression("*/15 9-17 * * mon-fri")
func schedule(_ i: Int) -> Schedule {
    switch i % 5 {
    case 0: .daily(times: [LocalTime(hour: i % 24, minute: i % 60)!], days: days[i % 3])
    case 1: .daily(times: stride(from: 9 * 60 + 30, through: 21 * 60 + 30, by: 30).map { LocalTime(hour: $0 / 60, minute: $0 % 60)! },
                   days: days[i % 3])
    case 2: .interval(seconds: 60 * (15 + i % 90), anchor: now, days: days[i % 3])
    case 3: .once(now.addingTimeInterval(Double(60 + i)))
    default: .cron(cron)
    }
}
let fillStart = wallSeconds()
do {
    let store = try AppDatabase.open(path: AppDatabase.defaultPath(environment: .current))
    var batch: [Alert] = []
    for i in 0..<count {
        batch.append(Alert(title: "Alert \(i)", schedule: schedule(i), enabled: i % 10 != 0,
                           timeZone: i % 7 == 0 ? "Europe/Berlin" : nil, created: now))
        if batch.count == 10_000 { try store.save(batch); batch.removeAll() }
    }
    try store.save(batch)
}
print("filled a store with \(count) alerts in \(ms(wallSeconds() - fillStart))")

func time(_ argv: [String]) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = wallSeconds()
        let status = runChild(argv)
        samples.append(wallSeconds() - start)
        if status != 0 { print("\(argv.joined(separator: " ")) failed: exit \(status)"); exit(1) }
    }
    return median(samples)
}

let store = try AppDatabase.open(path: AppDatabase.defaultPath(environment: .current))
let someID = try store.alerts()[count / 2].shortID
let add = time([nudge, "add", "Bench", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays"])
let list = time([nudge, "list", "--json"])
let next = time([nudge, "next", someID, "--count", "5"])
print("whole-process wall time with \(count) alerts, median of \(runs) runs:")
print("  nudge add:         \(ms(add))  (goal <= 50 ms)")
print("  nudge list --json: \(ms(list))  (goal <= 1000 ms)")
print("  nudge next ID:     \(ms(next))  (goal <= 30 ms)")
// Anchors: the same store read by sqlite3 itself, the whole table as JSON and one count.
let database = AppDatabase.defaultPath(environment: .current)
let plainList = time(["sqlite3", "-json", database, "SELECT * FROM alert"])
let plainCount = time(["sqlite3", database, "SELECT count(*) FROM alert"])
figure("nudge add, \(count) alerts", add * 1000, "ms", anchor: "sqlite3 count", plainCount * 1000)
figure("nudge list --json, \(count) alerts", list * 1000, "ms", anchor: "sqlite3 -json the table", plainList * 1000)
figure("nudge next ID, \(count) alerts", next * 1000, "ms", anchor: "sqlite3 count", plainCount * 1000)
