import Foundation
import Testing
import TestSupport

/// Nudge's window, used as a person uses it: a real GTK 4 window on an X display of its
/// own, driven through AT-SPI (by role and accessible name, as a screen reader reaches it).
/// What it changes is checked against the same changes made through the command line in a
/// second store, column for column, as the `nudge ui` tests do.
///
/// The window's tests are two suites, each one window at a time, run beside each other
/// (each window has a display, buses and a store of its own), about as long: this one, the
/// list, its menu, search and settings, and what the window says when its store is in
/// trouble; ``WindowFormAndAccessTests``, the form, and how a keyboard and a screen reader
/// reach the window.
@Suite(.onTestThreadsAhead, .serialized, .enabled(if: windowCanRun))
struct WindowTests: WindowSuite {}

/// Whether a window can be run and driven here.
let windowCanRun = Bench.isAvailable && FileManager.default.isExecutableFile(atPath: WindowSession.windowPath)

/// What the window's suites share.
protocol WindowSuite {}

extension WindowSuite {
    /// The alerts' stored columns, all but the id and the time of creation, by title.
    func stored(_ database: String) throws -> String {
        let columns = "title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, kind, whenAway, "
            + "nagSeconds, nagTimes"
        return try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", "-json", database, "SELECT \(columns) FROM alert ORDER BY title"]).stdout
    }

    /// The day's water log: millilitres, in order.
    func drinks(_ database: String) throws -> String {
        try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", database, "SELECT ml FROM drink ORDER BY at"]).stdout
    }

    func database(_ desktop: Desktop) -> String { desktop.directory + "/data/nudge/nudge.sqlite" }

    /// `count` one-shots titled "PREFIX 1"… on a fixed day far ahead, a minute apart, with ids
    /// `%032x` of 1…: in one statement (adding them one by one takes minutes).
    static func insertOneShots(_ count: Int, titled prefix: String, into desktop: Desktop) throws {
        let insert = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", desktop.directory + "/data/nudge/nudge.sqlite", """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO alert (id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, created, kind)
            SELECT printf('%032x', i), '\(prefix) ' || i, '', 'once ' || (4070908800 + i * 60) || '.0', 1, NULL, 1, '', NULL, 3600, 600, i, 'reminder' FROM n
            """])
        try #require(insert.status == 0, "\(insert.stderr)")
    }

    /// A reminder's id, as the command line gives it.
    func id(of title: String, in home: Home) throws -> String {
        let list = try home.list()
        let entry = try #require(list.first { $0["title"] as? String == title })
        return try #require(entry["id"] as? String)
    }

    /// Where the tests leave their pictures: `.build/window-shots/`.
    static func shotPath(_ name: String) throws -> String {
        let folder = Bench.packageRoot.appendingPathComponent(".build/window-shots").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/" + name
    }

    /// The roles and names of the nodes a screen reader meets, for a failure's message.
    func named(_ window: WindowSession) -> [String] {
        ((try? window.nodes()) ?? []).filter { !$0.name.isEmpty && $0.role != "label" }.map { "\($0.role)|\($0.name)" }
    }
}

extension WindowTests {

    @Test func theListShowsEveryReminderWithItsSwitchScheduleAndNextShowing() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Stretch", "--at", "09:30", "--days", "weekdays")
        let water = try desktop.add("Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays")
        try desktop.nudge("off", water)
        _ = try desktop.add("Timesheet", "--arrive", "office")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Stretch", "checked"))
        #expect(try window.reaches("check box", "Drink water", "unchecked"))
        let names = try window.nodes().map(\.name)
        // A line for the schedule in words, one for the next showing.
        #expect(names.filter { $0.contains("Mon–Fri") }.count == 2, "\(names)")
        #expect(names.filter { $0.hasPrefix("next: ") }.count == 3, "\(names)")
        // A place reminder says so where a time would be.
        #expect(names.contains("on arriving at office") && names.contains("next: on arrival"), "\(names)")
        // Every control says which reminder it acts on.
        #expect(names.contains("Delete Stretch") && names.contains("Delete Drink water"))
        #expect(try window.reaches("push button", "Drank 250 ml"))
        #expect(try window.reaches("label", "0 of 2,000 ml today"))
        // No daemon: the window says so and offers to start it.
        // Named by its words alone (GTK 4.8 would say a mnemonic's label twice: "_Start Start").
        #expect(try window.reaches("push button", "Start"), "\((try? window.nodes())?.filter { $0.role == "push button" }.map(\.name) ?? [])")
        try window.screenshot(to: try Self.shotPath("list-en.png"))
    }

    @Test func switchingDeletingAndUndoingChangeTheStoreAsTheCommandLineWould() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        for home in [desktop as NudgeUser, cli as NudgeUser] {
            try home.nudge("add", "Stretch", "--at", "09:30", "--days", "weekdays")
            try home.nudge("add", "Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays")
            try home.nudge("add", "Call mom", "--at", "18:00")
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Stretch", "checked"))

        // Off with its switch.
        try #require(try window.drive("do", "check box", "Stretch", "toggle").status == 0)
        #expect(try window.reaches("check box", "Stretch", "unchecked"))
        try cli.nudge("off", try id(of: "Stretch", in: cli))
        #expect(try Bench.eventually(5) { try stored(database(desktop)) == stored(cli.database) })

        // Deleted, then put back from the toast.
        try #require(try window.drive("do", "push button", "Delete Call mom", "click").status == 0)
        #expect(try window.reaches("check box", "Call mom", "gone"))
        // The toast's button (libadwaita's own, named after what happened and by its words:
        // GTK 4.8 said "Undo Undo").
        #expect(try window.reaches("push button", "Deleted “Call mom”. Undo", within: 10))
        #expect(try stored(database(desktop)).contains("Call mom") == false)
        // Pressed while the toast is there (it goes after a few seconds; on a busy machine
        // the command line's two runs below can outlast it).
        try #require(try window.drive("press", "Undo").status == 0)
        #expect(try window.reaches("check box", "Call mom", "checked"))
        // Put back as it was: the same as removing it and adding it again.
        try cli.nudge("rm", try id(of: "Call mom", in: cli))
        try cli.nudge("add", "Call mom", "--at", "18:00")
        #expect(try stored(database(desktop)) == stored(cli.database))

        // From the keyboard: deleted, then Ctrl+Z puts it back.
        try #require(try window.drive("do", "push button", "Delete Call mom", "click").status == 0)
        #expect(try window.reaches("check box", "Call mom", "gone"))
        let typed = try window.type("ctrl+z")
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(try window.reaches("check box", "Call mom", "checked"))
        #expect(try stored(database(desktop)) == stored(cli.database))

        // Deleted for good.
        try #require(try window.drive("do", "push button", "Delete Drink water", "click").status == 0)
        #expect(try window.reaches("check box", "Drink water", "gone"))
        try cli.nudge("rm", try id(of: "Drink water", in: cli))
        #expect(try stored(database(desktop)) == stored(cli.database))
        _ = window.close()
    }

    /// A delete over a note on show, undone: the window stays, the reminder is back and the
    /// note comes back after the delete's toast. With libadwaita's high priority the note
    /// was put back in the queue, and shown again while its hiding still played libadwaita
    /// before 1.7.5 aborted on an assertion (#997): the window was gone (once in a make test,
    /// and each time this ran beside two other window tests).
    @Test func aDeleteOverANoteUndoneKeepsTheWindowAndTheNote() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30")
        _ = try desktop.add("Tea", "--at", "15:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Tea", "checked"))
        try #require(try window.drive("do", "push button", "Drank 250 ml", "click").status == 0)
        try #require(try window.drive("do", "push button", "Delete Tea", "click").status == 0)
        try #require(try window.reaches("check box", "Tea", "gone"))
        #expect(try window.type("ctrl+z", bringing: "check box", "Tea"), "\(window.windowProcess?.stderrSoFar ?? "")")
        #expect(try window.reaches("push button", "Deleted “Tea”. Undo", "gone", within: 10))
        #expect(try window.drive("find", "Drank 250 ml at", "10").status == 0, "\(window.scene())")
        #expect(window.windowProcess?.isRunning == true, "\(window.windowProcess?.stderrSoFar ?? "")")
        #expect(Set(try desktop.list().compactMap { $0["title"] as? String }) == ["Drink water", "Tea"])
        _ = window.close()
    }

    @Test func drinkingAndTakingItBackLogAsNudgeDrinkDoes() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.drive("do", "push button", "Drank 250 ml", "click").status == 0)
        #expect(try window.reaches("label", "250 of 2,000 ml today"))
        try #require(try window.drive("do", "push button", "Drank 250 ml", "click").status == 0)
        #expect(try window.reaches("label", "500 of 2,000 ml today"))
        try #require(try window.drive("do", "push button", "Take back the last drink", "click").status == 0)
        #expect(try window.reaches("label", "250 of 2,000 ml today"))
        let logged = try drinks(database(desktop))
        #expect(logged == "250\n", "\(logged)")
        // A drink logged by the command line shows in the window.
        try desktop.nudge("drink", "500")
        #expect(try window.reaches("label", "750 of 2,000 ml today"))
        _ = window.close()
    }

    @Test func aChangeMadeElsewhereShowsWithoutPolling() throws {
        let desktop = try Desktop(server: false)
        let stretch = try desktop.add("Stretch", "--at", "09:30")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Stretch", "checked"))
        try desktop.nudge("add", "Tea", "--at", "15:00")
        #expect(try window.reaches("check box", "Tea", "checked"))
        try desktop.nudge("off", stretch)
        #expect(try window.reaches("check box", "Stretch", "unchecked"))
        try desktop.nudge("edit", stretch, "--title", "Stretch your legs")
        #expect(try window.reaches("check box", "Stretch your legs"))
        // A store put in place by rename (a backup restored): followed.
        let other = try Home()
        try other.nudge("add", "Restored", "--at", "08:00")
        let path = database(desktop)
        try FileManager.default.copyItem(atPath: other.database, toPath: path + ".new")
        #expect(rename(path + ".new", path) == 0)
        #expect(try window.reaches("check box", "Restored", "checked"))
        #expect(try window.reaches("check box", "Tea", "gone"))
        // The store's folder removed, then made anew by the command line: followed too.
        try FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect(try window.reaches("check box", "Restored", "gone"))
        try desktop.nudge("add", "Anew", "--at", "07:00")
        #expect(try window.reaches("check box", "Anew", "checked"))
        try desktop.nudge("add", "Anew again", "--at", "07:30")
        #expect(try window.reaches("check box", "Anew again", "checked"))
        // The window woke for none of this on its own: no timer armed but the next showing's.
        _ = window.close()
    }

    /// An open window with nothing changing sleeps: GLib hosts Nudge's loop without
    /// waking itself (redoing its polls every turn once kept the window spinning at
    /// thousands of wake-ups a second). A spin shows as thousands in the second watched;
    /// the bench (bench/window-bench.py) counts the real figure over 60 s.
    @Test func anOpenWindowWithNothingChangingSleeps() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Stretch", "--at", "09:30")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Stretch", "checked"))
        let pid = try #require(window.windowProcess?.pid)
        func switches() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(0) { sum, task in
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                return sum + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                    .compactMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }.reduce(0, +)
            }
        }
        let before = switches()
        Thread.sleep(forTimeInterval: 1)
        let woken = switches() - before
        #expect(woken < 50, "\(woken) wake-ups in a second with nothing changing")
    }

    /// A reminder the daemon fired and dunst shows, answered from the window: the answer
    /// lands once and the daemon takes the pop-up down.
    @Test func whatWaitsIsAnsweredFromTheWindow() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        let window = try WindowSession(desktop: desktop)
        try window.open()
        // Each answer says which reminder it answers.
        let buttons = { (try? window.nodes())?.filter { $0.role == "push button" }.map(\.name) ?? [] }
        #expect(try window.reaches("push button", "Done: Stretch"), "\(buttons())")
        #expect(buttons().contains("Snooze 10 min: Stretch"), "\(buttons())")
        #expect(buttons().contains("Done for today: Stretch"), "\(buttons())")
        // Narrow: the answers stand one under another, all still there.
        #expect(try window.resize(width: 360, height: 640).status == 0)
        #expect(try window.reaches("push button", "Done: Stretch"))
        try window.screenshot(to: try Self.shotPath("answers-narrow.png"))
        try #require(try window.drive("do", "push button", "Done: Stretch", "click").status == 0)
        #expect(Bench.eventually(5) { (try? desktop.events(id)) == ["fired", "acknowledged"] })
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 0 })
        #expect(try window.reaches("push button", "Done: Stretch", "gone"))
    }

    /// Done clicked while the daemon is stalled (SIGSTOP) stalls nothing: the window goes on
    /// answering keys (Ctrl+F focuses the search) before the daemon could say anything, and
    /// once it runs again it takes the answer. Events in order, not a time: a window that
    /// waited for the daemon showed "did not answer" before it read the next key.
    @Test func aStalledDaemonStallsNoKeyInTheWindow() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { kill(daemon.pid, SIGCONT); _ = daemon.stop() }
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(10) { (try? desktop.events(id)) == ["fired"] })
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("push button", "Done: Stretch"))
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        try #require(try window.drive("do", "push button", "Done: Stretch", "click").status == 0)
        _ = try window.type("ctrl+f")
        let focused = try window.focused()
        #expect(focused.hasSuffix("\tSearch reminders"), "\(focused)")
        let labels = (try? window.nodes())?.map(\.name) ?? []
        #expect(!labels.contains { $0.contains("did not answer") }, "\(labels)")
        #expect(try desktop.events(id) == ["fired"])
        // After 2 s the window says the service has not answered yet, in its own words.
        #expect(Bench.eventually(10) { (try? window.drive("find", "Nudge's service has not answered yet").status) == 0 }, "\(window.scene())")
        // A change made elsewhere asks the service's state: running but not answering, with
        // no Start offered (it said "not running" and offered Start, which started a second).
        _ = try desktop.nudge("add", "Elsewhere", "--in", "3h")
        #expect(Bench.eventually(10) { (try? window.drive("find", "Nudge's service is not answering").status) == 0 }, "\(window.scene())")
        #expect(!((try? window.nodes())?.contains { $0.role == "push button" && $0.name == "Start" } ?? true))
        kill(daemon.pid, SIGCONT)
        #expect(Bench.eventually(10) { (try? desktop.events(id)) == ["fired", "acknowledged"] })
        #expect(try window.reaches("push button", "Done: Stretch", "gone"))
        // The answer came: the toast that said it had not says so now.
        #expect(Bench.eventually(10) { (try? window.drive("find", "Nudge's service took your answer").status) == 0 }, "\(window.scene())")
        _ = window.close()
    }

    @Test func autostartIsSwitchedOnAndOffFromTheWindow() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        let entry = desktop.directory + "/config/autostart/io.github.nudge.Nudge.desktop"
        #expect(try window.reaches("check box", "Start with your session", "unchecked"),
                "\((try? window.nodes())?.filter { $0.role != "label" && $0.role != "filler" }.map { "\($0.role)|\($0.name)|\($0.state)" } ?? [])")
        try #require(try window.drive("do", "check box", "Start with your session", "toggle").status == 0)
        #expect(try window.reaches("check box", "Start with your session", "checked"))
        // The entry `nudge autostart enable` writes: this nudge, its daemon.
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(text.contains("Exec=\(Bench.nudgePath) daemon\n"), "\(text)")
        // Still there, switched off again: the entry Nudge wrote is removed.
        try #require(try window.drive("do", "check box", "Start with your session", "toggle").status == 0)
        #expect(try window.reaches("check box", "Start with your session", "unchecked"))
        #expect(!FileManager.default.fileExists(atPath: entry))
    }

    /// GTK 4.8's grid view, its items around the view removed, kept two of their places
    /// showing removed reminders where the water and the heading belong.
    @Test func everyReminderRemovedWhileTheEndIsShownLeavesTheTopWhole() throws {
        let desktop = try Desktop(server: false)
        try desktop.nudge("drink", "250")
        var ids: [String] = []
        // One-shots on a fixed day far ahead: the list's order (S 1 first, S 60 last) does not
        // depend on the hour the test runs at, as daily times at 10:xx did between 10 and 11.
        for index in 1...60 {
            ids.append(try desktop.add("S \(index)", "--on", String(format: "2099-01-01 %02d:%02d", 9 + index / 60, index % 60)))
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "S 1", "checked"))
        // Into the list from the keyboard, then its end.
        try #require(try window.tab(to: "check box\tS 1"))
        let typed = try window.type("End")
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(try window.reaches("check box", "S 60", "checked"))
        try desktop.nudge(["rm"] + ids)
        #expect(try window.reaches("label", "No reminders yet"))
        #expect(try window.reaches("label", "250 of 2,000 ml today"))
        #expect(try window.reaches("check box", "S 59", "gone"))
        #expect(try window.reaches("check box", "S 60", "gone"))
        _ = window.close()
    }

    /// At 10,000 reminders the list was once left blank after fast scrolling while the
    /// command line switched reminders around the view on and off (issue 43, item 6): GTK
    /// 4.8's grid view, its items moved while it scrolls, laid its places out away from
    /// where it was scrolled to, and nothing showed until the next scroll. Scrolled by the
    /// wheel (a real pointer, through XTEST) while `nudge off` and `nudge on` (and sqlite3,
    /// faster) move the reminders at the top of the list to its end and back, the list shows
    /// rows again after every scroll, without another scroll to wake it.
    @Test func scrollingFastWhileTheCommandLineMovesRemindersNeverLeavesTheListBlank() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("First", "--on", "2098-12-31 23:00")
        let path = database(desktop)
        try Self.insertOneShots(10_000, titled: "R", into: desktop)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "R 1", "checked"))
        // Counted as a person reads a number (issue 52).
        #expect(try window.reaches("label", "10,001 reminders"))
        let environment = window.environment()
        let xdotool = { (arguments: [String]) in try Bench.run("/usr/bin/xdotool", arguments, environment: environment) }
        let geometry = try xdotool(["search", "--sync", "--onlyvisible", "--name", "^Nudge$", "getwindowgeometry", "--shell"]).stdout
        let place = Dictionary(uniqueKeysWithValues: geometry.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: "=")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
        })
        let (x, y, width, height) = (place["X"] ?? 0, place["Y"] ?? 0, place["WIDTH"] ?? 640, place["HEIGHT"] ?? 720)
        // The list below the header, as pixels: a blank list is one colour, rows are hundreds.
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-list-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: shot) }
        // Its colours and a hash of it.
        func look() throws -> (colours: Int, hash: String) {
            _ = try Bench.run("/usr/bin/import", ["-window", "root", "-crop", "\(width - 40)x\(height - 140)+\(x + 20)+\(y + 120)", shot],
                              environment: environment)
            let words = try Bench.run("/usr/bin/convert", [shot, "-format", "%k %#", "info:"]).stdout.split(separator: " ")
            return (Int(words.first ?? "") ?? 0, String(words.last ?? ""))
        }
        _ = try xdotool(["mousemove", String(x + 200), String(y + 400)])
        _ = try xdotool(["click", "--repeat", "40", "--delay", "3", "5"])

        // The command line switches the reminders at the top of the list off (to its end) and on
        // (back) while the list is scrolled; ids as the insert made them.
        // A loop of commands, and a faster writer beside it (sqlite3, as a sync tool or a
        // script would write): the list changes some fifty times a second, as it must for
        // GTK to go wrong.
        let stop = LockedFlag()
        Thread {
            var n = 0
            while !stop.isSet {
                _ = try? desktop.nudge(n % 3 == 0 ? "on" : "off", String(format: "%032x", 1 + (n * 7) % 60))
                n += 1
            }
        }.start()
        Thread {
            var n = 0
            while !stop.isSet {
                _ = try? Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", path,
                                                        "UPDATE alert SET enabled = 1 - enabled WHERE id = '\(String(format: "%032x", 1 + (n * 11) % 60))'"])
                n += 1
                Thread.sleep(forTimeInterval: 0.02)
            }
        }.start()
        defer { stop.set() }
        var blank: [Int] = []
        // 30 rounds (80 until the paging below came, 60 until this suite, the last to end, ran
        // 115 s after the others: its length sets the whole run's).
        for round in 0..<30 {
            let before = try look().hash
            // Down and up by 1 to 12 notches, drifting down: the same every run.
            _ = try xdotool(["click", "--repeat", String(1 + (round * 5) % 12), "--delay", "3", round % 3 == 2 ? "4" : "5"])
            // Once the list moved (by the scroll, or a change), rows show again without another scroll.
            _ = Bench.eventually(2) { (try? look().hash) != before }
            if !Bench.eventually(5, { ((try? look().colours) ?? 0) > 20 }) {
                blank.append(round)
                try window.screenshot(to: try Self.shotPath("blank-list-\(round).png"))
                try (window.windowProcess?.stderrSoFar ?? "").write(toFile: try Self.shotPath("blank-list-\(round).log"), atomically: true, encoding: .utf8)
                // Scrolled again, so the rounds after see what they would.
                _ = try xdotool(["click", "--repeat", "3", "5"])
            }
        }
        stop.set()
        // Issue 52: on a loaded machine (the whole suite, both window suites at once) the list
        // was still left blank now and then (6 rounds in 80 in a whole make test, 1 in 30 in a
        // run alone with a core busy, 1 run in 5). Several changes read at once were spliced as
        // the whole stretch between them, thousands of items, and GTK 4.8's grid view, told so
        // many changed, dropped every row it had laid out and lost its place (none mapped,
        // and scrolling on kept it so). They are now the few splices that make the change.
        #expect(blank.isEmpty, "blank after the scrolls of rounds \(blank) (.build/window-shots/blank-list-*.png)")
        // Paged by keys (issue 52: Tab into the list, Page Down once a second, and every second
        // press left two rows drawn at the bottom, blank 4 s later): from the top of the list,
        // each Page Down moves the focus a page on, and the rows are drawn once it has and
        // still drawn 4 s after. Into the list by Tab, to a reminder's switch wherever the wheel
        // left it, then Home, to its top.
        for _ in 0..<20 where !((try? window.focused())?.hasPrefix("check box\tR ") ?? false) { _ = try window.type("Tab") }
        let reached = try window.focused()
        try #require(reached.hasPrefix("check box\tR "), "Tab reached no reminder: \(reached)")
        _ = try window.type("Home")
        #expect(Bench.eventually(10) { (try? window.focused()) == "push button\tStart" }, "Home: \((try? window.focused()) ?? "")")
        var paged: [String] = []
        for press in 0..<6 {
            let from = try window.focused()
            _ = try window.type("Next")
            #expect(Bench.eventually(10) { (try? window.focused()).map { $0 != from } ?? false }, "Page Down \(press) left the focus on \(from)")
            let drawn = Bench.eventually(5) { ((try? look().colours) ?? 0) > 20 }
            Thread.sleep(forTimeInterval: 4)
            if !drawn || ((try? look().colours) ?? 0) <= 20 {
                paged.append("\(press) at \((try? window.focused()) ?? "")")
                try window.screenshot(to: try Self.shotPath("blank-list-paged-\(press).png"))
            }
        }
        #expect(paged.isEmpty, "blank after Page Down: \(paged) (.build/window-shots/blank-list-paged-*.png)")
        _ = window.close()
    }

    /// A one-shot the click on its pop-up answered is finished, and the list leaves finished
    /// ones out: opened at it, the window lists it all the same (it said "No reminders yet").
    @Test func openedAtAFinishedOneShotTheWindowListsIt() throws {
        let desktop = try Desktop(server: false)
        let dentist = try desktop.add("Dentist", "--in", "1s")
        // Answered, as its state says (unanswered, with no service running, it would be
        // listed as due and waiting: issue 52).
        _ = try Bench.run("sqlite3", ["-cmd", ".timeout 10000", database(desktop),
                                      "INSERT INTO alertState (alertId, checkedUntil, pendingCount) VALUES ('\(dentist)', strftime('%s','now') + 5, 0)"])
        #expect(Bench.eventually(10) { (try? desktop.nudge("list").stdout.contains("Dentist")) == false })
        let window = try WindowSession(desktop: desktop)
        try window.open(["--show", String(dentist.prefix(8))])
        #expect(try window.reaches("check box", "Dentist"))
        #expect(try window.reaches("label", "No reminders yet", "gone"))
        _ = window.close()
    }

    @Test func aSecondStartRaisesTheWindowAlreadyOpen() throws {
        let desktop = try Desktop(server: false)
        let tea = try desktop.add("Tea", "--at", "15:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        let second = try window.runWindow(["--show", String(tea.prefix(6))])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(window.windowProcess?.isRunning == true)
        let frames = try window.nodes().filter { $0.role == "frame" }
        #expect(frames.count == 1, "\(frames)")
        let help = try window.runWindow(["--help"])
        #expect(help.status == 0 && help.stdout.contains("--show ID"))
        let bad = try window.runWindow(["--bogus"])
        #expect(bad.status == 64 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("--bogus") && bad.stderr.hasSuffix("\n"), "\(bad.stderr)")
        let noID = try window.runWindow(["--show"])
        #expect(noID.status == 64 && noID.stderr.hasSuffix("\n") && noID.stderr.split(separator: "\n").count == 1, "\(noID.stderr)")
        _ = window.close()
    }

    @Test(arguments: [("en_US.UTF-8", "list-en"), ("ko_KR.UTF-8", "list-ko")])
    func screenshotsInEnglishAndKorean(locale: String, name: String) throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays")
        _ = try desktop.add("Stretch", "--at", "15:00", "--days", "weekdays")
        _ = try desktop.add("Take the medicine", "--at", "21:00")
        try desktop.nudge("drink", "750")
        let window = try WindowSession(desktop: desktop, locale: locale)
        try window.open()
        #expect(try window.reaches("check box", "Take the medicine", "checked"))
        if locale.hasPrefix("ko") { #expect(try window.reaches("label", "물")) }
        try window.screenshot(to: try Self.shotPath(name + ".png"))
        // Narrow, as a phone-sized or half-tiled window: every control still there.
        let resized = try window.resize(width: 360, height: 640)
        #expect(resized.status == 0, "\(resized.stderr)")
        #expect(try window.reaches("check box", "Take the medicine", "checked"))
        #expect(try window.reaches("push button", locale.hasPrefix("ko") ? "Take the medicine 삭제" : "Delete Take the medicine"))
        try window.screenshot(to: try Self.shotPath(name + "-narrow.png"))
        // The add form, opened from the keyboard (Ctrl+N), over the window.
        let typed = try window.type("ctrl+n")
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(try window.reaches("dialog", locale.hasPrefix("ko") ? "알림 추가" : "Add a Reminder"))
        // A new form waits for a title; with one, it says when the reminder would show.
        try #require(try window.drive("set", "text", locale.hasPrefix("ko") ? "제목" : "Title", locale.hasPrefix("ko") ? "차 마시기" : "Tea").status == 0)
        #expect(try window.drive("find", locale.hasPrefix("ko") ? "다음 알림" : "Next showings").status == 0)
        // Words of the form's .ui file, translated by GtkBuilder through the same catalog as the code's.
        #expect(try window.reaches("check box", locale.hasPrefix("ko") ? "물 마시기 알림" : "Water reminder"))
        try window.screenshot(to: try Self.shotPath(name.replacingOccurrences(of: "list", with: "form") + ".png"))
        let ko = locale.hasPrefix("ko")
        // What was typed is not thrown away without asking (issue 52). Cancel, not Escape:
        // after the screenshot the display's focus was at its root, without a window manager
        // to give it back, in one run of five here (Escape's question has tests of its own).
        try #require(try window.drive("do", "push button", ko ? "취소(C)" : "Cancel", "click").status == 0)
        try #require(try window.reaches("push button", ko ? "버리기(D)" : "Discard"), "\(window.scene())")
        try #require(try window.drive("do", "push button", ko ? "버리기(D)" : "Discard", "click").status == 0)
        #expect(try window.reaches("dialog", ko ? "알림 추가" : "Add a Reminder", "gone"))
        // The settings, from the keyboard (Ctrl+comma).
        _ = try window.type("ctrl+comma")
        #expect(try window.reaches("spin button", ko ? "컵, ml" : "Cup, ml"))
        try window.screenshot(to: try Self.shotPath(name.replacingOccurrences(of: "list", with: "settings") + ".png"))
        _ = window.close()
    }

}

/// A flag one thread sets and another reads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
