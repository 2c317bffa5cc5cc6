import Foundation
import Testing
import TestSupport

/// The sync soak's short, fixed-seed run (bench/sync-soak.py): both sides adding, renaming,
/// switching off and deleting, syncs at random moments and offline spells, checked against
/// its model. The full soak (500 runs a server) is `make sync-soak`.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench (make test)"))
struct SyncSoakTests {
    @Test(arguments: ["radicale", "xandikos"])
    func aShortSoakEndsAlikeOnBothSides(_ server: String) throws {
        let script = Bench.packageRoot.appendingPathComponent("bench/sync-soak.py").path
        let run = try Bench.run("/usr/bin/python3", [script, Bench.nudgePath, "--runs", "1", "--steps", "30", "--seed", "53", "--server", server],
                                timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// The runs the 500-run soak found wrong, kept: seed 7051 (a phone's object in Nudge's
    /// calendar, snoozed here, deleted here while renamed there: restored, and the answer
    /// given here sent one sync later; now in the same sync), seed 7360 (such an object
    /// snoozed here, switched off here and renamed there: merged, and the answer sent one
    /// sync later; now with the merge), seed 7432 (such an object switched off here, deleted
    /// here and renamed there: restored on, and written back on, with its alarm; now off).
    @Test(arguments: [("radicale", 7051), ("xandikos", 7051), ("radicale", 7360), ("xandikos", 7360), ("radicale", 7432), ("xandikos", 7432)])
    func theSoaksFindsStayFixed(_ server: String, _ seed: Int) throws {
        let script = Bench.packageRoot.appendingPathComponent("bench/sync-soak.py").path
        let run = try Bench.run("/usr/bin/python3", [script, Bench.nudgePath, "--runs", "1", "--seed", String(seed), "--server", server], timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
}
