import Foundation
import Testing
import TestSupport

/// The desktops people run, live: GNOME Shell 43 and KDE Plasma 5.27 as Debian 12 ships
/// them, and swaync, on this machine; GNOME Shell 48 and Plasma 6.3 as Debian 13 ships them,
/// in a Debian 13 root (`scripts/desktop-root`); and, in `make test-next` only
/// (`NUDGE_LIVE_SUITES=sid`), sid's GNOME 51 and Plasma 6.7. Each is started headless the way
/// its desktop starts it, with Nudge's daemon. Tests/bench/live-session drives one whole
/// session per desktop (the person's clicks go through the desktop's own buttons: GNOME's
/// through `org.gnome.Shell.Eval`, Plasma's and swaync's through AT-SPI) and prints what it
/// saw; the tests read it. The desktops refuse to run as root, so the session runs as
/// `nobody` (in a root, as its own `nudgelive`).
struct LiveDesktop: Hashable, Sendable, CustomTestStringConvertible {
    /// The desktop, as Tests/bench/live names its script.
    enum Server: String, Sendable { case gnome, plasma, swaync }

    let server: Server
    /// The Debian suite of the root it runs in; `nil` for this machine's own (Debian 12).
    let suite: String?

    static let gnome = LiveDesktop(server: .gnome, suite: nil)
    static let plasma = LiveDesktop(server: .plasma, suite: nil)
    static let swaync = LiveDesktop(server: .swaync, suite: nil)

    /// The suites `NUDGE_LIVE_SUITES` names (default: this machine's and Debian 13's).
    static let suites: [String?] = (ProcessInfo.processInfo.environment["NUDGE_LIVE_SUITES"] ?? "bookworm trixie")
        .split(separator: " ").map { $0 == "bookworm" ? nil : String($0) }

    /// Every desktop of those suites (swaync on this machine's only).
    static var allCases: [LiveDesktop] {
        suites.flatMap { suite in (suite == nil ? [Server.gnome, .plasma, .swaync] : [.gnome, .plasma]).map { LiveDesktop(server: $0, suite: suite) } }
    }

    /// The GNOME sessions among them.
    static var gnomes: [LiveDesktop] { allCases.filter { $0.server == .gnome } }

    /// `gnome`, or `gnome-trixie` in a root: also the name of its screenshots.
    var name: String { suite.map { "\(server.rawValue)-\($0)" } ?? server.rawValue }
    var testDescription: String { name }

    /// What the desktop needs installed (`make deps` installs it; a root is built by
    /// scripts/desktop-root).
    var programs: [String] {
        if suite != nil { return [Bench.packageRoot.appendingPathComponent("scripts/desktop-root").path, "/usr/bin/mmdebstrap"] }
        return switch server {
        case .gnome: ["/usr/bin/gnome-shell", "/usr/bin/gjs"]
        case .plasma: ["/usr/bin/kwin_wayland", "/usr/bin/plasmawindowed", "/usr/bin/kbuildsycoca5"]
        case .swaync: ["/usr/bin/sway", "/usr/bin/swaync", "/usr/bin/grim"]
        }
    }

    /// How the server names itself in GetServerInformation (name, vendor, version).
    var serverPrefix: String {
        switch (server, suite) {
        case (.gnome, nil): "gnome-shell GNOME 43."
        case (.gnome, "trixie"): "gnome-shell GNOME 48."
        case (.gnome, _): "gnome-shell GNOME 51."
        case (.plasma, nil): "Plasma KDE 5.27."
        case (.plasma, "trixie"): "Plasma KDE 6.3."
        case (.plasma, _): "Plasma KDE 6.7."
        case (.swaync, _): "SwayNotificationCenter ErikReider 0.7."
        }
    }

    /// The buttons a reminder shows there, in reading order.
    var reminderButtons: [String] { ["Done", "Snooze 10 min", "Done for today"] }

    /// The buttons a water reminder shows there: GNOME draws 3, so "Done for today" is left
    /// to the command line and the terminal UI; Plasma 5.27 lays 4 out right to left, and the
    /// one that does not fit (the first) goes to a second row; Plasma 6 draws 4 in a row.
    var waterButtons: [String] {
        switch (server, suite) {
        case (.gnome, _): ["Drank 250 ml", "Done", "Snooze 10 min"]
        case (.plasma, nil): ["Done", "Snooze 10 min", "Done for today", "Drank 250 ml"]
        case (.plasma, _), (.swaync, _): ["Drank 250 ml", "Done", "Snooze 10 min", "Done for today"]
        }
    }

    /// Whether Nudge can see the desktop's do-not-disturb (swaync tells no client).
    var tellsDoNotDisturb: Bool { server != .swaync }

    /// Whether the server sends an activation token with a click (spec 1.2): GNOME Shell 48
    /// and later do (43 sends none); the tests click Plasma's and swaync's body through calls
    /// that carry none.
    var sendsActivationToken: Bool { server == .gnome && suite != nil }
}

/// One live session per desktop, run once and shared by its tests.
final class LiveSessions: @unchecked Sendable {
    static let shared = LiveSessions()
    private let lock = NSLock()
    private var runs: [LiveDesktop: [String: String]] = [:]

    /// Where each session's screenshots are kept (`make bench` copies them to the README's).
    static let screenshots = Bench.packageRoot.appendingPathComponent(".build/live-desktops").path

    static var canRun: Bool { getuid() == 0 }

    func values(_ desktop: LiveDesktop) throws -> [String: String] {
        try lock.withLock {
            if let run = runs[desktop] { return run }
            var run = try Self.run(desktop)
            // Once in a clean-clone CI (the whole suite on both cores) GNOME 43 stopped
            // answering after the first case, and every pop-up after it failed; the same
            // session passed on every other run, loaded or not. A session whose desktop
            // stopped answering is run once more, and the log says so: a desktop that fails
            // twice fails the tests.
            if Self.stoppedAnswering(run) {
                let stalled = Self.stalledCases(run)
                print("live \(desktop.name): the desktop stopped answering (\(stalled.joined(separator: ", "))); running the session once more")
                run = try Self.run(desktop)
            }
            runs[desktop] = run
            return run
        }
    }

    /// The cases whose pop-up failed to show (the server's restart excepted, where a refusal
    /// while it comes back is expected).
    static func stalledCases(_ run: [String: String]) -> [String] {
        run.filter { $0.key.hasSuffix(".events") && !$0.key.hasPrefix("restart.") && $0.value.split(separator: " ").contains("failed") }
            .map(\.key).sorted()
    }

    static func stoppedAnswering(_ run: [String: String]) -> Bool { run["start"] == "ok" && !stalledCases(run).isEmpty }

    private static func run(_ desktop: LiveDesktop) throws -> [String: String] {
        let files = FileManager.default
        let work = files.temporaryDirectory.appendingPathComponent("nudge-live-\(desktop.name)-\(UUID())").path
        try files.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        defer { try? files.removeItem(atPath: work) }
        // Copies nobody can run wherever the checkout lives (a home folder may be closed to it).
        let bench = Bench.packageRoot.appendingPathComponent("Tests/bench")
        let packaging = Bench.packageRoot.appendingPathComponent("packaging")
        try files.copyItem(atPath: bench.appendingPathComponent("live-session").path, toPath: work + "/live-session")
        try files.copyItem(atPath: bench.appendingPathComponent("live").path, toPath: work + "/live")
        // nudge as installed: its Korean catalog in ../share/locale, where it looks.
        try files.createDirectory(atPath: work + "/bin", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try files.copyItem(atPath: Bench.nudgePath, toPath: work + "/bin/nudge")
        let catalog = Bench.packageRoot.appendingPathComponent(".build/locale/ko/LC_MESSAGES/nudge.mo").path
        try files.createDirectory(atPath: work + "/share/locale/ko/LC_MESSAGES", withIntermediateDirectories: true)
        try files.copyItem(atPath: catalog, toPath: work + "/share/locale/ko/LC_MESSAGES/nudge.mo")
        let session = work + "/session"
        try files.createDirectory(atPath: session, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try files.copyItem(atPath: packaging.appendingPathComponent("io.github.nudge.Nudge.desktop").path,
                           toPath: session + "/io.github.nudge.Nudge.desktop")
        try files.copyItem(atPath: packaging.appendingPathComponent("icons/io.github.nudge.Nudge.svg").path,
                           toPath: session + "/io.github.nudge.Nudge.svg")
        for file in ["io.github.nudge.Nudge.search-provider.ini", "io.github.nudge.Nudge.krunner.desktop"] {
            try files.copyItem(atPath: packaging.appendingPathComponent("search/" + file).path, toPath: session + "/" + file)
        }
        for file in try files.contentsOfDirectory(atPath: session) {
            try files.setAttributes([.posixPermissions: 0o666], ofItemAtPath: session + "/" + file)
        }
        // Xwayland's socket folder, which GNOME Shell will not make as nobody.
        try? files.createDirectory(atPath: "/tmp/.X11-unix", withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o1777])
        let command = [work + "/live-session", desktop.server.rawValue, work + "/bin/nudge", session]
        let outcome: Bench.Outcome
        if let suite = desktop.suite {
            // The root is built once and kept (a few minutes the first time); the session
            // runs in a throwaway copy of it, seeing this folder at the same path.
            let rootScript = Bench.packageRoot.appendingPathComponent("scripts/desktop-root").path
            let built = try Bench.run(rootScript, ["build", suite], timeout: 1200)
            guard built.status == 0 else { return ["output": "desktop-root build \(suite) failed: \(built.stderr.suffix(2000))"] }
            outcome = try Bench.run(rootScript, ["run", suite, "--bind", work, "--", "/usr/sbin/runuser", "-u", "nudgelive", "--", "setsid", "-w"] + command,
                                    timeout: 600)
        } else {
            outcome = try Bench.run("/usr/sbin/runuser", ["-u", "nobody", "--", "setsid", "-w"] + command,
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil],
                                    timeout: 600)
        }
        try? files.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        // gnome.png from the root's GNOME is kept as gnome-trixie.png.
        for shot in (try? files.contentsOfDirectory(atPath: session))?.filter({ $0.hasSuffix(".png") }) ?? [] {
            let kept = desktop.suite.map { shot.replacingOccurrences(of: desktop.server.rawValue, with: "\(desktop.server.rawValue)-\($0)") } ?? shot
            try? files.removeItem(atPath: screenshots + "/" + kept)
            try? files.copyItem(atPath: session + "/" + shot, toPath: screenshots + "/" + kept)
        }
        var values: [String: String] = ["output": outcome.stdout + outcome.stderr]
        for line in outcome.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }
}

@Suite(.onTestThreadsAhead, .serialized, .enabled(if: LiveSessions.canRun, "needs root (to run the desktops as nobody)"))
struct LiveDesktopTests {
    /// The session's values, once the desktop is installed and started.
    func session(_ desktop: LiveDesktop) throws -> [String: String] {
        let missing = desktop.programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        try #require(missing.isEmpty, "not installed: \(missing) (make deps installs them)")
        let values = try LiveSessions.shared.values(desktop)
        try #require(values["start"] == "ok", "\(values["output"] ?? "")")
        return values
    }

    /// The answer each button gives, as `nudge log` names it.
    static let answers = ["Done": "acknowledged", "Snooze 10 min": "snoozed", "Done for today": "done-for-today",
                          "Drank 250 ml": "drank"]

    @Test(arguments: LiveDesktop.allCases)
    func theDesktopStartsAndSaysWhoItIs(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["server"]?.hasPrefix(desktop.serverPrefix) == true, "\(s["server"] ?? "")")
    }

    @Test(arguments: LiveDesktop.allCases)
    func aReminderArrivesOnceWithTheButtonsThatFit(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["arrive.events"] == "fired")
        #expect(s["arrive.shown"] == "1")
        #expect(s["arrive.notifies"] == "1")
        #expect(s["arrive.title"] == "Stretch")
        #expect(s["arrive.buttons"] == desktop.reminderButtons.joined(separator: "|"))
        #expect(s["water.title"] == "Time to drink water 💧")
        #expect(s["water.buttons"] == desktop.waterButtons.joined(separator: "|"))
    }

    @Test(arguments: LiveDesktop.allCases)
    func everyButtonShownAnswersOnceAndThePopUpGoes(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        for (prefix, labels) in [("press", desktop.reminderButtons), ("water", desktop.waterButtons)] {
            for label in labels {
                let key = "\(prefix).\(label)"
                #expect(s[key + ".events"] == "fired \(Self.answers[label] ?? "?")", "\(key)")
                #expect(s[key + ".after"] == "0", "\(key): the pop-up went")
                #expect(s[key + ".notifies"] == "0", "\(key): nothing shown again")
            }
        }
    }

    @Test(arguments: LiveDesktop.allCases)
    func aBodyClickIsDoneAndClosingIsADismissal(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["body.events"] == "fired acknowledged")
        #expect(s["body.after"] == "0")
        #expect(s["dismiss.events"] == "fired dismissed")
        #expect(s["dismiss.after"] == "0")
    }

    /// Fired twice unanswered: one pop-up with the count and all its buttons (on GNOME a new
    /// pop-up in the old one's place, as a replacement there would lose its buttons).
    @Test(arguments: LiveDesktop.allCases)
    func aPopUpWithACountKeepsItsButtonsAndIsAnswered(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["count.shown"] == "1")
        #expect(s["count.title"] == "Water ×2")
        #expect(s["count.buttons"] == desktop.reminderButtons.joined(separator: "|"))
        #expect(s["count.events"] == "fired fired acknowledged")
        #expect(s["count.after"] == "0")
    }

    /// `nudge send` leaves a pop-up that stays (GNOME 48 took an app's pop-ups down with the
    /// connection that first sent one, and send's connection goes at once).
    @Test(arguments: LiveDesktop.allCases)
    func aPopUpSentFromTheCommandLineStays(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["send.status"] == "0")
        #expect(s["send.shown"] == "1")
    }

    /// The body click opens the window at the reminder, passing on the server's activation
    /// token, so a Wayland compositor brings it to the front.
    @Test(arguments: LiveDesktop.allCases)
    func aBodyClickOpensTheWindowWithTheActivationToken(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["body.window"] == "1")
        #expect(s["body.token"] == (desktop.sendsActivationToken ? "1" : "0"))
    }

    /// Two due in the same second, the one on screen answered: the other comes on screen
    /// (GNOME left it queued, without a banner, until another pop-up arrived).
    @Test(arguments: LiveDesktop.allCases)
    func theSecondOfTwoDueTogetherComesOnScreenWhenTheFirstIsAnswered(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["queue.banner"] == s["queue.other"])
        #expect(s["queue.shown"] == "1")
    }

    /// The daemon replaced while a reminder waits for its answer: shown again once, and its
    /// buttons answer (GNOME 48 took the old daemon's pop-up down; 43 left it answering a
    /// connection that was gone).
    @Test(arguments: LiveDesktop.allCases)
    func aReplacedDaemonShowsWhatWaitedAgainOnce(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["replace.events"] == "fired redelivered")
        #expect(s["replace.shown"] == "1", "\(s["gnome.sources"] ?? "")")
        #expect(s["replace.buttons"] == desktop.reminderButtons.joined(separator: "|"))
        #expect(s["replace.answered"] == "fired redelivered acknowledged")
    }

    /// Two alike due together both show (Plasma refuses the second for a second).
    @Test(arguments: LiveDesktop.allCases)
    func twoRemindersAlikeDueTogetherBothShow(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["twins.events"] == "fired / fired")
        #expect(s["twins.shown"] == "2")
    }

    /// Shown again once. A server that refuses while it comes back (GNOME's helper is up
    /// before its shell) is asked again: each refusal is one more Notify, logged as failed,
    /// and only the last is shown.
    @Test(arguments: LiveDesktop.allCases)
    func theServerKilledAndBackShowsThePopUpAgainOnce(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        // The session's own lines say what the server did on its way back (once, in a
        // clean-clone CI on a loaded machine, GNOME Shell did not come back).
        #expect(s["restart.shown"] == "1", "\(s["output"]?.split(separator: "\n").suffix(40).joined(separator: "\n") ?? "")")
        let events = (s["restart.events"] ?? "").split(separator: " ")
        let refused = events.filter { $0 == "failed" }.count
        #expect(events.first == "fired" && events.last == "redelivered", "\(events)")
        #expect(events.dropFirst().dropLast().map(String.init) == Array(repeating: ["redelivered", "failed"], count: refused).flatMap { $0 },
                "\(events)")
        #expect(s["restart.notifies"] == "\(1 + refused)")
    }

    @Test(arguments: LiveDesktop.allCases)
    func doNotDisturbHoldsAndOnePopUpComesOnReturn(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        guard desktop.tellsDoNotDisturb else {
            #expect(s["dnd"] == "unsupported")
            return
        }
        #expect(s["dnd.held"] == "held")
        #expect(s["dnd.shown"] == "0")
        #expect(s["dnd.events"] == "held shown-on-return")
        #expect(s["dnd.after"] == "1")
    }

    /// GNOME's Settings switch Nudge off: no signal says so, and `nudge doctor` does.
    @Test(arguments: LiveDesktop.gnomes)
    func doctorSaysWhenGnomeSettingsSilenceNudge(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["doctor.on"] == "1")
        #expect(s["appoff.events"] == "fired")
        #expect(s["doctor.off"] == "1")
    }

    /// The desktop's own search (GNOME's overview, KRunner) adds a reminder in words: the
    /// shell loads the provider from its .ini, KRunner the runner from its desktop file;
    /// nothing is stored until a result is chosen as a person chooses it, then exactly one
    /// reminder, said by a pop-up whose Undo takes it back; a bare hour gives two results,
    /// words left over none "Remind me"; Korean is read, and answered in Korean.
    @Test(arguments: LiveDesktop.allCases.filter { $0.server != .swaync })
    func theDesktopsSearchAddsAReminderInWords(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        let results = (s["search.results"] ?? "").split(separator: "|").map(String.init)
        try #require(results.count == 1, "\(s["output"] ?? "")")
        #expect(results[0].hasPrefix("Remind me: call mum — "), "\(results)")
        // KRunner draws the subtext of the selected row (the first) only; GNOME every one.
        #expect(s["search.description"]?.hasPrefix("tomorrow at 6pm → once, ") == true, "\(s["search.description"] ?? "")")
        #expect(s["search.stored"] == "nothing")
        #expect(s["search.added"] == "call mum")
        #expect(s["search.open"] == "false", "the overview or KRunner closes once a result is chosen")
        let popup = (s["search.popup"] ?? "").split(separator: "\t").map(String.init)
        #expect(popup.first?.hasPrefix("Added: call mum — ") == true, "\(popup)")
        #expect(popup.last?.split(separator: "|").contains("Undo") == true, "\(popup)")
        #expect(s["search.undone"] == "yes")
        let ambiguous = (s["search.ambiguous"] ?? "").split(separator: "|").map(String.init)
        #expect(ambiguous.count == 2 && ambiguous.allSatisfy { $0.hasPrefix("Remind me: call mum — ") }, "\(ambiguous)")
        #expect(s["search.leftover"] == "0")
        #expect(s["search.match"] == "Water the plants")
        #expect(s["search.opened"]?.hasPrefix("--show \(s["search.plants"] ?? "?")") == true, "\(s["search.opened"] ?? "")")
        #expect(s["search.launched"]?.hasPrefix("--search water the plants") == true, "\(s["search.launched"] ?? "")")
        #expect(s["search.ko.results"]?.hasPrefix("알림 추가: 물 마시기 — ") == true, "\(s["search.ko.results"] ?? "")")
        #expect(s["search.ko.added"] == "물 마시기")
        #expect(s["search.off"] == "0", "switched off in the desktop's settings")
        for shot in ["\(desktop.name)-search-en.png", "\(desktop.name)-search-ko.png"] {
            #expect(FileManager.default.fileExists(atPath: LiveSessions.screenshots + "/" + shot), "\(shot)")
        }
    }

    @Test(arguments: LiveDesktop.allCases)
    func theDaemonEndsCleanAndLeftScreenshots(_ desktop: LiveDesktop) throws {
        let s = try session(desktop)
        #expect(s["daemon.status"] == "0")
        #expect(s["daemon.warnings"] == "0", "none but the server going away and coming back")
        for shot in ["\(desktop.name).png", "\(desktop.name)-reminder.png"] {
            #expect(FileManager.default.fileExists(atPath: LiveSessions.screenshots + "/" + shot), "\(shot)")
        }
    }
}
