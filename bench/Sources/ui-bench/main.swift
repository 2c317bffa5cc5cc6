// `nudge ui` over 1,000 alerts: what a redraw costs and how often it wakes when idle.
// Goals (issue 15): a full redraw of 1,000 alerts <= 5 ms; idle <= 1 wake-up a second.
//
//   .build/release/ui-bench [REDRAWS] [IDLE_SECONDS]     (make bench runs it)
//
// 1. The layout alone: Layout.render of a 1,000-row model, in process (median of 500).
// 2. The real binary (the release nudge beside this bench) in a tmux terminal of its own,
//    as a person runs it. Its CPU time (every thread's, from schedstat) and its wake-ups
//    (the loop thread's voluntary context switches) come from BenchSupport's Usage, its writes to the terminal from
//    /proc/PID/io:
//    - Ctrl-L, a full repaint: the layout and every cell sent again;
//    - a change in the store made by the CLI (`nudge off`/`on` of one alert): the store
//      read again through inotify (1,000 alerts, their next times, their words), laid out
//      and the changed cells sent;
//    - idle, with the nearest alert hours away (the countdown changes once a minute) and
//      with one a minute away (it counts seconds).
#if canImport(Glibc)
import Glibc
#endif
import Presentation
import TerminalFace
import BenchSupport
import Foundation
import NudgeCore
import NudgeStore

let arguments = CommandLine.arguments
let redraws = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
let idleSeconds = arguments.count > 2 ? Int(arguments[2]) ?? 30 : 30
let count = 1_000
let nudge = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("nudge").path
guard access(nudge, X_OK) == 0 else { print("no \(nudge): build it with make release"); exit(64) }

// MARK: 1. The layout alone

var model = ScreenModel()
model.rows = (0..<count).map { i in
    AlertRow(id: String(i, radix: 16), on: i % 10 != 0, state: i % 17 == 0 ? "snoozed" : "",
                    title: i % 3 == 0 ? "물 마시기 \(i)" : "Stretch and breathe \(i)",
                    schedule: i % 2 == 0 ? "every 30 min, 09:30–21:30, Mon–Fri" : "daily at 09:30",
                    next: "Tue 2026-11-24 09:30")
}
model.heading = "Nudge — 1000 reminders"
model.status = "daemon running · 3 unanswered · 750 / 2000 ml"
model.columns = ["STATE", "NEXT", "TITLE", "SCHEDULE"]
model.countdown = "in 2 h 5 min"
model.footer = [.init("↑↓", "move"), .init("space", "on/off"), .init("a", "add"), .init("e", "edit"), .init("d", "delete"),
                .init("?", "help"), .init("q", "quit")]
for (width, height) in [(80, 24), (200, 60)] {
    var samples: [Double] = []
    for i in 0..<500 {
        model.selected = i % count
        model.keepSelectionVisible(height: Layout.listHeight(height) - 1)
        let start = wallSeconds()
        let frame = Layout.render(model, width: width, height: height)
        samples.append(wallSeconds() - start)
        precondition(frame.lines.count == height)
    }
    print("layout of 1,000 alerts at \(width)×\(height): median \(ms(median(samples))) (p90 \(ms(samples.sorted()[450])))")
}

// MARK: 2. The real binary in a terminal

let home = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-ui-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: home) }
nonisolated(unsafe) var socket = home + "/tmux"
let environment = ["XDG_DATA_HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color"]
setenv("XDG_DATA_HOME", home, 1)
unsetenv("DBUS_SESSION_BUS_ADDRESS")

// 1,000 alerts of every kind, the nearest two hours or more away, so nothing fires meanwhile.
let now = Date()
let zone = TimeZone.current
let firstMinute: Int = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.hour, .minute], from: now.addingTimeInterval(2 * 3600))
    return parts.hour! * 60 + parts.minute!
}()
let days: [Set<Weekday>] = [Schedule.everyDay, [.monday, .tuesday, .wednesday, .thursday, .friday], [.saturday, .sunday]]
func time(_ minute: Int) -> LocalTime { let m = (firstMinute + minute) % 1440; return LocalTime(hour: m / 60, minute: m % 60)! }
let ids: [String]
do {
    let store = try AppDatabase.open(path: AppDatabase.defaultPath(environment: .current))
    let alerts = (0..<count).map { i in
        let schedule: Schedule = switch i % 4 {
        case 0: .daily(times: [time(i % 600)], days: days[i % 3])
        case 1: .daily(times: stride(from: 0, through: 600, by: 30).map(time), days: Schedule.everyDay)
        case 2: .once(now.addingTimeInterval(Double(2 * 3600 + i * 60)))
        default: .daily(times: [time(i % 600), time(i % 600 + 240)], days: days[(i + 1) % 3])
        }
        return Alert(title: i % 3 == 0 ? "물 마시기 \(i)" : "Stretch and breathe \(i)", schedule: schedule, enabled: i % 10 != 0, created: now)
    }
    try store.save(alerts)
    ids = alerts.map(\.id.uuidString)
}

/// Runs tmux with the bench's socket; returns what it printed.
@discardableResult
func tmux(_ args: [String]) -> String {
    let out = home + "/tmux.out"
    var status: Int32 = 0
    waitpid(spawn(["tmux", "-S", socket] + args, environment: environment, stdout: out), &status, 0)
    return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
}

func nudgeCLI(_ args: [String]) {
    var status: Int32 = 0
    waitpid(spawn([nudge] + args, environment: environment), &status, 0)
}

/// Seconds the process has run on a CPU, all its threads (a reload reads the store on
/// every CPU).
func cpuSeconds(_ pid: pid_t) -> Double { Usage(pid).cpu }

/// A field of /proc/PID/io.
func field(_ name: String, of file: String, _ pid: pid_t) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    return 0
}


/// Waits until the process has used no CPU for 200 ms.
func settle(_ pid: pid_t) {
    var last = cpuSeconds(pid)
    while true {
        usleep(200_000)
        let now = cpuSeconds(pid)
        if now == last { return }
        last = now
    }
}

for (width, height) in [(80, 24), (200, 60)] {
    // A server of its own for each size (a new one on a socket just killed may not start).
    socket = home + "/tmux-\(width)"
    tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "b", "exec '\(nudge)' ui"])
    defer { tmux(["kill-server"]) }
    tmux(["set-option", "-g", "window-size", "manual"])
    let pid = pid_t(tmux(["display-message", "-p", "-t", "b", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    var ready = false
    for _ in 0..<500 where !ready {
        ready = tmux(["capture-pane", "-p", "-t", "b"]).contains("Nudge — 1000 reminders")
        usleep(20_000)
    }
    guard ready else { print("nudge ui did not show its screen: \(tmux(["capture-pane", "-p", "-t", "b"]))"); exit(1) }
    settle(pid)

    @discardableResult
    func measure(_ what: String, _ action: (Int) -> Void) -> Double {
        settle(pid)
        let (cpu, bytes, writes) = (cpuSeconds(pid), field("wchar", of: "io", pid), field("syscw", of: "io", pid))
        for i in 0..<redraws {
            action(i)
            usleep(40_000)
        }
        settle(pid)
        let each = (cpuSeconds(pid) - cpu) / Double(redraws)
        let sent = (field("wchar", of: "io", pid) - bytes) / redraws, calls = Double(field("syscw", of: "io", pid) - writes) / Double(redraws)
        print("  \(what): \(ms(each)) of CPU each, \(sent) bytes in \(String(format: "%.1f", calls)) writes to the terminal")
        return each
    }
    print("nudge ui, 1,000 alerts, \(width)×\(height), \(redraws) times each:")
    measure("full repaint (Ctrl-L)") { _ in tmux(["send-keys", "-t", "b", "C-l"]) }
    // Two changes per round trip: off, then on again.
    let reload = measure("the store changed by `nudge off`/`on` (read again, laid out, drawn)") { i in
        nudgeCLI([i % 2 == 0 ? "off" : "on", ids[1]])
    }
    // The anchor: the same store read whole by sqlite3 itself, CPU and all.
    let plain = medianWall(["sqlite3", "-json", AppDatabase.defaultPath(environment: .current), "SELECT * FROM alert"], runs: 9)
    figure("nudge ui reload, 1,000 alerts, \(width)×\(height)", reload * 1000, "ms CPU", anchor: "sqlite3 -json the table (wall)", plain * 1000)

    if width == 200 {
        for (label, soon) in [("nearest alert hours away", false), ("nearest alert a minute away (counts seconds)", true)] {
            // Due within the minute the watch starts in: the countdown says seconds only in
            // its last minute (before it, "in 2 min" for sixty seconds, and no wake-up).
            if soon { nudgeCLI(["add", "Soon", "--in", "\(idleSeconds + 25)s"]) }
            settle(pid)
            // The loop's own wake-ups: its thread's voluntary switches. Every thread's switches
            // summed went down when a worker thread ended (one run read -194).
            let (start, wakes, cpu) = (wallSeconds(), Usage(pid, mainThreadOnly: true).voluntary, Usage(pid, mainThreadOnly: true).cpu)
            sleep(UInt32(idleSeconds))
            let seconds = wallSeconds() - start
            let woke = Double(Usage(pid, mainThreadOnly: true).voluntary - wakes)
            print("  idle, \(label), \(idleSeconds) s: \(Int(woke)) wake-ups (\(String(format: "%.2f", woke / seconds)) a second), "
                  + "\(ms(Usage(pid, mainThreadOnly: true).cpu - cpu)) of the loop's CPU")
        }
    }
}
