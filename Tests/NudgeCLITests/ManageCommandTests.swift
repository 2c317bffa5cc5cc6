import DBus
import Foundation
import NudgeCore
import NudgeStore
import Testing
import TestSupport

/// `nudge edit`, `ack`, `done`, `snooze`, `log`; the list in three locales and in colour;
/// faults of the store; telling a running daemon.
@Suite(.onTestThreads)
struct ManageCommandTests {
    func show(_ home: Home, _ id: String) throws -> [String: Any] {
        let out = try home.nudge("show", id, "--json")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    @Test func editChangesOnlyWhatIsGiven() throws {
        let home = try Home()
        let id = try home.add("Water", "--at", "9:00", "--urgency", "critical", "--sound", "bell")
        let edited = try home.nudge("edit", String(id.prefix(4)), "--title", "Tea", "--every", "45m", "--from", "10:00", "--until", "18:00")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasPrefix("edited \(id): Tea — every 45 min, 10:00–17:30"))
        var alert = try show(home, id)
        #expect(alert["title"] as? String == "Tea")
        #expect(alert["urgency"] as? String == "critical")
        #expect(alert["sound"] as? String == "bell")
        #expect(alert["schedule"] as? String == "every 45 min, 10:00–17:30")
        try home.nudge("edit", id, "--tz", "Europe/Berlin", "--off")
        alert = try show(home, id)
        #expect(alert["timeZone"] as? String == "Europe/Berlin")
        #expect(alert["enabled"] as? Bool == false)
        try home.nudge("edit", id, "--tz", "system", "--sound", "none")
        alert = try show(home, id)
        #expect(alert["timeZone"] is NSNull)
        #expect(alert["sound"] is NSNull)
        #expect(try home.list().count == 1)
    }

    @Test func answersChangeTheStateAndAreLogged() throws {
        let home = try Home()
        let id = try home.add("Stretch", "--every", "1h")
        let snoozed = try home.nudge("snooze", id, "10m")
        #expect(snoozed.status == 0, "\(snoozed.stderr)")
        #expect(snoozed.stdout.hasPrefix("snoozed \(id) until "))
        var log = try home.log()
        #expect(log.map { $0["event"] as? String } == ["snoozed"])
        #expect((log.first?["detail"] as? String)?.hasPrefix("until 20") == true)
        #expect(log.first?["shortId"] as? String == id)
        #expect(log.first?["title"] as? String == "Stretch")
        #expect(try home.nudge("done", id).stdout == "done for today \(id): Stretch\n")
        log = try home.log()
        #expect(log.map { $0["event"] as? String } == ["snoozed", "done-for-today"])
        #expect(try home.nudge("ack", "--all").stdout == "nothing to acknowledge\n")
        #expect(try home.nudge("ack", id).status == 0)
        let text = try home.nudge("log", "--since", "1h").stdout
        #expect(text.contains("\(id)  snoozed (until 20"))
        try home.nudge("rm", id)
        #expect(try home.nudge("log").stdout.contains("(removed)"), "the log outlives the alert")
    }

    @Test(arguments: [
        (["edit", "ffff", "--title", "x"], "no alert"), (["edit", "ID", "--at", "25:61"], "'25:61'"),
        (["edit", "ID", "--tz", "Mars/Olympus"], "'Mars/Olympus'"), (["edit", "ID", "--in", "0m"], "'0m'"),
        (["edit", "ID", "--grace", "1h", "--catch-up", "skip"], "--grace"), (["edit", "ID", "--urgency", "loud"], "'loud'"),
        (["ack"], "--all"), (["ack", "ffff"], "no alert"), (["done", "ffff"], "no alert"),
        (["snooze", "ID", "0m"], "'0m'"), (["snooze", "ID", "soon"], "'soon'"), (["snooze", "ffff", "10m"], "no alert"),
        (["log", "--since", "yesterday"], "'yesterday'"), (["edit", "ID", "--title", String(repeating: "é", count: 50_000)], "at most 500"),
    ])
    func badInputChangesNothing(arguments: [String], mentions: String) throws {
        let home = try Home()
        let id = try home.add("Keep", "--at", "08:00")
        #expect(try home.refuses(arguments.map { $0 == "ID" ? id : $0 }, mentions: mentions) == [])
    }

    @Test func snoozingASwitchedOffAlertIsRefused() throws {
        let home = try Home()
        let id = try home.add("Quiet", "--at", "08:00", "--off")
        let result = try home.nudge("snooze", id, "5m")
        #expect(result.status == 64)
        #expect(result.stderr == "nudge: alert \(id) is off: switch it on first (nudge on \(id))\n")
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        let home = try Home()
        _ = try home.add("Create", "--at", "08:00")
        do {
            let store = try AppDatabase.open(path: home.database)
            for hex in ["abcd1111111111111111111111111111", "abcd2222222222222222222222222222"] {
                let nine = Schedule.daily(times: [LocalTime(hour: 9, minute: 0)!], days: Schedule.everyDay)
                try store.save(Alert(id: try #require(UUID(hex: hex)), title: "Twin", schedule: nine, created: Date()))
            }
        } // closed: its WAL is checkpointed before the digest is taken
        #expect(try home.refuses(["rm", "abcd"], line: "nudge: id 'abcd' is ambiguous: it matches abcd1111, abcd2222\n") == [])
        #expect(try home.nudge("rm", "abcd2").status == 0)
    }

    @Test func invalidUTF8IsRefused() throws {
        let home = try Home()
        _ = try home.add("Keep", "--at", "08:00")
        let before = try home.digest()
        let result = try Bench.run("/bin/sh", ["-c", "exec \"$0\" add \"$(printf 'bad \\377\\376 title')\" --at 9:00", Bench.nudgePath],
                                   environment: home.environment())
        #expect(result.status == 64)
        #expect(result.stderr == "nudge: invalid title: it is not valid UTF-8 text\n")
        #expect(try home.digest() == before)
    }

    /// Runs `nudge` as a user who may not write (or read) the store: as root, through
    /// setpriv as nobody, since root ignores file modes.
    func asOutsider(_ home: Home, _ arguments: [String], mode: mode_t) throws -> Bench.Outcome {
        let folder = home.dir + "/nudge"
        if getuid() == 0 {
            chmod(home.dir, 0o755)
            chmod(folder, 0o755)
            chmod(home.database, mode & 0o644)
            return try Bench.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Bench.nudgePath] + arguments,
                                 environment: home.environment())
        }
        chmod(home.database, mode)
        defer { chmod(home.database, 0o600) }
        return try home.nudge(arguments)
    }

    @Test(arguments: [(0o444 as mode_t, "add"), (0o000, "add"), (0o000, "list")])
    func aStoreThatCannotBeWrittenIsAnIOError(mode: mode_t, command: String) throws {
        let home = try Home()
        _ = try home.add("Keep", "--at", "08:00")
        let before = try home.digest()
        let arguments = command == "add" ? ["add", "New", "--at", "9:00"] : [command]
        let result = try asOutsider(home, arguments, mode: mode)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(home.database), "\(result.stderr)")
        #expect(try home.digest() == before)
    }

    /// Another's store, readable but in a folder the reader may not write (SQLite cannot make
    /// its -shm there): every command that only reads reads it, as it is, WAL included.
    @Test(.enabled(if: getuid() == 0, "runs nudge as nobody through setpriv: needs root, as make test runs"))
    func anothersStoreInAFolderTheReaderMayNotWriteIsRead() throws {
        let home = try Home()
        let id = try home.add("Keep", "--at", "08:00")
        let before = try home.digest()
        for arguments in [["list"], ["show", id], ["export"], ["stats"]] {
            let result = try asOutsider(home, arguments, mode: 0o644)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(arguments == ["stats"] || result.stdout.contains("Keep"), "\(arguments): \(result.stdout)")
        }
        // doctor finds no bus here (exit 69), and the store well.
        let doctor = try asOutsider(home, ["doctor"], mode: 0o644)
        #expect(doctor.stdout.contains("1 alert, ") && doctor.stdout.contains("quick_check ok"), "\(doctor.stdout)")
        #expect(try home.digest() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.dir + "/nudge").sorted() == ["nudge.sqlite"])
        // A writer that stopped without checkpointing left a WAL: what it holds is read too.
        let folder = home.dir + "/nudge"
        let sqlite = try Bench.run("sqlite3", [home.database, "PRAGMA wal_autocheckpoint=0;", "UPDATE alert SET title = 'In the WAL';",
                                                ".shell cp '\(home.database)' '\(folder)/snap' && cp '\(home.database)-wal' '\(folder)/snap-wal'"])
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        try #require(rename(folder + "/snap", home.database) == 0 && rename(folder + "/snap-wal", home.database + "-wal") == 0)
        chmod(home.database + "-wal", 0o644)
        let list = try asOutsider(home, ["list"], mode: 0o644)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("In the WAL"), "\(list.stdout)")
    }

    // MARK: Locale and colour

    static let water = ["--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays"]

    @Test(arguments: [
        ("C", "every 30 min, 09:30–21:30, Mon–Fri"), ("en_US.UTF-8", "every 30 min, 9:30 AM–9:30 PM, Mon–Fri"),
        ("ko_KR.UTF-8", "월–금 오전 9:30–오후 9:30, 30분마다"), ("de_DE.UTF-8", "every 30 min, 09:30–21:30, Mon–Fri"),
    ])
    func theListSpeaksThePersonsClock(lang: String, schedule: String) throws {
        let home = try Home()
        _ = try home.add(Self.water)
        _ = try home.add("Tea", "--at", "21:05")
        let text = try home.nudge("list", environment: ["LANG": lang]).stdout.replacingOccurrences(of: "\u{202F}", with: " ")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(lang.hasPrefix("ko") ? "ID        상태  다음" : "ID        STATE  NEXT"))
        #expect(lines.contains { $0.contains(schedule) && $0.hasSuffix("Time to drink water 💧") }, "\(text)")
        let tea = try #require(lines.first { $0.hasSuffix("Tea") })
        switch lang {
        case "ko_KR.UTF-8": #expect(tea.contains("오후 9:05"))
        case "en_US.UTF-8": #expect(tea.contains("9:05 PM"))
        default: #expect(tea.contains("21:05"))
        }
        // Columns line up however wide the characters: the title starts at the same column.
        // (The title is what follows the last run of spaces; an odd run leaves one space on it.)
        let titleColumn = lines.map {
            Terminal.width($0) - Terminal.width(String($0.split(separator: "  ").last ?? "").trimmingCharacters(in: .whitespaces))
        }
        #expect(Set(titleColumn).count == 1, "\(text)")
    }

    /// A locale the C library does not have is written as C's, as glibc and so every other
    /// program writes it: not Foundation's own idea of it ("M06 1, Tue" for xx_YY).
    @Test func aLocaleThatIsNotInstalledIsWrittenAsC() throws {
        let home = try Home()
        _ = try home.add("Tea", "--on", "2099-06-01 21:05")
        _ = try home.add("Stand up", "--on", "2099-12-31 09:30")
        let c = try home.nudge("list", environment: ["LANG": "C"])
        #expect(c.stdout.contains("Mon 2099-06-01 21:05"), "\(c.stdout)")
        let installed = try Bench.run("locale", ["-a"]).stdout.lowercased().split(separator: "\n").map { $0.replacingOccurrences(of: "-", with: "") }
        let missing = ["xx_YY.UTF-8", "ja_JP.UTF-8", "en_GB.UTF-8", "de_DE.UTF-8"].filter { !installed.contains($0.lowercased().replacingOccurrences(of: "-", with: "")) }
        #expect(missing.contains("xx_YY.UTF-8"))
        for lang in missing {
            for environment in [["LANG": lang], ["LANG": "C", "LC_TIME": lang], ["LANG": "C", "LC_ALL": lang]] {
                let list = try home.nudge("list", environment: environment)
                #expect(list.stdout == c.stdout, "\(environment)")
            }
        }
    }

    @Test func lcAllOverridesLang() throws {
        let home = try Home()
        _ = try home.add("Tea", "--at", "21:05")
        let text = try home.nudge("list", environment: ["LANG": "C", "LC_ALL": "ko_KR.UTF-8"]).stdout
        #expect(text.contains("오후 9:05"))
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let home = try Home()
        _ = try home.add("Tea", "--at", "21:05")
        func list(onTerminal: Bool, noColor: String?) throws -> String {
            let environment = home.environment(["NO_COLOR": noColor, "TERM": "xterm"])
            if !onTerminal { return try home.nudge(["list"], environment: ["NO_COLOR": noColor]).stdout }
            return try Bench.run("/usr/bin/script", ["-qec", "\(Bench.nudgePath) list", "/dev/null"], environment: environment).stdout
        }
        #expect(try list(onTerminal: true, noColor: nil).contains("\u{1B}["))
        #expect(try !list(onTerminal: true, noColor: "1").contains("\u{1B}["))
        #expect(try !list(onTerminal: false, noColor: nil).contains("\u{1B}["))
    }
}

/// Width as a terminal counts it, for checking the table's columns.
enum Terminal {
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, s in
            (0xAC00...0xD7A3).contains(s.value) || (0x1F300...0x1F9FF).contains(s.value) ? sum + 2 : sum + 1
        }
    }
}

extension ManageCommandTests {
    /// Issue 52: a one-shot that came due while the service was stopped is listed as due
    /// and waiting, with why, not gone until the service starts.
    @Test func aOneShotDueWhileTheServiceWasStoppedIsListedAsDue() throws {
        let home = try Home()
        let due = Date(timeIntervalSinceNow: -600).addingTimeInterval(0).timeIntervalSince1970.rounded(.down)
        let store = try AppDatabase.open(path: home.database)
        let tea = Alert(title: "Tea", schedule: .once(Date(timeIntervalSince1970: due)), created: Date(timeIntervalSince1970: due - 3600))
        try store.save(tea)
        let listed = try home.nudge("list")
        #expect(listed.status == 0 && listed.stdout.contains("Tea") && listed.stdout.contains("due"), "\(listed.stdout)")
        let shown = try show(home, tea.shortID)
        #expect(shown["nextReason"] as? String == "due", "\(shown)")
        let words = try home.nudge("show", tea.shortID).stdout
        #expect(words.contains("shown when Nudge's service runs"), "\(words)")
    }
}
