import Foundation
import NudgeStore
import Platform
import NudgeSync

/// The calendars this desktop already rings, read where it keeps them: GNOME's
/// evolution-data-server sources (`$XDG_CONFIG_HOME/evolution/sources/*.source`) and KDE's
/// Akonadi DAV resources (`$XDG_DATA_HOME/akonadi-davgroupware/*_c2u.dat`, for the
/// resources `$XDG_CONFIG_HOME/akonadi/agentsrc` has). A followed calendar among them is
/// left to the desktop unless the person asked Nudge to ring it too: never two pop-ups for
/// one alarm.
public struct DesktopRinging: Sendable {
    public let calendars: [DesktopCalendars.Calendar]

    public init(calendars: [DesktopCalendars.Calendar]) { self.calendars = calendars }

    /// What the desktop rings, from the files of the session's XDG folders.
    public init(environment: Environment) {
        calendars = Self.evolution(configHome: environment.configHome)
            + Self.akonadi(configHome: environment.configHome, dataHome: environment.dataHome, configDirs: environment.configDirs)
    }

    /// A file's text or bytes, when it is a small one (a source is a few hundred bytes, a
    /// map of a thousand calendars a few hundred KB; anything much larger is not one), and a
    /// regular file (a FIFO would be waited on).
    static func small(_ path: String, limit: Int = 1 << 20) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType == .typeRegular,
              (attributes[.size] as? Int ?? 0) < limit else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    static func text(_ path: String) -> String? { small(path).flatMap { String(data: $0, encoding: .utf8) } }

    /// A KConfig boolean: true, on, yes or 1, in any case.
    static func isTrue(_ value: String?) -> Bool { ["true", "on", "yes", "1"].contains(value?.lowercased() ?? "") }

    static func evolution(configHome: String) -> [DesktopCalendars.Calendar] {
        let folder = configHome + "/evolution/sources"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".source") }.sorted()
        return names.compactMap { name in text(folder + "/" + name).flatMap(DesktopCalendars.evolutionSource) }
    }

    /// The DAV resources' CalDAV collections, of the resources Akonadi has (a map left by
    /// one removed counts for nothing). They ring when KDE's reminder daemon starts with
    /// the session: kalendarac's or korgac's autostart entry, not hidden by the person's.
    static func akonadi(configHome: String, dataHome: String, configDirs: [String]) -> [DesktopCalendars.Calendar] {
        let agents = text(configHome + "/akonadi/agentsrc").map(DesktopCalendars.keyFile) ?? [:]
        let resources = agents.keys.compactMap { group -> String? in
            guard group.hasPrefix("Instances]["), case let name = String(group.dropFirst("Instances][".count)),
                  name.hasPrefix("akonadi_davgroupware_resource_") else { return nil }
            return name
        }.sorted()
        guard !resources.isEmpty else { return [] }
        // The person's entry, else the first of the system's (XDG autostart): not hidden, and
        // its KDE condition (`X-KDE-autostart-condition=kalendaracrc:General:Autostart:true`,
        // FILE:GROUP:KEY:DEFAULT) true in the person's configuration.
        let rings = ["org.kde.kalendarac.desktop", "org.kde.korgac.desktop"].contains { name in
            guard let found = ([configHome] + configDirs).lazy.compactMap({ text($0 + "/autostart/" + name) }).first else { return false }
            let entry = DesktopCalendars.keyFile(found)["Desktop Entry"] ?? [:]
            if isTrue(entry["Hidden"]) { return false }
            if let condition = entry["X-KDE-autostart-condition"] {
                let parts = condition.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                if parts.count == 4 {
                    let file = text(configHome + "/" + parts[0]).map(DesktopCalendars.keyFile)
                    return isTrue(file?[parts[1]]?[parts[2]] ?? parts[3])
                }
            }
            return true
        }
        return resources.flatMap { resource in
            small(dataHome + "/akonadi-davgroupware/" + resource + "_c2u.dat", limit: 16 << 20)
                .flatMap { DesktopCalendars.akonadiCollections(Array($0), resource: resource, rings: rings) } ?? []
        }
    }

    /// Who else rings a calendar's alarms, if anyone does.
    public func rings(_ url: String) -> DesktopCalendars.Calendar? {
        calendars.first { $0.ringsAlarms && DesktopCalendars.sameCalendar($0.url, url) }
    }

    /// Whether Nudge leaves a followed calendar to the desktop: it rings it, and the person
    /// did not ask Nudge to ring it too.
    public func leaves(_ calendar: SyncCalendar) -> DesktopCalendars.Calendar? {
        guard calendar.role == .follow, calendar.ringer != .here else { return nil }
        return rings(calendar.url)
    }
}
