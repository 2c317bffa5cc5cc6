#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Gives back the clean file pages the daemon touched while starting: code and read-only
/// data of the program and its libraries that loading the store, parsing the command line
/// and setting up needed once. `madvise(MADV_DONTNEED)` unmaps them; they stay in the page
/// cache, and the few a fire needs come back with minor faults (microseconds each).
///
/// Only mappings that are file-backed, not writable, and hold no dirty or anonymous page
/// are touched: for those, "repopulate from the file" gives back exactly what was there.
/// Relocated read-only data (RELRO) is dirty and stays.
enum ResidentPages {
    /// Drops the clean file mappings; returns the bytes that were resident in them.
    @discardableResult
    static func dropClean() -> Int {
        guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
        var dropped = 0
        var current: (start: UInt, end: UInt, eligible: Bool, rss: Int)?
        func finish() {
            guard let mapping = current, mapping.eligible, mapping.rss > 0 else { return }
            if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                dropped += mapping.rss
            }
        }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                finish()
                let bounds = first.split(separator: "-")
                let perms = fields[1]
                let path = fields.count >= 6 ? fields[5] : ""
                guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else {
                    current = nil
                    continue
                }
                let eligible = path.hasPrefix("/") && perms.count == 4 && perms.dropFirst().first != "w"
                current = (start, end, eligible, 0)
                continue
            }
            guard current != nil, fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            switch first {
            case "Rss:": current?.rss = kilobytes * 1024
            case "Private_Dirty:", "Shared_Dirty:", "Anonymous:":
                if kilobytes > 0 { current?.eligible = false }
            default: break
            }
        }
        finish()
        return dropped
    }
}
