#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// CPU time and context switches of a process's threads (all, or only the main one: the
/// loop), and its RSS.
public struct Usage {
    /// CPU seconds, context switches (voluntary and not: wake-ups and preemptions), resident
    /// and peak resident kilobytes.
    public var cpu: Double = 0, switches = 0, rssKB = 0, peakKB = 0
    /// The voluntary context switches alone: each one a sleep the thread chose (a wait in
    /// poll(2), a blocking write), so on the main thread the loop's wake-ups.
    public var voluntary = 0

    public init(_ pid: pid_t, mainThreadOnly: Bool = false) {
        let tasks = mainThreadOnly ? ["\(pid)"] : (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
               let ns = Double(stat.split(separator: " ")[0]) { cpu += ns / 1e9 }
            for line in ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? "").split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                let count = Int(line.split(separator: "\t").last ?? "") ?? 0
                switches += count
                if line.hasPrefix("voluntary") { voluntary += count }
            }
        }
        for line in ((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "").split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { rssKB = Int(line.split(separator: " ").dropLast().last ?? "") ?? 0 }
            if line.hasPrefix("VmHWM:") { peakKB = Int(line.split(separator: " ").dropLast().last ?? "") ?? 0 }
        }
    }
}
