// Next occurrence for 100,000 alerts of mixed kinds, Nudge's core beside the same answers
// from Foundation's Calendar.nextDate, in one run, checked identical. The alerts are the
// same in every run (a fixed seed), and Nudge's pass, 40-60 ms, is the median of five (one
// cold pass varied 37-63 ms from run to run); Foundation's, 20 s, is one pass.
// Run: swift run -c release schedule-bench [COUNT]
import BenchSupport
import Foundation
import NudgeCore

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let zones = ["America/New_York", "Europe/Berlin", "Asia/Seoul", "Australia/Sydney", "Australia/Lord_Howe"].map { TimeZone(identifier: $0)! }
// A week with no DST change in any of these zones, so both methods must agree exactly.
let after = Date(timeIntervalSince1970: 1_795_348_800) // 2026-11-22T12:00:00Z

struct Item {
    var schedule: Schedule
    var zone: TimeZone
}

/// SplitMix64: the same alerts in every run.
struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
var rng = Seeded(state: 20_261_122)
var items: [Item] = []
items.reserveCapacity(count)
for i in 0..<count {
    let zone = zones[i % zones.count]
    let hour = Int.random(in: 0..<24, using: &rng), minute = Int.random(in: 0..<60, using: &rng)
    let schedule: Schedule
    switch i % 5 {
    case 0: schedule = .daily(times: [LocalTime(hour: hour, minute: minute)!], days: Schedule.everyDay)
    case 1: schedule = .daily(times: [LocalTime(hour: hour, minute: minute)!], days: [.monday, .tuesday, .wednesday, .thursday, .friday])
    case 2:
        let start = LocalTime(hour: min(hour, 20), minute: 30)!.secondOfDay
        let times = stride(from: start, through: min(start + 4 * 3600, 86399), by: 45 * 60).map { LocalTime(hour: $0 / 3600, minute: $0 / 60 % 60)! }
        schedule = .daily(times: times, days: [.saturday, .sunday])
    case 3: schedule = .cron(try! CronExpression("\(minute) \(hour) * * mon-fri"))
    default: schedule = .interval(seconds: 60 * Int.random(in: 1...180, using: &rng),
                                  anchor: after.addingTimeInterval(-Double.random(in: 0...86400, using: &rng)), days: Schedule.everyDay)
    }
    items.append(Item(schedule: schedule, zone: zone))
}

func ms(_ start: DispatchTime) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6 }

var ours: [Date] = []
var ourTimes: [Double] = []
for _ in 0..<5 {
    ours = []
    ours.reserveCapacity(count)
    let t0 = DispatchTime.now()
    for item in items { ours.append(item.schedule.occurrences(after: after, count: 1, in: item.zone)[0]) }
    ourTimes.append(ms(t0))
}
let ourTime = median(ourTimes)
print("  Nudge core passes:       " + ourTimes.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " ms")

var calendars: [TimeZone: Calendar] = [:]
for zone in zones {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    calendar.locale = Locale(identifier: "en_US_POSIX")
    calendars[zone] = calendar
}
var theirs: [Date] = []
theirs.reserveCapacity(count)
let t1 = DispatchTime.now()
for item in items {
    let calendar = calendars[item.zone]!
    switch item.schedule {
    case .daily(let times, let days):
        var best = Date.distantFuture
        for time in times {
            let comps = DateComponents(hour: time.hour, minute: time.minute, second: 0)
            if days.count == 7 {
                if let d = calendar.nextDate(after: after, matching: comps, matchingPolicy: .nextTime), d < best { best = d }
            } else {
                for day in days {
                    var c = comps
                    c.weekday = day.rawValue + 1
                    if let d = calendar.nextDate(after: after, matching: c, matchingPolicy: .nextTime), d < best { best = d }
                }
            }
        }
        theirs.append(best)
    case .cron(let cron):
        // The bench's cron kind is "m h * * mon-fri": Foundation gets it as five weekday matches.
        var best = Date.distantFuture
        let time = cron.times[0]
        for weekday in 2...6 {
            let c = DateComponents(hour: time.hour, minute: time.minute, second: 0, weekday: weekday)
            if let d = calendar.nextDate(after: after, matching: c, matchingPolicy: .nextTime), d < best { best = d }
        }
        theirs.append(best)
    case .interval(let seconds, let anchor, _):
        let n = (after.timeIntervalSince(anchor) / Double(seconds)).rounded(.down) + 1
        theirs.append(anchor.addingTimeInterval(n * Double(seconds)))
    default:
        theirs.append(.distantPast)
    }
}
let theirTime = ms(t1)

let mismatches = zip(ours, theirs).filter { $0 != $1 }.count
print("next occurrence for \(count) alerts (daily, weekdays, 45-min weekend windows, cron, intervals; 5 zones):")
print("  Nudge core:              \(String(format: "%.1f", ourTime)) ms")
print("  Calendar.nextDate:       \(String(format: "%.1f", theirTime)) ms")
print("  speed-up:                \(String(format: "%.1f", theirTime / ourTime))x")
print("  identical answers:       \(count - mismatches) of \(count)")
figure("next occurrence of \(count) alerts", ourTime, "ms", anchor: "Calendar.nextDate", theirTime)
if mismatches > 0 { exit(1) }
