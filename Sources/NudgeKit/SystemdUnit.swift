import DBus
import Foundation
import NudgeCore
import NudgeStore
import Platform

/// The systemd user unit: where it is installed and whether it is enabled, read from the
/// unit folders (no systemctl needed, so it works where no user manager runs).
public struct SystemdUnit {
    /// The unit's file name, the same in every unit folder.
    public static let name = "nudge.service"
    /// The unit file found first in systemd's user search path.
    public let path: String?
    /// Whether a `.wants` link starts it with the session.
    public let enabled: Bool

    /// Looks in the user unit folders now: for the unit file, and for the `.wants` links
    /// that enable it.
    public init(environment: Environment) {
        let configDirs = [environment.configHome + "/systemd/user", "/etc/systemd/user"]
        let dirs = configDirs + [environment.dataHome + "/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
        path = dirs.map { $0 + "/" + Self.name }.first { FileManager.default.fileExists(atPath: $0) }
        enabled = configDirs.contains { dir in
            ["graphical-session.target.wants", "default.target.wants"].contains {
                FileManager.default.fileExists(atPath: "\(dir)/\($0)/\(Self.name)")
            }
        }
    }

    /// The unit's line in `nudge doctor`: always `ok` (autostart is the other way to start
    /// the daemon), with how to switch to the unit when it is installed and not enabled.
    public var check: Checkup.Check {
        guard let path else {
            return Checkup.Check(name: Phrase("systemd unit"), level: .ok, detail: Phrase("%s not installed (autostart is the other route)", Self.name))
        }
        if enabled { return Checkup.Check(name: Phrase("systemd unit"), level: .ok, detail: Phrase("%s, enabled", path)) }
        return Checkup.Check(name: Phrase("systemd unit"), level: .ok, detail: Phrase("%s, not enabled", path),
                            fix: Phrase("to start the daemon through systemd instead of autostart: systemctl --user enable --now nudge.service && nudge autostart disable"))
    }
}
