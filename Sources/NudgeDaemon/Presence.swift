import DBus
import Foundation
import Platform

/// Whether the person is away, from the session's own services, each found at run time
/// and followed by its signals (polled only where the service has none):
/// - screen lockers: `org.freedesktop.ScreenSaver` (KDE, xfce4-screensaver, and others),
///   `org.gnome.ScreenSaver`, `org.mate.ScreenSaver`: `GetActive`, signal `ActiveChanged(b)`;
///   and logind's `LockedHint` for the session (see ``Logind``);
/// - do not disturb: dunst's `paused` (`org.dunstproject.cmd0`) and KDE's `Inhibited`
///   (`org.freedesktop.Notifications`), read with `Properties.Get` and followed through
///   `PropertiesChanged`; on GNOME, the `show-banners` setting (read with `gsettings`,
///   followed through dconf's `ca.desrt.dconf.Writer.Notify`);
/// - idle, the first of: GNOME's `org.gnome.Mutter.IdleMonitor`, which pushes both edges
///   (an idle watch at the threshold, `AddIdleWatch`, and a one-shot user-active watch
///   added once idle, `AddUserActiveWatch`, both through `WatchFired(u)`);
///   `org.freedesktop.ScreenSaver.GetSessionIdleTime` (milliseconds, as KDE's
///   kscreenlocker answers; no signal, so asked again when the threshold could first be
///   reached, and every half second while idle); logind's `IdleHint`;
/// - suspend: logind's `PrepareForSleep`.
/// A service that appears is asked at once; one that goes away no longer counts. With none
/// at all the person is never away. Nothing here waits on the daemon's loop: every
/// question is a pending call (half a second at most) and `gsettings` a child source, so a
/// hung screen locker or dconf never stalls a reminder.
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

    /// GNOME's do-not-disturb setting: its schema, key, and the dconf path it is stored at.
    static let banners = (schema: "org.gnome.desktop.notifications", key: "show-banners",
                          dconfPath: "/org/gnome/desktop/notifications/show-banners")

    /// Where the idle time comes from.
    enum IdleSource: String {
        case mutter = "org.gnome.Mutter.IdleMonitor"
        case screenSaver = "org.freedesktop.ScreenSaver"
    }

    private let connection: Connection
    private let loop: EventLoop
    /// logind on the system bus; `nil` without a system bus (or once it is gone).
    private var logind: Logind?
    /// Calls and programs started whose answers have not come yet.
    private var asking = 0
    /// The next `GetSessionIdleTime` (see ``pollIdleTime()``).
    private var idleTimer: EventLoop.Source?
    /// `gsettings`, on a GNOME desktop where it is installed.
    private let gsettings: String?
    /// What each source says now, by its index in ``sources``; a source not there says nothing.
    private var saying: [Int: Bool] = [:]
    /// Whether the person is idle, and by which service; `nil` without one.
    private var idle: Bool?
    private var idleSource: IdleSource?
    /// GNOME's `show-banners`: `false` is do-not-disturb; `nil` off GNOME or unreadable.
    private var banners: Bool?
    /// `show-banners` may have changed since it was read.
    private var bannersStale: Bool
    /// The idle monitor's watches of ours: at the threshold, and for the next input.
    private var idleWatch: UInt32?, activeWatch: UInt32?
    /// The idle threshold, in seconds (the `idle-minutes` setting).
    private(set) var idleThreshold: Int
    /// Names that appeared or went away since the last ``refresh()``.
    private var changedNames: Set<String> = []
    /// Called when ``away`` or its reason changes.
    var onChange: (() -> Void)?

    /// Follows the services on `connection` (the session bus) and, through `logind`, the
    /// system bus, on `loop`; `environment` says whether this is GNOME and where
    /// `gsettings` is.
    init(connection: Connection, logind: Logind?, loop: EventLoop, environment: Platform.Environment, idleThreshold: Int) throws(BusError) {
        self.connection = connection
        self.loop = loop
        self.logind = logind
        self.idleThreshold = idleThreshold
        let gnome = environment.currentDesktops.contains { $0.uppercased() == "GNOME" }
        gsettings = gnome ? environment.searchPath.map { $0 + "/gsettings" }.first { access($0, X_OK) == 0 } : nil
        bannersStale = gsettings != nil
        if gsettings != nil {
            try connection.subscribe(MatchRule(interface: "ca.desrt.dconf.Writer", member: "Notify"), confirmed: false) { [unowned self] message in
                guard let args = try? message.arguments(), args.count >= 2, let prefix = args[0].string else { return }
                let keys = (args[1].strings ?? []).map { prefix + $0 }
                // A key, or a folder holding it (a reset of the whole schema).
                if (keys.isEmpty ? [prefix] : keys).contains(where: { Self.banners.dconfPath.hasPrefix($0) }) { bannersStale = true }
            }
        }
        logind?.onChange = { [unowned self] in onChange?() }
        // WatchFired goes to the watch's owner alone; the rule also catches a broadcast one.
        try connection.subscribe(MatchRule(interface: Self.idleMonitor.interface, member: "WatchFired", path: Self.idleMonitor.path),
                                 confirmed: false) { [unowned self] message in
            guard let id = (try? message.arguments())?.first?.uint32 else { return }
            watchFired(id)
        }
        for (index, source) in Self.sources.enumerated() {
            if source.property == nil {
                try connection.subscribe(MatchRule(sender: source.name, interface: source.interface, member: "ActiveChanged",
                                                   path: source.path), confirmed: false) { [unowned self] message in
                    guard isFrom(source.name, message), let value = (try? message.arguments())?.first?.bool else { return }
                    set(index, value)
                }
            }
        }
        try connection.subscribe(MatchRule(sender: "org.freedesktop.Notifications", interface: "org.freedesktop.DBus.Properties",
                                           member: "PropertiesChanged", path: "/org/freedesktop/Notifications"),
                                 confirmed: false) { [unowned self] message in
            guard isFrom("org.freedesktop.Notifications", message),
                  let args = try? message.arguments(), args.count >= 2, let interface = args[0].string,
                  let changed = args[1].vardict else { return }
            for (index, source) in Self.sources.enumerated() where source.interface == interface {
                if let property = source.property, let value = changed[property] { set(index, value.unwrapped.bool ?? false) }
            }
        }
        for name in Set(Self.sources.map(\.name) + [Self.idleMonitor.name]) {
            try connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                               member: "NameOwnerChanged", arg0: name)) { [unowned self] _ in
                changedNames.insert(name)
                owners[name] = nil
            }
        }
        changedNames = Set(Self.sources.map(\.name) + [Self.idleMonitor.name])
        idleTimer = loop.addTimer { [unowned self] in pollIdleTime() }
        // What came or went during a turn is asked after it, once.
        loop.addBeforeWait { [unowned self] in
            if self.logind?.isConnected == false { self.logind = nil }
            if needsRefresh { refresh() }
        }
    }

    /// The unique names owning the services' names, as asked; forgotten when one changes.
    private var owners: [String: String] = [:]

    /// Whether a signal comes from the service that owns `name`: the bus filters by owner,
    /// but a signal sent straight to the daemon passes every rule.
    private func isFrom(_ name: String, _ message: Message) -> Bool {
        guard let sender = message.sender else { return false }
        if owners[name] == nil, let owner = (try? connection.nameOwner(name)).flatMap({ $0 }) { owners[name] = owner }
        return sender == owners[name]
    }

    /// Whether answers asked for are still to come (the daemon waits for the first ones
    /// before anything fires, so what was held before a restart stays held).
    var isAsking: Bool { asking > 0 || logind.map { $0.asking > 0 } == true }

    /// Whether the person is away: some source says so.
    var away: Bool { !reason.isEmpty }

    /// Why, in words (the first source that says so); `""` when not away.
    var reason: String {
        if let first = saying.filter(\.value).keys.sorted().first { return Self.sources[first].reason }
        if logind?.locked == true { return "screen locked (logind LockedHint)" }
        if banners == false { return "do not disturb (GNOME show-banners off)" }
        if logind?.sleeping == true { return "suspending (logind PrepareForSleep)" }
        if let idleSource, idle == true { return "idle for \(idleThreshold / 60) min (\(idleSource.rawValue))" }
        if idleSource == nil, logind?.idle == true { return "idle (logind IdleHint)" }
        return ""
    }

    /// The services that say something now, for `doctor` and the log.
    var followed: [String] {
        var names = Self.sources.indices.filter { saying[$0] != nil }.map { index in
            let source = Self.sources[index]
            return source.property.map { "\(source.interface) \($0)" } ?? source.name
        }
        if let idleSource { names.append("idle time: \(idleSource.rawValue)") }
        if logind?.hasSession == true { names.append("logind (LockedHint, IdleHint, PrepareForSleep)") }
        if banners != nil { names.append("GNOME show-banners") }
        return names
    }

    /// A new idle threshold (the setting changed): the watch at the old one goes.
    func setIdleThreshold(_ seconds: Int) {
        guard seconds != idleThreshold else { return }
        idleThreshold = seconds
        changedNames.insert(Self.idleMonitor.name)
    }

    /// Idle now: a watch for the next input is to be added.
    private var wantsActiveWatch = false

    /// Whether a name came or went and its sources must be asked again, a watch added, a
    /// setting read again, or logind asked again.
    var needsRefresh: Bool { !changedNames.isEmpty || wantsActiveWatch || bannersStale || logind?.needsRefresh == true }

    // MARK: Asking

    /// Counts a question in ``asking`` until its answer runs `done`.
    private func ask(_ question: (_ done: @escaping () -> Void) -> Void) {
        asking += 1
        question { [unowned self] in asking = max(asking - 1, 0) }
    }

    /// A method call without waiting; `reply` gets the first value, `nil` on any error.
    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Value] = [],
                      reply: @escaping (Value?) -> Void) {
        ask { done in
            connection.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments,
                            timeout: .milliseconds(500), autoStart: false) { result in
                reply((try? result.get())?.first)
                done()
            }
        }
    }

    /// Tells ``onChange`` when `body` changed whether, or why, the person is away.
    private func change(_ body: () -> Void) {
        let before = (away, reason)
        body()
        if before != (away, reason) { onChange?() }
    }

    /// Asks the sources whose name came or went (all of them the first time), without
    /// waiting: a service that does not answer in half a second counts as not there.
    func refresh() {
        let names = changedNames
        changedNames.removeAll()
        if wantsActiveWatch {
            wantsActiveWatch = false
            let monitor = Self.idleMonitor
            call(monitor.name, monitor.path, monitor.interface, "AddUserActiveWatch") { [unowned self] in activeWatch = $0?.uint32 }
        }
        for (index, source) in Self.sources.enumerated() where names.contains(source.name) {
            ask(source) { [unowned self] value in change { saying[index] = value } }
        }
        if names.contains(Self.idleMonitor.name) || names.contains(IdleSource.screenSaver.rawValue) { watchIdle() }
        if bannersStale {
            bannersStale = false
            readBanners()
        }
        if logind?.needsRefresh == true { logind?.refresh() }
    }

    /// `show-banners` as GSettings has it (the schema's default when nobody set it), read
    /// by `gsettings` as a child of the loop (a second at most).
    private func readBanners() {
        guard let gsettings else { return }
        ask { done in
            ChildProcess.run(gsettings, ["get", Self.banners.schema, Self.banners.key], on: loop, timeout: 1000) { [unowned self] result in
                let value: Bool? = switch result.flatMap({ $0.status == 0 ? $0.output : nil })?.trimmingCharacters(in: .whitespacesAndNewlines) {
                case "true": true
                case "false": false
                default: nil
                }
                change { banners = value }
                done()
            }
        }
    }

    /// (Re)starts following the idle monitor: the current idle time, a watch at the
    /// threshold, and, when already idle, one for the next input. Without an idle monitor,
    /// `GetSessionIdleTime` is asked instead.
    private func watchIdle() {
        let monitor = Self.idleMonitor
        func call(_ member: String, _ arguments: [Value] = [], reply: @escaping (Value?) -> Void) {
            self.call(monitor.name, monitor.path, monitor.interface, member, arguments, reply: reply)
        }
        for watch in [idleWatch, activeWatch].compactMap({ $0 }) { call("RemoveWatch", [.uint32(watch)]) { _ in } }
        change { (idleWatch, activeWatch, idle, idleSource) = (nil, nil, nil, nil) }
        idleTimer?.deadline = nil
        let threshold = UInt64(idleThreshold) * 1000
        call("GetIdletime") { [unowned self] idleFor in
            guard case .uint64(let idleFor)? = idleFor else { return pollIdleTime() }
            call("AddIdleWatch", [.uint64(threshold)]) { [unowned self] watch in
                guard let watch = watch?.uint32 else { return pollIdleTime() }
                change { (idleWatch, idleSource, idle) = (watch, .mutter, idleFor >= threshold) }
                if idle == true { call("AddUserActiveWatch") { [unowned self] in activeWatch = $0?.uint32 } }
            }
        }
    }

    /// Asks `GetSessionIdleTime` (no idle monitor here) and when to ask next: when the
    /// threshold could first be reached, or in half a second while idle (the return is
    /// seen within it). A service without it (KDE on Wayland answers NotSupported) is no
    /// idle source.
    private func pollIdleTime() {
        let saver = IdleSource.screenSaver.rawValue
        call(saver, "/org/freedesktop/ScreenSaver", saver, "GetSessionIdleTime") { [unowned self] answer in
            guard let milliseconds = answer?.uint32 else {
                idleTimer?.deadline = nil
                return change { (idle, idleSource) = (nil, nil) }
            }
            let threshold = Double(idleThreshold)
            let idleFor = Double(milliseconds) / 1000
            change { (idle, idleSource) = (idleFor >= threshold, .screenSaver) }
            idleTimer?.deadline = monotonicSeconds() + (idle == true ? 0.5 : max(1, threshold - idleFor))
        }
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

    /// What `source` says now; `nil` when it is not there or not its interface (dunst has
    /// no Inhibited, KDE no paused).
    private func ask(_ source: Source, reply: @escaping (Bool?) -> Void) {
        if let property = source.property {
            ask { done in
                connection.property(property, of: source.interface, at: source.name, path: source.path, timeout: .milliseconds(500)) { result in
                    reply((try? result.get())??.bool)
                    done()
                }
            }
        } else {
            call(source.name, source.path, source.interface, "GetActive") { reply($0?.bool) }
        }
    }

    private func set(_ index: Int, _ value: Bool) {
        let before = (away, reason)
        saying[index] = value
        if before != (away, reason) { onChange?() }
    }
}
