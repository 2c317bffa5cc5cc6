// The soak (issue 10): one daemon, COUNT pop-ups (default 20,000) answered every way in
// turn, on a private bus with its own dunst. Runs inside the test bench:
//   scripts/testbench run .build/release/soak-bench [COUNT]
//
// Ways, in turn: Done, Snooze, Done for today (dunst's context menu), click (default
// action), dismissed, expired (low urgency, dunst expires it after 300 ms), replaced with
// a count (the alert fires again while its pop-up is up), withdrawn by `off` and by `rm`.
// Every 500th pop-up instead the server is killed and restarted while it is up, and every
// 500th (offset 250) the server is stopped across the due time and continued after the
// Notify timed out, then the pop-up is clicked.
//
// Prints the daemon's resident memory and its per-pop-up bookkeeping (Status) at 0, 1/4,
// 1/2 and the whole count, then checks the log: one answer at most per pop-up, and no
// occurrence shown twice (no redelivery).
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import DBus
import Foundation
import NudgeCore
import NudgeStore

guard let benchDir = ProcessInfo.processInfo.environment["NUDGE_BENCH_DIR"] else {
    print("run inside the bench: scripts/testbench run \(CommandLine.arguments[0])")
    exit(64)
}
let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
let nudge = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nudge").path
let root = FileManager.default.currentDirectoryPath
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-soak-\(getpid())").path
try FileManager.default.createDirectory(atPath: dir + "/data", withIntermediateDirectories: true)

/// A child process with the soak's environment; its output to a file.
@MainActor func start(_ argv: [String], output: String = "/dev/null", environment extra: [String: String] = [:]) -> pid_t {
    spawn(argv, environment: extra, stderr: output == "/dev/null" ? output : output + ".err", stdout: output)
}

@MainActor func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = wallSeconds() + seconds
    while wallSeconds() < deadline {
        if condition() { return true }
        usleep(3_000)
    }
    return condition()
}

// A bus and a dunst of the soak's own, so the server can be killed and stopped.
let busPID = start(["dbus-daemon", "--config-file=\(benchDir)/bus.conf", "--nofork", "--print-address=1"], output: dir + "/bus.address")
_ = waitFor(5) { ((try? String(contentsOfFile: dir + "/bus.address", encoding: .utf8)) ?? "").contains("unix:") }
let address = try String(contentsOfFile: dir + "/bus.address", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
let environment = ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_DATA_HOME": dir + "/data", "NUDGE_BENCH_DIR": dir, "TZ": "UTC"]
var config = try String(contentsOfFile: root + "/Tests/bench/dunstrc.in", encoding: .utf8)
    .replacingOccurrences(of: "@BENCH@", with: dir).replacingOccurrences(of: "@ICONS@", with: root + "/packaging/icons")
config = config.replacingOccurrences(of: "[urgency_low]\n    background = \"#1e293b\"\n    foreground = \"#e2e8f0\"\n    timeout = 0",
                                     with: "[urgency_low]\n    background = \"#1e293b\"\n    foreground = \"#e2e8f0\"\n    timeout = 300ms")
try config.write(toFile: dir + "/dunstrc", atomically: true, encoding: .utf8)
try FileManager.default.copyItem(atPath: root + "/Tests/bench/fake-dmenu", toPath: dir + "/fake-dmenu")

let bus = try Connection.bus(address: address)
@MainActor func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) -> [Value]? {
    try? bus.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                  timeout: .seconds(2), autoStart: false)
}
@MainActor func serverPresent() -> Bool {
    call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
         [.string("org.freedesktop.Notifications")])?.first?.bool == true
}
var dunst: pid_t = 0
@MainActor func startServer() {
    dunst = start(["dunst", "-conf", dir + "/dunstrc"], environment: environment)
    guard waitFor(5, serverPresent) else { fatalError("dunst did not start") }
}
@MainActor func killServer() {
    kill(dunst, SIGKILL)
    var status: Int32 = 0
    waitpid(dunst, &status, 0)
    _ = waitFor(5) { !serverPresent() }
}
@MainActor func dunstCall(_ member: String, _ arguments: [Value] = []) {
    _ = call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.dunstproject.cmd0", member, arguments)
}
@MainActor func displayed() -> Int {
    let value = call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties", "Get",
                     [.string("org.dunstproject.cmd0"), .string("displayedLength")])?.first?.unwrapped
    return value?.uint32.map(Int.init) ?? -1
}
@MainActor func menu(_ label: String) {
    try? label.write(toFile: dir + "/dmenu-choice", atomically: true, encoding: .utf8)
    dunstCall("ContextMenuCall")
}
startServer()

let store = try AppDatabase.open(path: dir + "/data/nudge/nudge.sqlite")
let daemon = start([nudge, "daemon"], output: dir + "/daemon.log", environment: environment)
@MainActor func status() -> [String: Value] {
    call("io.github.nudge.Nudge", "/io/github/nudge/Nudge", "io.github.nudge.Nudge1", "Status")?.first?.vardict ?? [:]
}
guard waitFor(10, { !status().isEmpty }) else { fatalError("the daemon did not start") }

@MainActor func snapshot(_ done: Int) {
    let s = status()
    let keys = ["popups-shown", "popups-unsettled", "delivery-tracked", "log-rows-awaiting-id"]
    let book = keys.map { "\($0) \(s[$0]?.uint32 ?? 0)" }.joined(separator: ", ")
    print(String(format: "%6d pop-ups: RSS %6.1f MB; %@", done, Double(Usage(daemon).rssKB) / 1024, book))
    fflush(nil)
}

enum Way: String, CaseIterable { case done, snooze, doneToday, click, dismissed, expired, replaced, off, removed, serverKilled, serverStopped }
let serverEvery = ProcessInfo.processInfo.environment["SOAK_SERVER_EVERY"].flatMap { Int($0) } ?? 500
let cycle: [Way] = [.done, .snooze, .doneToday, .click, .dismissed, .expired, .replaced, .off, .removed]
let answers: Set<String> = ["acknowledged", "snoozed", "done-for-today", "expired"]
var pool: [Way: Alert] = [:]
var stuck = 0, answered = 0, mostAnswers = 0, tally: [Way: Int] = [:], stuckBy: [Way: Int] = [:], timeBy: [Way: Double] = [:]
let began = wallSeconds()
snapshot(0)
for i in 0..<count {
    var way = cycle[i % cycle.count]
    if i % serverEvery == serverEvery - 1 { way = .serverKilled }
    if i % serverEvery == serverEvery / 2 - 1 { way = .serverStopped }
    tally[way, default: 0] += 1
    let wayStart = wallSeconds()
    defer { timeBy[way, default: 0] += wallSeconds() - wayStart }
    // Most ways reuse one alert each, as a person's reminders come back day after day: what
    // the daemon keeps per pop-up must not grow with them. Snoozed, done-for-today and
    // removed ones are fresh each time (a snooze or a skipped day would hold the next).
    var alert: Alert
    if let kept = pool[way] {
        alert = kept
        // Ahead of the daemon's re-reading: an edit owes nothing from before it is seen
        // (60 ms was not always enough with a build running beside it).
        alert.schedule = .once(Date().addingTimeInterval(0.15))
        alert.enabled = true
    } else {
        alert = Alert(title: "Soak \(way.rawValue) \(i)", schedule: .once(Date().addingTimeInterval(0.02)), sound: nil,
                      urgency: way == .expired ? .low : .normal, created: Date())
    }
    let seen = (try? store.events(for: alert.id).count) ?? 0
    let events = { Array(((try? store.events(for: alert.id)) ?? []).dropFirst(seen)) }
    let shows: Set<String> = ["fired", "shown-late", "redelivered", "caught-up", "snooze-fired"]
    if way == .serverStopped { kill(dunst, SIGSTOP) }
    try store.save(alert)
    if way == .serverStopped {
        _ = waitFor(5) { events().contains("failed") }
        kill(dunst, SIGCONT)
        _ = waitFor(5) { events().contains("shown-late") }
    }
    guard waitFor(5, { events().contains(where: shows.contains) && displayed() >= (way == .expired ? 0 : 1) }) else {
        stuck += 1
        stuckBy[way, default: 0] += 1
        print("stuck: pop-up \(i) (\(way.rawValue)) not shown: log \(events()), \(displayed()) displayed")
        try store.delete([alert.id])
        pool[way] = nil
        continue
    }
    switch way {
    case .done: menu(",done]")
    case .snooze: menu("Snooze")
    case .doneToday: menu("Done for today")
    case .click, .serverStopped: dunstCall("NotificationAction", [.uint32(0)])
    case .dismissed: dunstCall("NotificationCloseLast")
    case .expired: break
    case .replaced:
        // Far enough ahead that the daemon has re-read the store before it is due (an edit
        // owes nothing from before the daemon sees it).
        alert.schedule = .once(Date().addingTimeInterval(0.15))
        try store.save(alert)
        _ = waitFor(5) { events().filter { $0 == "fired" }.count == 2 }
        dunstCall("NotificationAction", [.uint32(0)])
    case .off:
        alert.enabled = false
        try store.save(alert)
    case .removed:
        try store.delete([alert.id])
    case .serverKilled:
        killServer()
        startServer()
    }
    // Withdrawn (off, rm) or gone with its server: no answer comes, and none is logged.
    let expectsAnswer = ![Way.removed, .off, .serverKilled].contains(way)
    if expectsAnswer {
        if waitFor(5, { events().contains(where: answers.contains) }) {
            answered += 1
        } else {
            stuck += 1
            stuckBy[way, default: 0] += 1
            print("stuck: pop-up \(i) (\(way.rawValue)): log \(events()), \(displayed()) displayed")
        }
    }
    _ = waitFor(2) { displayed() == 0 }
    // "Done for today" is logged as acknowledged + done-for-today: one answer.
    let logged = events()
    mostAnswers = max(mostAnswers, logged.filter(answers.contains).count - (logged.contains("done-for-today") ? 1 : 0))
    if [Way.snooze, .doneToday, .removed].contains(way) { try store.delete([alert.id]) } else { pool[way] = alert }
    if ProcessInfo.processInfo.environment["SOAK_TRACE"] != nil {
        usleep(50_000)
        print("trace \(i) \(way.rawValue): shown \(status()["popups-shown"]?.uint32 ?? 0), displayed \(displayed()), log \(logged)")
    }
    if [count / 4, count / 2, count].contains(i + 1) { snapshot(i + 1) }
}
let seconds = wallSeconds() - began

// The log: one answer at most per pop-up, nothing shown twice.
let counts = try store.eventCounts()
let pops = (counts["fired"] ?? 0) + (counts["caught-up"] ?? 0)
let answerCount = answers.map { counts[$0] ?? 0 }.reduce(0, +) - (counts["done-for-today"] ?? 0)
print(String(format: "%d pop-ups in %.0f s (%.1f ms each); ways: %@", count, seconds, seconds * 1000 / Double(count),
             Way.allCases.map { "\($0.rawValue) \(tally[$0] ?? 0)" }.joined(separator: ", ")))
print("log: \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
let replacedFires = tally[.replaced] ?? 0
print("per way: " + Way.allCases.filter { tally[$0] != nil }.map {
    String(format: "%@ %.0f ms%@", $0.rawValue, (timeBy[$0] ?? 0) * 1000 / Double(tally[$0]!), stuckBy[$0].map { " (\($0) stuck)" } ?? "")
}.joined(separator: ", "))
print("shown: \(pops) Notify-worthy fires for \(count) pop-ups (+\(replacedFires) replacements with a count); "
      + "answers \(answerCount), answered as expected \(answered), most answers for one pop-up \(mostAnswers), stuck \(stuck), "
      + "redelivered \(counts["redelivered"] ?? 0)")
let ok = stuck == 0 && mostAnswers <= 1 && pops == count + replacedFires && answerCount == answered && (counts["redelivered"] ?? 0) == 0
    && answered == count - (tally[.off] ?? 0) - (tally[.removed] ?? 0) - (tally[.serverKilled] ?? 0)
print(ok ? "soak: ok (one answer per pop-up, no occurrence shown twice)" : "soak: FAILED")
kill(daemon, SIGTERM)
var exitStatus: Int32 = 0
waitpid(daemon, &exitStatus, 0)
killServer()
kill(busPID, SIGTERM)
if ok { try? FileManager.default.removeItem(atPath: dir) } else { print("kept for a look: \(dir) (daemon.log.err is the daemon's log)") }
exit(ok ? 0 : 1)
