import DBus
import Foundation
import NudgeCore
import Platform
import Localization

/// The XDG autostart folders as the person's session sees them: the personal one first,
/// then the system's (`$XDG_CONFIG_DIRS`, /etc/xdg by default). The first folder holding
/// `io.github.nudge.Nudge.desktop` decides.
public struct AutostartPlaces {
    /// The entry's name in every autostart folder: `io.github.nudge.Nudge.desktop`.
    public static let fileName = "\(Notification.appID).desktop"

    /// The person's entry (`$XDG_CONFIG_HOME/autostart/…`): the only one Nudge writes or
    /// removes.
    public let personal: String
    /// The system-wide entries, one per `$XDG_CONFIG_DIRS` folder, in the order they count;
    /// read, never written.
    public let system: [String]
    /// The session's desktops (`XDG_CURRENT_DESKTOP`), for OnlyShowIn and NotShowIn.
    public let desktops: [String]
    private let configHome: String
    /// The language its messages are in.
    private let language: Language

    /// The places for the session `environment` describes; no file is read until asked.
    /// Messages are in `language` (a world's; the process's by default).
    public init(environment: Environment, language: Language = Catalog.shared.language) {
        self.language = language
        configHome = environment.configHome
        personal = configHome + "/autostart/" + Self.fileName
        system = environment.configDirs.map { $0 + "/autostart/" + Self.fileName }
        desktops = environment.currentDesktops
    }

    /// What decides, and what it says.
    public struct State: CustomStringConvertible {
        /// The file that decides, if any.
        public var file: String?
        /// Whether this session will start the daemon.
        public var enabled: Bool
        /// Why, in words.
        public var reason: Phrase

        /// The status line, in the person's language.
        public var description: String {
            let language = Catalog.shared.language
            // TRANSLATORS: nudge autostart status: on or off, and why (%s).
            return (enabled ? Phrase("autostart: on — %s", reason) : Phrase("autostart: off — %s", reason)).text(language)
        }
    }

    /// What decides now, read from the files at each call: the first entry that exists, the
    /// person's before the system's; off, saying where it looked, when there is none.
    public func state() -> State {
        for (path, isPersonal) in [(personal, true)] + system.map({ ($0, false) }) {
            if let state = evaluate(path, personal: isPersonal) { return state }
        }
        // TRANSLATORS: autostart: %1$s is the person's autostart folder, %2$s the system-wide ones.
        return State(file: nil, enabled: false, reason: Phrase("no entry in %1$s or %2$s", (personal as NSString).deletingLastPathComponent,
                                                               system.map { ($0 as NSString).deletingLastPathComponent }.joined(separator: ", ")))
    }

    /// What this session does with one entry, or `nil` when there is no such file. Every
    /// session manager honours Hidden, TryExec, OnlyShowIn and NotShowIn;
    /// X-GNOME-Autostart-enabled=false stops gnome-session, while systemd's XDG autostart
    /// generator (KDE Plasma and other systemd-managed sessions) starts the entry anyway.
    /// Keys are read as GLib reads them (gnome-session loads entries with it): the last of
    /// a key given twice, booleans `true`/`1` and `false`/`0`.
    func evaluate(_ path: String, personal: Bool) -> State? {
        guard let entry = DesktopEntry(path: path) else { return nil }
        // TRANSLATORS: autostart: which entry decides; %s is its path.
        let whose = personal ? Phrase("your entry %s", path) : Phrase("the system-wide entry %s", path)
        // TRANSLATORS: autostart: the running session; %s names its desktops (GNOME, KDE).
        let session = desktops.isEmpty ? Phrase("this session") : Phrase("this session (%s)", desktops.joined(separator: ":"))
        if let problem = entry.problem {
            // TRANSLATORS: autostart: %1$s is the entry, %2$s the line GLib refuses and why.
            return State(file: path, enabled: false, reason: Phrase("%1$s cannot be loaded: %2$s (GLib refuses the whole file, and gnome-session skips it)", whose, problem))
        }
        // A Hidden GLib does not read as a boolean is no Hidden to gnome-session.
        if entry.bool("Hidden") == true {
            // TRANSLATORS: autostart: %s is "your entry PATH" or "the system-wide entry PATH".
            return State(file: path, enabled: false, reason: Phrase("%s has Hidden=true", whose))
        }
        if let nothing = Self.startsNothing(entry) {
            // TRANSLATORS: autostart: %1$s is the entry, %2$s what it lacks ("it has no Exec line").
            return State(file: path, enabled: false, reason: Phrase("%1$s starts nothing: %2$s", whose, nothing))
        }
        if let only = entry["OnlyShowIn"].map(Self.list), !only.isEmpty, !only.contains(where: desktops.contains) {
            // TRANSLATORS: autostart: %1$s is the entry, %2$s the desktops it is for, %3$s this session.
            return State(file: path, enabled: false, reason: Phrase("%1$s is only for %2$s (OnlyShowIn), not %3$s", whose, only.joined(separator: ", "), session))
        }
        if let not = entry["NotShowIn"].map(Self.list), let hit = not.first(where: desktops.contains) {
            // TRANSLATORS: autostart: %1$s is the entry, %2$s a desktop it excludes, %3$s this session.
            return State(file: path, enabled: false, reason: Phrase("%1$s is not for %2$s (NotShowIn), which %3$s is", whose, hit, session))
        }
        if let tryExec = entry["TryExec"], !tryExec.isEmpty, !Self.findsProgram(tryExec) {
            // TRANSLATORS: autostart: %1$s is the entry, %2$s the program it needs.
            return State(file: path, enabled: false, reason: Phrase("%1$s names TryExec=%2$s, which is not installed", whose, tryExec))
        }
        let exec = entry["Exec"] ?? ""
        let percent = entry["TryExec"]?.contains("%") == true || exec.contains("%%")
        // TRANSLATORS: autostart: %1$s is the entry, %2$s the command it runs.
        let starts = percent
            ? Phrase("%1$s starts `%2$s` (systemd's XDG autostart cannot start a program whose path holds %%: in systemd-managed sessions use a path without it, or the systemd unit)",
                     whose, exec)
            : Phrase("%1$s starts `%2$s`", whose, exec)
        // gnome-session skips an entry that has the key and whose value GLib does not read as
        // true (`yes` included: GLib's error counts as false).
        if let enabled = entry["X-GNOME-Autostart-enabled"], entry.bool("X-GNOME-Autostart-enabled") != true {
            let gnome = desktops.contains("GNOME")
            // TRANSLATORS: autostart: %1$s is what the entry starts, %2$s this session, %3$s the key's value (false).
            let reason = gnome
                ? Phrase("%1$s, but has X-GNOME-Autostart-enabled=%3$s: gnome-session does not start it, systemd's XDG autostart (KDE Plasma and other sessions) does; %2$s does not", starts, session, enabled)
                : Phrase("%1$s, but has X-GNOME-Autostart-enabled=%3$s: gnome-session does not start it, systemd's XDG autostart (KDE Plasma and other sessions) does; %2$s does", starts, session, enabled)
            return State(file: path, enabled: !gnome, reason: reason)
        }
        return State(file: path, enabled: true, reason: starts)
    }

    /// Why an entry starts no program in any session, if it does not: gnome-session (GLib)
    /// and systemd's XDG autostart generator both want Type=Application and an Exec line
    /// that is not empty.
    static func startsNothing(_ entry: DesktopEntry) -> Phrase? {
        guard let type = entry["Type"] else {
            // TRANSLATORS: autostart: why an entry starts nothing.
            return Phrase("it has no Type=Application line")
        }
        // TRANSLATORS: autostart: why an entry starts nothing; %s is its Type (Link, Directory).
        if type != "Application" { return Phrase("its Type is %s, not Application", type) }
        // TRANSLATORS: autostart: why an entry starts nothing.
        if entry["Exec"]?.isEmpty ?? true { return Phrase("it has no Exec line") }
        return nil
    }

    /// `A;B;` as `[A, B]`.
    static func list(_ value: String) -> [String] { value.split(separator: ";").map(String.init).filter { !$0.isEmpty } }

    /// The first system entry, if one exists.
    var systemEntry: String? { system.first { DesktopEntry(path: $0) != nil } }

    /// Whether the personal entry is one Nudge wrote and nobody changed since.
    func personalIsOurs() -> Bool {
        guard let bytes = DesktopEntry.bytes(personal) else { return false }
        let text = String(decoding: bytes, as: UTF8.self), entry = DesktopEntry(text: text)
        guard let program = entry["TryExec"] else { return false }
        return text == Self.entry(program: program, hidden: entry.bool("Hidden") == true)
    }

    /// The person's own entry, refused (exit 65, the file left as it is) when GLib cannot
    /// load it: an edit of ours would keep the line that breaks it, and a session that
    /// skips the file would still not do what was asked.
    private func personalEntry() throws(OperationError) -> DesktopEntry {
        guard let entry = DesktopEntry(path: personal) else {
            // TRANSLATORS: %s is a file's path.
            throw OperationError(.ioError, format(tr("cannot read %s"), personal))
        }
        if let problem = entry.problem {
            // TRANSLATORS: nudge autostart enable/disable; %1$s is the person's entry, %2$s the line GLib refuses and why.
            throw OperationError(.dataError, Phrase("your entry %1$s cannot be loaded: %2$s; fix that line (or remove the file), then run this again", personal, problem)
                .text(language))
        }
        return entry
    }

    /// Has sessions start `program daemon` at login, changing as little as it can: the
    /// person's own entry is edited (its other keys kept), a system-wide one that starts it
    /// is left to do so, else Nudge's entry is written. Returns the line that says which; a
    /// person's entry that cannot be loaded or starts nothing is refused (exit 65) and left
    /// as it is.
    public func enable(program: String) throws(OperationError) -> String {
        try enabling(program: program).text(language)
    }

    private func enabling(program: String) throws(OperationError) -> Phrase {
        if FileManager.default.fileExists(atPath: personal), !personalIsOurs() {
            // The person's own entry: never removed or replaced.
            let entry = try personalEntry()
            if let nothing = Self.startsNothing(entry) {
                // Showing it again would start nothing either: the person decides what it runs.
                // TRANSLATORS: nudge autostart enable; %1$s is the person's entry, %2$s why it starts nothing, %3$s the program.
                throw OperationError(.dataError, Phrase("your entry %1$s starts nothing (%2$s): add the lines Type=Application and Exec=%3$s daemon to its [Desktop Entry] group, or remove the file, then run nudge autostart enable again",
                                                        personal, nothing, Self.execArgument(program)).text(language))
            }
            if evaluate(personal, personal: true)?.enabled == true {
                // TRANSLATORS: nudge autostart enable; %s is the person's entry.
                return Phrase("enabled: your entry %s already starts Nudge; left as it is", personal)
            }
            try write(try edited(["Hidden": nil, "X-GNOME-Autostart-enabled": "true"]))
            return Phrase("enabled: your entry %s no longer hides Nudge (Hidden and X-GNOME-Autostart-enabled changed, your other keys kept)", personal)
        }
        if let systemEntry, evaluate(systemEntry, personal: false)?.enabled == true {
            try remove(personal)
            return Phrase("enabled: the system-wide entry %s starts the daemon (no personal entry needed)", systemEntry)
        }
        try write(Self.entry(program: program, hidden: false))
        return program.contains("%")
            ? Phrase("enabled: wrote %s\nwarning: the program's path holds %%, written %%%% as the desktop entry spec asks; systemd's XDG autostart generator cannot start such a path (gnome-session can): install Nudge where the path has no %%, or use the systemd unit", personal)
            : Phrase("enabled: wrote %s", personal)
    }

    /// Stops sessions starting the daemon at login: the person's own entry gets Hidden=true
    /// (its other keys kept), a system-wide one is hidden by a personal entry naming
    /// `program`, and Nudge's own entry is removed. Returns the line that says which; a
    /// person's entry that cannot be loaded is refused (exit 65) and left as it is.
    public func disable(program: String) throws(OperationError) -> String {
        try disabling(program: program).text(language)
    }

    private func disabling(program: String) throws(OperationError) -> Phrase {
        if FileManager.default.fileExists(atPath: personal), !personalIsOurs() {
            // TRANSLATORS: nudge autostart disable; %s is the person's entry.
            if try personalEntry().bool("Hidden") == true { return Phrase("disabled: your entry %s has Hidden=true already", personal) }
            try write(try edited(["Hidden": "true"]))
            return Phrase("disabled: your entry %s now has Hidden=true (your other keys kept)", personal)
        }
        if let systemEntry {
            try write(Self.entry(program: program, hidden: true))
            return Phrase("disabled: wrote %1$s with Hidden=true over the system-wide %2$s", personal, systemEntry)
        }
        guard FileManager.default.fileExists(atPath: personal) else { return Phrase("disabled: there was no entry") }
        try remove(personal)
        try removeEmptyFolders()
        return Phrase("disabled: removed %s", personal)
    }

    /// The personal entry with keys of its `[Desktop Entry]` group set (or, with `nil`,
    /// removed), every other line as it was. A file that is not UTF-8 is refused (exit 65,
    /// left as it is): its text holds U+FFFD where those bytes were, and writing it back
    /// would change them.
    private func edited(_ changes: [String: String?]) throws(OperationError) -> String {
        guard let bytes = DesktopEntry.bytes(personal) else {
            // TRANSLATORS: %s is a file's path.
            throw OperationError(.ioError, format(tr("cannot read %s"), personal))
        }
        if let line = Self.firstNonUTF8Line(bytes) {
            // TRANSLATORS: nudge autostart enable/disable; %1$s is the person's entry, %2$d a line number.
            throw OperationError(.dataError, Phrase("your entry %1$s is not UTF-8 text (line %2$d), and Nudge edits only UTF-8: save it as UTF-8 (or remove it), then run this again",
                                                    personal, line).text(language))
        }
        return Self.edited(String(decoding: bytes, as: UTF8.self), changes)
    }

    /// The number of the first line holding bytes that are not UTF-8, if any.
    static func firstNonUTF8Line(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator(), parser = Unicode.UTF8.ForwardParser(), line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): if scalar.first == UInt8(ascii: "\n") { line += 1 }
            case .error: return line
            case .emptyInput: return nil
            }
        }
    }

    /// An entry's text with keys of its `[Desktop Entry]` group set (or, with `nil`,
    /// removed), every other line as it was: read again, the group has the changed keys'
    /// new values and every other key's old one.
    public static func edited(_ text: String, _ changes: [String: String?]) -> String {
        let lines = DesktopEntry.lines(text)
        // Lines written anew end as the file's first line does.
        let newline = lines.first.map { $0.end == "\r\n" ? "\r\n" : "\n" } ?? "\n"
        var inGroup = false, groupEnd: Int?, seen: Set<String> = []
        var result: [String] = []
        for line in lines {
            // A last line without a LF gets one; a CR ending it is part of the line (GLib's
            // too), and stays so before a CR LF: `[Group]` + CR would become a group header.
            let end = !line.end.isEmpty ? line.end : line.text.unicodeScalars.last == "\r" ? "\r\n" : newline
            // Lines sorted as the reader sorts them, so a key is changed where it is read.
            switch DesktopEntry.classify(line.text.unicodeScalars) {
            case .group(let name, _):
                if inGroup { groupEnd = result.count }
                inGroup = name.elementsEqual("Desktop Entry".unicodeScalars)
            case .entry(let key, _, true) where inGroup:
                // Every line of a changed key: GLib reads the last one, a person may read the first.
                let key = String(key)
                if let change = changes[key] {
                    seen.insert(key)
                    if let value = change { result.append("\(key)=\(value)" + end) }
                    continue
                }
            default:
                break
            }
            result.append(line.text + end)
        }
        if inGroup { groupEnd = result.count }
        let missing = changes.sorted(by: { $0.key < $1.key }).compactMap { key, value in
            seen.contains(key) ? nil : value.map { "\(key)=\($0)" + newline }
        }
        guard !missing.isEmpty else { return result.joined() }
        guard var insert = groupEnd else {
            // No group at all: one of its own at the end, after a blank line.
            let blank = result.last.map { DesktopEntry.trimmed($0.dropLast()).isEmpty } ?? true ? "" : newline
            return result.joined() + blank + "[Desktop Entry]" + newline + missing.joined()
        }
        // Keys not there yet go at the end of the group (after its last non-blank line).
        while insert > 0, DesktopEntry.trimmed(result[insert - 1].dropLast()).isEmpty { insert -= 1 }
        result.insert(contentsOf: missing, at: insert)
        return result.joined()
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

    /// Writes the personal entry, making missing folders 0700 as the XDG spec asks. An entry
    /// that is a symbolic link (to a folder of dotfiles) stays one: its target is replaced,
    /// with the mode it had (a new entry is 0600).
    private func write(_ text: String) throws(OperationError) {
        let folder = (personal as NSString).deletingLastPathComponent
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
            missing.insert(path, at: 0)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing where mkdir(path, 0o700) != 0 && errno != EEXIST {
            // TRANSLATORS: %1$s is a folder's path, %2$s why (the system's words).
            throw OperationError(.ioError, format(tr("cannot create %1$s: %2$s"), path, String(cString: strerror(errno))))
        }
        // Replaced whole, through a symbolic link to its target, keeping the file's mode.
        do {
            try writeFile(personal) { fd throws(SystemError) in try writeAll(fd, Array(text.utf8)) }
        } catch {
            throw OperationError(writing: personal, error)
        }
    }

    /// After the personal entry goes: its folder, when empty. The config folder itself is
    /// every program's, and stays even when empty.
    private func removeEmptyFolders() throws(OperationError) {
        let folder = (personal as NSString).deletingLastPathComponent
        guard (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true else { return }
        rmdir(folder)
    }

    private func remove(_ path: String) throws(OperationError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            // TRANSLATORS: %1$s is a file's path, %2$s why.
            throw OperationError(.ioError, format(tr("cannot remove %1$s: %2$s"), path, (error as NSError).localizedDescription))
        }
    }

    /// TryExec: an absolute path that is executable, or a name found on PATH.
    static func findsProgram(_ program: String) -> Bool {
        if program.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: program) }
        return Environment.current.searchPath.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
