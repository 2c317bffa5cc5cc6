// Client cost of a notification: CPU time of this process per Notify over many calls on
// one connection, beside the CPU time of one whole `notify-send` process.
// Run inside the bench: scripts/testbench run bench/send.sh
#if canImport(Glibc)
import Glibc
#endif
import FreedesktopDelivery
import NudgeCore

func cpuSeconds(_ who: Int32) -> Double {
    var usage = rusage()
    getrusage(who == 0 ? RUSAGE_SELF.rawValue : RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func runChild(_ argv: [String]) {
    var pid: pid_t = 0
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for arg in cArgs { free(arg) } }
    guard posix_spawnp(&pid, argv[0], nil, nil, cArgs, environ) == 0 else {
        print("cannot run \(argv[0])")
        exit(69)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

let calls = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
let children = 20

let delivery: FreedesktopDelivery
do {
    delivery = try FreedesktopDelivery.session()
    _ = try delivery.capabilities()
} catch {
    print("nudge-bench: \(error)")
    exit(69)
}

// One pop-up, updated in place: dunst's rendering cost stays flat instead of growing
// with a pile of pop-ups, and the client does the same work per Notify either way.
var notification = Notification(summary: "Bench", body: "Client cost per Notify", count: 1)
let cpuStart = cpuSeconds(0)
let wallStart = wallSeconds()
do {
    for n in 1...calls {
        notification.count = Int32(n)
        notification.replacesID = try delivery.deliver(notification)
    }
} catch {
    print("nudge-bench: \(error)")
    exit(69)
}
let ourCPU = (cpuSeconds(0) - cpuStart) / Double(calls)
let ourWall = (wallSeconds() - wallStart) / Double(calls)
try? delivery.withdraw(notification.replacesID ?? 0)

let childStart = cpuSeconds(1)
for n in 1...children {
    runChild(["notify-send", "-t", "1", "Bench", "notify-send \(n)"])
}
let theirCPU = (cpuSeconds(1) - childStart) / Double(children)

func ms(_ seconds: Double) -> String {
    let v = (seconds * 1e6).rounded() / 1e3
    return "\(v) ms"
}
print("client CPU per Notify, nudge (\(calls) calls, one connection): \(ms(ourCPU))")
print("wall time per Notify, nudge (bound by the server):          \(ms(ourWall))")
print("CPU of one notify-send process (mean of \(children)):            \(ms(theirCPU))")
print("ratio: notify-send uses \(((theirCPU / max(ourCPU, 1e-9)) * 10).rounded() / 10)x the CPU per notification")
