import Foundation
import Testing
import TestSupport

/// The one writer of files a person names (`nudge export -o`, `nudge stats --svg`): what
/// it keeps of the file it replaces, where a link sends it, and what it refuses.
@Suite(.onTestThreads)
struct FileOutputTests {
    /// The mode and owner of a path (not following a link).
    func status(_ path: String) -> (mode: mode_t, uid: uid_t, gid: gid_t)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode, info.st_uid, info.st_gid)
    }

    /// This process's umask (which `nudge` inherits), read without changing it.
    var umask: mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
    }

    /// A stdout that cannot be written (a full disk, closed) is said, with 74: `nudge list
    /// --json >/dev/full` exited 0 with nothing written.
    @Test(arguments: ["--version", "list --all --json", "list", "stats", "send --version"])
    func aStdoutThatCannotBeWrittenIsSaid(command: String) throws {
        let home = try Home()
        try home.add("Tea", "--at", "08:00")
        let run = try Bench.run("/bin/sh", ["-c", "exec '\(Bench.nudgePath)' \(command) >/dev/full"], environment: home.environment())
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("nudge: cannot write stdout: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test(arguments: [["export", "-o"], ["stats", "--svg"]])
    func aReplacedFileKeepsItsModeAndOwnerAndANewOneIsPrivate(command: [String]) throws {
        let home = try Home()
        try home.add("Private", "--at", "09:00")
        let file = home.dir + "/out"
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        // As root the owner is kept too (another's file stays another's).
        if getuid() == 0 { chown(file, 1, 2) }
        let replaced = try home.nudge(command + [file])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) != "old")
        let after = try #require(status(file))
        #expect(after.mode & 0o7777 == 0o600, "mode \(String(after.mode & 0o7777, radix: 8))")
        if getuid() == 0 { #expect(after.uid == 1 && after.gid == 2) }
        chmod(file, 0o640)
        #expect(try home.nudge(command + [file]).status == 0)
        #expect(status(file).map { $0.mode & 0o7777 } == 0o640)
        // A new file is its owner's alone (the umask may only narrow it).
        let new = home.dir + "/new"
        #expect(try home.nudge(command + [new]).status == 0)
        #expect(status(new).map { $0.mode & 0o7777 } == 0o600 & ~umask)
        // Nothing is left beside them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.dir).sorted() == ["new", "nudge", "out"])
    }

    @Test func aLinkToNothingKeepsItsPlaceAndItsTargetIsMade() throws {
        let home = try Home()
        try home.add("Linked", "--at", "09:00")
        try FileManager.default.createDirectory(atPath: home.dir + "/sub", withIntermediateDirectories: false)
        // Relative, and through a second link: resolved from the folder holding each link.
        try FileManager.default.createSymbolicLink(atPath: home.dir + "/sub/second.ics", withDestinationPath: "../target.ics")
        try FileManager.default.createSymbolicLink(atPath: home.dir + "/link.ics", withDestinationPath: "sub/second.ics")
        let outcome = try home.nudge("export", "-o", home.dir + "/link.ics")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.dir + "/link.ics") == "sub/second.ics")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.dir + "/sub/second.ics") == "../target.ics")
        #expect(try String(contentsOfFile: home.dir + "/target.ics", encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(status(home.dir + "/target.ics").map { $0.mode & S_IFMT } == S_IFREG)
        // A loop of links is one line, and nothing is made.
        try FileManager.default.createSymbolicLink(atPath: home.dir + "/loop", withDestinationPath: "loop")
        let loop = try home.nudge("export", "-o", home.dir + "/loop")
        #expect(loop.status == 74)
        #expect(loop.stderr == "nudge: cannot write \(home.dir)/loop: Too many levels of symbolic links\n")
    }

    @Test(arguments: [(["export", "-o", "/proc/self/status"], "/proc/self/status", "proc"),
                      (["stats", "--svg", "/proc/self/new.svg"], "/proc/self/new.svg", "proc"),
                      (["export", "-o", "/sys/kernel/nudge.ics"], "/sys/kernel/nudge.ics", "sysfs")])
    func theKernelsFilesAreRefusedInOneTrueLine(arguments: [String], path: String, fileSystem: String) throws {
        let outcome = try Home().nudge(arguments)
        #expect(outcome.status == 74)
        #expect(outcome.stderr == "nudge: cannot write \(path): it is in the kernel's \(fileSystem) file system, not a place to save a file\n")
        #expect(outcome.stdout.isEmpty)
    }

    /// The system's reason comes in the person's language, in UTF-8 (it came as "?? ????").
    @Test func theReasonIsInThePersonsLanguage() throws {
        let outcome = try Home().nudge(["export", "-o", "/no/such/folder/out.ics"], environment: ["LANG": "ko_KR.UTF-8"])
        #expect(outcome.status == 74)
        #expect(outcome.stderr.hasPrefix("nudge: /no/such/folder/out.ics에 쓸 수 없어요: 그 폴더 /no/such/folder에 파일을 만들 수 없어요 ("))
        #expect(!outcome.stderr.contains("?"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    /// Root may write anything: what a person may not write is checked as nobody.
    @Test(.enabled(if: getuid() == 0, "runs nudge as nobody through setpriv: needs root, as make test runs"))
    func aFileOrFolderThePersonMayNotWriteIsRefusedAndKept() throws {
        let home = try Home()
        chmod(home.dir, 0o755)
        let shared = home.dir + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o777)
        // nobody's own store (none yet: an empty calendar) in a folder it owns.
        let data = shared + "/data"
        func asNobody(_ arguments: [String]) throws -> Bench.Outcome {
            try Bench.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Bench.nudgePath] + arguments,
                          environment: home.environment(["XDG_DATA_HOME": data]))
        }
        // Its own file, made read-only: refused as a shell's > refuses it, never replaced.
        let readOnly = shared + "/read-only.ics"
        try "old".write(toFile: readOnly, atomically: false, encoding: .utf8)
        chown(readOnly, 65534, 65534)
        chmod(readOnly, 0o444)
        let refused = try asNobody(["export", "-o", readOnly])
        #expect(refused.status == 74)
        #expect(refused.stderr == "nudge: cannot write \(readOnly): Permission denied\n")
        #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "old")
        // A file it may write in a folder it may not: the new file cannot be made there.
        let file = home.dir + "/writable.ics"
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o666)
        let folder = try asNobody(["export", "-o", file])
        #expect(folder.status == 74)
        #expect(folder.stderr == "nudge: cannot write \(file): no file can be made in its folder \(home.dir) (Permission denied)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "old")
        // And where it may, the file is replaced, its mode kept.
        let own = shared + "/own.ics"
        try "old".write(toFile: own, atomically: false, encoding: .utf8)
        chown(own, 65534, 65534)
        chmod(own, 0o600)
        let written = try asNobody(["export", "-o", own])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: own, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(status(own).map { $0.mode & 0o7777 } == 0o600)
        #expect(status(own).map(\.uid) == 65534)
    }
}
