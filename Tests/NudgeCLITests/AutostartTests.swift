import Foundation
import Testing
import TestSupport

/// `nudge autostart` in temporary XDG folders: the personal entry, and a system-wide one
/// hidden with `Hidden=true`.
struct AutostartTests {
    final class Folders {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-autostart-\(UUID())").path
        var personal: String { root + "/config/autostart/io.github.nudge.Nudge.desktop" }
        var system: String { root + "/xdg/autostart/io.github.nudge.Nudge.desktop" }
        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        @discardableResult
        func nudge(_ arguments: String...) throws -> Bench.Outcome {
            try Bench.nudge(arguments, environment: ["XDG_CONFIG_HOME": root + "/config", "XDG_CONFIG_DIRS": root + "/xdg",
                                                    "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": nil])
        }

        func valid(_ path: String) throws -> Bool {
            try Bench.run("/usr/bin/desktop-file-validate", [path]).status == 0
        }
    }

    @Test func enableDisableAndStatusWithoutASystemEntry() throws {
        let folders = try Folders()
        #expect(try folders.nudge("autostart", "status").stdout.hasPrefix("autostart: off — no entry in "))
        let enabled = try folders.nudge("autostart", "enable")
        #expect(enabled.status == 0)
        #expect(enabled.stdout.hasPrefix("enabled: wrote \(folders.personal)\nautostart: on — your entry"))
        let text = try String(contentsOfFile: folders.personal, encoding: .utf8)
        let program = try #require(text.split(separator: "\n").first { $0.hasPrefix("TryExec=") }?.dropFirst(8))
        #expect(program.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: String(program)))
        #expect(text.contains("Exec=\(program) daemon\n") && text.contains("NoDisplay=true\n")
                && text.contains("X-GNOME-Autostart-enabled=true\n") && text.contains("Type=Application\n"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") { #expect(try folders.valid(folders.personal)) }
        #expect(try folders.nudge("autostart", "status").stdout.contains("daemon: not running now"))
        let disabled = try folders.nudge("autostart", "disable")
        #expect(disabled.stdout.hasPrefix("disabled: removed \(folders.personal)\nautostart: off"))
        #expect(!FileManager.default.fileExists(atPath: folders.personal))
    }

    @Test func aSystemEntryIsHiddenByAPersonalOne() throws {
        let folders = try Folders()
        try FileManager.default.createDirectory(atPath: (folders.system as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let template = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("packaging/autostart/io.github.nudge.Nudge.desktop.in").path,
                                  encoding: .utf8)
        try template.replacingOccurrences(of: "@BINDIR@", with: (Bench.nudgePath as NSString).deletingLastPathComponent)
            .write(toFile: folders.system, atomically: true, encoding: .utf8)
        #expect(try folders.nudge("autostart", "status").stdout.hasPrefix("autostart: on — the system-wide entry \(folders.system) starts"))

        let disabled = try folders.nudge("autostart", "disable")
        #expect(disabled.stdout.hasPrefix("disabled: wrote \(folders.personal) with Hidden=true over the system-wide \(folders.system)"))
        #expect(try String(contentsOfFile: folders.personal, encoding: .utf8).contains("\nHidden=true\n"))
        #expect(try folders.nudge("autostart", "status").stdout.hasPrefix("autostart: off — your entry \(folders.personal) has Hidden=true"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") { #expect(try folders.valid(folders.personal)) }

        let enabled = try folders.nudge("autostart", "enable")
        #expect(enabled.stdout.hasPrefix("enabled: the system-wide entry \(folders.system) starts the daemon"))
        #expect(!FileManager.default.fileExists(atPath: folders.personal))
        #expect(try folders.nudge("autostart", "status").stdout.hasPrefix("autostart: on — the system-wide entry"))
    }

    @Test func badActionsAreUsageErrors() throws {
        let folders = try Folders()
        let result = try folders.nudge("autostart", "maybe")
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folders.root + "/config"))
    }

    static let generator = "/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator"

    /// What systemd's XDG autostart generator (the component that starts autostart entries
    /// in systemd-managed sessions) makes of the folders: the ExecStart of Nudge's unit, if any.
    func generatedStart(_ folders: Folders) throws -> String? {
        let out = folders.root + "/generated-\(UUID())"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let run = try Bench.run(Self.generator, [out, out, out],
                                environment: ["XDG_CONFIG_HOME": folders.root + "/config", "XDG_CONFIG_DIRS": folders.root + "/xdg"])
        #expect(run.status == 0, "\(run.stderr)")
        guard let unit = try? String(contentsOfFile: out + "/app-io.github.nudge.Nudge@autostart.service", encoding: .utf8) else { return nil }
        return unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }.map { String($0.dropFirst(10)) }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: generator)))
    func theSessionStartsTheDaemonOrNot() throws {
        let folders = try Folders()
        #expect(try generatedStart(folders) == nil)
        try folders.nudge("autostart", "enable")
        #expect(try generatedStart(folders)?.hasSuffix("/nudge daemon") == true)
        // A system-wide entry, hidden by a personal one with Hidden=true: nothing starts.
        try folders.nudge("autostart", "disable")
        try FileManager.default.createDirectory(atPath: (folders.system as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let template = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("packaging/autostart/io.github.nudge.Nudge.desktop.in").path,
                                  encoding: .utf8)
        try template.replacingOccurrences(of: "@BINDIR@", with: (Bench.nudgePath as NSString).deletingLastPathComponent)
            .write(toFile: folders.system, atomically: true, encoding: .utf8)
        #expect(try generatedStart(folders)?.hasSuffix("/nudge daemon") == true)
        try folders.nudge("autostart", "disable")
        #expect(try generatedStart(folders) == nil)
        try folders.nudge("autostart", "enable")
        #expect(try generatedStart(folders)?.hasSuffix("/nudge daemon") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: generator)))
    func aPathWithASpaceIsQuoted() throws {
        let folders = try Folders()
        let copy = folders.root + "/a folder/nudge"
        try FileManager.default.createDirectory(atPath: folders.root + "/a folder", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Bench.nudgePath, toPath: copy)
        let enabled = try Bench.run(copy, ["autostart", "enable"],
                                    environment: ["XDG_CONFIG_HOME": folders.root + "/config", "XDG_CONFIG_DIRS": folders.root + "/xdg",
                                                  "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": nil])
        #expect(enabled.status == 0)
        #expect(try String(contentsOfFile: folders.personal, encoding: .utf8).contains("Exec=\"\(copy)\" daemon\n"))
        #expect(try folders.valid(folders.personal))
        #expect(try generatedStart(folders) == ":\"\(copy)\" daemon")
    }
}
