import Foundation
import Testing
import TestSupport

/// Calendar sync against the servers Debian 13 ships (Radicale 3.5, Xandikos 0.2.10), with
/// its python3-caldav as the phone and its gnome-keyring: inside a copy of the Debian 13 root
/// (scripts/desktop-root), by Tests/bench/sync/current-servers.sh, with nudge and nudge-sync
/// as built here (nudge-sync loads the root's libcurl and libxml2).
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/mmdebstrap"), "needs root and mmdebstrap"))
struct SyncCurrentServersTests {
    @Test func debian13sRadicaleAndXandikosSyncAsDebian12s() throws {
        let files = FileManager.default
        let work = NSTemporaryDirectory() + "nudge-current-servers-\(getpid())"
        try? files.removeItem(atPath: work)
        try files.createDirectory(atPath: work + "/bin", withIntermediateDirectories: true)
        defer { try? files.removeItem(atPath: work) }
        let root = Bench.packageRoot
        let built = (Bench.nudgePath as NSString).deletingLastPathComponent
        for (from, name) in [(Bench.nudgePath, "bin/nudge"), (built + "/nudge-sync", "bin/nudge-sync"),
                             (root.appendingPathComponent("Tests/bench/sync/current-servers.sh").path, "current-servers.sh")] {
            try files.copyItem(atPath: from, toPath: work + "/" + name)
        }
        let rootScript = root.appendingPathComponent("scripts/desktop-root").path
        let made = try Bench.run(rootScript, ["build", "trixie"], timeout: 1200)
        try #require(made.status == 0, "desktop-root build trixie: \(made.stderr.suffix(2000))")
        let outcome = try Bench.run(rootScript, ["run", "trixie", "--bind", work, "--", "/bin/bash", work + "/current-servers.sh", work], timeout: 300)
        var values: [String: String] = [:]
        for pair in outcome.stdout.split(whereSeparator: { $0 == "\n" || $0 == " " }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        print("Debian 13's servers: radicale \(values["radicale"] ?? "?"), xandikos \(values["xandikos"] ?? "?"), python3-caldav \(values["caldav"] ?? "?")")
        #expect(values["radicale"]?.hasPrefix("3.") == true && values["xandikos"] != "none", "\(outcome.stdout)\(outcome.stderr)")
        #expect(values["done"] == "ok", "\(outcome.stdout)\(outcome.stderr)")
        for kind in ["radicale", "xandikos"] {
            for step in ["add", "meeting", "sent", "renamed", "acknowledged", "deleted", "quiet"] {
                #expect(values["\(kind).\(step)"] == "ok", "\(kind) \(step): \(values["\(kind).\(step)"] ?? "not reached") — \(outcome.stdout)")
            }
        }
    }
}
