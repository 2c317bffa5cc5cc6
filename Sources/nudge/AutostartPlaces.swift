import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import Platform

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
