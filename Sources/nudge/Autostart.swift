import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import Platform

/// `nudge autostart`: start the daemon with the desktop session, or not.
struct Autostart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autostart",
        abstract: "Start the daemon at login (XDG autostart), stop doing so, or say which entry decides.",
        discussion: """
        enable writes $XDG_CONFIG_HOME/autostart/io.github.nudge.Nudge.desktop (or, when a \
        system-wide entry already starts Nudge, removes the personal one Nudge wrote so \
        that entry counts). disable removes the personal entry Nudge wrote, or, when a \
        system-wide entry exists (the Debian package installs one in /etc/xdg/autostart), \
        writes a personal one with Hidden=true, which hides it. A personal entry you \
        edited is never removed or replaced: enable leaves one that starts Nudge alone, \
        and either command changes only Hidden and X-GNOME-Autostart-enabled in it, \
        keeping your keys. status says what your session will do (Hidden, OnlyShowIn and \
        NotShowIn against XDG_CURRENT_DESKTOP, TryExec, and where gnome-session and \
        systemd's XDG autostart disagree), and whether the daemon runs now. The systemd \
        user unit is the other route: systemctl --user enable --now nudge.service.

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
        let environment = Environment.current
        let places = AutostartPlaces(environment: environment)
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
        let unit = SystemdUnit(environment: environment)
        if unit.enabled, let path = unit.path { print("systemd unit: \(path) is enabled, and starts the daemon with the graphical session") }
        if let daemon = DaemonStatus.query() {
            print("daemon: running now (pid \(daemon.pid), version \(daemon.version))")
        } else if state.enabled || unit.enabled {
            print("daemon: not running now (start it with `nudge daemon &`, or log in again)")
        } else {
            print("daemon: not running now, and nothing starts it at login (start it with `nudge daemon &`)")
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
    /// The session's desktops (`XDG_CURRENT_DESKTOP`), for OnlyShowIn and NotShowIn.
    let desktops: [String]
    private let configHome: String

    init(environment: Environment) {
        configHome = environment.configHome
        personal = configHome + "/autostart/" + Self.fileName
        system = environment.configDirs.map { $0 + "/autostart/" + Self.fileName }
        desktops = environment.currentDesktops
    }

    /// What decides, and what it says.
    struct State: CustomStringConvertible {
        /// The file that decides, if any.
        var file: String?
        /// Whether this session will start the daemon.
        var enabled: Bool
        /// Why, in words.
        var reason: String

        var description: String {
            "autostart: \(enabled ? "on" : "off") — \(reason)"
        }
    }

    func state() -> State {
        for (path, isPersonal) in [(personal, true)] + system.map({ ($0, false) }) {
            if let state = evaluate(path, personal: isPersonal) { return state }
        }
        return State(file: nil, enabled: false, reason: "no entry in \((personal as NSString).deletingLastPathComponent) or \(system.map { ($0 as NSString).deletingLastPathComponent }.joined(separator: ", "))")
    }

    /// What this session does with one entry, or `nil` when there is no such file. Every
    /// session manager honours Hidden, TryExec, OnlyShowIn and NotShowIn;
    /// X-GNOME-Autostart-enabled=false stops gnome-session, while systemd's XDG autostart
    /// generator (KDE Plasma and other systemd-managed sessions) starts the entry anyway.
    func evaluate(_ path: String, personal: Bool) -> State? {
        guard let entry = DesktopEntry(path: path) else { return nil }
        let whose = personal ? "your entry" : "the system-wide entry"
        let session = desktops.isEmpty ? "this session" : "this session (\(desktops.joined(separator: ":")))"
        if entry["Hidden"] == "true" {
            return State(file: path, enabled: false, reason: "\(whose) \(path) has Hidden=true")
        }
        if let only = entry["OnlyShowIn"].map(Self.list), !only.isEmpty, !only.contains(where: desktops.contains) {
            return State(file: path, enabled: false, reason: "\(whose) \(path) is only for \(only.joined(separator: ", ")) (OnlyShowIn), not \(session)")
        }
        if let not = entry["NotShowIn"].map(Self.list), let hit = not.first(where: desktops.contains) {
            return State(file: path, enabled: false, reason: "\(whose) \(path) is not for \(hit) (NotShowIn), which \(session) is")
        }
        if let tryExec = entry["TryExec"], !tryExec.isEmpty, !Self.findsProgram(tryExec) {
            return State(file: path, enabled: false, reason: "\(whose) \(path) names TryExec=\(tryExec), which is not installed")
        }
        var starts = "\(whose) \(path) starts `\(entry["Exec"] ?? "?")`"
        if entry["TryExec"]?.contains("%") == true || entry["Exec"]?.contains("%%") == true {
            starts += " (systemd's XDG autostart cannot start a program whose path holds %: in systemd-managed sessions use a path without it, or the systemd unit)"
        }
        if entry["X-GNOME-Autostart-enabled"] == "false" {
            let gnome = desktops.contains("GNOME")
            return State(file: path, enabled: !gnome,
                         reason: "\(starts), but has X-GNOME-Autostart-enabled=false: gnome-session does not start it, "
                             + "systemd's XDG autostart (KDE Plasma and other sessions) does; \(session) \(gnome ? "does not" : "does")")
        }
        return State(file: path, enabled: true, reason: starts)
    }

    /// `A;B;` as `[A, B]`.
    static func list(_ value: String) -> [String] { value.split(separator: ";").map(String.init).filter { !$0.isEmpty } }

    /// The first system entry, if one exists.
    var systemEntry: String? { system.first { DesktopEntry(path: $0) != nil } }

    /// Whether the personal entry is one Nudge wrote and nobody changed since.
    func personalIsOurs() -> Bool {
        guard let text = try? String(contentsOfFile: personal, encoding: .utf8), let entry = DesktopEntry(path: personal),
              let program = entry["TryExec"] else { return false }
        return text == Self.entry(program: program, hidden: entry["Hidden"] == "true")
    }

    func enable(program: String) throws(CLIError) -> String {
        if FileManager.default.fileExists(atPath: personal), !personalIsOurs() {
            // The person's own entry: never removed or replaced.
            if evaluate(personal, personal: true)?.enabled == true {
                return "enabled: your entry \(personal) already starts Nudge; left as it is"
            }
            try write(try edited(["Hidden": nil, "X-GNOME-Autostart-enabled": "true"]))
            return "enabled: your entry \(personal) no longer hides Nudge (Hidden and X-GNOME-Autostart-enabled changed, your other keys kept)"
        }
        if let systemEntry, evaluate(systemEntry, personal: false)?.enabled == true {
            try remove(personal)
            return "enabled: the system-wide entry \(systemEntry) starts the daemon (no personal entry needed)"
        }
        try write(Self.entry(program: program, hidden: false))
        return "enabled: wrote \(personal)"
            + (program.contains("%") ? "\nwarning: the program's path holds %, written %% as the desktop entry spec asks; systemd's XDG autostart generator cannot start such a path (gnome-session can): install Nudge where the path has no %, or use the systemd unit" : "")
    }

    func disable(program: String) throws(CLIError) -> String {
        if FileManager.default.fileExists(atPath: personal), !personalIsOurs() {
            if DesktopEntry(path: personal)?["Hidden"] == "true" { return "disabled: your entry \(personal) has Hidden=true already" }
            try write(try edited(["Hidden": "true"]))
            return "disabled: your entry \(personal) now has Hidden=true (your other keys kept)"
        }
        if let systemEntry {
            try write(Self.entry(program: program, hidden: true))
            return "disabled: wrote \(personal) with Hidden=true over the system-wide \(systemEntry)"
        }
        guard FileManager.default.fileExists(atPath: personal) else { return "disabled: there was no entry" }
        try remove(personal)
        try removeEmptyFolders()
        return "disabled: removed \(personal)"
    }

    /// The personal entry with keys of its `[Desktop Entry]` group set (or, with `nil`,
    /// removed), every other line as it was.
    private func edited(_ changes: [String: String?]) throws(CLIError) -> String {
        guard let text = try? String(contentsOfFile: personal, encoding: .utf8) else {
            throw CLIError(.ioError, "cannot read \(personal)")
        }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var inGroup = false, groupEnd: Int?, seen: Set<String> = []
        var result: [String] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                if inGroup { groupEnd = result.count }
                inGroup = trimmed == "[Desktop Entry]"
                result.append(line)
                continue
            }
            if inGroup, let eq = trimmed.firstIndex(of: "="), case let key = trimmed[..<eq].trimmingCharacters(in: .whitespaces),
               let change = changes[key] {
                seen.insert(key)
                if let value = change { result.append("\(key)=\(value)") }
                continue
            }
            result.append(line)
        }
        if inGroup { groupEnd = result.count }
        // Keys not there yet go at the end of the group (after its last non-blank line).
        var insert = groupEnd ?? result.count
        while insert > 0, result[insert - 1].trimmingCharacters(in: .whitespaces).isEmpty { insert -= 1 }
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) where !seen.contains(key) {
            guard let value else { continue }
            result.insert("\(key)=\(value)", at: insert)
            insert += 1
        }
        return result.joined(separator: "\n") + "\n"
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
        // A literal % is %% (field codes like %u start with one), quoted or not.
        guard path.contains(where: reserved.contains) else { return path.replacingOccurrences(of: "%", with: "%%") }
        var quoted = "\""
        for character in path {
            switch character {
            case "%": quoted += "%%"
            case "\"", "`", "$": quoted += "\\\\" + String(character)
            case "\\": quoted += "\\\\\\\\"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }

    /// Writes the personal entry, making missing folders 0700 as the XDG spec asks.
    private func write(_ text: String) throws(CLIError) {
        let folder = (personal as NSString).deletingLastPathComponent
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
            missing.insert(path, at: 0)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw CLIError(.ioError, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: personal), options: .atomic)
        } catch {
            throw CLIError(.ioError, "cannot write \(personal): \((error as NSError).localizedDescription)")
        }
    }

    /// After the personal entry goes: its folder, and the config folder, when empty.
    private func removeEmptyFolders() throws(CLIError) {
        for folder in [(personal as NSString).deletingLastPathComponent, configHome] {
            guard (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true else { return }
            rmdir(folder)
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
        return Environment.current.searchPath.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
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
