import Foundation
import Testing
import TestSupport

/// `nudge ui` driven in a real terminal (tmux): keys in, the screen read back, the store
/// checked against what the CLI's commands make.
@Suite(.onTestThreadsAhead, .serialized)
struct UITests {
    /// Opens `nudge ui` in a new terminal; the shell saves `stty -a` before and after and
    /// the exit status to files.
    func open(_ home: Home, width: Int = 100, height: Int = 30, environment extra: [String: String?] = [:],
              term: String? = nil) throws -> Tmux {
        let tmux = try Tmux(width: width, height: height, environment: home.environment(extra))
        let prefix = term.map { "TERM=\($0) " } ?? ""
        try tmux.run("stty -a > '\(tmux.file("before"))'; \(prefix)'\(Bench.nudgePath)' ui 2> '\(tmux.file("stderr"))'; "
                     + "echo $? > '\(tmux.file("status"))'; stty -a > '\(tmux.file("after"))'")
        guard try tmux.wait(for: "Nudge", timeout: 10) != nil else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "nudge ui did not start: \(tmux.lastScreen)"])
        }
        return tmux
    }

    /// Quits with `keys` and returns the exit status, after checking the terminal is as it was.
    func close(_ tmux: Tmux, _ keys: String = "q", sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32? {
        if !keys.isEmpty { try tmux.press(keys) }
        let status = tmux.waitForFile("status")
        let before = try? String(contentsOfFile: tmux.file("before"), encoding: .utf8)
        let after = tmux.waitForFile("after")
        #expect(before != nil && before == after, "stty -a changed", sourceLocation: sourceLocation)
        return status.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The rows of the table (the lines that start with a switch).
    func rows(_ screen: [String]) -> [String] {
        screen.filter { $0.hasPrefix(" [on]") || $0.hasPrefix(" [off]") }
    }

    /// Moves the selection to the row whose line contains `title`.
    func select(_ title: String, in tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let screen = try #require(try tmux.wait(for: title), sourceLocation: sourceLocation)
        let index = try #require(rows(screen).firstIndex { $0.contains(title) }, sourceLocation: sourceLocation)
        try tmux.press("g")
        for _ in 0..<index { try tmux.press("Down") }
    }

    /// The alerts' stored columns, all but the id and the time of creation, by title: what
    /// two stores must agree on when the same changes were made to both. sqlite3 waits for
    /// a lock as Nudge's own readers do (the screen empties the store's log after a turn).
    func stored(_ home: Home) throws -> String {
        let columns = "title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, kind, whenAway, "
            + "nagSeconds, nagTimes"
        let out = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", "-json", home.database, "SELECT \(columns) FROM alert ORDER BY title"])
        return out.stdout
    }

    func expectSame(_ screen: Home, _ cli: Home, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (made, expected) = (try stored(screen), try stored(cli))
        #expect(made == expected, sourceLocation: sourceLocation)
    }

    // MARK: The list

    /// A title holding bidirectional controls: its row and its form show them as escapes,
    /// never raw, and the columns after the title still line up.
    @Test func bidirectionalControlsInATitleAreShownEscaped() throws {
        let home = try Home()
        try home.add("Pay \u{202E}txt.exe\u{202C} rent", "--at", "09:30")
        try home.add("Tea", "--at", "15:00")
        let tmux = try open(home)
        let escaped = "Pay \\u{202E}txt.exe\\u{202C} rent"
        let screen = try #require(try tmux.wait { rows($0).count == 2 && $0.contains { $0.contains(escaped) } }, "\(tmux.lastScreen)")
        let raw: (String) -> Bool = { $0.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x202C } }
        #expect(!screen.contains(where: raw))
        let schedules = rows(screen).map { line in line.distance(from: line.startIndex, to: line.range(of: "daily at")!.lowerBound) }
        #expect(Set(schedules).count == 1, "\(rows(screen))")
        try select("Pay", in: tmux)
        try tmux.press("e")
        let form = try #require(try tmux.wait(for: "Edit the reminder"))
        #expect(form.contains { $0.contains(escaped) } && !form.contains(where: raw), "\(form)")
        try tmux.press("Escape")
        _ = try close(tmux)
    }

    @Test func theListIsNudgeList() throws {
        let home = try Home()
        try home.add("Stretch", "--at", "09:30", "--days", "weekdays")
        let water = try home.add("물 마시기 water", "--every", "30m", "--from", "09:30", "--until", "21:30")
        try home.add("Tea", "--at", "15:00")
        let off = try home.add("Off for now", "--at", "07:00")
        try home.nudge("off", off)
        try home.nudge("snooze", water, "25m")
        let list = try home.nudge("list").stdout.split(separator: "\n").dropFirst().map(String.init)
        let alerts = try home.list()
        let tmux = try open(home)
        let screen = try #require(try tmux.wait { rows($0).count == 4 })
        let shown = rows(screen)
        for (i, alert) in alerts.enumerated() {
            let title = try #require(alert["title"] as? String), enabled = try #require(alert["enabled"] as? Bool)
            // nudge list's NEXT column: the same words, in the same order.
            let fields = list[i].split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(shown[i].contains(title), "\(shown[i]) is not \(title)")
            #expect(shown[i].hasPrefix(enabled ? " [on]" : " [off]"))
            #expect(shown[i].contains(fields[2]), "\(shown[i]) lacks \(fields[2]) of \(list[i])")
        }
        let first = try #require(alerts.first?["title"] as? String)
        #expect(screen[28].hasPrefix(" Next: \(first), in "), "the status line counts down: \(screen[28])")
        #expect(screen[0].contains("Nudge — 4 reminders") && screen[0].contains("daemon not running"))
        #expect(try close(tmux) == 0)
    }

    @Test func anAlertAddedFromTheCommandLineShowsWithinASecond() throws {
        let home = try Home()
        let first = try home.add("First", "--at", "09:30")
        let tmux = try open(home)
        let added = try home.nudge("add", "Added elsewhere", "--at", "10:00")
        #expect(added.status == 0)
        #expect(try tmux.wait(for: "Added elsewhere", timeout: 1) != nil, "\(tmux.lastScreen)")
        try home.nudge("rm", first)
        #expect(try tmux.wait(timeout: 1) { !$0.contains { $0.contains("First") } } != nil)
        #expect(try close(tmux) == 0)
    }

    /// A sync or backup tool renames another store over the one open: the screen follows
    /// the new file, and what is saved there lands in it, not in the file renamed away.
    @Test func aStoreReplacedUnderItIsFollowedAndNothingSavedIsLost() throws {
        let home = try Home(), other = try Home()
        try home.add("In the old store", "--at", "09:30")
        try other.add("In the new store", "--at", "10:30")
        let tmux = try open(home)
        #expect(try tmux.wait(for: "In the old store") != nil)
        // The other store whole (checkpointed), renamed over this one, as rsync or a restore does.
        _ = try Bench.run("/usr/bin/sqlite3", [other.database, "PRAGMA wal_checkpoint(TRUNCATE)"])
        try FileManager.default.copyItem(atPath: other.database, toPath: home.database + ".new")
        #expect(rename(home.database + ".new", home.database) == 0)
        #expect(try tmux.wait(timeout: 2) { rows($0).count == 1 && rows($0)[0].contains("In the new store") } != nil, "\(tmux.lastScreen)")
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Saved after")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil)
        #expect(try home.list().compactMap { $0["title"] as? String }.sorted() == ["In the new store", "Saved after"])
        // Removed: shown empty and said, not made anew by looking.
        for suffix in ["", "-wal", "-shm"] { unlink(home.database + suffix) }
        #expect(try tmux.wait(for: "was removed") != nil, "\(tmux.lastScreen)")
        #expect(!FileManager.default.fileExists(atPath: home.database))
        // doctor --restore is offered only where a last good copy is there to put back.
        let hasCopy = FileManager.default.fileExists(atPath: home.database + ".last-good")
        #expect(try tmux.wait(for: hasCopy ? "nudge doctor --restore" : "its last good copy too") != nil, "\(tmux.lastScreen)")
        // Nor by a reminder added meanwhile: the form says why it is not saved, and that a
        // second Enter starts anew…
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Ghost")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "file is gone: Enter again starts a new one") != nil, "\(tmux.lastScreen)")
        #expect(!FileManager.default.fileExists(atPath: home.database))
        // …which it does, on the person's word, with that reminder alone.
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().compactMap { $0["title"] as? String } == ["Ghost"])
        #expect(try tmux.wait { rows($0).count == 1 && rows($0)[0].contains("Ghost") } != nil, "\(tmux.lastScreen)")
        #expect(try close(tmux) == 0)
    }

    /// The filter finds a reminder by its schedule's words too, as the window's search does.
    @Test func theFilterReadsTitlesAndSchedules() throws {
        let home = try Home()
        try home.add("Stretch", "--at", "09:30")
        try home.add("Tea", "--every", "2h")
        let tmux = try open(home)
        #expect(try tmux.wait { rows($0).count == 2 } != nil)
        try tmux.press("/")
        try tmux.type("every 2")
        #expect(try tmux.wait { rows($0).count == 1 && rows($0)[0].contains("Tea") } != nil, "\(tmux.lastScreen)")
        try tmux.press("Escape")
        #expect(try tmux.wait { rows($0).count == 2 } != nil)
        #expect(try close(tmux) == 0)
    }

    /// With a daemon (a stand-in owning its name, as in DaemonLinkTests): the bar says what
    /// its `Status()` says, and each change made on the screen reaches it as the CLI's do.
    @Test(.enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
    func theDaemonsStatusShowsAndChangesReachIt() throws {
        let bus = try PrivateBus()
        let calls = DaemonLinkTests.Calls()
        let home = try Home()
        let id = try home.add("Stretch", "--at", "09:30")
        let hex = try #require(try home.list().first?["id"] as? String).replacingOccurrences(of: "-", with: "")
        let tmux = try open(home, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(try tmux.wait(for: "daemon not running") != nil)
        let standIn = try DaemonLinkTests.standIn(on: bus, recording: calls, status: [
            ("pid", .uint32(1)), ("version", .string("test")), ("alerts", .uint32(1)), ("pending", .uint32(2)),
            ("away", .bool(true)), ("away-reason", .string("screen locked")),
        ])
        defer { standIn.stop() }
        // What waits is counted in reminders, from the store the list shows (none here,
        // whatever pop-ups the daemon counts).
        #expect(try tmux.wait(for: "daemon running · holding: screen locked") != nil, "\(tmux.lastScreen.first ?? "")")
        #expect(tmux.lastScreen.first?.contains("unanswered") == false, "\(tmux.lastScreen.first ?? "")")
        // Off, on, snooze, done: what `nudge off`, `on`, `snooze`, `ack` send.
        try tmux.press("Space")
        #expect(try tmux.wait { rows($0).first?.hasPrefix(" [off]") == true } != nil)
        try tmux.press("Space", "s", "Enter")
        let expected = ["Reload", "Reload", "Snooze \(hex) 600", "Ack \(hex)"]
        let deadline = Date().addingTimeInterval(5)
        while calls.all.filter({ $0 != "Status" }) != expected && Date() < deadline { usleep(20_000) }
        #expect(calls.all.filter { $0 != "Status" } == expected)
        _ = id
        standIn.stop()
        #expect(try tmux.wait(for: "daemon not running") != nil)
        #expect(try close(tmux) == 0)
    }

    /// With the daemon stalled (SIGSTOP), Done goes to it and the keys after it are
    /// handled: the next times show, a switch is kept, and the answer lands once the daemon
    /// runs again. (That the keys do not wait is daemon-bench's stalled figure, and the
    /// window's test of the same path; here a key clears the status line, so a blocking
    /// call's "did not answer" would not be seen.)
    @Test(.enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
    func aStalledDaemonStallsNoKey() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { kill(daemon.pid, SIGCONT); _ = daemon.stop() }
        let id = try desktop.dueSoon(lead: 1) { try desktop.add("Stretch", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(10) { (try? desktop.events(id)) == ["fired"] })
        let tmux = try Tmux(width: 100, height: 30, environment: desktop.environment())
        try tmux.run("'\(Bench.nudgePath)' ui 2> '\(tmux.file("stderr"))'; echo $? > '\(tmux.file("status"))'")
        #expect(try tmux.wait(for: "daemon running") != nil, "\(tmux.lastScreen)")
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        // Done on the reminder that fired, then its next times: shown while the status line
        // has nothing from the daemon yet.
        try tmux.press("g", "Enter", "n")
        let next = try #require(try tmux.wait(for: "Next for “Stretch”"), "\(tmux.lastScreen)")
        #expect(!next.joined().contains("did not answer"), "\(next)")
        // A switch is the store's and a Reload without a reply: kept at once.
        try tmux.press("Escape", "Space")
        #expect(try tmux.wait { rows($0).first?.hasPrefix(" [off]") == true } != nil, "\(tmux.lastScreen)")
        #expect(try desktop.nudge("show", String(id.prefix(8))).stdout.contains("state      off"))
        // The change asked the daemon's state: running, its name owned, but not answering
        // (it said "not running", and doctor said otherwise).
        #expect(try tmux.wait(for: "daemon running but not answering", timeout: 10) != nil, "\(tmux.lastScreen)")
        // Done again, on the reminder: after 2 s the status line says the daemon is slow,
        // not that Done failed (the call reached it)…
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "has not answered Ack yet", timeout: 10) != nil, "\(tmux.lastScreen)")
        // The command line says the same, and doctor that the daemon runs but does not answer.
        let ack = try desktop.nudge("ack", String(id.prefix(8)))
        #expect(ack.status == 69 && ack.stderr.contains("has not answered Ack yet"), "\(ack.stderr)")
        #expect(try desktop.nudge("doctor").stdout.contains("running but not answering"))
        // …and running again, the daemon takes what it was sent, and its late answer is said.
        kill(daemon.pid, SIGCONT)
        #expect(Bench.eventually(10) { (try? desktop.events(id))?.contains("acknowledged") == true })
        #expect(try tmux.wait(for: "acknowledged \(id.prefix(8))", timeout: 10) != nil, "\(tmux.lastScreen)")
        #expect(try tmux.wait { $0.joined(separator: "\n").contains("daemon running") && !$0.joined(separator: "\n").contains("not answering") } != nil,
                "\(tmux.lastScreen)")
        try tmux.press("q")
        #expect(tmux.waitForFile("status")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    // MARK: Changes, as the CLI makes them

    /// The form's last kind takes the schedule in words, says what it read it as under the
    /// field, and adds what `nudge add TITLE WHEN` adds.
    @Test func aScheduleInWordsIsReadBackAndAddedAsTheCommandLineWould() throws {
        let screen = try Home(), cli = try Home()
        let tmux = try open(screen)
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Water")
        try tmux.press("Tab", "Tab", "Left")
        #expect(try tmux.wait(for: "In words") != nil, "\(tmux.lastScreen)")
        try tmux.press("Tab")
        try tmux.type("every 2 hours from 9 to 11")
        #expect(try tmux.wait(for: "ambiguous window") != nil, "\(tmux.lastScreen)")
        // Enter is refused, and its message goes once the phrase is changed.
        try tmux.press("Enter")
        #expect(try tmux.wait { $0.last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.contains("Tab next field") })?.contains("ambiguous") == true } != nil)
        try tmux.press("C-u")
        try tmux.type("every 30 minutes from 9:30 to 21:30 on weekdays")
        #expect(try tmux.wait { !$0.contains { $0.contains("ambiguous") } } != nil, "\(tmux.lastScreen)")
        #expect(try tmux.wait(for: "→ --every 30m --from 09:30") != nil, "the flags beside the field: \(tmux.lastScreen)")
        #expect(try tmux.wait(for: "Read as: every 30 min, 09:30–21:30, Mon–Fri") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        let added = try cli.nudge("add", "Water", "every 30 minutes from 9:30 to 21:30 on weekdays")
        #expect(added.status == 0)
        try expectSame(screen, cli)
        #expect(try close(tmux) == 0)
    }

    /// A day said without a time takes the default reminder time the store keeps, said over
    /// the showings, and is added as the command line adds it with the same setting.
    @Test func aDayWithoutATimeTakesTheStoredDefaultTime() throws {
        let screen = try Home(), cli = try Home()
        for home in [screen, cli] { #expect(try home.nudge("config", "default-time", "09:00").status == 0) }
        let tmux = try open(screen)
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Dentist")
        try tmux.press("Tab", "Tab", "Left", "Tab")
        try tmux.type("tomorrow")
        #expect(try tmux.wait(for: "at 09:00, your default reminder time; say a time to choose another") != nil, "\(tmux.lastScreen)")
        #expect(try tmux.wait(for: "→ --on '") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try cli.nudge("add", "Dentist", "tomorrow").status == 0)
        try expectSame(screen, cli)
        #expect(try close(tmux) == 0)
    }

    /// A place reminder says where a time would be ("on arrival"), and one said in words
    /// in the form is added as the command line adds it.
    @Test func placeRemindersSayWhenTheyComeUp() throws {
        let screen = try Home(), cli = try Home()
        try screen.add("Lock the door", "--leave", "home-wifi")
        try cli.add("Lock the door", "--leave", "home-wifi")
        let tmux = try open(screen)
        #expect(try tmux.wait { $0.contains { $0.contains("on leaving") && $0.contains("Lock the door") && $0.contains("on leaving home-wifi") } } != nil,
                "\(tmux.lastScreen)")
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Timesheet")
        try tmux.press("Tab", "Tab", "Left")
        #expect(try tmux.wait(for: "In words") != nil, "\(tmux.lastScreen)")
        try tmux.press("Tab")
        try tmux.type("office-wifi에 도착하면")
        #expect(try tmux.wait(for: "→ --arrive office-wifi") != nil, "\(tmux.lastScreen)")
        #expect(try tmux.wait(for: "no time can be known: it comes up on arriving at office-wifi") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try cli.nudge("add", "Timesheet", "office-wifi에 도착하면").status == 0)
        try expectSame(screen, cli)
        #expect(try close(tmux) == 0)
    }

    @Test func switchingAddingEditingAndDeletingChangeTheStoreAsTheCommandLineWould() throws {
        let screen = try Home(), cli = try Home()
        let tmux = try open(screen)

        // At 09:30 on weekdays: the form's time, with the days typed.
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Stretch")
        try tmux.press("Tab", "Tab", "Tab", "Tab")
        try tmux.type("weekdays")
        #expect(try tmux.wait(for: "weekdays") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        let stretch = try cli.add("Stretch", "--at", "09:30", "--days", "weekdays")

        // Every 30 min, 09:30–21:30, every day: each field typed.
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Drink water")
        try tmux.press("Tab", "Tab", "Right", "Tab", "C-u")
        try tmux.type("30m")
        try tmux.press("Tab", "C-u")
        try tmux.type("09:30")
        try tmux.press("Tab", "C-u")
        try tmux.type("21:30")
        try tmux.press("Tab", "C-u")
        try tmux.press("Enter")
        #expect(try tmux.wait { rows($0).count == 2 } != nil, "\(tmux.lastScreen)")
        let water = try cli.add("Drink water", "--every", "30m", "--from", "09:30", "--until", "21:30")
        try expectSame(screen, cli)

        // Off with space.
        try select("Stretch", in: tmux)
        try tmux.press("Space")
        #expect(try tmux.wait { rows($0).contains { $0.hasPrefix(" [off]") && $0.contains("Stretch") } } != nil)
        try cli.nudge("off", stretch)
        try expectSame(screen, cli)

        // An edit: a new title and every 45 min.
        try select("Drink water", in: tmux)
        try tmux.press("e")
        #expect(try tmux.wait(for: "Edit the reminder") != nil)
        try tmux.press("C-u")
        try tmux.type("Water, 250 ml")
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("45m")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "edited ") != nil, "\(tmux.lastScreen)")
        try cli.nudge("edit", water, "--title", "Water, 250 ml", "--every", "45m", "--from", "09:30", "--until", "21:30")
        try expectSame(screen, cli)

        // Delete asks first: n keeps it, y deletes it.
        try select("Stretch", in: tmux)
        try tmux.press("d")
        #expect(try tmux.wait(for: "Delete “Stretch”?") != nil)
        try tmux.press("n")
        #expect(try tmux.wait(for: "not deleted") != nil)
        try expectSame(screen, cli)
        try tmux.press("d")
        #expect(try tmux.wait(for: "Delete “Stretch”?") != nil)
        try tmux.press("y")
        #expect(try tmux.wait { rows($0).count == 1 } != nil)
        try cli.nudge("rm", stretch)
        try expectSame(screen, cli)
        #expect(try close(tmux) == 0)
    }

    @Test func theFormChecksAsYouTypeWithTheCommandLinesWordsAndEscCancels() throws {
        let home = try Home()
        let tmux = try open(home)
        try tmux.press("a")
        try tmux.type("Bad time")
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("25:00")
        // The CLI's message, without its "nudge: ".
        let message = try home.nudge("add", "Bad time", "--at", "25:00").stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "nudge: ", with: "")
        #expect(!message.isEmpty)
        #expect(try tmux.wait(for: String(message.prefix(60))) != nil, "\(message) not in \(tmux.lastScreen)")
        // Enter does not save a bad form; Esc leaves it.
        try tmux.press("Enter")
        try tmux.press("Escape")
        #expect(try tmux.wait(for: "not saved") != nil)
        #expect(try home.list().isEmpty)
        // A good one (a title: an empty form is no reminder) previews its next times.
        try tmux.press("a")
        try tmux.type("Tea")
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("08:15")
        #expect(try tmux.wait { $0.filter { $0.contains("08:15") }.count >= 4 } != nil, "\(tmux.lastScreen)")
        try tmux.press("Escape")
        #expect(try close(tmux) == 0)
    }

    /// A new form not written in yet is calm: no error until the person tries to save it
    /// without a title, and then the command line's words.
    @Test func anUntouchedNewFormSaysNothingWrongUntilSaved() throws {
        let home = try Home()
        let tmux = try open(home)
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("08:15")
        // The schedule is read and its showings stand there; the title is not yet wrong.
        #expect(try tmux.wait { $0.filter { $0.contains("08:15") }.count >= 4 } != nil, "\(tmux.lastScreen)")
        #expect(!tmux.lastScreen.joined().contains("needs a title"), "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "needs a title") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().isEmpty)
        try tmux.press("Escape")
        #expect(try close(tmux) == 0)
    }

    /// A reminder a calendar narrowed (every other week, until a date): the form says what
    /// it keeps; saved with its schedule untouched it keeps all of it, with a new schedule
    /// it is that schedule, as `nudge edit` makes it.
    @Test(.enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
    func aCalendarsScheduleIsKeptUnlessItIsChanged() throws {
        let home = try Home(), cli = try Home()
        let events = [ImportTests.Event(uid: "Retro", lines: ["DTSTART;TZID=Europe/Berlin:20261201T090000",
                                                              "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20991231T000000Z"])]
        try home.importCalendar(events)
        try cli.importCalendar(events)
        let before = try stored(home)
        #expect(before.contains(";every week 2 "))
        let tmux = try open(home, width: 140)
        try select("Retro", in: tmux)
        try tmux.press("e")
        try tmux.press("Tab", "Tab")
        #expect(try tmux.wait(for: "kept as is: every Tue at 09:00, every 2 weeks") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "edited ") != nil, "\(tmux.lastScreen)")
        #expect(try stored(home) == before)
        // A new time: a new schedule.
        try tmux.press("e")
        try tmux.press("Tab", "Tab", "Tab", "C-u")
        try tmux.type("10:00")
        #expect(try tmux.wait(for: "a new schedule: without the old") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait { $0.contains { $0.contains("Retro") && $0.contains("10:00") } } != nil, "\(tmux.lastScreen)")
        let id = try #require(try cli.list().first?["shortId"] as? String)
        try cli.nudge("edit", id, "--at", "10:00", "--days", "tue")
        try expectSame(home, cli)
        #expect(try close(tmux) == 0)
    }

    // MARK: The terminal

    @Test func resizingToEightyByTwentyFourAndBack() throws {
        let home = try Home()
        for i in 1...30 { try home.add("Reminder \(i)", "--at", String(format: "%02d:%02d", 6 + i / 4, (i % 4) * 15)) }
        let tmux = try open(home, width: 120, height: 40)
        #expect(try tmux.wait { $0.count == 40 && rows($0).count == 30 } != nil)
        try tmux.resize(width: 80, height: 24)
        let small = try #require(try tmux.wait { $0.count == 24 && $0[23].hasPrefix(" ↑↓ move") && rows($0).count == 20 },
                                 "\(tmux.lastScreen)")
        #expect(small[0].contains("Nudge — 30 reminders"))
        #expect(small[23].contains("q quit"))
        #expect(small.allSatisfy { $0.count <= 80 })
        try tmux.resize(width: 120, height: 40)
        #expect(try tmux.wait { $0.count == 40 && rows($0).count == 30 && $0[39].hasPrefix(" ↑↓ move") } != nil, "\(tmux.lastScreen)")
        #expect(try close(tmux) == 0)
    }

    @Test(arguments: ["q", "C-c", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGALRM"])
    func everyWayOutLeavesTheTerminalAsItWas(way: String) throws {
        let home = try Home()
        try home.add("Stretch", "--at", "09:30")
        let tmux = try open(home)
        if way.hasPrefix("SIG") {
            let pid = try #require(try tmux.foregroundProgram(named: "nudge"))
            let signals = ["SIGTERM": SIGTERM, "SIGHUP": SIGHUP, "SIGUSR1": SIGUSR1, "SIGALRM": SIGALRM]
            kill(pid, signals[way]!)
            // TERM and HUP end it as they would have, once the terminal is back (the shell
            // sees 128 + the signal); USR1 and ALRM quit cleanly.
            let ended: Int32 = [SIGTERM, SIGHUP].contains(signals[way]!) ? 128 + signals[way]! : 0
            #expect(try close(tmux, "") == ended)
        } else {
            #expect(try close(tmux, way) == 0)
        }
        // The shell's prompt, not the screen, is what shows.
        #expect(try tmux.wait { !$0.contains { $0.contains("Nudge —") } } != nil)
    }

    @Test func ctrlZStopsWithTheTerminalGivenBackAndFgBringsTheScreenBack() throws {
        let home = try Home()
        try home.add("Stretch", "--at", "09:30")
        let tmux = try Tmux(environment: home.environment())
        try tmux.run("stty -a > '\(tmux.file("before"))'")
        try tmux.run("'\(Bench.nudgePath)' ui")
        #expect(try tmux.wait(for: "Stretch") != nil)
        try tmux.press("C-z")
        #expect(try tmux.wait(for: "Stopped") != nil)
        try tmux.run("stty -a > '\(tmux.file("stopped"))'")
        #expect(tmux.waitForFile("stopped") == (try? String(contentsOfFile: tmux.file("before"), encoding: .utf8)))
        try tmux.run("fg")
        #expect(try tmux.wait(for: "Nudge — 1 reminder") != nil)
        try tmux.press("q")
        // Typed before it has quit, the command would be read, or flushed, by nudge ui.
        #expect(try tmux.wait { !$0.contains { $0.contains("Nudge —") } } != nil)
        try tmux.run("stty -a > '\(tmux.file("after"))'")
        #expect(tmux.waitForFile("after") == (try? String(contentsOfFile: tmux.file("before"), encoding: .utf8)))
    }

    /// Korean titles, and the whole screen in Korean: the schedule column starts in the same
    /// terminal column on every row.
    @Test func koreanTitlesLineUp() throws {
        let home = try Home()
        try home.add("물 마시기", "--at", "09:00")
        try home.add("Stretch", "--at", "10:00")
        try home.add("스트레칭 break", "--at", "11:00")
        let tmux = try open(home, environment: ["LANG": "ko_KR.UTF-8"])
        let screen = try #require(try tmux.wait { rows($0).count == 3 })
        // Hangul syllables take two columns, as in every terminal.
        func columns(_ text: Substring) -> Int {
            text.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) || (0x1100...0x115F).contains($1.value) ? 2 : 1) }
        }
        let starts = rows(screen).map { line -> Int? in
            guard let range = line.range(of: "매일 오전") else { return nil }
            return columns(line[..<range.lowerBound])
        }
        #expect(starts.allSatisfy { $0 != nil } && Set(starts).count == 1, "\(rows(screen))")
        // Soonest first: which row each is on depends on the hour, so each is looked for.
        let titles = ["물 마시기", "Stretch", "스트레칭 break"].map { title in
            rows(screen).lazy.compactMap { row in row.range(of: title).map { columns(row[..<$0.lowerBound]) } }.first
        }
        #expect(Set(titles).count == 1 && titles[0] != nil, "\(rows(screen))")
        #expect(screen.last?.contains("끝내기") == true, "the keys in Korean: \(screen.last ?? "")")
        #expect(try close(tmux) == 0)
    }

    /// Clicks as xterm reports them (SGR, with TERM=xterm-256color) and as older terminals
    /// do (X10, with TERM=screen): on a row selects it, on its switch toggles it.
    @Test(arguments: ["xterm-256color", "screen"])
    func aClickOnTheSwitchToggles(term: String) throws {
        let home = try Home()
        try home.add("First", "--at", "09:00")
        try home.add("Second", "--at", "10:00")
        let tmux = try open(home, term: term)
        let screen = try #require(try tmux.wait { rows($0).count == 2 })
        // Soonest first, so Second's row depends on the hour: its switch is at column 3 of
        // line 3 + its row (1-based). SGR reports (xterm) say it in digits, X10 (screen) as
        // bytes 32 above.
        let line = 3 + (try #require(rows(screen).firstIndex { $0.contains("Second") }))
        let x10 = { (button: Int) in "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + "#" + String(UnicodeScalar(UInt8(32 + line))) }
        let click = term == "screen" ? x10(0) + x10(3) : "\u{1B}[<0;3;\(line)M\u{1B}[<0;3;\(line)m"
        try tmux.type(click)
        #expect(try tmux.wait { rows($0).contains { $0.hasPrefix(" [off]") && $0.contains("Second") } } != nil, "\(tmux.lastScreen)")
        #expect(try home.list().first { $0["title"] as? String == "Second" }?["enabled"] as? Bool == false)
        #expect(try home.list().first { $0["title"] as? String == "First" }?["enabled"] as? Bool == true)
        #expect(try close(tmux) == 0)
    }

    @Test func colourUnlessNoColor() throws {
        let home = try Home()
        try home.add("First", "--at", "09:00")
        try home.add("Second", "--at", "10:00")
        let coloured = try open(home, environment: ["NO_COLOR": nil])
        _ = try coloured.wait(for: "Second")
        // The selection (in reverse) off the first row: its switch is green.
        try coloured.press("j")
        var escapes = ""
        for _ in 0..<100 where !escapes.contains("32m") {
            escapes = try coloured.screenWithAttributes()
            usleep(20_000)
        }
        #expect(escapes.contains("32m"), "the switch is green: \(escapes)")
        #expect(try close(coloured) == 0)
        let plain = try open(home)
        _ = try plain.wait(for: "First")
        let plainEscapes = try plain.screenWithAttributes()
        #expect(!plainEscapes.contains("32m") && !plainEscapes.contains("31m") && !plainEscapes.contains("36m"))
        #expect(plainEscapes.contains("\u{1B}[1m"), "bold stands in for colour")
        #expect(try close(plain) == 0)
    }

    // MARK: Without a terminal

    @Test func withoutATerminalItSaysSoAndWritesNothing() throws {
        let home = try Home()
        let out = try home.nudge("ui")
        #expect(out.status == 64)
        #expect(out.stdout.isEmpty)
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("needs a terminal"))
    }

    @Test func aDumbTerminalIsRefused() throws {
        let home = try Home()
        let tmux = try Tmux(environment: home.environment())
        try tmux.run("TERM=dumb '\(Bench.nudgePath)' ui 2> '\(tmux.file("stderr"))'; echo $? > '\(tmux.file("status"))'")
        #expect(tmux.waitForFile("status") == "64\n")
        let stderr = try String(contentsOfFile: tmux.file("stderr"), encoding: .utf8)
        #expect(stderr.contains("TERM is dumb") && stderr.split(separator: "\n").count == 1, "\(stderr)")
    }
}
