// Client cost of a notification: CPU time of this process per Notify over many calls on
// one connection, beside the CPU time of one whole `notify-send` process.
// Run inside the bench: scripts/testbench run bench/send.sh
#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import FreedesktopDelivery
import NudgeCore

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
let cpuStart = cpuSeconds()
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
let ourCPU = (cpuSeconds() - cpuStart) / Double(calls)
let ourWall = (wallSeconds() - wallStart) / Double(calls)
try? delivery.withdraw(notification.replacesID ?? 0)

let childStart = cpuSeconds(children: true)
for n in 1...children {
    runChild(["notify-send", "-t", "1", "Bench", "notify-send \(n)"])
}
let theirCPU = (cpuSeconds(children: true) - childStart) / Double(children)

print("client CPU per Notify, nudge (\(calls) calls, one connection): \(ms(ourCPU))")
print("wall time per Notify, nudge (bound by the server):          \(ms(ourWall))")
print("CPU of one notify-send process (mean of \(children)):            \(ms(theirCPU))")
print("ratio: notify-send uses \(((theirCPU / max(ourCPU, 1e-9)) * 10).rounded() / 10)x the CPU per notification")
figure("client CPU per Notify", ourCPU * 1000, "ms", anchor: "one notify-send process's CPU", theirCPU * 1000)
