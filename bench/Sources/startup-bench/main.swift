// Start-up of nudge's commands against notify-send, whole processes, as a person runs them.
//
//   scripts/testbench run .build/release/startup-bench [RUNS]     (make bench does this)
//
// Every round runs each case once, alternating, so the machine's noise falls on all of
// them alike; medians over RUNS rounds. Page faults are the child's minor faults
// (wait4's rusage). `send` is measured in two styles: pop-ups left on screen (closing all
// every fifth round, as a person clears them) and every pop-up closed before the next run.
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100 : 100
// Run from the package's folder (make bench does).
let root = String(cString: getcwd(nil, 0)!).split(separator: "/").joined(separator: "/")
let nudge = "/\(root)/.build/release/nudge"
guard access(nudge, X_OK) == 0 else { print("no \(nudge): run from the package folder after a release build"); exit(64) }
guard getenv("NUDGE_BENCH_DIR") != nil else {
    print("run inside the bench: scripts/testbench run .build/release/startup-bench")
    exit(64)
}
let data = String(cString: mkdtemp(strdup("/tmp/nudge-startup.XXXXXX"))!)
setenv("XDG_DATA_HOME", data, 1)
setenv("LANG", "C.UTF-8", 1)

/// One run: wall seconds and minor page faults.
func measure(_ argv: [String]) -> (seconds: Double, faults: Int) {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for arg in cArgs { free(arg) } }
    let start = wallSeconds()
    guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else {
        print("cannot run \(argv[0])"); exit(69)
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = wallSeconds() - start
    if (status >> 8) & 0xff != 0 { print("\(argv.joined(separator: " ")) failed: exit \((status >> 8) & 0xff)"); exit(1) }
    return (seconds, usage.ru_minflt)
}

func output(_ argv: [String]) -> String {
    let file = data + "/out"
    _ = waitpid(spawn(argv, environment: [:], stdout: file), nil, 0)
    let handle = fopen(file, "r")!
    defer { fclose(handle) }
    var line = [CChar](repeating: 0, count: 4096)
    return fgets(&line, 4096, handle).map { String(cString: $0) } ?? ""
}

// One alert to switch, answer and show.
let added = output([nudge, "add", "Bench", "--at", "09:00"])
let id = String(added.split(separator: " ").dropFirst().first?.prefix(8) ?? "")
guard id.count == 8 else { print("nudge add said: \(added)"); exit(1) }

// Floors: the smallest Swift programs built the way nudge is (static runtime).
var floors: [(String, [String])] = []
let floorDir = "/\(root)/.build/bench-floors"
mkdir(floorDir, 0o755)
for name in ["hello", "hello-ko"] {
    let binary = "\(floorDir)/\(name)"
    if access(binary, X_OK) != 0 {
        runChild(["swiftc", "-O", "-static-stdlib", "/\(root)/bench/floors/\(name).swift", "-o", binary])
    }
    if access(binary, X_OK) == 0 { floors.append(("floor: static Swift \(name == "hello" ? "print" : "ko_KR date (Foundation)")", [binary])) }
}

let cases: [(String, [String])] = [
    ("notify-send --version", ["notify-send", "--version"]),
    ("nudge --version", [nudge, "--version"]),
] + floors + [
    ("nudge on ID", [nudge, "on", id]),
    ("nudge off ID", [nudge, "off", id]),
    ("nudge ack ID", [nudge, "ack", id]),
    ("nudge done ID", [nudge, "done", id]),
    ("nudge add", [nudge, "add", "Bench", "--in", "7d"]),
    ("nudge list (formats dates)", [nudge, "list"]),
    ("nudge next ID (formats dates)", [nudge, "next", id]),
]
// With -t (the figures "send, pop-ups …", as before) and with no flags at all, as scripts
// call it ("send without flags, pop-ups …"), each against notify-send given the same.
let sends: [(String, [String])] = [
    ("nudge send", [nudge, "send", "-t", "500", "Bench", "nudge send"]),
    ("notify-send", ["notify-send", "-t", "500", "Bench", "notify-send"]),
    ("nudge send, no flags", [nudge, "send", "Bench", "nudge send"]),
    ("notify-send, no flags", ["notify-send", "Bench", "notify-send"]),
]

var samples: [String: [(seconds: Double, faults: Int)]] = [:]
for round in 0..<runs {
    for (name, argv) in cases { samples[name, default: []].append(measure(argv)) }
    for (name, argv) in sends { samples["left: " + name, default: []].append(measure(argv)) }
    if round % 5 == 4 { runChild(["dunstctl", "close-all"]) }
    for (name, argv) in sends {
        runChild(["dunstctl", "close-all"])
        samples["closed: " + name, default: []].append(measure(argv))
    }
}
runChild(["dunstctl", "close-all"])

@MainActor func row(_ name: String, anchor: Double) -> String {
    let s = samples[name]!
    let wall = median(s.map(\.seconds))
    let faults = Int(median(s.map { Double($0.faults) }))
    let padded = name + String(repeating: " ", count: max(0, 34 - name.count))
    return "  \(padded) \(ms(wall))  \(faults) faults  \(((wall / anchor) * 100).rounded() / 100)x"
}
let anchor = median(samples["notify-send --version"]!.map(\.seconds))
print("start-up, whole process, median of \(runs) alternating rounds (ratio to notify-send --version):")
for (name, _) in cases { print(row(name, anchor: anchor)) }
for (name, _) in cases where name.hasPrefix("nudge") {
    figure("start-up: \(name)", median(samples[name]!.map(\.seconds)) * 1000, "ms", anchor: "notify-send --version", anchor * 1000)
}
for style in ["left", "closed"] {
    print("send, pop-ups \(style == "left" ? "left on screen (closed every fifth round)" : "closed before each run") (ratio to notify-send given the same):")
    for (flags, figureName) in [("", "send, pop-ups \(style)"), (", no flags", "send without flags, pop-ups \(style)")] {
        let sendAnchor = median(samples["\(style): notify-send\(flags)"]!.map(\.seconds))
        for name in ["nudge send\(flags)", "notify-send\(flags)"] { print(row("\(style): \(name)", anchor: sendAnchor)) }
        figure(figureName, median(samples["\(style): nudge send\(flags)"]!.map(\.seconds)) * 1000, "ms",
               anchor: "notify-send\(flags.isEmpty ? "" : " with no flags")", sendAnchor * 1000)
    }
}
runChild(["rm", "-rf", data])
