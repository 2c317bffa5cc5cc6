/// The calendars the desktop itself rings, so that Nudge never rings an alarm a second
/// time. Pure: the text of each source in, the calendars out.
///
/// GNOME keeps every calendar it shows (Online Accounts', GNOME Calendar's, Evolution's) as
/// an evolution-data-server source: a key file in `~/.config/evolution/sources/`, written by
/// its source registry. One whose `[Calendar]` or `[Task List]` backend is `caldav`,
/// enabled, with `[Alarms] IncludeMe` not off, is rung by evolution-alarm-notify (and by
/// GNOME Shell, which shows the same alarms). Its address is `[Security] Method` (`tls`:
/// https), `[Authentication] Host` and `Port`, and `[WebDAV Backend] ResourcePath`.
public enum DesktopCalendars {
    /// A calendar the desktop has, and whether it rings its alarms.
    public struct Calendar: Sendable, Equatable {
        /// Its collection's address, as Nudge writes one (``CalDAVRequest/canonical(_:)``).
        public var url: String
        public var name: String
        public var ringsAlarms: Bool
        /// Who rings it: `GNOME (evolution-data-server)`.
        public var desktop: String
    }

    /// The CalDAV calendar an evolution-data-server source is, if it is one.
    public static func evolutionSource(_ text: String) -> Calendar? {
        let file = keyFile(text)
        guard let backend = file["Calendar"]?["BackendName"] ?? file["Task List"]?["BackendName"], backend == "caldav",
              let host = file["Authentication"]?["Host"], !host.isEmpty,
              let path = file["WebDAV Backend"]?["ResourcePath"], !path.isEmpty else { return nil }
        let tls = file["Security"]?["Method"] == "tls"
        let port = file["Authentication"]?["Port"].flatMap { Int($0) }
        let defaultPort = tls ? 443 : 80
        let portText = port.map { $0 == 0 || $0 == defaultPort ? "" : ":\($0)" } ?? ""
        let url = (tls ? "https" : "http") + "://" + host + portText + (path.hasPrefix("/") ? path : "/" + path)
        let enabled = file["Data Source"]?["Enabled"].map { $0 != "false" } ?? true
        let includeMe = file["Alarms"]?["IncludeMe"].map { $0 != "false" } ?? true
        return Calendar(url: key(url),
                        name: file["Data Source"]?["DisplayName"] ?? path,
                        ringsAlarms: enabled && includeMe, desktop: "GNOME (evolution-data-server)")
    }

    /// Whether two addresses name one collection: scheme and host in any case, a default
    /// port or none, the path with or without its last slash and percent-encoding.
    public static func sameCalendar(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

    static func key(_ url: String) -> String {
        let canonical = CalDAVRequest.canonical(url)
        guard let scheme = canonical.range(of: "://") else { return canonical }
        let rest = canonical[scheme.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let name = canonical[..<scheme.lowerBound].lowercased()
        var authority = rest[..<slash].lowercased()
        if name == "https", authority.hasSuffix(":443") { authority.removeLast(4) }
        if name == "http", authority.hasSuffix(":80") { authority.removeLast(3) }
        var path = String(rest[slash...])
        if !path.hasSuffix("/") { path += "/" }
        return name + "://" + authority + path
    }

    /// A GLib key file: `[Group]` lines and `key=value` lines; comments (`#`) and blank lines
    /// skipped; a localized key (`Name[ko]`) kept under its whole name. Values are unescaped
    /// as GLib writes them (`\s`, `\n`, `\t`, `\r`, `\\`).
    static func keyFile(_ text: String) -> [String: [String: String]] {
        var groups: [String: [String: String]] = [:]
        var group: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard let group, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingSpaces
            let value = unescape(String(line[line.index(after: equals)...].drop { $0 == " " }))
            if groups[group]?[key] == nil { groups[group, default: [:]][key] = value }
        }
        return groups
    }

    static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = "", escaped = false
        for character in value {
            if escaped {
                switch character {
                case "s": result.append(" ")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
