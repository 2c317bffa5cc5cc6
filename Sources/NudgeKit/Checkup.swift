import DaemonAPI
import DBus
import Foundation
import FreedesktopDelivery
import Localization
import NudgeCore
import NudgeStore
import Platform

/// Can reminders be shown here, will they be, and if not, what to do: the session bus,
/// the notification server and what it can do, who plays sounds, do-not-disturb, the
/// daemon, what starts it at login, the store and the language. `nudge doctor` prints it;
/// the window shows it.
public enum Checkup {
    /// How a check came out: fine, working with something off, or failing.
    public enum Level: String, Sendable { case ok, warn, fail }

    /// One check's outcome: phrases, written in English for `--json` and in the person's
    /// language for the text.
    public struct Check: Sendable {
        /// What was checked ("store").
        public var name: Phrase
        /// How it came out; `fail` makes the check's `ok` false in the JSON.
        public var level: Level
        /// What was found.
        public var detail: Phrase
        /// What to do about it, when anything.
        public var fix: Phrase?

        /// An outcome; `fix` only when there is something to do.
        public init(name: Phrase, level: Level, detail: Phrase, fix: Phrase? = nil) {
            (self.name, self.level, self.detail, self.fix) = (name, level, detail, fix)
        }
    }

    /// What the checks found, in order, for the text and the JSON alike.
    public struct Report: Sendable {
        /// Every check, in the order they ran: the lines of ``text``.
        public private(set) var checks: [Check] = []
        /// The checks that have a JSON key, each as its key and object, in order: what
        /// ``json`` writes after `ok`.
        public private(set) var fields: [(String, JSON)] = []
        /// Whether a reminder can be shown (a bus and a server).
        public internal(set) var canShow = false
        /// Whether the store is usable.
        public internal(set) var storeOK = true
        /// The language ``text`` is written in: the world's.
        public let language: Language

        init(language: Language) { self.language = language }

        /// Adds a check; with a key it is also a field of the JSON, with `extra` beside it.
        mutating func add(_ key: String?, _ check: Check, _ extra: [(String, JSON)] = []) {
            checks.append(check)
            guard let key else { return }
            var object: [(String, JSON)] = [("ok", .bool(check.level != .fail)), ("level", .string(check.level.rawValue)),
                                            ("detail", .string(check.detail.description))]
            if let fix = check.fix { object.append(("fix", .string(fix.description))) }
            fields.append((key, .object(object + extra)))
        }

        /// The report as one JSON document (`nudge doctor --json`).
        public var json: String { JSON.object([("ok", .bool(canShow && storeOK))] + fields).text }

        /// The report as lines for a terminal, in the person's language.
        public var text: String {
            return checks.map { check in
                let level = check.level == .fail ? "FAIL" : check.level.rawValue + String(repeating: " ", count: 4 - check.level.rawValue.count)
                // TRANSLATORS: nudge doctor, before what to do about a problem; %s is the fix.
                // Values from the environment, the store or the server are shown, never obeyed
                // by the terminal: controls escaped.
                return "\(level) \(check.name.text(language)): \(check.detail.text(language).escapingControls)"
                    + (check.fix.map { "\n     " + format(tr("fix: %s"), $0.text(language).escapingControls) } ?? "")
            }.joined(separator: "\n")
        }
    }

    /// Every check of `world`, in order (its environment, its store, its zone and its
    /// language; the session bus it names), with the daemon's own word when it runs.
    public static func run(_ world: World) -> Report {
        var report = Report(language: world.language)
        let environment = world.environment
        let daemon = world.daemon.flatMap { DaemonStatus.query($0) }
        checkSession(environment, daemonRuns: daemon != nil, into: &report)
        checkDaemon(daemon, owned: world.daemon != nil, into: &report)
        checkStartup(environment, into: &report)
        checkStore(world, into: &report)
        checkLanguage(environment, into: &report)
        checkPlaces(world, daemon: daemon, into: &report)
        checkSync(world, into: &report)
        return report
    }

    /// Each calendar account (`nudge sync`): its calendars' last sync and last error, and
    /// the keyring its password is in. Nothing is said without an account, and no server is
    /// asked (`nudge sync now` does that).
    static func checkSync(_ world: World, into report: inout Report) {
        guard FileManager.default.fileExists(atPath: world.storePath), let store = try? world.store.forReading(),
              let accounts = try? store.syncAccounts(), !accounts.isEmpty else { return }
        // TRANSLATORS: nudge doctor: the check of a calendar account (nudge sync).
        let name = Phrase("calendar sync")
        var keyring = true
        if let bus = world.connectToBus() {
            let owned = (try? bus.nameHasOwner("org.freedesktop.secrets")) ?? false
            let activatable = (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                             member: "ListActivatableNames").first?.strings?.contains("org.freedesktop.secrets")) ?? false
            keyring = owned || activatable
        }
        let desktop = DesktopRinging(environment: world.environment)
        // TRANSLATORS: nudge doctor: the check of who rings a followed calendar's alarms (Nudge or the desktop).
        let ringing = Phrase("calendar alarms")
        for account in accounts {
            let calendars = ((try? store.syncCalendars(account: account.id)) ?? []).filter { $0.role != .none }
            // A followed calendar the desktop rings too: left to it, or rung twice by choice.
            let doubled = calendars.filter { $0.role == .follow && $0.ringer == .here && desktop.rings($0.url) != nil }
            let left = calendars.filter { desktop.leaves($0) != nil }
            if let first = doubled.first, let other = desktop.rings(first.url) {
                report.add("sync-ringing-" + account.id, Check(name: ringing, level: .warn,
                    // TRANSLATORS: nudge doctor: a followed calendar rung by Nudge and by the desktop; %1$s the calendar, %2$s the desktop.
                    detail: Phrase("%1$s is rung here and by %2$s: two pop-ups for one alarm", first.name, other.desktop),
                    // TRANSLATORS: nudge doctor: the fix; %s is the calendar's name.
                    fix: Phrase("nudge sync choose --leave %s (or switch its alarms off in the desktop's calendar)", first.name)),
                    [("account", .string(account.id))])
            } else if let first = left.first, let other = desktop.rings(first.url) {
                report.add("sync-ringing-" + account.id, Check(name: ringing, level: .ok,
                    // TRANSLATORS: nudge doctor: followed calendars whose alarms the desktop rings, so Nudge does not; %1$s the first calendar, %2$s the desktop.
                    detail: Phrase("%1$s is rung by %2$s, so not by Nudge: one pop-up for each alarm", first.name, other.desktop)),
                    [("account", .string(account.id))])
            }
            let failed = calendars.filter { $0.lastError != nil }
            let never = calendars.filter { $0.lastSynced == nil }
            let who = account.user.isEmpty ? account.address : account.user + " @ " + account.address
            let extra: [(String, JSON)] = [("account", .string(account.id)), ("address", .string(account.address)),
                                           ("calendars", .integer(Int64(calendars.count))), ("failed", .integer(Int64(failed.count)))]
            if !keyring && !account.user.isEmpty {
                report.add("sync-" + account.id, Check(name: name, level: .warn,
                    // TRANSLATORS: nudge doctor: no Secret Service on the bus; %s is the account (user @ address).
                    detail: Phrase("%s: no keyring on the session bus, so its password cannot be read", who),
                    fix: Phrase("install and start gnome-keyring (or KWallet)")), extra)
            } else if let first = failed.first {
                report.add("sync-" + account.id, Check(name: name, level: .warn,
                    // TRANSLATORS: nudge doctor: a calendar's last sync failed; %1$s the account, %2$s the calendar, %3$s why.
                    detail: Phrase("%1$s: %2$s did not sync: %3$s", who, first.name, first.lastError ?? ""),
                    // TRANSLATORS: nudge doctor: the fix when the keyring has lost an account's password.
                    fix: first.lastError?.contains("keyring has no password") == true ? Phrase("add the account again: nudge sync add ADDRESS --user NAME")
                        : Phrase("nudge sync now tries again and says what happens")), extra)
            } else if calendars.isEmpty || !never.isEmpty {
                report.add("sync-" + account.id, Check(name: name, level: .warn,
                    // TRANSLATORS: nudge doctor: an account with a calendar never synced (or none chosen); %s is the account.
                    detail: Phrase("%s: a calendar is chosen but never synced, or none is chosen", who),
                    fix: Phrase("nudge sync choose, then nudge sync now")), extra)
            } else {
                let last = calendars.compactMap(\.lastSynced).min() ?? Date()
                report.add("sync-" + account.id, Check(name: name, level: .ok,
                    // TRANSLATORS: nudge doctor: an account whose calendars all synced; %1$s the account, %2$d how many calendars, %3$s when the oldest last synced.
                    detail: Phrase.counted("%1$s: %2$d calendar, synced at %3$s", "%1$s: %2$d calendars, all synced (the oldest at %3$s)",
                                           calendars.count, who, calendars.count, Drinking.when(last, zone: world.zone, now: world.now))), extra)
            }
        }
    }

    /// Where place reminders learn where the person is: NetworkManager for networks,
    /// GeoClue (and the desktop's agent letting Nudge in) for areas. A missing source is
    /// a warning only when a reminder needs it.
    static func checkPlaces(_ world: World, daemon: DaemonStatus?, into report: inout Report) {
        let environment = world.environment
        var networks = false, areas = false
        if FileIdentity(path: world.storePath) != nil, let store = try? world.store.forReading() {
            for alert in (try? store.alerts()) ?? [] where alert.enabled {
                guard case .place(let trigger) = alert.schedule else { continue }
                if case .area = trigger.spot { areas = true } else { networks = true }
            }
        }
        // TRANSLATORS: nudge doctor: the check of NetworkManager, for reminders on networks.
        let networkName = Phrase("networks")
        do {
            let known = try PlaceSources.networks(environment: environment)
            let up = known.filter(\.connected).map { network in network.ssid.map { "\(network.name) (\($0))" } ?? network.name }
            report.add("networkManager", Check(name: networkName, level: .ok, detail: up.isEmpty
                    // TRANSLATORS: nudge doctor: NetworkManager answers, no connection is up; %d is how many it knows.
                    ? Phrase.counted("NetworkManager is there, not connected; it knows %d network", "NetworkManager is there, not connected; it knows %d networks", known.count, known.count)
                    // TRANSLATORS: nudge doctor: NetworkManager answers; %s lists the connections up now.
                    : Phrase("NetworkManager is there: connected to %s", up.joined(separator: ", "))),
                       [("connected", .array(up.map(JSON.string)))])
        } catch {
            report.add("networkManager", Check(name: networkName, level: networks ? .warn : .ok,
                                               detail: networks
                                                   // TRANSLATORS: nudge doctor: %s says why NetworkManager cannot be asked.
                                                   ? Phrase("%s: reminders on networks never come up", error.phrase)
                                                   // TRANSLATORS: nudge doctor: %s says why NetworkManager cannot be asked; no reminder needs it.
                                                   : Phrase("%s; only reminders on networks need it", error.phrase),
                                               fix: networks ? Phrase("start NetworkManager (sudo systemctl enable --now NetworkManager), or name an area instead (--arrive LATITUDE,LONGITUDE,RADIUS)") : nil))
        }
        // TRANSLATORS: nudge doctor: the check of GeoClue, for reminders on areas.
        let locationName = Phrase("location")
        let locationFix = Phrase("turn Location Services on (GNOME: Settings, Privacy, Location Services; KDE: System Settings, Location) and let Nudge use them")
        if let refused = daemon?.placeSources.first(where: { $0.hasPrefix("GeoClue: refused") }) {
            // TRANSLATORS: nudge doctor: the daemon was refused a position; %s is GeoClue's answer.
            report.add("geoclue", Check(name: locationName, level: .warn, detail: Phrase("the daemon asked GeoClue and was refused: %s", refused), fix: locationFix))
            return
        }
        switch PlaceSources.geoClue(environment: environment, tryStart: areas) {
        case .absent:
            report.add("geoclue", Check(name: locationName, level: areas ? .warn : .ok,
                                        // TRANSLATORS: nudge doctor: no GeoClue on the system bus.
                                        detail: areas ? Phrase("GeoClue is not on this machine: reminders on areas never come up")
                                            // TRANSLATORS: nudge doctor: no GeoClue, and no reminder needs it.
                                            : Phrase("GeoClue is not on this machine; only reminders on areas need it"),
                                        fix: areas ? Phrase("install GeoClue (sudo apt install geoclue-2.0), or name a network instead (--arrive NAME, see nudge places)") : nil))
        case .present(let level) where level == 0:
            // TRANSLATORS: nudge doctor: GeoClue runs but has no way to find a position.
            report.add("geoclue", Check(name: locationName, level: areas ? .warn : .ok, detail: Phrase("GeoClue is there but has no position source"),
                                        fix: areas ? locationFix : nil))
        case .present(let level):
            // TRANSLATORS: nudge doctor: GeoClue is there; %s is its best accuracy (street…).
            report.add("geoclue", Check(name: locationName, level: .ok, detail: Phrase("GeoClue is there (best accuracy: %s); asked only while a reminder names an area", PlaceSources.accuracy(level))))
        case .allowed(let level):
            // TRANSLATORS: nudge doctor: GeoClue let Nudge have a position; %s is its best accuracy.
            report.add("geoclue", Check(name: locationName, level: .ok, detail: Phrase("GeoClue lets Nudge have a position (best accuracy: %s)", PlaceSources.accuracy(level))))
        case .refused(let why):
            // TRANSLATORS: nudge doctor: GeoClue refused Nudge; %s is its answer.
            report.add("geoclue", Check(name: locationName, level: .warn, detail: Phrase("GeoClue refused Nudge: %s", why), fix: locationFix))
        }
    }

    /// The session bus, the notification server on it, what it can do, who plays sounds,
    /// and do-not-disturb.
    /// What says the person is away is the daemon's to tell when it runs; without it, the
    /// services found on the bus now.
    static func checkSession(_ environment: Environment, daemonRuns: Bool, into report: inout Report) {
        let delivery: FreedesktopDelivery
        do {
            delivery = try FreedesktopDelivery.session(environment: environment)
        } catch {
            report.add("sessionBus", Check(name: Phrase("session bus"), level: .fail, detail: error.phrase,
                                           fix: Phrase("run inside a desktop session, or set DBUS_SESSION_BUS_ADDRESS (dbus-run-session)")))
            return
        }
        let address = environment.sessionBusAddress ?? ""
        report.add("sessionBus", Check(name: Phrase("session bus"), level: .ok, detail: Phrase.verbatim(address)), [("address", .string(address))])
        do {
            let info = try delivery.serverInformation()
            let caps = try delivery.capabilities().map(\.rawValue).sorted()
            let sound = try delivery.soundPlayback()
            report.canShow = true
            // TRANSLATORS: nudge doctor: the server's name, version, vendor and the spec version it follows.
            report.add("notificationServer", Check(name: Phrase("notification server"), level: .ok,
                                                   detail: Phrase("%1$s %2$s by %3$s, spec %4$s", info.name, info.version, info.vendor, info.specVersion)),
                       [("name", .string(info.name)), ("vendor", .string(info.vendor)), ("version", .string(info.version)),
                        ("specVersion", .string(info.specVersion)), ("capabilities", .array(caps.map(JSON.string)))])
            report.add(nil, Check(name: Phrase("capabilities"), level: caps.contains("actions") ? .ok : .warn,
                                  detail: Phrase.verbatim(caps.joined(separator: ", ")),
                                  fix: caps.contains("actions") ? nil : Phrase("this server shows no buttons: answer with `nudge done ID`, `nudge snooze ID 10m`")))
            var soundJSON: [(String, JSON)] = [("player", .string(sound.description))]
            if case .local(let player) = sound { soundJSON.append(("program", .string(player.program))) }
            // TRANSLATORS: nudge doctor: who plays reminders' sounds (the notification server, a program's path, or nobody…).
            report.add("sound", Check(name: Phrase("sound"), level: sound != .none ? .ok : .fail, detail: Phrase("played by %s", sound.phrase),
                                      fix: sound != .none ? nil : Phrase("install canberra-gtk-play (gnome-session-canberra) or pipewire-bin, or set NUDGE_SOUND_PLAYER")),
                       soundJSON)
            report.add("doNotDisturb", doNotDisturb(delivery.connection, server: info.name))
            if info.name == "gnome-shell", let gnome = gnomeSettings(environment) { report.add("gnomeSettings", gnome) }
            if !daemonRuns {
                let presence = presenceSources(delivery.connection)
                report.add("presence", presence.check, [("sources", .array(presence.found.map(JSON.string)))])
            }
        } catch {
            report.add("notificationServer", Check(name: Phrase("notification server"), level: .fail, detail: error.phrase,
                                                   fix: Phrase("start one: dunst, or log into a desktop (GNOME, KDE, Xfce) that has one")))
        }
    }

    /// Whether the daemon runs now (`owned`: its name has an owner on the bus, which may
    /// not answer: stopped or busy).
    static func checkDaemon(_ daemon: DaemonStatus?, owned: Bool = false, into report: inout Report) {
        if daemon == nil, owned {
            report.add("daemon", Check(name: Phrase("daemon"), level: .warn,
                                       // TRANSLATORS: nudge doctor: the daemon's name is on the bus but it did not answer Status.
                                       detail: Phrase("running but not answering: stopped or busy; reminders wait until it goes on"),
                                       fix: Phrase("if it stays so, end it (pkill -f 'nudge daemon') and start it again with `nudge daemon &`")))
            return
        }
        guard let daemon else {
            report.add("daemon", Check(name: Phrase("daemon"), level: .warn, detail: Phrase("not running: reminders are not shown until it runs"),
                                       fix: Phrase("start it now with `nudge daemon &`; `nudge autostart enable` starts it at every login")))
            return
        }
        // TRANSLATORS: nudge doctor: the running daemon; %1$d its pid, %2$s its version, %3$d how many alerts, %4$d how many wait for an answer.
        report.add("daemon", Check(name: Phrase("daemon"), level: .ok,
                                   detail: Phrase.counted("running, pid %1$d, version %2$s, %3$d alert, %4$d unanswered",
                                                          "running, pid %1$d, version %2$s, %3$d alerts, %4$d unanswered",
                                                          Int(daemon.alerts), Int(daemon.pid), daemon.version, Int(daemon.alerts), Int(daemon.pending))),
                   [("pid", .integer(Int64(daemon.pid))), ("version", .string(daemon.version))])
        let sources: [(String, JSON)] = [("sources", .array(daemon.awaySources.map(JSON.string)))]
        if !daemon.awayReason.isEmpty {
            // TRANSLATORS: nudge doctor: the daemon holds reminders; %s says why (screen locked…).
            report.add("away", Check(name: Phrase("away"), level: .ok, detail: Phrase("now: %s; reminders that hold are shown on the return", daemon.awayReason)),
                       [("reason", .string(daemon.awayReason))] + sources)
        } else if daemon.awaySources.isEmpty {
            // TRANSLATORS: nudge doctor: the daemon finds no screen locker, idle time or do-not-disturb to follow.
            report.add("away", Check(name: Phrase("away"), level: .ok, detail: Phrase("the daemon follows nothing that says you are away: reminders always show")),
                       [("reason", .string(""))] + sources)
        } else {
            // TRANSLATORS: nudge doctor: %s lists what the daemon follows (screen locker, idle time, do not disturb).
            report.add("away", Check(name: Phrase("away"), level: .ok, detail: Phrase("not now; the daemon follows %s", daemon.awaySources.joined(separator: "; "))),
                       [("reason", .string(""))] + sources)
        }
    }

    /// Whether the daemon starts with the session: the autostart entry or the systemd unit.
    static func checkStartup(_ environment: Environment, into report: inout Report) {
        let autostart = AutostartPlaces(environment: environment, language: report.language).state()
        let unit = SystemdUnit(environment: environment)
        let started = autostart.enabled || unit.enabled
        // TRANSLATORS: nudge doctor: whether the daemon starts at login, and why (%s).
        report.add("autostart", Check(name: Phrase("autostart"), level: started ? .ok : .warn,
                                      detail: autostart.enabled ? Phrase("on: %s", autostart.reason) : Phrase("off: %s", autostart.reason),
                                      fix: started ? nil : Phrase.verbatim("nudge autostart enable")),
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
            // TRANSLATORS: nudge doctor: %1$s is LANGUAGE's value when set, %2$s the locale that is missing.
            report.add("language", Check(name: Phrase("language"), level: .warn,
                                         detail: Phrase("%1$s%2$s is not installed: pop-ups and messages stay in English", language, setting),
                                         fix: Phrase("sudo sed -i 's/^# *\\(%1$s \\)/\\1/' /etc/locale.gen && sudo locale-gen (or: sudo dpkg-reconfigure locales)", setting)),
                       [("locale", .string(setting)), ("installed", .bool(false))])
            return
        }
        if let damage = catalog.damagedCatalog {
            // TRANSLATORS: nudge doctor: %s is a translation catalog's path and what is wrong with it.
            report.add("language", Check(name: Phrase("language"), level: .warn,
                                         detail: Phrase("damaged catalog %s: pop-ups and messages stay in English", damage),
                                         fix: Phrase("reinstall Nudge (sudo make install, or the package) to put a sound catalog back")),
                       [("locale", setting.map(JSON.string) ?? .null), ("installed", .bool(true)), ("damagedCatalog", .string(damage))])
            return
        }
        // A language other than English with no catalog to read: English, and why.
        if catalog.catalogFile == nil, let first = catalog.languages.first, !first.hasPrefix("en"), !first.hasPrefix("C."), first != "C", first != "POSIX" {
            let (detail, fix): (Phrase, Phrase) = if let unreadable = catalog.unreadableCatalog {
                // TRANSLATORS: nudge doctor: %s is a catalog's path and why it cannot be opened (permission denied).
                (Phrase("cannot open the catalog %s: pop-ups and messages stay in English", unreadable),
                 Phrase("make it readable (ls -l the file; sudo chmod 644 it), or reinstall Nudge"))
            } else {
                // TRANSLATORS: nudge doctor: %1$s is the languages looked for (ko_KR.UTF-8), %2$s where.
                (Phrase("no catalog for %1$s in %2$s: pop-ups and messages stay in English", catalog.languages.joined(separator: ":"), catalog.folder ?? "-"),
                 Phrase("reinstall Nudge if it should have this language; English is used otherwise"))
            }
            report.add("language", Check(name: Phrase("language"), level: .warn, detail: detail, fix: fix),
                       [("locale", setting.map(JSON.string) ?? .null), ("installed", .bool(true)), ("catalog", .null)])
            return
        }
        // TRANSLATORS: nudge doctor: %1$s is LANGUAGE's value when set, %2$s the locale, %3$s where the catalogs are.
        let detail = catalog.folder.map { Phrase("%1$s%2$s (catalogs: %3$s)", language, setting ?? "C", $0) }
            ?? Phrase("%1$s%2$s (no catalogs found)", language, setting ?? "C")
        report.add("language", Check(name: Phrase("language"), level: .ok, detail: detail),
                   [("locale", setting.map(JSON.string) ?? .null), ("installed", .bool(true))])
    }

    /// The store: there, sound, readable, ours to write.
    static func checkStore(_ world: World, into report: inout Report) {
        let path = world.storePath
        let health: AppDatabase.Health?
        do {
            health = try AppDatabase.health(path: path)
        } catch {
            report.storeOK = false
            let fix = error.message.hasSuffix("Is a directory")
                ? Phrase("the store's path is a folder: move it aside (mv '%1$s' '%1$s.folder'); Nudge then starts a new store", path)
                : Phrase("check the file's owner and mode (it should be yours, 0600)")
            report.add("store", Check(name: Phrase("store"), level: .fail, detail: error.phrase, fix: fix), [("path", .string(path))])
            return
        }
        guard let health else {
            report.add("store", Check(name: Phrase("store"), level: .ok, detail: Phrase("%s: none yet (the first `nudge add` creates it)", path)),
                       [("path", .string(path))])
            return
        }
        report.storeOK = health.problems.isEmpty
        let lastGood = health.lastGood.map { JSON.string(InstantFormat.iso8601($0.modified, in: world.zone)) } ?? .null
        report.add("store", storeCheck(health, path: path, zone: world.zone),
                   [("path", .string(path)), ("alerts", .integer(Int64(health.alerts))),
                    ("problems", .array(health.problems.map(JSON.string))),
                    ("unreadable", .array(health.unreadable.map(JSON.string))),
                    ("newer", health.newer.map(JSON.string) ?? .null), ("lastGood", lastGood)])
    }

    /// The store's line: damage with the one command that restores it, rows that cannot be
    /// read, a newer Nudge's store, or all well with the last good copy's age.
    static func storeCheck(_ health: AppDatabase.Health, path: String, zone: TimeZone) -> Check {
        if !health.problems.isEmpty {
            let problems = health.problems.prefix(3).joined(separator: "; ")
            let fix = health.lastGood.map {
                Phrase("nudge doctor --restore (puts the last good copy of %s in its place; the damaged file is kept aside)",
                       InstantFormat.iso8601($0.modified, in: zone))
            } ?? Phrase("mv '%1$s' '%1$s.broken' (Nudge starts a new, empty store; `sqlite3 '%1$s.broken' .recover` may save what it held)", path)
            // TRANSLATORS: nudge doctor: %1$s is the store's path, %2$s when the damage was found, %3$s what is wrong.
            let detail = health.damageFound.map {
                Phrase("%1$s is damaged (found %2$s): %3$s; nothing writes to it until it is restored", path, InstantFormat.iso8601($0, in: zone), problems)
            } ?? Phrase("%1$s is damaged: %2$s; nothing writes to it until it is restored", path, problems)
            return Check(name: Phrase("store"), level: .fail, detail: detail, fix: fix)
        }
        if let found = health.putRight {
            // TRANSLATORS: nudge doctor: %1$s is the store's path, %2$s when it was found damaged; it passes the full check now.
            return Check(name: Phrase("store"), level: .warn,
                         detail: Phrase("%1$s was found damaged (%2$s) and is whole now (put right in its place): Nudge writes to it again", path, InstantFormat.iso8601(found, in: zone)))
        }
        if let newer = health.newer {
            return Check(name: Phrase("store"), level: .warn,
                         detail: Phrase("%1$s was written by a newer Nudge (%2$s): this one reads it but never writes it", path, newer),
                         fix: Phrase("update Nudge"))
        }
        if !health.unreadable.isEmpty {
            // TRANSLATORS: nudge doctor: %1$s is the store's path, %2$d how many alerts, %3$d how many cannot be read, %4$s the first of them.
            return Check(name: Phrase("store"), level: .warn,
                         detail: Phrase.counted("%1$s: %2$d alert, %3$d of them unreadable: %4$s", "%1$s: %2$d alerts, %3$d of them unreadable: %4$s",
                                                health.alerts, path, health.alerts, health.unreadable.count, health.unreadable[0]),
                         fix: health.unreadable.count > 1 ? Phrase("the same for the others (nudge list names them)") : nil)
        }
        // TRANSLATORS: nudge doctor: %1$s is the store's path, %2$d how many alerts, %3$d its size, %4$s when the last good copy was made.
        return Check(name: Phrase("store"), level: .ok, detail: health.lastGood.map {
            Phrase.counted("%1$s: %2$d alert, %3$d KiB, quick_check ok, last good copy %4$s",
                           "%1$s: %2$d alerts, %3$d KiB, quick_check ok, last good copy %4$s", health.alerts,
                           path, health.alerts, health.bytes / 1024, InstantFormat.iso8601($0.modified, in: zone))
        } ?? Phrase.counted("%1$s: %2$d alert, %3$d KiB, quick_check ok, no last good copy yet",
                            "%1$s: %2$d alerts, %3$d KiB, quick_check ok, no last good copy yet", health.alerts,
                            path, health.alerts, health.bytes / 1024))
    }

    /// The services that tell the daemon the person is away, found on the bus now: the
    /// screen lockers and GNOME's idle monitor (do not disturb is its own line).
    static func presenceSources(_ connection: Connection) -> (check: Check, found: [String]) {
        let names = ["org.freedesktop.ScreenSaver", "org.gnome.ScreenSaver", "org.mate.ScreenSaver", "org.gnome.Mutter.IdleMonitor"]
        let found = names.filter { (try? connection.nameHasOwner($0)) == true }
        guard !found.isEmpty else {
            // TRANSLATORS: nudge doctor: no screen locker or idle monitor on the bus.
            return (Check(name: Phrase("away"), level: .ok, detail: Phrase("no screen locker or idle monitor found: reminders hold only while notifications are paused")), [])
        }
        // TRANSLATORS: nudge doctor: the services that say the person is away; %s lists their bus names.
        return (Check(name: Phrase("away"), level: .ok, detail: Phrase("followed through %s", found.joined(separator: ", "))), found)
    }

    /// GNOME Shell's per-app settings for Nudge, at the path the shell derives from the app
    /// id (lowercase, anything but letters, digits and dashes made a dash, no two dashes).
    static let gnomeAppPath = "/org/gnome/desktop/notifications/application/"
        + Notification.appID.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? String($0) : "-" }.joined()
            .replacingOccurrences(of: "--", with: "-") + "/"

    /// What GNOME's Settings say of Nudge's notifications: switched off, the shell shows no
    /// pop-up and sends no NotificationClosed, which nothing else can tell; banners off, they
    /// go to the tray only. `nil` when `gsettings` cannot say.
    static func gnomeSettings(_ environment: Environment) -> Check? {
        guard let gsettings = environment.searchPath.map({ $0 + "/gsettings" }).first(where: { access($0, X_OK) == 0 }) else { return nil }
        let schema = "org.gnome.desktop.notifications.application:" + gnomeAppPath
        func read(_ arguments: [String]) -> String? {
            let loop = EventLoop()
            var answer: String??
            ChildProcess.run(gsettings, ["get"] + arguments, on: loop, timeout: 2000) { result in
                answer = .some(result.flatMap { $0.status == 0 ? $0.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil })
            }
            while answer == nil { do { try loop.turn(maxWait: 2000) } catch { return nil } }
            return answer ?? nil
        }
        guard let enabled = read([schema, "enable"]) else { return nil }
        let name = Phrase("GNOME settings")
        if enabled == "false" {
            // TRANSLATORS: nudge doctor: GNOME Settings → Notifications → Nudge is switched off.
            return Check(name: name, level: .fail, detail: Phrase("notifications for Nudge are off in GNOME's Settings: GNOME shows no pop-up for them"),
                         fix: Phrase.verbatim("Settings → Notifications → Nudge, or: gsettings set \(schema) enable true"))
        }
        if read(["org.gnome.desktop.notifications", "show-banners"]) == "false" {
            // TRANSLATORS: nudge doctor: GNOME's Do Not Disturb is on.
            return Check(name: name, level: .warn, detail: Phrase("Do Not Disturb is on: reminders go to the message tray without a pop-up"),
                         fix: Phrase("turn Do Not Disturb off in the calendar menu"))
        }
        if read([schema, "show-banners"]) == "false" {
            // TRANSLATORS: nudge doctor: GNOME Settings → Notifications → Nudge → Pop-up banners is off.
            return Check(name: name, level: .warn, detail: Phrase("pop-up banners for Nudge are off in GNOME's Settings: reminders go to the message tray only"),
                         fix: Phrase.verbatim("Settings → Notifications → Nudge → Pop-up banners, or: gsettings set \(schema) show-banners true"))
        }
        // TRANSLATORS: nudge doctor: GNOME shows Nudge's notifications as pop-ups.
        return Check(name: name, level: .ok, detail: Phrase("Nudge's notifications are on, with pop-up banners"))
    }

    /// Do-not-disturb where the server lets it be read: dunst's `paused`, KDE's `Inhibited`.
    static func doNotDisturb(_ connection: Connection, server: String) -> Check {
        func property(_ interface: String, _ name: String) -> Bool? {
            (try? connection.property(name, of: interface, at: FreedesktopDelivery.busName, path: FreedesktopDelivery.objectPath))??.bool
        }
        if let paused = property("org.dunstproject.cmd0", "paused") {
            return paused
                ? Check(name: Phrase("do not disturb"), level: .warn, detail: Phrase("on: dunst is paused, pop-ups wait until it resumes"),
                        fix: Phrase.verbatim("dunstctl set-paused false"))
                : Check(name: Phrase("do not disturb"), level: .ok, detail: Phrase("off (dunst is not paused)"))
        }
        if let inhibited = property(FreedesktopDelivery.interface, "Inhibited") {
            return inhibited
                ? Check(name: Phrase("do not disturb"), level: .warn, detail: Phrase("on: %s holds pop-ups back (Inhibited)", server),
                        fix: Phrase("turn Do Not Disturb off in the notification area"))
                : Check(name: Phrase("do not disturb"), level: .ok, detail: Phrase("off (%s is not inhibited)", server))
        }
        return Check(name: Phrase("do not disturb"), level: .ok, detail: Phrase("unknown: %s does not say", server))
    }

    /// The last good copy put in place of a damaged store (the damaged file kept aside);
    /// returns the line that says so. A sound store is not replaced.
    public static func restoreStore(_ world: World) throws(OperationError) -> String {
        let restored = try restoreLastGood(world)
        let path = restored.path
        // TRANSLATORS: nudge doctor --restore; %1$s is the store's path, %2$s when the copy was made.
        let words = restored.made.map { format(tr("restored %1$s from the last good copy of %2$s"), path, InstantFormat.iso8601($0, in: world.zone)) }
            ?? format(tr("restored %s from the last good copy"), path)
        // TRANSLATORS: nudge doctor --restore: where the damaged file was kept.
        return words + (restored.aside.map { format(tr("; the old file is kept as %s"), $0) } ?? "")
    }

    /// What ``restoreLastGood(_:)`` did, for a face to word: the store's path, when the copy
    /// put back was made, and where the file it replaced was kept (none when it was gone).
    public struct Restored: Sendable {
        public let path: String
        public let made: Date?
        public let aside: String?
    }

    /// What restoring the last good copy would do to the reminders a face shows: those not in
    /// the copy (lost with a plain restore), those in it that are not shown (deleted since:
    /// they come back), and those the copy holds otherwise (changed since), by title.
    public struct RestoreDifference: Sendable, Equatable {
        public var lost: [String] = []
        public var back: [String] = []
        public var changed: [String] = []
        public var isEmpty: Bool { lost.isEmpty && back.isEmpty && changed.isEmpty }
    }

    /// How the last good copy differs from `shown` (what a face listed before the trouble).
    public static func restoreDifference(_ world: World, shown: [Alert]) throws(OperationError) -> RestoreDifference {
        let copy: [Alert]
        do { copy = try StoreFile(path: world.storePath).lastGoodAlerts() } catch { throw OperationError(error) }
        let held = Dictionary(copy.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let shownIDs = Set(shown.map(\.id))
        var difference = RestoreDifference()
        for alert in shown {
            if let old = held[alert.id] {
                if old != alert { difference.changed.append(alert.title) }
            } else {
                difference.lost.append(alert.title)
            }
        }
        difference.back = copy.filter { !shownIDs.contains($0.id) }.map(\.title)
        return difference
    }

    /// The last good copy put in the store's place, the file there kept aside; refused for a
    /// store that is sound. `nudge doctor --restore` and the window's store card. With
    /// `keeping`, the store put back holds exactly those reminders (what the window showed).
    public static func restoreLastGood(_ world: World, keeping: [Alert]? = nil) throws(OperationError) -> Restored {
        let path = world.storePath
        let file = StoreFile(path: path)
        let made = file.lastGood()?.modified
        if FileManager.default.fileExists(atPath: path), file.damage() == nil,
           (try? StoreFile.quickCheck(path)).map(\.isEmpty) ?? false {
            // TRANSLATORS: nudge doctor --restore on a store that is not damaged; %s is its path.
            throw OperationError(.usage, format(tr("%s is sound: --restore only replaces a damaged store"), path))
        }
        let aside: String?
        do { aside = try file.restoreLastGood(keeping: keeping) } catch { throw OperationError(error) }
        world.storeChanged()
        return Restored(path: path, made: made, aside: aside)
    }
}
