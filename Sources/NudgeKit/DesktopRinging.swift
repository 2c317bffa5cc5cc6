import Foundation
import NudgeStore
import NudgeSync

/// The calendars this desktop already rings, read where it keeps them: GNOME's
/// evolution-data-server sources (`$XDG_CONFIG_HOME/evolution/sources/*.source`). A
/// followed calendar among them is left to the desktop unless the person asked Nudge to
/// ring it too: never two pop-ups for one alarm.
public struct DesktopRinging: Sendable {
    public let calendars: [DesktopCalendars.Calendar]

    public init(calendars: [DesktopCalendars.Calendar]) { self.calendars = calendars }

    /// What the desktop rings, from the sources under `configHome` (the session's
    /// `XDG_CONFIG_HOME`).
    public init(configHome: String) {
        let folder = configHome + "/evolution/sources"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".source") }.sorted()
        calendars = names.compactMap { name in
            // A source is a few hundred bytes; anything much larger is not one.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name),
                  (attributes[.size] as? Int ?? 0) < 1 << 20,
                  let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { return nil }
            return DesktopCalendars.evolutionSource(text)
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
