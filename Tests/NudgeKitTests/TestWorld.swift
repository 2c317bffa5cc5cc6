import Foundation
import NudgeKit

extension World {
    /// A world of a test's own: its store at `path` (none by default), a fixed clock,
    /// a fixed zone, English, and no session bus (no daemon, no pop-ups).
    static func test(store path: String = "/nonexistent/nudge.sqlite", zone: TimeZone = TimeZone(identifier: "UTC")!, now: Date) -> World {
        World(storePath: path, zone: zone, language: .english, busAddress: nil, clock: { now })
    }

    /// A test's world with a store of its own, in a new folder under the temporary one.
    static func withOwnStore(zone: TimeZone, now: Date) throws -> World {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-kit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return test(store: folder + "/nudge.sqlite", zone: zone, now: now)
    }
}
