import Foundation
import Testing
import TestSupport

/// `nudge autostart` in temporary XDG folders: the personal entry, and a system-wide one
/// hidden with `Hidden=true`.
@Suite(.onTestThreads)
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

        /// Writes the person's entry, these bytes exactly.
        func writePersonal(_ bytes: [UInt8]) throws {
            try FileManager.default.createDirectory(atPath: (personal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: personal))
        }

        func writePersonal(_ text: String) throws { try writePersonal(Array(text.utf8)) }

        /// The person's entry, byte for byte.
        func personalBytes() throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: personal))) }
    }

    /// Debian's Python with GLib (python3-gi), to ask GLib's key file reader, the one
    /// gnome-session loads entries with, what it makes of a file.
    static let python = "/usr/bin/python3"
    static let hasGLib = (try? Bench.run(python, ["-c", "from gi.repository import GLib"]).status == 0) ?? false

    /// What GLib makes of a file: `nil` when it refuses to load it, else its Hidden (false
    /// when missing or not a boolean, as gnome-session reads it).
    static func glibHidden(_ path: String) throws -> Bool? {
        let script = """
        import sys
        from gi.repository import GLib
        k = GLib.KeyFile()
        try: k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
        except Exception: print("refused"); sys.exit()
        try: print(k.get_boolean("Desktop Entry", "Hidden"))
        except Exception: print(False)
        """
        switch try Bench.run(python, ["-c", script, path]).stdout {
        case "True\n": return true
        case "False\n": return false
        default: return nil
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

    /// A minimal entry that starts the built nudge, with more lines after it.
    static func entry(_ more: String = "") -> String {
        "[Desktop Entry]\nType=Application\nName=Nudge\nExec=\(Bench.nudgePath) daemon\n" + more
    }

    func status(_ folders: Folders) throws -> String {
        try folders.nudge("autostart", "status").stdout.split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test func booleansAreReadAsGLibReadsThem() throws {
        let folders = try Folders()
        // 1 is true and 0 false to GLib; anything but true, 1, false and 0 is no boolean.
        for (hidden, off) in [("1", true), ("true", true), ("  true ", true), ("0", false), ("false", false), ("yes", false), ("True", false)] {
            try folders.writePersonal(Self.entry("Hidden=\(hidden)\n"))
            let line = try status(folders)
            #expect(line.hasPrefix(off ? "autostart: off — your entry \(folders.personal) has Hidden=true" : "autostart: on"), "Hidden=\(hidden): \(line)")
            if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == off, "Hidden=\(hidden)") }
        }
        // Hidden=1 is hidden already: disable leaves the file as it is.
        try folders.writePersonal(Self.entry("Hidden=1\n"))
        let disabled = try folders.nudge("autostart", "disable")
        #expect(disabled.stdout.hasPrefix("disabled: your entry \(folders.personal) has Hidden=true already"))
        #expect(try folders.personalBytes() == Array(Self.entry("Hidden=1\n").utf8))
        // enable removes Hidden=1 as it removes Hidden=true.
        let enabled = try folders.nudge("autostart", "enable")
        #expect(enabled.status == 0)
        #expect(!(try String(contentsOfFile: folders.personal, encoding: .utf8)).contains("Hidden"))
        // X-GNOME-Autostart-enabled=0 is false: gnome-session skips the entry. A value GLib
        // cannot read (yes) counts as false too, gnome-session asking for true.
        for value in ["0", "false", "yes"] {
            try folders.writePersonal(Self.entry("X-GNOME-Autostart-enabled=\(value)\n"))
            let gnome = try Bench.nudge(["autostart", "status"], environment: ["XDG_CONFIG_HOME": folders.root + "/config", "XDG_CONFIG_DIRS": folders.root + "/xdg",
                                                                              "XDG_CURRENT_DESKTOP": "GNOME", "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": nil]).stdout
            #expect(gnome.hasPrefix("autostart: off"), "\(value): \(gnome)")
            #expect(gnome.contains("has X-GNOME-Autostart-enabled=\(value): gnome-session does not start it"), "\(gnome)")
        }
        for value in ["1", "true"] {
            try folders.writePersonal(Self.entry("X-GNOME-Autostart-enabled=\(value)\n"))
            #expect(try status(folders) == "autostart: on — your entry \(folders.personal) starts `\(Bench.nudgePath) daemon`")
        }
    }

    @Test func aKeyGivenTwiceHasItsLastValue() throws {
        let folders = try Folders()
        try folders.writePersonal(Self.entry("Hidden=true\nHidden=false\n"))
        #expect(try status(folders).hasPrefix("autostart: on"))
        if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == false) }
        // The group may come in two parts: GLib joins them, the last value still winning.
        let split = Self.entry("Hidden=false\n[Desktop Action Other]\nExec=true\n[Desktop Entry]\nHidden=true\nExec=/bin/true\n")
        try folders.writePersonal(split)
        #expect(try status(folders).hasPrefix("autostart: off — your entry \(folders.personal) has Hidden=true"))
        if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == true) }
        // enable removes every Hidden line, so no earlier one can hide it again.
        #expect(try folders.nudge("autostart", "enable").status == 0)
        let shown = try String(contentsOfFile: folders.personal, encoding: .utf8)
        #expect(!shown.contains("Hidden") && shown.contains("Exec=true\n[Desktop Entry]\n"))
        #expect(try status(folders) == "autostart: on — your entry \(folders.personal) starts `/bin/true`")
    }

    @Test func anEntryThatStartsNothingIsOff() throws {
        let folders = try Folders()
        try systemEntry(folders)
        for (text, why) in [("[Desktop Entry]\nType=Application\nName=Nudge\n", "it has no Exec line"),
                            ("[Desktop Entry]\nType=Application\nExec=\nHidden=false\n", "it has no Exec line"),
                            ("[Desktop Entry]\nType=Link\nURL=https://example.org\nExec=\(Bench.nudgePath) daemon\n", "its Type is Link, not Application"),
                            ("[Desktop Entry]\nExec=\(Bench.nudgePath) daemon\n", "it has no Type=Application line")] {
            try folders.writePersonal(text)
            #expect(try status(folders) == "autostart: off — your entry \(folders.personal) starts nothing: \(why)")
            if FileManager.default.isExecutableFile(atPath: Self.generator) { #expect(try generatedStart(folders) == nil, "\(text)") }
            // enable says what to do, never that the entry already starts Nudge, and leaves it.
            let enabled = try folders.nudge("autostart", "enable")
            #expect(enabled.status == 65)
            #expect(enabled.stderr == "nudge: your entry \(folders.personal) starts nothing (\(why)): add the lines Type=Application and Exec=\(Bench.nudgePath) daemon to its [Desktop Entry] group, or remove the file, then run nudge autostart enable again\n")
            #expect(enabled.stdout.isEmpty)
            #expect(try folders.personalBytes() == Array(text.utf8))
        }
        // disable hides it all the same.
        #expect(try folders.nudge("autostart", "disable").stdout.hasPrefix("disabled: your entry \(folders.personal) now has Hidden=true"))
    }

    @Test func aPersonalEntryThatIsNotUTF8StillDecides() throws {
        let folders = try Folders()
        try systemEntry(folders)
        // Latin-1 in a comment and a name: GLib loads the file, and it hides the system entry.
        let hidden = Array("[Desktop Entry]\n# caf".utf8) + [0xE9] + Array("\nType=Application\nName=Caf".utf8) + [0xE9]
            + Array("\nExec=\(Bench.nudgePath) daemon\nHidden=true\n".utf8)
        try folders.writePersonal(hidden)
        #expect(try status(folders).hasPrefix("autostart: off — your entry \(folders.personal) has Hidden=true"))
        if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == true) }
        #expect(try folders.nudge("autostart", "disable").stdout.hasPrefix("disabled: your entry \(folders.personal) has Hidden=true already"))
        // An edit is refused, the bytes kept: text read with U+FFFD written back would change them.
        let enabled = try folders.nudge("autostart", "enable")
        #expect(enabled.status == 65)
        #expect(enabled.stderr == "nudge: your entry \(folders.personal) is not UTF-8 text (line 2), and Nudge edits only UTF-8: save it as UTF-8 (or remove it), then run this again\n")
        #expect(try folders.personalBytes() == hidden)
        let shown = Array(hidden.dropLast("Hidden=true\n".utf8.count))
        try folders.writePersonal(shown)
        #expect(try status(folders).hasPrefix("autostart: on — your entry \(folders.personal) starts"))
        let disabled = try folders.nudge("autostart", "disable")
        #expect(disabled.status == 65 && disabled.stderr.split(separator: "\n").count == 1 && disabled.stderr.contains("(line 2)"))
        #expect(try folders.personalBytes() == shown)
    }

    @Test func anEntryGLibCannotLoadIsOffAndNeverEdited() throws {
        let folders = try Folders()
        try systemEntry(folders)
        let body = "Type=Application\nName=Nudge\nExec=\(Bench.nudgePath) daemon\n"
        let cases: [(bytes: [UInt8], problem: String)] = [
            (Array("Hidden=false\n[Desktop Entry]\n\(body)".utf8), "line 1 is a key before the first [group]"),
            (Array("[Desktop Entry]\n\(body)remember to edit this\n".utf8), "line 5 is neither a [group] header, a key=value line nor a # comment"),
            ([0xEF, 0xBB, 0xBF] + Array("[Desktop Entry]\n\(body)".utf8), "line 1 starts with a byte order mark (BOM), which GLib does not skip"),
            (Array("[Desktop Entry]\n\(body)X_Delay[!]=30\n".utf8), "line 5 has an invalid key name"),
            (Array("[Desktop Entry]\n\(body)[Desktop\tAction]\n".utf8), "line 5 has an invalid group name"),
            (Array("[Desktop Entry]\nEncoding=Latin-1\n\(body)".utf8), "line 2 sets Encoding to something other than UTF-8"),
            // A CR alone is no line end: GLib reads `[Desktop Entry]` + CR, no group header.
            (Array("[Desktop Entry]\r\r\n\(body)".utf8), "line 1 is neither a [group] header, a key=value line nor a # comment"),
        ]
        for (bytes, problem) in cases {
            try folders.writePersonal(bytes)
            if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == nil, "GLib loads \(problem)") }
            #expect(try status(folders) == "autostart: off — your entry \(folders.personal) cannot be loaded: \(problem) (GLib refuses the whole file, and gnome-session skips it)")
            for action in ["enable", "disable"] {
                let refused = try folders.nudge("autostart", action)
                #expect(refused.status == 65, "\(action) \(problem)")
                #expect(refused.stderr == "nudge: your entry \(folders.personal) cannot be loaded: \(problem); fix that line (or remove the file), then run this again\n")
                #expect(try folders.personalBytes() == bytes)
            }
        }
        // What GLib loads, Nudge reads: a key with a space inside, a locale, blanks around.
        try folders.writePersonal("# mine\n  [Desktop Entry]\t\n\(body)X Note = keep\nName[sr@latin] = Nudž\n\u{0C}Hidden = 1 \n")
        if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == true) }
        #expect(try status(folders).hasPrefix("autostart: off — your entry \(folders.personal) has Hidden=true"))
        #expect(try folders.nudge("autostart", "enable").status == 0)
        if Self.hasGLib { #expect(try Self.glibHidden(folders.personal) == false) }
        #expect(try String(contentsOfFile: folders.personal, encoding: .utf8).contains("X Note = keep\nName[sr@latin] = Nudž\nX-GNOME-Autostart-enabled=true\n"))
    }

    @Test func aLinkedEntryIsEditedThroughTheLink() throws {
        let folders = try Folders()
        // The entry kept with the person's dotfiles, private, linked from the autostart folder.
        let target = folders.root + "/dotfiles/nudge.desktop"
        try FileManager.default.createDirectory(atPath: folders.root + "/dotfiles", withIntermediateDirectories: true)
        try Self.entry().write(toFile: target, atomically: false, encoding: .utf8)
        #expect(chmod(target, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folders.root + "/config/autostart", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folders.personal, withDestinationPath: "../../dotfiles/nudge.desktop")
        func linked() throws -> Bool {
            try FileManager.default.destinationOfSymbolicLink(atPath: folders.personal) == "../../dotfiles/nudge.desktop"
        }
        func mode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int }
        #expect(try folders.nudge("autostart", "disable").stdout.hasPrefix("disabled: your entry \(folders.personal) now has Hidden=true"))
        #expect(try linked())
        #expect(try mode() == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.entry("Hidden=true\n"))
        #expect(try folders.nudge("autostart", "enable").status == 0)
        #expect(try linked())
        #expect(try mode() == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.entry("X-GNOME-Autostart-enabled=true\n"))
        #expect(try status(folders).hasPrefix("autostart: on — your entry \(folders.personal) starts"))
    }
}
