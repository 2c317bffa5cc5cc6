import DBus
import Foundation

/// Whether the person is away, from the session's own services, each found at run time
/// and followed by its signals (none is polled):
/// - screen lockers: `org.freedesktop.ScreenSaver` (KDE, xfce4-screensaver, and others),
///   `org.gnome.ScreenSaver`, `org.mate.ScreenSaver`: `GetActive`, signal `ActiveChanged(b)`;
/// - do not disturb: dunst's `paused` (`org.dunstproject.cmd0`) and KDE's `Inhibited`
///   (`org.freedesktop.Notifications`), read with `Properties.Get` and followed through
///   `PropertiesChanged`;
/// - idle: GNOME's `org.gnome.Mutter.IdleMonitor`, which pushes both edges: an idle watch
///   at the threshold (`AddIdleWatch`, fires each time the idle time reaches it) and a
///   one-shot user-active watch added once idle (`AddUserActiveWatch`), both through
///   `WatchFired(u)`.
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

    /// GNOME's idle monitor.
    static let idleMonitor = (name: "org.gnome.Mutter.IdleMonitor", path: "/org/gnome/Mutter/IdleMonitor/Core",
                              interface: "org.gnome.Mutter.IdleMonitor")

    private let connection: Connection
    /// What each source says now, by its index in ``sources``; a source not there says nothing.
    private var saying: [Int: Bool] = [:]
    /// Whether the person is idle, by the idle monitor; `nil` without one.
    private var idle: Bool?
    /// The idle monitor's watches of ours: at the threshold, and for the next input.
    private var idleWatch: UInt32?, activeWatch: UInt32?
    /// The idle threshold, in seconds (the `idle-minutes` setting).
    private(set) var idleThreshold: Int
    /// Names that appeared or went away since the last ``refresh()``.
    private var changedNames: Set<String> = []
    /// Called when ``away`` or its reason changes.
    var onChange: (() -> Void)?

    init(connection: Connection, idleThreshold: Int) throws(BusError) {
        self.connection = connection
        self.idleThreshold = idleThreshold
        // WatchFired goes to the watch's owner alone; the rule also catches a broadcast one.
        try connection.subscribe(MatchRule(interface: Self.idleMonitor.interface, member: "WatchFired", path: Self.idleMonitor.path),
                                 confirmed: false) { [unowned self] message in
            guard let id = (try? message.arguments())?.first?.uint32 else { return }
            watchFired(id)
        }
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
        for name in Set(Self.sources.map(\.name) + [Self.idleMonitor.name]) {
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameOwnerChanged", arg0: name)) { [unowned self] _ in
                changedNames.insert(name)
            }
        }
        changedNames = Set(Self.sources.map(\.name) + [Self.idleMonitor.name])
    }

    /// Whether the person is away: some source says so.
    var away: Bool { saying.values.contains(true) || idle == true }

    /// Why, in words (the first source that says so); `""` when not away.
    var reason: String {
        if let first = saying.filter(\.value).keys.sorted().first { return Self.sources[first].reason }
        return idle == true ? "idle for \(idleThreshold / 60) min (org.gnome.Mutter.IdleMonitor)" : ""
    }

    /// A new idle threshold (the setting changed): the watch at the old one goes.
    func setIdleThreshold(_ seconds: Int) {
        guard seconds != idleThreshold else { return }
        idleThreshold = seconds
        changedNames.insert(Self.idleMonitor.name)
    }

    /// Idle now: a watch for the next input is to be added.
    private var wantsActiveWatch = false

    /// Whether a name came or went and its sources must be asked again, or a watch added.
    var needsRefresh: Bool { !changedNames.isEmpty || wantsActiveWatch }

    /// Asks the sources whose name came or went (all of them the first time), briefly: a
    /// service that does not answer in half a second counts as not there.
    func refresh() {
        let names = changedNames
        changedNames.removeAll()
        if wantsActiveWatch {
            wantsActiveWatch = false
            activeWatch = (try? connection.call(destination: Self.idleMonitor.name, path: Self.idleMonitor.path,
                                                interface: Self.idleMonitor.interface, member: "AddUserActiveWatch",
                                                timeout: .milliseconds(500), autoStart: false))?.first?.uint32
        }
        let before = (away, reason)
        for (index, source) in Self.sources.enumerated() where names.contains(source.name) {
            saying[index] = ask(source)
        }
        if names.contains(Self.idleMonitor.name) { watchIdle() }
        if before != (away, reason) { onChange?() }
    }

    /// (Re)starts following the idle monitor: the current idle time, a watch at the
    /// threshold, and, when already idle, one for the next input.
    private func watchIdle() {
        let monitor = Self.idleMonitor
        func call(_ member: String, _ arguments: [Value] = []) -> Value? {
            try? connection.call(destination: monitor.name, path: monitor.path, interface: monitor.interface, member: member,
                                 arguments: arguments, timeout: .milliseconds(500), autoStart: false).first
        }
        for watch in [idleWatch, activeWatch].compactMap({ $0 }) { _ = call("RemoveWatch", [.uint32(watch)]) }
        (idleWatch, activeWatch, idle) = (nil, nil, nil)
        guard (try? connection.nameHasOwner(monitor.name)) == true,
              case .uint64(let idleFor)? = call("GetIdletime"),
              let watch = call("AddIdleWatch", [.uint64(UInt64(idleThreshold) * 1000)])?.uint32 else { return }
        idleWatch = watch
        idle = idleFor >= UInt64(idleThreshold) * 1000
        if idle == true { activeWatch = call("AddUserActiveWatch")?.uint32 }
    }

    private func watchFired(_ id: UInt32) {
        let before = (away, reason)
        if id == idleWatch {
            idle = true
            // Asked for after the dispatch this runs in (no blocking call inside it).
            wantsActiveWatch = true
        } else if id == activeWatch {
            // A user-active watch fires once and is gone.
            activeWatch = nil
            idle = false
        } else {
            return
        }
        if before != (away, reason) { onChange?() }
    }

    private func ask(_ source: Source) -> Bool? {
        guard (try? connection.nameHasOwner(source.name)) == true else { return nil }
        do {
            if let property = source.property {
                return try connection.property(property, of: source.interface, at: source.name, path: source.path,
                                               timeout: .milliseconds(500))?.bool
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
