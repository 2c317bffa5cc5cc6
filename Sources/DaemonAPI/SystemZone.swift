import Foundation
import NudgeCore
import Platform

/// The system's time zone as every Nudge command and the daemon see it, read the way
/// glibc (and so `date`) reads it: `TZ` when set (a zone name, `:name`, a file path, or a
/// POSIX rule such as `UTC+3` or `CET-1CEST,M3.5.0,M10.5.0/3`), else where
/// `/etc/localtime` points. What cannot be read comes with a warning, never a silent UTC.
public enum SystemZone {
    /// A zone and, when the setting could not be followed exactly, why.
    public struct Resolved: Sendable {
        /// The zone to use.
        public var zone: TimeZone
        /// One line for the person when `TZ` could not be followed exactly.
        public var warning: Phrase?
    }

    /// Reads the zone afresh from the environment and the `localtime` link.
    public static func resolve(environment: Environment, localtime: String = "/etc/localtime") -> Resolved {
        let folder = environment.zoneFolder
        guard let value = environment.timeZone else { return Resolved(zone: system(localtime: localtime, folder: folder)) }
        let utc = TimeZone(identifier: "UTC")!
        func path(_ name: String) -> String { name.hasPrefix("/") ? name : folder + "/" + name }
        let reading = PosixTZ.read(value) { name in
            var isFolder: ObjCBool = false
            // `..` too: glibc refuses it only to setuid programs, which Nudge is not.
            return FileManager.default.fileExists(atPath: path(name), isDirectory: &isFolder) && !isFolder.boolValue
        }
        switch reading {
        case .utc:
            return Resolved(zone: utc)
        case .file(let name):
            if let zone = known(name, folder: folder) ?? known((path(name) as NSString).standardizingPath, folder: folder) { return Resolved(zone: zone) }
            // A zone file is tens of kilobytes; the rule is its last line.
            let bytes = readRegularFile(path(name), limit: 16 << 20) ?? []
            if let footer = PosixTZ.footer(ofZoneFile: bytes), let rule = PosixTZ.parseRule(footer) {
                return zone(for: rule, value: value, folder: folder)
            }
            if bytes.starts(with: Array("TZif".utf8)) {
                // TRANSLATORS: %s is TZ's value; its zone file's last line (the rule for the years after its table) cannot be read.
                return Resolved(zone: utc, warning: Phrase("TZ=%s names a zone file whose rule Nudge cannot read; using UTC (the C library follows the file's table)", value.quotedForMessage()))
            }
            // Not a zone file: glibc reads the name as a rule then (TZ=EST5 with a junk EST5 file).
            if let rule = PosixTZ.parseRule(name) { return zone(for: rule, value: value, folder: folder) }
            return Resolved(zone: utc, warning: Phrase("TZ=%s is not a zone file this system can read; using UTC, as the C library does", value.quotedForMessage()))
        case .rule(let rule):
            return zone(for: rule, value: value, folder: folder)
        case nil:
            return Resolved(zone: utc, warning: Phrase("TZ=%s is neither a time zone name nor a POSIX TZ rule; using UTC, as the C library does", value.quotedForMessage()))
        }
    }

    /// A zone file's name as Foundation knows it: the part after `zoneinfo/` for a path.
    private static func known(_ name: String, folder: String) -> TimeZone? {
        var identifier = name
        if name.hasPrefix("/") {
            if name.hasPrefix(folder + "/") {
                identifier = String(name.dropFirst(folder.count + 1))
            } else if let range = name.range(of: "/zoneinfo/") {
                identifier = String(name[range.upperBound...])
            } else {
                return nil
            }
        }
        // ICU also takes GMT+3-style names (with the opposite sign): only real zone files count.
        guard !PosixTZ.isAmbiguousOffsetName(identifier) else { return nil }
        return TimeZone(identifier: identifier)
    }

    /// A POSIX rule as a zone: a fixed offset, or the installed zone that follows the same
    /// daylight-saving rule (a TZif file's footer is its rule for the years after its table).
    private static func zone(for rule: PosixTZ.Rule, value: String, folder: String) -> Resolved {
        // Foundation keeps offsets of up to 18 hours; glibc takes up to 24.
        guard let standard = TimeZone(secondsFromGMT: rule.standardOffset) else {
            // TRANSLATORS: %1$s is TZ's value, %2$s its offset (+19:00).
            return Resolved(zone: TimeZone(identifier: "UTC")!, warning: Phrase("TZ=%1$s: an offset of %2$s, more than the 18 hours Nudge can keep; using UTC",
                                                                                  value.quotedForMessage(), InstantFormat.offset(rule.standardOffset)))
        }
        guard rule.daylight != nil else { return Resolved(zone: standard) }
        if let match = zoneFollowing(rule.text, folder: folder) { return Resolved(zone: match) }
        return Resolved(zone: standard, warning: Phrase("TZ=%1$s: no installed zone follows this daylight-saving rule; using its standard time (%2$s) all year",
                                                             value.quotedForMessage(), InstantFormat.offset(rule.standardOffset)))
    }

    /// The installed zone whose rule is `rule`: the one named like it (`EST5EDT`, `CET`)
    /// when there is one, else the first by name.
    private static func zoneFollowing(_ rule: String, folder: String) -> TimeZone? {
        guard let names = FileManager.default.enumerator(atPath: folder) else { return nil }
        var matches: [String] = []
        for case let name as String in names {
            if name.hasPrefix("posix") || name.hasPrefix("right") || name.hasSuffix(".tab") || name.contains(".") { continue }
            guard let bytes = readRegularFile(folder + "/" + name, limit: 16 << 20),
                  PosixTZ.footer(ofZoneFile: bytes) == rule, TimeZone(identifier: name) != nil else { continue }
            matches.append(name)
        }
        let standard = PosixTZ.parseRule(rule)?.standardName
        let best = matches.first { rule.hasPrefix($0) || $0 == standard } ?? matches.min()
        return best.flatMap(TimeZone.init(identifier:))
    }

    /// Where `/etc/localtime` points, else `/etc/timezone`, else UTC.
    private static func system(localtime: String, folder: String) -> TimeZone {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
           let range = target.range(of: "zoneinfo/"),
           let zone = TimeZone(identifier: String(target[range.upperBound...])) {
            return zone
        }
        if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8),
           let zone = TimeZone(identifier: name.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return zone
        }
        return TimeZone(identifier: "UTC")!
    }
}
