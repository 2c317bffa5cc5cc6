import Foundation
import Testing
import TestSupport

/// Issue 19: desktop integration as real sessions meet it.
extension AutostartTests {
    static let customised = """
    [Desktop Entry]
    Type=Application
    Name=My reminders
    # started late on purpose
    Exec=@NUDGE@ daemon --verbose
    X-GNOME-Autostart-Delay=30

    [Desktop Action Other]
    Name=Other
    Exec=true

    """

    func systemEntry(_ folders: Folders) throws {
        try FileManager.default.createDirectory(atPath: (folders.system as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let template = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("packaging/autostart/io.github.nudge.Nudge.desktop.in").path,
                                  encoding: .utf8)
        try template.replacingOccurrences(of: "@BINDIR@", with: (Bench.nudgePath as NSString).deletingLastPathComponent)
            .write(toFile: folders.system, atomically: true, encoding: .utf8)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: generator)))
    func aCustomisedEntryIsNeverLost() throws {
        let folders = try Folders()
        try systemEntry(folders)
        try FileManager.default.createDirectory(atPath: (folders.personal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let customised = Self.customised.replacingOccurrences(of: "@NUDGE@", with: Bench.nudgePath)
        try customised.write(toFile: folders.personal, atomically: true, encoding: .utf8)
        let enabled = try folders.nudge("autostart", "enable")
        #expect(enabled.status == 0)
        #expect(enabled.stdout.hasPrefix("enabled: your entry \(folders.personal) already starts Nudge; left as it is"))
        #expect(try String(contentsOfFile: folders.personal, encoding: .utf8) == customised)
        #expect(try generatedStart(folders)?.hasSuffix("\(Bench.nudgePath) daemon --verbose") == true)
        // disable hides it, keeping every key; enable shows it again.
        #expect(try folders.nudge("autostart", "disable").stdout.hasPrefix("disabled: your entry \(folders.personal) now has Hidden=true"))
        let hidden = try String(contentsOfFile: folders.personal, encoding: .utf8)
        #expect(hidden == customised.replacingOccurrences(of: "X-GNOME-Autostart-Delay=30\n", with: "X-GNOME-Autostart-Delay=30\nHidden=true\n"))
        #expect(try generatedStart(folders) == nil)
        #expect(try folders.nudge("autostart", "enable").status == 0)
        let shown = try String(contentsOfFile: folders.personal, encoding: .utf8)
        #expect(shown.contains("Exec=\(Bench.nudgePath) daemon --verbose\n") && shown.contains("X-GNOME-Autostart-Delay=30\n"))
        #expect(shown.contains("# started late on purpose") && shown.contains("[Desktop Action Other]"))
        #expect(!shown.contains("Hidden=true"))
        #expect(try generatedStart(folders)?.hasSuffix("\(Bench.nudgePath) daemon --verbose") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: generator)))
    func statusSaysWhatTheSessionWillDo() throws {
        let folders = try Folders()
        try FileManager.default.createDirectory(atPath: (folders.personal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        func status(_ desktop: String) throws -> String {
            try Bench.nudge(["autostart", "status"], environment: ["XDG_CONFIG_HOME": folders.root + "/config", "XDG_CONFIG_DIRS": folders.root + "/xdg",
                                                                  "XDG_CURRENT_DESKTOP": desktop, "DBUS_SESSION_BUS_ADDRESS": nil,
                                                                  "XDG_RUNTIME_DIR": nil]).stdout
        }
        let base = "[Desktop Entry]\nType=Application\nName=Nudge\nExec=\(Bench.nudgePath) daemon\n"
        // X-GNOME-Autostart-enabled=false: gnome-session skips it, systemd's generator does not.
        try (base + "X-GNOME-Autostart-enabled=false\n").write(toFile: folders.personal, atomically: true, encoding: .utf8)
        #expect(try generatedStart(folders) != nil)
        #expect(try status("KDE").hasPrefix("autostart: on"))
        #expect(try status("KDE").contains("gnome-session does not start it"))
        #expect(try status("GNOME").hasPrefix("autostart: off"))
        // OnlyShowIn: not this desktop.
        try (base + "OnlyShowIn=XFCE;\n").write(toFile: folders.personal, atomically: true, encoding: .utf8)
        #expect(try status("GNOME").hasPrefix("autostart: off — your entry \(folders.personal) is only for XFCE (OnlyShowIn)"))
        #expect(try status("XFCE").hasPrefix("autostart: on"))
        try (base + "NotShowIn=GNOME;KDE;\n").write(toFile: folders.personal, atomically: true, encoding: .utf8)
        #expect(try status("ubuntu:GNOME").hasPrefix("autostart: off"))
        #expect(try status("XFCE").hasPrefix("autostart: on"))
        // Nothing starts it at login: no advice to log in again.
        try FileManager.default.removeItem(atPath: folders.personal)
        #expect(try status("GNOME").contains("nothing starts it at login"))
        #expect(!(try status("GNOME")).contains("log in again"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: generator)))
    func aPercentInThePathIsEscaped() throws {
        let folders = try Folders()
        let folder = folders.root + "/my dir %u $x"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Bench.nudgePath, toPath: folder + "/nudge")
        let enabled = try Bench.run(folder + "/nudge", ["autostart", "enable"],
                                    environment: ["XDG_CONFIG_HOME": folders.root + "/config", "XDG_CONFIG_DIRS": folders.root + "/xdg",
                                                  "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": nil])
        #expect(enabled.status == 0)
        let text = try String(contentsOfFile: folders.personal, encoding: .utf8)
        #expect(text.contains("%%u"))
        #expect(try folders.valid(folders.personal))
        #expect(enabled.stdout.contains("warning: the program's path holds %"))
        // systemd 252's generator keeps %% as it is (and would expand a single % as a
        // specifier, %u becoming the user name): it makes no unit rather than a wrong one.
        #expect(try generatedStart(folders) == nil)
        #expect(try folders.nudge("autostart", "status").stdout.contains("systemd's XDG autostart cannot start a program whose path holds %"))
    }

    @Test func foldersAreMadePrivateAndTheAutostartFolderGoesWhenEmpty() throws {
        let folders = try Folders()
        #expect(try folders.nudge("autostart", "enable").status == 0)
        for folder in [folders.root + "/config", folders.root + "/config/autostart"] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(folder)")
        }
        #expect(try folders.nudge("autostart", "disable").status == 0)
        // The autostart folder goes when empty; the config folder is every program's and stays.
        #expect(!FileManager.default.fileExists(atPath: folders.root + "/config/autostart"))
        #expect(FileManager.default.fileExists(atPath: folders.root + "/config"))
    }
}

/// The unit, the completions and the diagnoses that go with them.
@Suite(.onTestThreads)
struct DesktopIntegrationTests {
    @Test func permanentErrorsAreNeverRestarted() throws {
        let unit = try String(contentsOfFile: Bench.packageRoot.appendingPathComponent("packaging/systemd/nudge.service.in").path, encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") })
        #expect(Set(line.dropFirst("RestartPreventExitStatus=".count).split(separator: " ").map(String.init)) == ["64", "65", "69", "74"])
        #expect(unit.contains("\nRestart=on-failure\n"))
    }

    @Test func optionsWithFixedValuesComplete() throws {
        let bash = try Bench.nudge("--generate-completion-script", "bash").stdout
        #expect(bash.contains("'--urgency')\n        __nudge_add_completions -W 'low'$'\\n''normal'$'\\n''critical'"))
        #expect(bash.contains("'once'$'\\n''skip'"))
        #expect(bash.contains("'log-days'$'\\n''log-rows'"))
    }

    @Test func aStoreThatIsAFolderIsSaidSoEverywhere() throws {
        let home = try Home()
        try FileManager.default.createDirectory(atPath: home.database, withIntermediateDirectories: true)
        let doctor = try home.nudge("doctor")
        #expect(doctor.status == 74)
        #expect(doctor.stdout.contains("Is a directory"))
        #expect(doctor.stdout.contains("the store's path is a folder"))
        #expect(try home.nudge("list").stderr.contains("Is a directory"))
        let daemon = try home.nudge("daemon")
        #expect(daemon.status != 0)
    }
}
