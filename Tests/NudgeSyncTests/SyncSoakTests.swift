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
    /// given here sent one sync later; now in the same sync).
    @Test(arguments: ["radicale", "xandikos"])
    func theSoaksFindsStayFixed(_ server: String) throws {
        let script = Bench.packageRoot.appendingPathComponent("bench/sync-soak.py").path
        let run = try Bench.run("/usr/bin/python3", [script, Bench.nudgePath, "--runs", "1", "--seed", "7051", "--server", server], timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
}
