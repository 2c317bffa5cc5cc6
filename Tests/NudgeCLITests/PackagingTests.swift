import Foundation
import Testing
import TestSupport

/// What ships beside the binary.
@Suite(.onTestThreads)
struct PackagingTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate")))
    func theDesktopEntryIsValid() throws {
        let entry = Bench.packageRoot.appendingPathComponent("packaging/io.github.nudge.Nudge.desktop").path
        let result = try Bench.run("/usr/bin/desktop-file-validate", [entry])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test func theIconExistsInBothSizes() throws {
        let icons = Bench.packageRoot.appendingPathComponent("packaging/icons")
        let svg = try String(contentsOf: icons.appendingPathComponent("io.github.nudge.Nudge.svg"), encoding: .utf8)
        #expect(svg.contains("<svg"))
        let png = try Data(contentsOf: icons.appendingPathComponent("io.github.nudge.Nudge-48.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // Width and height live in the IHDR chunk, big-endian, at bytes 16–23.
        #expect(png[16..<24] == Data([0, 0, 0, 48, 0, 0, 0, 48]))
    }

    @Test func helpAndVersionGoToStdout() throws {
        let help = try Bench.nudge("send", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("--expire-time") && help.stdout.contains("Examples:"))
        let version = try Bench.nudge("--version")
        #expect(version.status == 0 && version.stdout == "0.1.0\n")
    }

    /// A command that is not there is named, with --help too (it printed the root's help and
    /// exited 0, as if it were there).
    @Test func anUnknownCommandIsNamedAndUsage() throws {
        for (arguments, word) in [(["sink", "--help"], "sink"), (["sink"], "sink"), (["lsit", "-h"], "lsit"), (["help", "sink"], "sink"),
                                  (["--help", "sink"], "sink"), (["-h", "bogus"], "bogus")] {
            let result = try Bench.nudge(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "nudge: unknown command '\(word)': see 'nudge --help' for the commands\n")
        }
        #expect(try Bench.nudge("help", "add").status == 0)
        // sync's commands the same (nudge-sync reads them), and an option nobody knows.
        for arguments in [["sync", "bogus", "--help"], ["sync", "bogus"], ["help", "sync", "bogus"]] {
            let result = try Bench.nudge(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "nudge: unknown command 'bogus': see 'nudge sync --help' for the commands\n", "\(arguments)")
        }
        for arguments in [["--bogus", "--help"], ["sync", "--bogus", "--help"]] {
            let result = try Bench.nudge(arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.contains("'--bogus'") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(try Bench.nudge("sync", "--help").status == 0)
    }
}
