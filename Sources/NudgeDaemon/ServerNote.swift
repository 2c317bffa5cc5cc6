import Foundation
import Platform

/// Which notification server the pop-up ids in the store belong to: that server's unique
/// bus name, kept in `$XDG_RUNTIME_DIR/nudge/notification-server`, which goes with the
/// login session. A daemon that starts adopts the pop-ups an earlier run left only when the
/// same server is there: another one (restarted, or a new login's) may have given those
/// ids to other apps' pop-ups, which Nudge must not replace or close.
enum ServerNote {
    /// The note's path, where there is a runtime folder.
    static func path(_ environment: Environment) -> String? {
        environment["XDG_RUNTIME_DIR"].map { $0 + "/nudge/notification-server" }
    }

    /// The server last noted, if any.
    static func read(_ environment: Environment) -> String? {
        guard let path = path(environment), let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// Notes the server there now (best effort: without it, the next run adopts nothing).
    static func write(_ name: String, _ environment: Environment) {
        guard let path = path(environment) else { return }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? (name + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
