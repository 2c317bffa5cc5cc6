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

    /// KDE keeps its calendars in Akonadi. A CalDAV account there is an instance of
    /// kdepim-runtime's DAV groupware resource (`akonadi_davgroupware_resource_N`), which
    /// keeps its collections' addresses in `$XDG_DATA_HOME/akonadi-davgroupware/N_c2u.dat`:
    /// Qt's QDataStream of a `QMap<QString, QString>` from each collection's address to the
    /// address configured and its protocol (`https://host/dav/,CalDav`). Each CalDAV one is a
    /// calendar KDE's reminder daemon rings when `rings` (kalendarac, korgac before it, rings
    /// every calendar in Akonadi); `nil` when the bytes are not such a map.
    public static func akonadiCollections(_ bytes: [UInt8], resource: String, rings: Bool) -> [Calendar]? {
        var reader = QDataStreamReader(bytes: bytes)
        guard let count = reader.uint32(), count <= 100_000 else { return nil }
        var calendars: [Calendar] = []
        for _ in 0..<count {
            guard let collection = reader.string(), let configured = reader.string() else { return nil }
            guard let collection, let configured, configured.hasSuffix(",CalDav") else { continue }
            calendars.append(Calendar(url: key(collection), name: collection, ringsAlarms: rings, desktop: "KDE (Akonadi)"))
        }
        return reader.atEnd ? calendars : nil
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
        // A user named in the address (Akonadi's may carry one) is not part of the collection's.
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        if name == "https", authority.hasSuffix(":443") { authority.removeLast(4) }
        if name == "http", authority.hasSuffix(":80") { authority.removeLast(3) }
        var path = String(rest[slash...])
        if !path.hasSuffix("/") { path += "/" }
        return name + "://" + authority + path
    }

    /// A GLib key file: `[Group]` lines and `key=value` lines; comments (`#`) and blank lines
    /// skipped; a localized key (`Name[ko]`) kept under its whole name. Values are unescaped
    /// as GLib writes them (`\s`, `\n`, `\t`, `\r`, `\\`).
    public static func keyFile(_ text: String) -> [String: [String: String]] {
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

/// Reads what Qt's QDataStream writes (its default byte order, big-endian): 32-bit
/// counts, and QStrings as a 32-bit byte length (all ones for a null string) and UTF-16.
struct QDataStreamReader {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func uint32() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        defer { index += 4 }
        return bytes[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A QString: `.some(nil)` for a null one, `nil` when the bytes are not one.
    mutating func string() -> String?? {
        guard let length = uint32() else { return nil }
        if length == 0xFFFF_FFFF { return .some(nil) }
        guard length % 2 == 0, Int(length) <= bytes.count - index else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(Int(length) / 2)
        for offset in stride(from: index, to: index + Int(length), by: 2) { units.append(UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])) }
        index += Int(length)
        return .some(String(decoding: units, as: UTF16.self))
    }
}
