import DBus
import Foundation

/// Whether the person is away, from the session's own services, each found at run time
/// and followed by its signals (none is polled):
/// - screen lockers: `org.freedesktop.ScreenSaver` (KDE, xfce4-screensaver, and others),
///   `org.gnome.ScreenSaver`, `org.mate.ScreenSaver`: `GetActive`, signal `ActiveChanged(b)`;
/// - do not disturb: dunst's `paused` (`org.dunstproject.cmd0`) and KDE's `Inhibited`
///   (`org.freedesktop.Notifications`), read with `Properties.Get` and followed through
///   `PropertiesChanged`.
/// A service that appears is asked at once; one that goes away no longer counts. With none
/// at all the person is never away.
final class Presence {
    /// One service that can say the person is away.
    struct Source: Sendable, Hashable {
        /// Its bus name.
        var name: String
        /// Its object.
        var path: String
        /// The interface its answer comes from.
        var interface: String
        /// How it answers: `GetActive` and `ActiveChanged`, or a boolean property.
        var property: String?
        /// What it means when it says yes, for the log and `Status`.
        var reason: String
    }

    /// Every source Nudge follows.
    static let sources: [Source] = [
        Source(name: "org.freedesktop.ScreenSaver", path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver",
               reason: "screen locked (org.freedesktop.ScreenSaver)"),
        Source(name: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver",
               reason: "screen locked (org.gnome.ScreenSaver)"),
        Source(name: "org.mate.ScreenSaver", path: "/org/mate/ScreenSaver", interface: "org.mate.ScreenSaver",
               reason: "screen locked (org.mate.ScreenSaver)"),
        Source(name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.dunstproject.cmd0",
               property: "paused", reason: "do not disturb (dunst paused)"),
        Source(name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
               property: "Inhibited", reason: "do not disturb (notifications inhibited)"),
    ]

    private let connection: Connection
    /// What each source says now, by its index in ``sources``; a source not there says nothing.
    private var saying: [Int: Bool] = [:]
    /// Names that appeared or went away since the last ``refresh()``.
    private var changedNames: Set<String> = []
    /// Called when ``away`` or its reason changes.
    var onChange: (() -> Void)?

    init(connection: Connection) throws(BusError) {
        self.connection = connection
        for (index, source) in Self.sources.enumerated() {
            if source.property == nil {
                try connection.subscribe(MatchRule(interface: source.interface, member: "ActiveChanged", path: source.path),
                                         confirmed: false) { [unowned self] message in
                    guard let value = (try? message.arguments())?.first?.bool else { return }
                    set(index, value)
                }
            }
        }
        try connection.subscribe(MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                           path: "/org/freedesktop/Notifications"), confirmed: false) { [unowned self] message in
            guard let args = try? message.arguments(), args.count >= 2, let interface = args[0].string,
                  let changed = args[1].vardict else { return }
            for (index, source) in Self.sources.enumerated() where source.interface == interface {
                if let property = source.property, let value = changed[property] { set(index, value.unwrapped.bool ?? false) }
            }
        }
        for name in Set(Self.sources.map(\.name)) {
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameOwnerChanged", arg0: name)) { [unowned self] _ in
                changedNames.insert(name)
            }
        }
        changedNames = Set(Self.sources.map(\.name))
    }

    /// Whether the person is away: some source says so.
    var away: Bool { saying.values.contains(true) }

    /// Why, in words (the first source that says so); `""` when not away.
    var reason: String {
        saying.filter(\.value).keys.sorted().first.map { Self.sources[$0].reason } ?? ""
    }

    /// The sources there now, by bus name and interface, for `Status`.
    var found: [String] {
        saying.keys.sorted().map { "\(Self.sources[$0].name) \(Self.sources[$0].interface)" }
    }

    /// Whether a name came or went and its sources must be asked again.
    var needsRefresh: Bool { !changedNames.isEmpty }

    /// Asks the sources whose name came or went (all of them the first time), briefly: a
    /// service that does not answer in half a second counts as not there.
    func refresh() {
        let names = changedNames
        changedNames.removeAll()
        let before = (away, reason)
        for (index, source) in Self.sources.enumerated() where names.contains(source.name) {
            saying[index] = ask(source)
        }
        if before != (away, reason) { onChange?() }
    }

    private func ask(_ source: Source) -> Bool? {
        guard (try? connection.nameHasOwner(source.name)) == true else { return nil }
        do {
            if let property = source.property {
                let reply = try connection.call(destination: source.name, path: source.path, interface: "org.freedesktop.DBus.Properties",
                                                member: "Get", arguments: [.string(source.interface), .string(property)],
                                                timeout: .milliseconds(500), autoStart: false)
                return reply.first?.unwrapped.bool
            }
            return try connection.call(destination: source.name, path: source.path, interface: source.interface, member: "GetActive",
                                       timeout: .milliseconds(500), autoStart: false).first?.bool
        } catch {
            // Not this service's interface (dunst has no Inhibited, KDE no paused).
            return nil
        }
    }

    private func set(_ index: Int, _ value: Bool) {
        let before = (away, reason)
        saying[index] = value
        if before != (away, reason) { onChange?() }
    }
}
