import ArgumentParser
import DBus
import Foundation
import Localization
import FreedesktopDelivery
import NudgeCore
import NudgeStore
import Platform

/// `nudge doctor`: can reminders be shown here, will they be, and if not, what to do.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that reminders can be shown, and say how to fix what is missing.",
        discussion: """
        Checks the session bus, the notification server (name, vendor, version, spec \
        version) and its capabilities, who plays sounds, do-not-disturb (dunst paused, \
        KDE's Inhibited), the daemon (pid, version), autostart, the systemd user unit, \
        and the store (PRAGMA quick_check, rows that cannot be read, a newer Nudge's \
        store, the last good copy; opened read-only, never created). Damage found is \
        marked beside the store, and no command writes to it until it is restored: \
        `nudge doctor --restore` puts the last good copy in its place.

        Lines start with ok, warn (works, but something is off) or FAIL, each with a fix.

        Exit status: 0 when pop-ups can be shown and the store is sound; 74 when the \
        store is damaged or unreadable; otherwise 69 when no pop-up can be shown (no bus, \
        no server).

        Examples:
          nudge doctor
          nudge doctor --json
          nudge doctor --restore
        """
    )

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(help: "Put the last good copy of the store in place of a damaged one (the damaged file is kept aside).")
    var restore = false

    enum Level: String { case ok, warn, fail }

    /// One check's outcome.
    struct Check {
        var name: String
        var level: Level
        var detail: String
        var fix: String?
    }

    /// What the checks found, in order, for the text and the JSON alike.
    struct Report {
        var checks: [Check] = []
        var fields: [(String, JSON)] = []
        /// Whether a reminder can be shown (a bus and a server).
        var canShow = false
        /// Whether the store is usable.
        var storeOK = true

        /// Adds a check; with a key it is also a field of the JSON, with `extra` beside it.
        mutating func add(_ key: String?, _ check: Check, _ extra: [(String, JSON)] = []) {
            checks.append(check)
            guard let key else { return }
            var object: [(String, JSON)] = [("ok", .bool(check.level != .fail)), ("level", .string(check.level.rawValue)),
                                            ("detail", .string(check.detail))]
            if let fix = check.fix { object.append(("fix", .string(fix))) }
            fields.append((key, .object(object + extra)))
        }

        var json: String { JSON.object([("ok", .bool(canShow && storeOK))] + fields).text }

        var text: String {
            checks.map { check in
                let level = check.level == .fail ? "FAIL" : check.level.rawValue + String(repeating: " ", count: 4 - check.level.rawValue.count)
                return "\(level) \(check.name): \(check.detail)" + (check.fix.map { "\n     fix: \($0)" } ?? "")
            }.joined(separator: "\n")
        }
    }

    func run() throws {
        if restore { return try restoreStore() }
        let environment = Environment.current
        var report = Report()
        Self.checkSession(environment, into: &report)
        Self.checkDaemon(into: &report)
        Self.checkStartup(environment, into: &report)
        Self.checkStore(environment, into: &report)
        Self.checkLanguage(environment, into: &report)
        print(json ? report.json : report.text)
        // The person's data first: a damaged store outranks a missing server.
        if !report.storeOK { throw ExitCode(74) }
        if !report.canShow { throw ExitCode(69) }
    }

    /// The session bus, the notification server on it, what it can do, who plays sounds,
    /// and do-not-disturb.
    static func checkSession(_ environment: Environment, into report: inout Report) {
        let delivery: FreedesktopDelivery
        do {
            delivery = try FreedesktopDelivery.session(environment: environment)
        } catch {
            report.add("sessionBus", Check(name: "session bus", level: .fail, detail: error.message,
                                           fix: "run inside a desktop session, or set DBUS_SESSION_BUS_ADDRESS (dbus-run-session)"))
            return
        }
        let address = environment.sessionBusAddress ?? ""
        report.add("sessionBus", Check(name: "session bus", level: .ok, detail: address), [("address", .string(address))])
        do {
            let info = try delivery.serverInformation()
            let caps = try delivery.capabilities().map(\.rawValue).sorted()
            let sound = try delivery.soundPlayback()
            report.canShow = true
            report.add("notificationServer", Check(name: "notification server", level: .ok,
                                                   detail: "\(info.name) \(info.version) by \(info.vendor), spec \(info.specVersion)"),
                       [("name", .string(info.name)), ("vendor", .string(info.vendor)), ("version", .string(info.version)),
                        ("specVersion", .string(info.specVersion)), ("capabilities", .array(caps.map(JSON.string)))])
            report.add(nil, Check(name: "capabilities", level: caps.contains("actions") ? .ok : .warn,
                                  detail: caps.joined(separator: ", "),
                                  fix: caps.contains("actions") ? nil : "this server shows no buttons: answer with `nudge done ID`, `nudge snooze ID 10m`"))
            var soundJSON: [(String, JSON)] = [("player", .string(sound.description))]
            if case .local(let player) = sound { soundJSON.append(("program", .string(player.program))) }
            report.add("sound", Check(name: "sound", level: sound != .none ? .ok : .fail, detail: "played by \(sound)",
                                      fix: sound != .none ? nil : "install canberra-gtk-play (gnome-session-canberra) or pipewire-bin, or set NUDGE_SOUND_PLAYER"),
                       soundJSON)
            report.add("doNotDisturb", doNotDisturb(delivery.connection, server: info.name))
        } catch {
            report.add("notificationServer", Check(name: "notification server", level: .fail, detail: error.message,
                                                   fix: "start one: dunst, or log into a desktop (GNOME, KDE, Xfce) that has one"))
        }
    }

    /// Whether the daemon runs now.
    static func checkDaemon(into report: inout Report) {
        guard let daemon = DaemonStatus.query() else {
            report.add("daemon", Check(name: "daemon", level: .warn, detail: "not running: reminders are not shown until it runs",
                                       fix: "start it now with `nudge daemon &`; `nudge autostart enable` starts it at every login"))
            return
        }
        report.add("daemon", Check(name: "daemon", level: .ok,
                                   detail: "running, pid \(daemon.pid), version \(daemon.version), \(count(Int(daemon.alerts), "alert")), \(daemon.pending) unanswered"),
                   [("pid", .integer(Int64(daemon.pid))), ("version", .string(daemon.version))])
    }

    /// Whether the daemon starts with the session: the autostart entry or the systemd unit.
    static func checkStartup(_ environment: Environment, into report: inout Report) {
        let autostart = AutostartPlaces(environment: environment).state()
        let unit = SystemdUnit(environment: environment)
        let started = autostart.enabled || unit.enabled
        report.add("autostart", Check(name: "autostart", level: started ? .ok : .warn,
                                      detail: "\(autostart.enabled ? "on" : "off"): \(autostart.reason)",
                                      fix: started ? nil : "nudge autostart enable"),
                   [("enabled", .bool(autostart.enabled))] + (autostart.file.map { [("file", JSON.string($0))] } ?? []))
        report.add("systemdUnit", unit.check, [("installed", unit.path.map(JSON.string) ?? .null), ("enabled", .bool(unit.enabled))])
    }

    /// The language of pop-ups and messages: glibc translates only in a locale it has
    /// (`locale -a`); one named but missing leaves everything English.
    static func checkLanguage(_ environment: Environment, into report: inout Report) {
        let catalog = Catalog.shared
        let setting = environment.localeSetting("LC_MESSAGES")
        let language = environment["LANGUAGE"].map { "LANGUAGE=\($0), " } ?? ""
        if let setting, environment.locale("LC_MESSAGES") != nil, !catalog.localeAccepted {
            report.add("language", Check(name: "language", level: .warn,
                                         detail: "\(language)\(setting) is not installed: pop-ups and messages stay in English",
                                         fix: "sudo sed -i 's/^# *\\(\(setting) \\)/\\1/' /etc/locale.gen && sudo locale-gen (or: sudo dpkg-reconfigure locales)"),
                       [("locale", .string(setting)), ("installed", .bool(false))])
            return
        }
        let where_ = catalog.folder ?? "no catalogs found"
        report.add("language", Check(name: "language", level: .ok, detail: "\(language)\(setting ?? "C") (catalogs: \(where_))"),
                   [("locale", setting.map(JSON.string) ?? .null), ("installed", .bool(true))])
    }

    /// The store: there, sound, readable, ours to write.
    static func checkStore(_ environment: Environment, into report: inout Report) {
        let path = AppDatabase.defaultPath(environment: environment)
        let health: AppDatabase.Health?
        do {
            health = try AppDatabase.health(path: path)
        } catch {
            report.storeOK = false
            let fix = error.message.hasSuffix("Is a directory")
                ? "the store's path is a folder: move it aside (mv '\(path)' '\(path).folder'); Nudge then starts a new store"
                : "check the file's owner and mode (it should be yours, 0600)"
            report.add("store", Check(name: "store", level: .fail, detail: error.message, fix: fix), [("path", .string(path))])
            return
        }
        guard let health else {
            report.add("store", Check(name: "store", level: .ok, detail: "\(path): none yet (the first `nudge add` creates it)"),
                       [("path", .string(path))])
            return
        }
        report.storeOK = health.problems.isEmpty
        let lastGood = health.lastGood.map { JSON.string(InstantFormat.iso8601($0.modified, in: LocalZone.current)) } ?? .null
        report.add("store", storeCheck(health, path: path),
                   [("path", .string(path)), ("alerts", .integer(Int64(health.alerts))),
                    ("problems", .array(health.problems.map(JSON.string))),
                    ("unreadable", .array(health.unreadable.map(JSON.string))),
                    ("newer", health.newer.map(JSON.string) ?? .null), ("lastGood", lastGood)])
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The store's line: damage with the one command that restores it, rows that cannot be
    /// read, a newer Nudge's store, or all well with the last good copy's age.
    static func storeCheck(_ health: AppDatabase.Health, path: String) -> Check {
        let zone = LocalZone.current
        let copy = health.lastGood.map { "last good copy \(InstantFormat.iso8601($0.modified, in: zone))" } ?? "no last good copy yet"
        if !health.problems.isEmpty {
            let when = health.damageFound.map { " (found \(InstantFormat.iso8601($0, in: zone)))" } ?? ""
            let fix = health.lastGood.map { "nudge doctor --restore (puts the last good copy of \(InstantFormat.iso8601($0.modified, in: zone)) in its place; the damaged file is kept aside)" }
                ?? "mv '\(path)' '\(path).broken' (Nudge starts a new, empty store; `sqlite3 '\(path).broken' .recover` may save what it held)"
            return Check(name: "store", level: .fail,
                         detail: "\(path) is damaged\(when): \(health.problems.prefix(3).joined(separator: "; ")); nothing writes to it until it is restored",
                         fix: fix)
        }
        if let newer = health.newer {
            return Check(name: "store", level: .warn, detail: "\(path) was written by a newer Nudge (\(newer)): this one reads it but never writes it",
                         fix: "update Nudge")
        }
        if !health.unreadable.isEmpty {
            return Check(name: "store", level: .warn,
                         detail: "\(path): \(count(health.alerts, "alert")), \(health.unreadable.count) of them unreadable: \(health.unreadable[0])",
                         fix: health.unreadable.count > 1 ? "the same for the others (nudge list names them)" : nil)
        }
        return Check(name: "store", level: .ok,
                     detail: "\(path): \(count(health.alerts, "alert")), \(health.bytes / 1024) KiB, quick_check ok, \(copy)")
    }

    /// `--restore`: the last good copy in place of the store.
    func restoreStore() throws {
        let path = AppDatabase.defaultPath(environment: .current)
        let file = StoreFile(path: path)
        let made = file.lastGood()?.modified
        if FileManager.default.fileExists(atPath: path), file.damage() == nil,
           (try? StoreFile.quickCheck(path)).map(\.isEmpty) ?? false {
            throw CLIError(.usage, "\(path) is sound: --restore only replaces a damaged store")
        }
        do {
            let aside = try file.restoreLastGood()
            print("restored \(path) from the last good copy\(made.map { " of " + InstantFormat.iso8601($0, in: LocalZone.current) } ?? "")"
                  + (aside.map { "; the old file is kept as \($0)" } ?? ""))
        } catch {
            throw CLIError(error)
        }
        DaemonLink.storeChanged()
    }

    /// Do-not-disturb where the server lets it be read: dunst's `paused`, KDE's `Inhibited`.
    static func doNotDisturb(_ connection: Connection, server: String) -> Check {
        func property(_ interface: String, _ name: String) -> Bool? {
            let value = try? connection.call(
                destination: FreedesktopDelivery.busName, path: FreedesktopDelivery.objectPath,
                interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(interface), .string(name)], autoStart: false).first
            return value?.unwrapped.bool
        }
        if let paused = property("org.dunstproject.cmd0", "paused") {
            return paused
                ? Check(name: "do not disturb", level: .warn, detail: "on: dunst is paused, pop-ups wait until it resumes",
                        fix: "dunstctl set-paused false")
                : Check(name: "do not disturb", level: .ok, detail: "off (dunst is not paused)")
        }
        if let inhibited = property(FreedesktopDelivery.interface, "Inhibited") {
            return inhibited
                ? Check(name: "do not disturb", level: .warn, detail: "on: \(server) holds pop-ups back (Inhibited)",
                        fix: "turn Do Not Disturb off in the notification area")
                : Check(name: "do not disturb", level: .ok, detail: "off (\(server) is not inhibited)")
        }
        return Check(name: "do not disturb", level: .ok, detail: "unknown: \(server) does not say")
    }
}
