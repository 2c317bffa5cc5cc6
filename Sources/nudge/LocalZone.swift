import Foundation
import FreedesktopDelivery
import NudgeDaemon
import Platform

/// The system's zone for this command, read once the way the daemon and glibc read it
/// (``SystemZone``); a `TZ` that cannot be followed exactly is said once on stderr.
enum LocalZone {
    static let current: TimeZone = {
        let resolved = SystemZone.resolve(environment: .current)
        if let warning = resolved.warning { writeError("nudge: warning: \(warning)\n") }
        return resolved.zone
    }()
}
