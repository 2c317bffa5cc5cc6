import DaemonAPI
import Foundation
import Platform
import Localization
import NudgeCore

/// The system's zone for this command, read once the way the daemon and glibc read it
/// (``SystemZone``); a `TZ` that cannot be followed exactly is said once on stderr.
public enum LocalZone {
    /// Resolved on first use, and the warning written then; the same for the whole process.
    public static let current: TimeZone = {
        let resolved = SystemZone.resolve(environment: .current)
        // TRANSLATORS: before a warning; %s is what is wrong.
        if let warning = resolved.warning { writeError("nudge: " + format(tr("warning: %s"), warning.text(Catalog.shared.language)) + "\n") }
        return resolved.zone
    }()
}
