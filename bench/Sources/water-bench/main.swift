// Water, measured (issue 13). Runs inside the test bench (private bus + dunst):
//   make bench, or: scripts/testbench run .build/release/water-bench [stats|drink]...
//
// stats: a store with 10 years of drinks (10 a day) and 1,000,000 delivery-log rows over
//        the last 365 days (50 alerts, every kind of event, answers with their times);
//        whole-process wall time of `nudge stats --days 365 --json` (medians of 15 runs),
//        beside `--days 7` (text) and `--days 3660 --json`. Goal: <= 100 ms.
// drink: a running daemon with a water reminder; from a drink written to the store
//        (in this process, as `nudge drink` writes it) to the daemon's `Water` signal,
//        which comes once it has read the day back (what the next pop-up's body shows);
//        the same through the bus's `Drink` method, and the whole `nudge drink` command.
//        Goal: <= 10 ms.
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import DBus
import Foundation
import NudgeCore
import NudgeStore

let nudge = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nudge").path
let parts = CommandLine.arguments.dropFirst().isEmpty ? ["stats", "drink"] : Array(CommandLine.arguments.dropFirst())

// WATER_BENCH_KEEP=DIR keeps the filled stores there, to look at or profile afterwards.
let kept = ProcessInfo.processInfo.environment["WATER_BENCH_KEEP"]

func freshHome(_ name: String) throws -> String {
    let dir = kept.map { "\($0)/\(name)" } ?? FileManager.default.temporaryDirectory.appendingPathComponent("nudge-water-bench-\(name)-\(getpid())").path
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

if parts.contains("stats") {
    let home = try freshHome("stats")
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: home) } }
    setenv("XDG_DATA_HOME", home, 1)
    let fill = wallSeconds()
    let store = try AppDatabase.open(path: home + "/nudge/nudge.sqlite")
    // Keep everything: the log's limits raised to their most.
    try store.set(.logRows, to: 10_000_000)
    try store.set(.logDays, to: 3650)
    let now = Date()
    var alerts: [Alert] = []
    for i in 0..<50 {
        alerts.append(Alert(title: i == 0 ? nil : "Alert \(i)", schedule: .daily(times: [LocalTime(hour: 9, minute: i)!], days: Schedule.everyDay),
                            created: now.addingTimeInterval(-400 * 86400)))
    }
    try store.save(alerts)
    for day in 0..<3650 {
        for glass in 0..<10 {
            try store.logDrink(200 + glass * 10, at: now.addingTimeInterval(-Double(day) * 86400 - Double(glass) * 3000))
        }
    }
    // 1,000,000 rows: pop-ups and what became of them, spread over the last 365 days.
    let events = ["acknowledged", "snoozed", "done-for-today", "dismissed", "drank"]
    var entries: [LogEntry] = []
    entries.reserveCapacity(100_000)
    let span = 365.0 * 86400
    let zone = TimeZone.current
    for row in 0..<500_000 {
        let alert = alerts[row % alerts.count]
        let at = now.addingTimeInterval(-span + span * Double(row) / 500_000)
        entries.append(LogEntry(.fired(alert: alert.id, due: at, deliveryID: UInt32(row % 60_000 + 1), count: 1), at: at, zone: zone))
        let answer = at.addingTimeInterval(Double(row % 600))
        let delay = Double(row % 600)
        switch events[row % events.count] {
        case "acknowledged": entries.append(LogEntry(.acknowledged(alert: alert.id, delay: delay), at: answer, zone: zone))
        case "snoozed": entries.append(LogEntry(.snoozed(alert: alert.id, until: answer.addingTimeInterval(600), delay: delay), at: answer, zone: zone))
        case "done-for-today": entries.append(LogEntry(.doneForToday(alert: alert.id, day: CivilDay(daysSinceEpoch: 20_000), delay: delay), at: answer, zone: zone))
        case "dismissed": entries.append(LogEntry(.dismissed(alert: alert.id, delay: delay), at: answer, zone: zone))
        default: entries.append(LogEntry(.drank(alert: alert.id, millilitres: 250, delay: delay), at: answer, zone: zone))
        }
        if entries.count >= 100_000 {
            try store.save(states: [:], log: entries)
            entries.removeAll(keepingCapacity: true)
        }
    }
    try store.save(states: [:], log: entries)
    _ = store.checkpoint()
    let counts = try store.eventCounts()
    print("stats: filled a store with 36,500 drinks over 10 years and \(counts.values.reduce(0, +)) log rows over 365 days in \(ms(wallSeconds() - fill))")

    func time(_ argv: [String], runs: Int = 15) -> (median: Double, p90: Double) {
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = wallSeconds()
            guard runChild(argv) == 0 else { print("failed: \(argv.joined(separator: " "))"); exit(1) }
            samples.append(wallSeconds() - start)
        }
        return (median(samples), percentile(samples, 0.9))
    }
    _ = time([nudge, "stats", "--days", "365", "--json"], runs: 2)
    for (label, argv) in [("stats --days 365 --json", [nudge, "stats", "--days", "365", "--json"]),
                          ("stats --days 7 (text)", [nudge, "stats", "--days", "7"]),
                          ("stats --days 3660 --json", [nudge, "stats", "--days", "3660", "--json"])] {
        let (m, p90) = time(argv)
        print("stats: \(label): median \(ms(m)), p90 \(ms(p90))\(label.hasPrefix("stats --days 365") ? " (goal <= 100 ms)" : "")")
        if label.hasPrefix("stats --days 365") {
            // The anchor: sqlite3 summing the same year from the per-day summary.
            let plain = time(["sqlite3", home + "/nudge/nudge.sqlite", "SELECT alertId, sum(shown), sum(done), sum(snoozed), sum(dismissed), sum(drank), sum(missed) FROM logDay GROUP BY alertId"])
            figure("stats --days 365 --json", m * 1000, "ms", anchor: "sqlite3 summing the year", plain.median * 1000)
        }
    }
}

if parts.contains("drink") {
    guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
          ProcessInfo.processInfo.environment["NUDGE_BENCH_DIR"] != nil else {
        print("drink: run inside the bench: scripts/testbench run \(CommandLine.arguments[0]) drink")
        exit(64)
    }
    // A water reminder alone, and among 10,000 other alerts (a reload of those takes the
    // daemon a while; the drink must not wait for it).
    for others in [0, 10_000] {
        let home = try freshHome("drink-\(others)")
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: home) } }
        let path = home + "/nudge/nudge.sqlite"
        let store = try AppDatabase.open(path: path)
        try store.save(Alert(schedule: .daily(times: [LocalTime(hour: 3, minute: 0)!], days: Schedule.everyDay), created: Date()))
        try store.save((0..<others).map { Alert(title: "Other \($0)", schedule: .daily(times: [LocalTime(hour: $0 % 24, minute: $0 % 60)!],
                                                                                           days: Schedule.everyDay), created: Date()) })
        let daemon = spawn([nudge, "daemon"], environment: ["XDG_DATA_HOME": home], stderr: home + "/daemon.log")
        defer { kill(daemon, SIGTERM); var status: Int32 = 0; waitpid(daemon, &status, 0) }
        let bus = try Connection.bus(address: address)
        var lastSignal: Double?
        try bus.subscribe(MatchRule(interface: NudgeService.interface, member: "Water")) { _ in lastSignal = wallSeconds() }
        let started = wallSeconds()
        while (try? bus.nameHasOwner(NudgeService.busName)) != true && wallSeconds() - started < 10 { usleep(10_000) }
        func waitForSignal(after start: Double) -> Double? {
            while wallSeconds() - start < 5 {
                bus.process(timeout: .milliseconds(5))
                if let seen = lastSignal, seen >= start { return seen - start }
            }
            return nil
        }
        func report(_ label: String, _ samples: [Double]) {
            guard !samples.isEmpty else { return print("drink: \(label): no Water signal") }
            print("drink (\(others + 1) alerts): \(label): median \(ms(median(samples))), p90 \(ms(percentile(samples, 0.9))), max \(ms(samples.max() ?? 0)) over \(samples.count) drinks")
        }
        // A store of 10,000 alerts is re-read after each drink: leave the daemon time for it.
        let pause = useconds_t(others == 0 ? 50_000 : 400_000)
        var written: [Double] = [], called: [Double] = [], command: [Double] = []
        for round in 0..<(others == 0 ? 40 : 15) {
            usleep(pause)
            let start = wallSeconds()
            try store.logDrink(10 + round, at: Date())
            if let seen = waitForSignal(after: start) { written.append(seen) }
            usleep(pause)
            let callStart = wallSeconds()
            _ = try bus.call(destination: NudgeService.busName, path: NudgeService.objectPath, interface: NudgeService.interface,
                             member: "Drink", arguments: [.uint32(10)])
            if let seen = waitForSignal(after: callStart) { called.append(seen) }
            usleep(pause)
            let commandStart = wallSeconds()
            runChild(["env", "XDG_DATA_HOME=\(home)", nudge, "drink", "10ml"])
            if let seen = waitForSignal(after: commandStart) { command.append(seen) }
        }
        report("store write (as nudge drink writes) to the daemon's Water signal", written)
        report("bus Drink(u) to the Water signal", called)
        report("whole `nudge drink 10ml` process start to the Water signal", command)
    }
    print("drink: goal <= 10 ms from the write")
}
