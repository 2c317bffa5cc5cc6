import Foundation
import Testing
import TestSupport

/// Issue 10's store defects, end to end with the built binary.
@Suite(.onTestThreads)
struct StoreSafetyTests {
    /// A store with enough alerts for several b-tree pages, its WAL folded in.
    func filledHome(_ count: Int = 60) throws -> Home {
        let home = try Home()
        _ = try home.add("First", "--at", "09:00")
        let values = (0..<count).map { "(lower(hex(randomblob(16))), 'Filler \($0) ' || hex(randomblob(40)), '', 'at 32400 127', 1, NULL, 1, '', NULL, 43200, 600, 0, 'reminder', NULL, NULL, NULL)" }
        let insert = try Bench.run("sqlite3", [home.database, "INSERT INTO alert VALUES " + values.joined(separator: ",") + "; PRAGMA wal_checkpoint(TRUNCATE);"])
        try #require(insert.status == 0, "\(insert.stderr)")
        return home
    }

    /// Overwrites one page of the file with garbage, as a failing disk or a stray write would.
    func damage(_ path: String, page: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(page * 4096))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
        try handle.close()
    }

    @Test func aDamagedStoreIsNeverWrittenAndCanBeRestored() throws {
        let home = try filledHome()
        // The daemon's start is where the last good copy comes from; here, a migration-free
        // way to get one: doctor --restore needs it, so make it the way the daemon does.
        let daemonless = try home.nudge("doctor")
        #expect(daemonless.stdout.contains("quick_check ok"))
        try FileManager.default.copyItem(atPath: home.database, toPath: home.database + ".last-good")
        try damage(home.database, page: 3)
        let before = try home.digest()
        // Nobody has looked yet: doctor finds it, says how to recover, and marks it.
        let doctor = try home.nudge("doctor")
        #expect(doctor.status == 74)
        #expect(doctor.stdout.contains("is damaged"))
        #expect(doctor.stdout.contains("fix: nudge doctor --restore"))
        #expect(FileManager.default.fileExists(atPath: home.database + ".damaged"))
        // From then on every writer refuses, and the file stays as it is.
        for arguments in [["add", "x", "--at", "10:00"], ["off", "ffff"], ["config", "log-days", "5"]] {
            let outcome = try home.nudge(arguments)
            #expect(outcome.status == 74, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("run `nudge doctor`"), "\(arguments): \(outcome.stderr)")
        }
        #expect(try home.digest() == before)
        // The one command doctor named puts the last good copy back.
        let restored = try home.nudge("doctor", "--restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("the old file is kept as"))
        #expect(!FileManager.default.fileExists(atPath: home.database + ".damaged"))
        #expect(try home.nudge("add", "After", "--at", "10:00").status == 0)
        #expect(try home.list().count == 62)
        #expect(try home.nudge("doctor", "--restore").status == 64)
    }

    /// A good copy copied over the damaged file by hand keeps its inode, which the marker
    /// names: the writers still refuse (the marker stands until the file is looked at again),
    /// and doctor, finding it whole in full, says so, takes the marker away and the store is
    /// written again. Found by a hostile pass: before, doctor went on calling it damaged and
    /// offered to set the good file aside.
    @Test func aGoodCopyPutInPlaceByHandIsWrittenAgainOnceDoctorFindsItWhole() throws {
        let home = try filledHome()
        let good = home.database + ".by-hand"
        try FileManager.default.copyItem(atPath: home.database, toPath: good)
        try damage(home.database, page: 3)
        #expect(try home.nudge("doctor").status == 74)
        #expect(FileManager.default.fileExists(atPath: home.database + ".damaged"))
        let inode = try FileManager.default.attributesOfItem(atPath: home.database)[.systemFileNumber] as? UInt64
        #expect(try Bench.run("/bin/cp", [good, home.database]).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: home.database)[.systemFileNumber] as? UInt64 == inode)
        #expect(try home.nudge("add", "Refused", "--at", "10:00").status == 74)
        let doctor = try home.nudge("doctor")
        #expect(doctor.stdout.contains("is whole now (put right in its place): Nudge writes to it again"), "\(doctor.stdout)")
        #expect(!FileManager.default.fileExists(atPath: home.database + ".damaged"))
        #expect(try home.nudge("add", "After", "--at", "10:00").status == 0)
        #expect(try home.nudge("doctor").stdout.contains("quick_check ok"))
        #expect(try home.list().count == 62)
    }

    @Test func aCorruptionMetByAnyCommandStopsTheWriters() throws {
        let home = try filledHome(400)
        // Page 2: the root of the alert table, which every listing reads.
        try damage(home.database, page: 1)
        // list reads every row: it meets the damage, says so, and marks it.
        let list = try home.nudge("list")
        #expect(list.status == 74, "\(list.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.database + ".damaged"))
        let before = try home.digest()
        #expect(try home.nudge("add", "x", "--at", "10:00").status == 74)
        #expect(try home.digest() == before)
    }

    @Test func aNewerStoreIsReadButNeverWritten() throws {
        for change in ["INSERT INTO grdb_migrations VALUES ('v99: from the future')", "PRAGMA user_version = 7"] {
            let home = try Home()
            _ = try home.add("Kept", "--at", "09:00")
            #expect(try Bench.run("sqlite3", [home.database, change]).status == 0)
            let before = try home.digest()
            let add = try home.nudge("add", "x", "--at", "10:00")
            #expect(add.status == 74)
            #expect(add.stderr.contains("was written by a newer Nudge"), "\(add.stderr)")
            #expect(add.stderr.split(separator: "\n").count == 1)
            #expect(try home.nudge("list").status == 0)
            #expect(try home.list().count == 1)
            #expect(try home.digest() == before)
        }
    }

    @Test func oneUnreadableRowHidesNothingElse() throws {
        let home = try Home()
        _ = try home.add("Good", "--at", "09:00")
        let bad = try home.add("Bad", "--at", "10:00")
        #expect(try Bench.run("sqlite3", [home.database, "UPDATE alert SET schedule = 'weekly sometimes' WHERE title = 'Bad'"]).status == 0)
        let list = try home.nudge("list")
        #expect(list.status == 65)
        #expect(list.stdout.contains("Good"))
        #expect(list.stderr.contains("alert \(bad) has a schedule this Nudge cannot read"))
        #expect(list.stderr.contains("nudge rm \(bad)"))
        let doctor = try home.nudge("doctor")
        #expect(doctor.stdout.contains("1 of them unreadable"))
        // A new schedule mends it.
        #expect(try home.nudge("edit", bad, "--at", "11:00").status == 0)
        #expect(try home.nudge("list").status == 0)
        // And a row can always be removed.
        #expect(try Bench.run("sqlite3", [home.database, "UPDATE alert SET schedule = 'x' WHERE title = 'Bad'"]).status == 0)
        #expect(try home.nudge("rm", bad).status == 0)
        #expect(try home.nudge("list").status == 0)
    }

    @Test(.enabled(if: getuid() != 0 || Self.canMount,
                   "as root only a read-only bind mount makes the store's folder unwritable, and this process may not mount"))
    func aStoreTheUserCannotWriteCanBeRead() throws {
        guard getuid() != 0 else {
            // root can write anything: read-only opening is checked through the mode SQLite sees.
            let home = try Home()
            _ = try home.add("Kept", "--at", "09:00")
            let folder = (home.database as NSString).deletingLastPathComponent
            // A read-only bind of the folder is what makes it unwritable even for root.
            let mount = try Bench.run("/bin/mount", ["--bind", "-o", "ro", folder, folder])
            try #require(mount.status == 0, "mount --bind: \(mount.stderr)")
            defer { _ = try? Bench.run("/bin/umount", [folder]) }
            let remount = try Bench.run("/bin/mount", ["-o", "remount,ro,bind", folder])
            try #require(remount.status == 0, "mount -o remount,ro,bind: \(remount.stderr)")
            try #require(access(folder, W_OK) != 0 && errno == EROFS, "the folder is still writable after the read-only bind")
            let list = try home.nudge("list")
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("Kept"))
            let add = try home.nudge("add", "x", "--at", "10:00")
            #expect(add.status == 74)
            return
        }
        let home = try Home()
        _ = try home.add("Kept", "--at", "09:00")
        chmod(home.database, 0o400)
        let list = try home.nudge("list")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Kept"))
    }

    @Test func theLogKeepsToItsRetentionAndNoOpAnswersAreNotLogged() throws {
        let home = try Home()
        let id = try home.add("Tea", "--at", "09:00")
        #expect(try home.nudge("ack", id).status == 0)
        #expect(try home.log().isEmpty)
        #expect(try home.nudge("config", "log-rows", "100").status == 0)
        #expect(try home.nudge("config", "log-rows").stdout == "100\n")
        #expect(try home.nudge("config", "log-rows", "5").status == 64)
        #expect(try home.nudge("config", "nonsense", "5").status == 64)
        let maybe = try home.nudge("config", "complete-tasks", "maybe")
        #expect(maybe.status == 64 && maybe.stderr == "nudge: invalid complete-tasks 'maybe': give on or off\n", "\(maybe.stderr)")
        #expect(try home.nudge("config", "complete-tasks", "yes").status == 0)
        #expect(try home.nudge("config", "complete-tasks").stdout == "on\n")
        for _ in 0..<60 {
            #expect(try home.nudge("snooze", id, "10m").status == 0)
            #expect(try home.nudge("ack", id).status == 0)
        }
        #expect(try home.log().count == 100)
    }
}

extension StoreSafetyTests {
    /// Whether this process may mount (root with the right to, as `make test` runs): found
    /// once by mounting a tiny tmpfs. Tests that need a mount are skipped, saying why, where
    /// it may not; where it may, a mount that fails fails the test.
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-mount-probe-\(UUID())").path
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard (try? Bench.run("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", folder]))?.status == 0 else { return false }
        _ = try? Bench.run("/bin/umount", [folder])
        return true
    }()

    @Test(.enabled(if: Self.canMount, "mounts a small tmpfs: needs root that may mount, as make test runs"))
    func aFullDiskIsSaidAndReadingStillWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-full-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mount = try Bench.run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", folder])
        try #require(mount.status == 0, "mount -t tmpfs: \(mount.stderr)")
        defer { _ = try? Bench.run("/bin/umount", ["-l", folder]) }
        let environment: [String: String?] = ["XDG_DATA_HOME": folder]
        let home = try Home()
        #expect(try home.nudge(["add", "Kept", "--at", "09:00"], environment: environment).status == 0)
        _ = try Bench.run("/bin/dd", ["if=/dev/zero", "of=\(folder)/filler", "bs=4k"])
        let store = folder + "/nudge"
        let before = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        let add = try home.nudge(["add", "More", "--at", "10:00"], environment: environment)
        #expect(add.status == 74)
        #expect(add.stderr == "nudge: disk full: cannot write \(store)/nudge.sqlite\n")
        let list = try home.nudge(["list"], environment: environment)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Kept"))
        let doctor = try home.nudge(["doctor"], environment: environment)
        #expect(doctor.stdout.contains("quick_check ok"), "\(doctor.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == before)
    }
}
