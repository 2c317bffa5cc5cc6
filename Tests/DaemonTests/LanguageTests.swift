import Foundation
import NudgeCore
import NudgeStore
import Testing
import TestSupport

/// Pop-ups in the person's language, as the server received them: the daemon and the CLI
/// run under LANG as a session would. Needs the locales `make deps` generates.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct LanguageTests {
    static func has(_ locale: String) -> Bool {
        (try? Bench.run("locale", ["-a"]).stdout.lowercased().contains(locale.lowercased().replacingOccurrences(of: "utf-8", with: "utf8"))) ?? false
    }

    @Test(arguments: [
        ("C", "Time to drink water 💧", ["Done", "Snooze 10 min", "Done for today"]),
        ("en_US.UTF-8", "Time to drink water 💧", ["Done", "Snooze 10 min", "Done for today"]),
        ("ko_KR.UTF-8", "물 마실 시간이에요 💧", ["완료", "10분 후 다시 알림", "오늘은 그만"]),
        ("pl_PL.UTF-8", "Czas napić się wody 💧", ["Zrobione", "Przypomnij za 10 minut", "Na dziś wystarczy"]),
        // Unknown languages and locales the C library lacks are English, never an error.
        ("xx_YY.UTF-8", "Time to drink water 💧", ["Done", "Snooze 10 min", "Done for today"]),
    ])
    func theDrinkWaterReminderSpeaksTheSessionsLanguage(lang: String, title: String, buttons: [String]) throws {
        try #require(lang == "C" || lang.hasPrefix("xx") || Self.has(lang), "make deps generates \(lang)")
        let desktop = try Desktop()
        let language: [String: String?] = ["LANG": lang]
        let daemon = try desktop.startDaemon(environment: language)
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let added = try desktop.nudge("add", "--at", desktop.clock(in: 2).text, environment: language)
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        _ = try desktop.daemon("Status")
        let calls = MonitoredNotify.parse(monitor.stop())
        try #require(calls.count == 1)
        #expect(calls[0].summary == title)
        let body = ["ko_KR.UTF-8": "세계보건기구(WHO)는 하루에 물 1.5–2리터를 권해요.", "pl_PL.UTF-8": "WHO zaleca 1,5–2 litry wody dziennie."][lang]
            ?? "The WHO recommends 1.5–2 litres of water a day."
        // The water reminder's body ends with the day's progress, and it offers the cup.
        let progress = ["ko_KR.UTF-8": "오늘 2,000 ml 중 0", "pl_PL.UTF-8": "dziś 0 z 2,000 ml"][lang] ?? "0 of 2,000 ml today"
        #expect(calls[0].body == body + "\n" + progress)
        let drank = ["ko_KR.UTF-8": "250 ml 마셨어요", "pl_PL.UTF-8": "Wypito 250 ml"][lang] ?? "Drank 250 ml"
        #expect(calls[0].actions == ["default", "", "drink", drank, "done", buttons[0], "snooze", buttons[1], "skip-today", buttons[2]])
        // The log and the list say it in the same language; --json does not change.
        let fired = ["ko_KR.UTF-8": "알림 ×1", "pl_PL.UTF-8": "pokazano ×1"][lang] ?? "fired ×1"
        let log = try desktop.nudge("log", environment: language).stdout
        #expect(log.contains("  \(fired)  \(title)"), "\(log)")
        #expect(try desktop.nudge("log", "--json", environment: language).stdout.contains("\"event\":\"fired\""))
        let on = ["ko_KR.UTF-8": "켜짐", "pl_PL.UTF-8": "włączone"][lang] ?? "on"
        #expect(try desktop.nudge("list", environment: language).stdout.contains("  \(on) ×1  "))
    }

    /// Polish has three plural forms: 1 przypomnienie, 3 przypomnienia, 5 przypomnień.
    @Test func catchUpLinesUseTheLanguagesPlurals() throws {
        try #require(Self.has("pl_PL.UTF-8") && Self.has("ko_KR.UTF-8"), "make deps generates pl_PL and ko_KR")
        for (lang, lines) in [("pl_PL.UTF-8", ["Pominięto 3 przypomnienia od ", "Pominięto 5 przypomnień od "]),
                              ("ko_KR.UTF-8", [" 이후 놓친 알림 3개", " 이후 놓친 알림 5개"])] {
            let desktop = try Desktop()
            let store = try AppDatabase.open(path: desktop.directory + "/data/nudge/nudge.sqlite")
            let now = Date()
            // Every minute since 3.5 and 5.5 minutes ago: 3 and 5 showings missed.
            for (title, minutes) in [("Three", 3.5), ("Five", 5.5)] {
                let created = now.addingTimeInterval(-minutes * 60)
                try store.save(Alert(title: title, schedule: .interval(seconds: 60, anchor: created, days: Set(Weekday.allCases)),
                                     created: created))
            }
            let monitor = try desktop.monitor()
            let daemon = try desktop.startDaemon(environment: ["LANG": lang])
            defer { _ = daemon.stop() }
            #expect(Bench.eventually(5) { MonitoredNotify.parse(monitor.soFar).count >= 2 })
            let bodies = Dictionary(MonitoredNotify.parse(monitor.stop()).map { ($0.summary, $0.body) }, uniquingKeysWith: { $1 })
            let three = try #require(bodies["Three ×3"]), five = try #require(bodies["Five ×5"])
            if lang.hasPrefix("pl") {
                #expect(three.hasPrefix(lines[0]), "\(three)")
                #expect(five.hasPrefix(lines[1]), "\(five)")
            } else {
                #expect(three.hasSuffix(lines[0]), "\(three)")
                #expect(five.hasSuffix(lines[1]), "\(five)")
            }
        }
    }

    /// A locale the C library lacks is said, with the fix; nothing else changes.
    @Test func doctorSaysWhenTheLocaleIsMissing() throws {
        let desktop = try Desktop()
        let missing = try desktop.nudge("doctor", environment: ["LANG": "xx_YY.UTF-8"])
        #expect(missing.stdout.contains("warn language: xx_YY.UTF-8 is not installed: pop-ups and messages stay in English"))
        #expect(missing.stdout.contains("locale-gen"))
        #expect(missing.status == 0)
        let json = try desktop.nudge("doctor", "--json", environment: ["LANG": "xx_YY.UTF-8"]).stdout
        #expect(json.contains("\"language\":{\"ok\":true,\"level\":\"warn\""))
        let c = try desktop.nudge("doctor", environment: ["LANG": "C"])
        #expect(c.stdout.contains("ok   language: C"))
        // A locale name with an escape in it is shown escaped, never sent to the terminal.
        let escaped = try desktop.nudge("doctor", environment: ["LANG": "ko\u{1B}[31mRED"]).stdout
        #expect(!escaped.contains("\u{1B}"))
        #expect(escaped.contains("warn language: ko\\e[31mRED is not installed"))
    }

    /// Schedules in words of the person's language; `--json` stays English.
    @Test(arguments: [
        ("C", "every 30 min, 09:30–21:30, Mon–Fri", "Mon, Wed at 18:00"),
        ("ko_KR.UTF-8", "월–금 09:30–21:30, 30분마다", "월, 수 18:00"),
        ("pl_PL.UTF-8", "co 30 min, 09:30–21:30, pon.–pt.", "pon., śr. o 18:00"),
        ("xx_YY.UTF-8", "every 30 min, 09:30–21:30, Mon–Fri", "Mon, Wed at 18:00"),
    ])
    func schedulesAreSaidInTheLanguage(lang: String, window: String, days: String) throws {
        let desktop = try Desktop(server: false)
        let language: [String: String?] = ["LANG": lang]
        let tea = try desktop.nudge("add", "Tea", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays",
                                    environment: language)
        #expect(tea.status == 0 && tea.stdout.contains(" — \(window)\n"), "\(tea.stdout)\(tea.stderr)")
        #expect(tea.stdout.hasPrefix(["ko_KR.UTF-8": "추가함 ", "pl_PL.UTF-8": "dodano "][lang] ?? "added "))
        let gym = try desktop.nudge("add", "Gym", "--at", "18:00", "--days", "mon,wed", environment: language)
        #expect(gym.status == 0 && gym.stdout.contains(" — \(days)\n"), "\(gym.stdout)\(gym.stderr)")
        let json = try desktop.nudge("list", "--json", environment: language).stdout
        #expect(json.contains("\"schedule\":\"every 30 min, 09:30–21:30, Mon–Fri\""))
        #expect(json.contains("\"schedule\":\"Mon, Wed at 18:00\""))
        #expect(try desktop.nudge("list", environment: language).status == 0)
    }

    /// doctor's lines in each language (Polish has none yet: English).
    @Test(arguments: [("C", "ok   notification server: dunst "), ("en_US.UTF-8", "ok   notification server: dunst "),
                      ("ko_KR.UTF-8", "ok   알림 서버: dunst "), ("pl_PL.UTF-8", "ok   notification server: dunst ")])
    func doctorSpeaksTheLanguage(lang: String, serverLine: String) throws {
        let desktop = try Desktop()
        let text = try desktop.nudge("doctor", environment: ["LANG": lang]).stdout
        #expect(text.contains(serverLine), "\(text)")
    }

    /// doctor speaks the language in its text; its --json stays English.
    @Test func doctorInKorean() throws {
        try #require(Self.has("ko_KR.UTF-8"), "make deps generates ko_KR")
        let desktop = try Desktop()
        let korean: [String: String?] = ["LANG": "ko_KR.UTF-8"]
        let text = try desktop.nudge("doctor", environment: korean).stdout
        #expect(text.contains("ok   알림 서버: dunst "), "\(text)")
        #expect(text.contains("warn 데몬: 실행 중이 아니에요: 실행될 때까지 알림이 표시되지 않아요"))
        #expect(text.contains("     해결: "))
        let json = try desktop.nudge("doctor", "--json", environment: korean).stdout
        #expect(json.contains("\"detail\":\"not running: reminders are not shown until it runs\""))
        #expect(!json.contains("데몬"))
    }

    /// Errors in the person's language, one line, the same exit status; the store untouched.
    @Test(arguments: [
        ("C", "nudge: invalid time '25:00' (use HH:MM (24 h), HH:MM:SS, or 9:30am / 9pm)\n",
         "nudge: Unknown option '--bod'. Did you mean '--body'?\n"),
        ("en_US.UTF-8", "nudge: invalid time '25:00' (use HH:MM (24 h), HH:MM:SS, or 9:30am / 9pm)\n",
         "nudge: Unknown option '--bod'. Did you mean '--body'?\n"),
        ("ko_KR.UTF-8", "nudge: 잘못된 시간 '25:00' (HH:MM(24시간), HH:MM:SS, 또는 9:30am / 9pm 형식으로 쓰세요)\n",
         "nudge: 알 수 없는 옵션 '--bod'. 혹시 '--body'인가요?\n"),
        // Polish has no translation for these yet: English, whole.
        ("pl_PL.UTF-8", "nudge: invalid time '25:00' (use HH:MM (24 h), HH:MM:SS, or 9:30am / 9pm)\n",
         "nudge: Unknown option '--bod'. Did you mean '--body'?\n"),
    ])
    func errorsSpeakTheLanguage(lang: String, badTime: String, badOption: String) throws {
        let desktop = try Desktop(server: false)
        let language: [String: String?] = ["LANG": lang]
        let time = try desktop.nudge("add", "Tea", "--at", "25:00", environment: language)
        #expect(time.status == 64)
        #expect(time.stderr == badTime)
        let option = try desktop.nudge("add", "Tea", "--bod", "x", environment: language)
        #expect(option.status == 64)
        #expect(option.stderr == badOption)
        #expect(try desktop.nudge("list", "--json", environment: language).stdout == "[]\n")
    }

    /// A catalog that is missing, empty or garbage is English, never a crash or a
    /// garbled line: a copy of the binary with a share/locale of its own beside it.
    @Test(arguments: ["missing", "garbage", "truncated"])
    func aBrokenCatalogIsEnglish(catalog: String) throws {
        try #require(Self.has("ko_KR.UTF-8"), "make deps generates ko_KR")
        let desktop = try Desktop(server: false)
        let root = desktop.directory + "/install"
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/share/locale/ko/LC_MESSAGES", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Bench.nudgePath, toPath: root + "/bin/nudge")
        let mo = root + "/share/locale/ko/LC_MESSAGES/nudge.mo"
        switch catalog {
        case "garbage": try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: mo))
        case "truncated":
            // A valid header whose tables point past the end of the file.
            var bytes: [UInt8] = []
            for word: UInt32 in [0x9504_12de, 0, 40, 28, 348, 0, 0] { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
            try Data(bytes).write(to: URL(fileURLWithPath: mo))
        default: break
        }
        let added = try Bench.run(root + "/bin/nudge", ["add", "--at", "09:00"], environment: desktop.environment(["LANG": "ko_KR.UTF-8"]))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added "), "\(added.stdout)")
        #expect(added.stdout.contains("Time to drink water 💧 — daily at 09:00\n"))
    }
}
