import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore

/// `nudge autostart`: start the daemon with the desktop session, or not.
struct Autostart: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the daemon at login (XDG autostart), stop doing so, or say which entry decides.",
        discussion: """
        enable writes $XDG_CONFIG_HOME/autostart/io.github.nudge.Nudge.desktop (or, when a \
        system-wide entry already starts Nudge, removes the personal one so that entry \
        counts). disable removes the personal entry, or, when a system-wide entry exists \
        (the Debian package installs one in /etc/xdg/autostart), writes a personal one \
        with Hidden=true, which hides it. status says which file decides and whether the \
        daemon runs now. The systemd user unit is the other route: \
        systemctl --user enable --now nudge.service.

        Examples:
          nudge autostart enable
          nudge autostart status
          nudge autostart disable
        """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case enable, disable, status
    }

    @Argument(help: "enable, disable or status.")
    var action: Action

    func run() throws {
        let places = AutostartPlaces(environment: ProcessEnvironment.current)
        switch action {
        case .enable:
            let outcome = try places.enable(program: try Self.ownPath())
            print(outcome)
        case .disable:
            print(try places.disable(program: try Self.ownPath()))
        case .status:
            break
        }
        let state = places.state()
        print(state.description)
        if let daemon = DaemonStatus.query() {
            print("daemon: running now (pid \(daemon.pid), version \(daemon.version))")
        } else {
            print("daemon: not running now (start it with `nudge daemon &`, or log in again)")
        }
    }

    /// The absolute path of this program, for Exec= and TryExec=.
    static func ownPath() throws(CLIError) -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") else {
            throw CLIError(.ioError, "cannot tell where this nudge is installed (/proc/self/exe is unreadable)")
        }
        return path
    }
}

/// The XDG autostart folders as the person's session sees them: the personal one first,
/// then the system's (`$XDG_CONFIG_DIRS`, /etc/xdg by default). The first folder holding
/// `io.github.nudge.Nudge.desktop` decides.
struct AutostartPlaces {
    static let fileName = "\(Notification.appID).desktop"

    let personal: String
    let system: [String]

    init(environment: [String: String]) {
        personal = XDGBase.configHome(environment) + "/autostart/" + Self.fileName
        let dirs = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        system = (dirs.isEmpty ? ["/etc/xdg"] : dirs).map { $0 + "/autostart/" + Self.fileName }
    }

    /// What decides, and what it says.
    struct State: CustomStringConvertible {
        /// The file that decides, if any.
        var file: String?
        /// Whether the session will start the daemon.
        var enabled: Bool
        /// Why, in words.
        var reason: String

        var description: String {
            "autostart: \(enabled ? "on" : "off") — \(reason)"
        }
    }

    func state() -> State {
        for (path, isPersonal) in [(personal, true)] + system.map({ ($0, false) }) {
            if let state = Self.evaluate(path, personal: isPersonal) { return state }
        }
        return State(file: nil, enabled: false, reason: "no entry in \((personal as NSString).deletingLastPathComponent) or \(system.map { ($0 as NSString).deletingLastPathComponent }.joined(separator: ", "))")
    }

    /// What one entry says, or `nil` when there is no such file.
    static func evaluate(_ path: String, personal: Bool) -> State? {
        guard let entry = DesktopEntry(path: path) else { return nil }
        let whose = personal ? "your entry" : "the system-wide entry"
        if entry["Hidden"] == "true" {
            return State(file: path, enabled: false, reason: "\(whose) \(path) has Hidden=true")
        }
        if entry["X-GNOME-Autostart-enabled"] == "false" {
            return State(file: path, enabled: false, reason: "\(whose) \(path) has X-GNOME-Autostart-enabled=false")
        }
        if let tryExec = entry["TryExec"], !tryExec.isEmpty, !Self.findsProgram(tryExec) {
            return State(file: path, enabled: false, reason: "\(whose) \(path) names TryExec=\(tryExec), which is not installed")
        }
        return State(file: path, enabled: true, reason: "\(whose) \(path) starts `\(entry["Exec"] ?? "?")`")
    }

    /// The first system entry, if one exists.
    var systemEntry: String? { system.first { DesktopEntry(path: $0) != nil } }

    func enable(program: String) throws(CLIError) -> String {
        if let systemEntry, Self.evaluate(systemEntry, personal: false)?.enabled == true {
            try remove(personal)
            return "enabled: the system-wide entry \(systemEntry) starts the daemon (no personal entry needed)"
        }
        try write(Self.entry(program: program, hidden: false))
        return "enabled: wrote \(personal)"
    }

    func disable(program: String) throws(CLIError) -> String {
        if let systemEntry {
            try write(Self.entry(program: program, hidden: true))
            return "disabled: wrote \(personal) with Hidden=true over the system-wide \(systemEntry)"
        }
        guard FileManager.default.fileExists(atPath: personal) else { return "disabled: there was no entry" }
        try remove(personal)
        return "disabled: removed \(personal)"
    }

    /// The entry: `Exec=PROGRAM daemon`, and `Hidden=true` to hide a system-wide one.
    static func entry(program: String, hidden: Bool) -> String {
        var lines = ["[Desktop Entry]", "Type=Application", "Version=1.4", "Name=Nudge",
                     "Comment=Starts the Nudge reminder daemon with the session",
                     "Exec=\(execArgument(program)) daemon", "TryExec=\(program)", "Icon=\(Notification.appID)",
                     "Terminal=false", "NoDisplay=true", "X-GNOME-Autostart-enabled=\(!hidden)"]
        if hidden { lines.append("Hidden=true") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A path as one Exec= argument: quoted when it has a space, with the characters the
    /// desktop entry spec reserves inside quotes escaped (and the backslash doubled once
    /// more, as the file's string escaping asks).
    static func execArgument(_ path: String) -> String {
        let reserved: Set<Character> = [" ", "\t", "\"", "'", "`", "$", "\\", ">", "<", "~", "|", "&", ";", "*", "?", "#", "(", ")"]
        guard path.contains(where: reserved.contains) else { return path }
        var quoted = "\""
        for character in path {
            switch character {
            case "\"", "`", "$": quoted += "\\\\" + String(character)
            case "\\": quoted += "\\\\\\\\"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }

    private func write(_ text: String) throws(CLIError) {
        let folder = (personal as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: personal), options: .atomic)
        } catch {
            throw CLIError(.ioError, "cannot write \(personal): \((error as NSError).localizedDescription)")
        }
    }

    private func remove(_ path: String) throws(CLIError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw CLIError(.ioError, "cannot remove \(path): \((error as NSError).localizedDescription)")
        }
    }

    /// TryExec: an absolute path that is executable, or a name found on PATH.
    static func findsProgram(_ program: String) -> Bool {
        if program.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: program) }
        let path = ProcessEnvironment.current["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}

/// The `[Desktop Entry]` group of a .desktop file, key by key (no locale variants needed).
struct DesktopEntry {
    private var values: [String: String] = [:]

    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var inGroup = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inGroup = line == "[Desktop Entry]"
                continue
            }
            guard inGroup, !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            if values[key] == nil { values[key] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces) }
        }
    }

    subscript(key: String) -> String? { values[key] }
}
