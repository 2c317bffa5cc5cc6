import Foundation
import Testing
import TestSupport

/// The window's add and edit form, filled as a person fills it (through AT-SPI: text into
/// the entries, values into the spin buttons, toggles toggled) and checked against the
/// same reminders made by the command line in a second store, column for column.
extension WindowFormAndAccessTests {
    /// The stored columns, a one-time schedule's instant left out (the window's "in 20
    /// minutes" and the command line's are reckoned seconds apart; the test checks it on its own).
    func storedWithoutInstants(_ database: String) throws -> String {
        let columns = "title, body, CASE WHEN schedule LIKE 'once %' THEN 'once' ELSE schedule END, enabled, sound, urgency, icon, "
            + "timeZone, graceSeconds, snoozeSeconds, kind, whenAway, nagSeconds, nagTimes"
        return try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", "-json", database, "SELECT \(columns) FROM alert ORDER BY title"]).stdout
    }

    /// The form, open and showing its next showings (its check has run).
    func openForm(_ window: WindowSession, _ button: String, heading: String) throws {
        let clicked = try window.drive("do", "push button", button, "click")
        try #require(clicked.status == 0, "\(clicked.stderr) \((try? window.nodes())?.filter { $0.role == "push button" }.map(\.name) ?? [])")
        try #require(try window.reaches("dialog", heading), "\((try? window.nodes())?.filter { $0.role != "panel" }.map { "\($0.role)|\($0.name)" } ?? [])")
    }

    func saveForm(_ window: WindowSession, _ button: String, heading: String) throws {
        let found = try window.drive("find", "Next showings")
        try #require(found.status == 0, "\(found.stderr)")
        try #require(try window.drive("do", "push button", button, "click").status == 0)
        try #require(try window.reaches("dialog", heading, "gone"))
    }

    /// Ctrl+N and Enter save nothing: a new form starts empty, its water switch off, and
    /// Add waits for a title; a title of spaces is refused with the words Edit uses.
    @Test func anEmptyFormSavesNothing() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("label", "No reminders yet"))
        _ = try window.type("ctrl+n")
        try #require(try window.reaches("dialog", "Add a Reminder"))
        #expect(try window.reaches("check box", "Water reminder", "unchecked"))
        #expect(try !window.drive("describe", "push button", "Add").stdout.contains("sensitive"))
        _ = try window.type("Return", into: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "   ").status == 0)
        #expect(try window.drive("find", "a reminder needs a title", "10").status == 0)
        // Told to a screen reader where the person types, and on Add.
        #expect(try window.drive("describe", "text", "Title").stdout.contains("description: Not saved yet: a reminder needs a title"))
        #expect(try window.drive("describe", "push button", "Add").stdout.contains("description: Not saved yet: a reminder needs a title"))
        #expect(try !window.drive("describe", "push button", "Add").stdout.contains("sensitive"))
        _ = try window.type("Return", into: "Add a Reminder")
        #expect(try window.reaches("dialog", "Add a Reminder"))
        #expect(try desktop.nudge("list", "--all", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        try #require(try window.drive("set", "text", "Title", "Tea").status == 0)
        #expect(try window.drive("describe", "push button", "Add").stdout.contains(" sensitive"))
        _ = window.close()
    }

    @Test func addingAndEditingInTheFormStoreWhatTheCommandLineWould() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        let window = try WindowSession(desktop: desktop)
        try window.open()

        // Daily at 09:30 on weekdays: a time picked, Saturday and Sunday toggled off.
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        #expect(try window.reaches("check box", "Water reminder", "unchecked"), "a new form is not the drink-water reminder")
        try #require(try window.drive("set", "text", "Title", "Stretch").status == 0)
        #expect(try window.reaches("check box", "Water reminder", "unchecked"))
        try #require(try window.drive("set", "text", "Body", "Stand up").status == 0)
        try #require(try window.drive("value", "spin button", "Time, hour", "9").status == 0)
        try #require(try window.drive("value", "spin button", "Time, minute", "30").status == 0)
        for day in ["Saturday", "Sunday"] {
            try #require(try window.drive("do", "push button", day, "click").status == 0)
            #expect(try window.reaches("push button", day, "unchecked"))
        }
        #expect(try window.drive("find", "9:30").status == 0, "the next showings, before saving")
        try saveForm(window, "Add", heading: "Add a Reminder")
        #expect(try window.reaches("check box", "Stretch", "checked"))
        _ = try cli.add("Stretch", "--body", "Stand up", "--at", "09:30", "--days", "weekdays")

        // Every 30 minutes, 09:30 to 21:30, on weekdays, a water reminder.
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "Drink water").status == 0)
        try #require(try window.drive("do", "check box", "Water reminder", "toggle").status == 0)
        try #require(try window.drive("do", "radio button", "Every few minutes", "click").status == 0)
        #expect(try window.reaches("spin button", "Every, minutes"))
        try #require(try window.drive("value", "spin button", "Every, minutes", "30").status == 0)
        try #require(try window.drive("value", "spin button", "From, hour", "9").status == 0)
        try #require(try window.drive("value", "spin button", "From, minute", "30").status == 0)
        try #require(try window.drive("value", "spin button", "Until, hour", "9").status == 0)
        try #require(try window.drive("value", "spin button", "Until, minute", "30").status == 0)
        // 9:30 on en_US's 12-hour clock, in the afternoon (the form's own until, 21:30, is).
        #expect(try window.reaches("push button", "Until, PM"))
        #expect(try window.reaches("push button", "From, AM"))
        for day in ["Saturday", "Sunday"] { try #require(try window.drive("do", "push button", day, "click").status == 0) }
        try saveForm(window, "Add", heading: "Add a Reminder")
        #expect(try window.reaches("check box", "Drink water", "checked"))
        let water = try cli.add("Drink water", "--water", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays")

        // In 20 minutes.
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "Tea").status == 0)
        try #require(try window.drive("do", "radio button", "Once, in a while", "click").status == 0)
        try #require(try window.drive("value", "spin button", "In, minutes", "20").status == 0)
        let before = Date().timeIntervalSince1970
        try saveForm(window, "Add", heading: "Add a Reminder")
        let after = Date().timeIntervalSince1970
        #expect(try window.reaches("check box", "Tea", "checked"))
        _ = try cli.add("Tea", "--in", "20m")
        let instant = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", database(desktop),
                                                         "SELECT substr(schedule, 6) FROM alert WHERE title = 'Tea'"]).stdout
        let at = try #require(Double(instant.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(at >= before + 1200 - 1 && at <= after + 1200 + 1, "\(at) not 20 minutes after \(before)–\(after)")
        #expect(try storedWithoutInstants(database(desktop)) == storedWithoutInstants(cli.database))

        // An edit: a new title and every 45 minutes; the rest stays.
        try openForm(window, "Edit Drink water", heading: "Edit Reminder")
        #expect(try window.drive("read", "text", "Title").stdout == "Drink water\n")
        try #require(try window.drive("set", "text", "Title", "Water, 250 ml").status == 0)
        try #require(try window.drive("value", "spin button", "Every, minutes", "45").status == 0)
        try saveForm(window, "Save", heading: "Edit Reminder")
        #expect(try window.reaches("check box", "Water, 250 ml", "checked"))
        try cli.nudge("edit", water, "--title", "Water, 250 ml", "--every", "45m", "--from", "09:30", "--until", "21:30", "--days", "weekdays")
        #expect(try storedWithoutInstants(database(desktop)) == storedWithoutInstants(cli.database))
        _ = window.close()
    }

    /// What is wrong is said as it is typed, in the operations' own words, and Add waits;
    /// Esc closes the form and nothing is kept.
    @Test func theFormSaysWhatIsWrongAsItIsTyped() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "Report").status == 0)
        try #require(try window.drive("do", "radio button", "Cron expression", "click").status == 0)
        try #require(try window.drive("set", "text", "Cron (minute hour day month weekday)", "0 9 30 2 *").status == 0)
        // The command line's message for the same expression.
        let cli = try desktop.nudge("add", "Report", "--cron", "0 9 30 2 *")
        let message = String(cli.stderr.split(separator: "\n").first ?? "").replacingOccurrences(of: "nudge: ", with: "")
        #expect(cli.status == 64 && !message.isEmpty)
        #expect(try window.drive("find", "Not saved yet").status == 0)
        #expect(try window.drive("find", String(message.prefix(40))).status == 0, "\(message)")
        // Add does nothing while something is wrong.
        _ = try window.drive("do", "push button", "Add", "click")
        #expect(try window.reaches("dialog", "Add a Reminder"))
        // Fixed: the next showings again.
        try #require(try window.drive("set", "text", "Cron (minute hour day month weekday)", "0 9 * * mon-fri").status == 0)
        #expect(try window.drive("find", "Next showings").status == 0)
        // Esc, and Discard: closed, nothing kept.
        // The question comes as a window of its own: waited for (a make test's load took it past the click).
        try #require(try window.type("Escape", into: "^Add a Reminder$", bringing: "push button", "Discard"),
                     "\((try? window.nodes())?.map { "\($0.role)|\($0.name)" } ?? [])")
        try #require(try window.drive("do", "push button", "Discard", "click").status == 0)
        #expect(try window.reaches("dialog", "Add a Reminder", "gone"))
        #expect(try stored(database(desktop)) == "")
        // Thrown away without a word from GLib (it was 4 warnings and 4 criticals).
        let said = window.windowProcess?.stderrSoFar ?? ""
        #expect(!said.contains("WARNING") && !said.contains("CRITICAL"), "\(said)")
        _ = window.close()
    }

    /// A schedule said in words, Korean here: refused with the readings while it is
    /// ambiguous, said back once it is not, and stored as `nudge add TITLE WHEN` stores it.
    @Test func aScheduleInWordsIsSaidBackAndStoredAsTheCommandLineWould() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "물 마시기").status == 0)
        try #require(try window.drive("do", "radio button", "In words", "click").status == 0)
        let field = "When, in words (every weekday at 9:30, 매일 오전 9시)"
        // Midnight with a day is its start or its end, whatever the time it is said (12시
        // alone is noon before noon since session 16: no example for a test).
        try #require(try window.drive("set", "text", field, "내일 자정").status == 0)
        #expect(try window.drive("find", "Not saved yet").status == 0)
        #expect(try window.drive("find", "midnight at the start of the day or at its end?").status == 0)
        try #require(try window.drive("set", "text", field, "평일 오전 9시 30분부터 오후 9시 30분까지 30분마다").status == 0)
        #expect(try window.drive("find", "Read as: every 30 min").status == 0)
        try saveForm(window, "Add", heading: "Add a Reminder")
        try cli.nudge("add", "물 마시기", "평일 오전 9시 30분부터 오후 9시 30분까지 30분마다")
        #expect(try storedWithoutInstants(database(desktop)) == storedWithoutInstants(cli.database))
        _ = window.close()
    }

    /// A schedule the form has no fields for (two times a day, a calendar's every other
    /// week) is said and kept when something else is edited.
    @Test func aScheduleTheFormCannotShowIsKeptAndSaid() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        for home in [desktop as NudgeUser, cli as NudgeUser] {
            try home.nudge("add", "Pills", "--at", "08:00", "--at", "20:00")
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try openForm(window, "Edit Pills", heading: "Edit Reminder")
        #expect(try window.drive("find", "Kept as is: daily at").status == 0)
        // A day toggled off and on again means what it meant: still kept.
        // Each click seen before the next (once in a make test the two left Monday off).
        for state in ["unchecked", "checked"] {
            try #require(try window.drive("do", "push button", "Monday", "click").status == 0)
            try #require(try window.reaches("push button", "Monday", state))
        }
        #expect(try window.drive("find", "Kept as is: daily at").status == 0)
        try #require(try window.drive("set", "text", "Body", "With water").status == 0)
        try saveForm(window, "Save", heading: "Edit Reminder")
        try cli.nudge("edit", try id(of: "Pills", in: cli), "--body", "With water")
        #expect(try Bench.eventually(5) { try stored(database(desktop)) == stored(cli.database) })
        _ = window.close()
    }

    /// Durations show as they are stored (not rounded to minutes), so what is there can be
    /// seen and changed: 90 s of snooze, nagging every 30 s, a grace of 5 minutes.
    @Test func optionsShowAsStored() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        for home in [desktop as NudgeUser, cli as NudgeUser] {
            try home.nudge("add", "Odd", "--at", "09:00", "--snooze", "90s", "--nag", "30s", "--grace", "5m")
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try openForm(window, "Edit Odd", heading: "Edit Reminder")
        #expect(try window.drive("read", "text", "Snooze for (10 min, 1 h 30 min)").stdout == "90 s\n")
        #expect(try window.drive("read", "text", "Show again if unanswered, every (30 min; empty: never)").stdout == "30 s\n")
        #expect(try window.drive("find", "within 5 min").status == 0)
        // Nagging switched off: the field emptied.
        try #require(try window.drive("set", "text", "Show again if unanswered, every (30 min; empty: never)", "").status == 0)
        try saveForm(window, "Save", heading: "Edit Reminder")
        try cli.nudge("edit", try id(of: "Odd", in: cli), "--nag", "none")
        #expect(try Bench.eventually(5) { try stored(database(desktop)) == stored(cli.database) })
        _ = window.close()
    }
}

extension WindowFormAndAccessTests {
    /// In Korean the form says and reads lengths of time in Korean, and its time picker
    /// puts 오전/오후 where Korean puts it: before the hour (오전 9:00).
    @Test func theKoreanFormSpeaksKorean() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop, locale: "ko_KR.UTF-8")
        try window.open()
        _ = try window.type("ctrl+n")
        try #require(try window.reaches("dialog", "알림 추가"))
        let order = try window.nodes().map(\.name)
        let half = try #require(order.firstIndex { $0 == "시각, 오전" || $0 == "시각, 오후" }, "\(order)")
        let hour = try #require(order.firstIndex(of: "시각, 시"), "\(order)")
        #expect(half < hour, "오전 before the hour: \(order)")
        #expect(try window.drive("find", "12시간 안에", "10").status == 0, "the catch-up row in Korean hours")
        try window.screenshot(to: try Self.shotPath("form-ko.png"))
        try #require(try window.drive("set", "text", "제목", "차").status == 0)
        try #require(try window.drive("set", "text", "미루는 시간 (10분, 1시간 30분)", "15분").status == 0)
        try #require(try window.drive("set", "text", "응답이 없으면 다시 보이기, 간격 (30분; 비우면 안 함)", "한 시간 반").status == 0)
        #expect(try window.drive("find", "다음 알림", "10").status == 0)
        _ = try window.type("Return", into: "알림 추가")
        #expect(try window.reaches("check box", "차"))
        let stored = try Bench.run("sqlite3", [database(desktop), "SELECT snoozeSeconds, nagSeconds FROM alert"]).stdout
        // In words, as said: 한 시간 반 is an hour and a half.
        #expect(stored == "900|5400\n", "\(stored)")
        _ = window.close()
    }
}

extension WindowFormAndAccessTests {
    /// A one-time reminder's date is typed or picked from a calendar; a date that is no day
    /// is refused in the field's own terms.
    @Test func theDateIsTypedOrPickedFromACalendar() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "Dentist").status == 0)
        try #require(try window.drive("do", "radio button", "Once, on a date", "click").status == 0)
        try #require(try window.drive("set", "text", "Date (YYYY-MM-DD)", "2099-13-40").status == 0)
        #expect(try window.drive("find", "“2099-13-40” is not a date: write it as YYYY-MM-DD", "10").status == 0)
        try #require(try window.drive("set", "text", "Date (YYYY-MM-DD)", "2099-03-14").status == 0)
        let nodes = try window.nodes()
        let role = try #require(nodes.first { $0.name == "Pick the date from a calendar" && $0.role != "label" }?.role,
                                "\(nodes.map { "\($0.role)|\($0.name)" })")
        try #require(try window.drive("do", role, "Pick the date from a calendar", "click").status == 0)
        #expect(Bench.eventually(5) { (try? window.nodes().contains { $0.name == "Calendar" }) == true })
        let audit = try window.drive("audit")
        #expect(audit.status == 0, "the calendar: \(audit.stdout)")
        // Space picks the day the calendar's keyboard focus is on (GTK 4.8 keeps that apart
        // from the day selected): a day of the month shown, the date typed's, is written in.
        _ = try window.press("Right")
        _ = try window.press("space")
        var picked = ""
        #expect(Bench.eventually(5) {
            picked = (try? window.drive("read", "text", "Date (YYYY-MM-DD)").stdout.trimmingCharacters(in: .newlines)) ?? ""
            return picked != "2099-03-14" && (picked.hasPrefix("2099-03-") || picked.hasPrefix("2099-02-") || picked.hasPrefix("2099-04-"))
        }, "\(picked)")
        _ = try window.press("Escape")
        try saveForm(window, "Add", heading: "Add a Reminder")
        #expect(try desktop.nudge("list", "--all").stdout.contains(picked), "\(picked)")
        _ = window.close()
    }
}

extension WindowFormAndAccessTests {
    /// The sound is chosen among the theme's, with a preview, not only on or off.
    @Test func theSoundIsChosenAndPreviewed() throws {
        let desktop = try Desktop(server: false)
        let played = desktop.directory + "/played"
        let player = desktop.directory + "/player"
        try "#!/bin/sh\necho \"$1\" >> \(played)\n".write(toFile: player, atomically: true, encoding: .utf8)
        chmod(player, 0o755)
        let window = try WindowSession(desktop: desktop)
        try window.open(environment: ["NUDGE_SOUND_PLAYER": player])
        try openForm(window, "Add a Reminder", heading: "Add a Reminder")
        try #require(try window.drive("set", "text", "Title", "Tea").status == 0)
        #expect(try window.reaches("combo box", "Sound"))
        #expect(try window.nodes().contains { $0.role == "list item" && $0.name == "Alarm clock (default)" })
        // The default played, then Bell chosen by keyboard (the row, Space, Down, Enter) and played.
        try #require(try window.drive("do", "push button", "Play the Sound", "click").status == 0)
        #expect(Bench.eventually(5) { (try? String(contentsOfFile: played, encoding: .utf8))?.contains("alarm-clock-elapsed") == true })
        var focused: [String] = []
        for _ in 0..<40 where try window.focused() != "combo box\tSound" {
            _ = try window.type("Tab", into: "Add a Reminder")
            focused.append(try window.focused())
        }
        try #require(try window.focused() == "combo box\tSound", "\(focused)")
        _ = try window.press("space")
        #expect(Bench.eventually(5) { (try? window.focused()) == "list item\tNone" })
        for _ in 0..<2 { _ = try window.press("Down") }
        #expect(Bench.eventually(5) { (try? window.focused()) == "list item\tBell" })
        _ = try window.press("Return")
        #expect(Bench.eventually(5) { (try? window.focused()) == "combo box\tSound" })
        try #require(try window.drive("do", "push button", "Play the Sound", "click").status == 0)
        #expect(Bench.eventually(5) { (try? String(contentsOfFile: played, encoding: .utf8))?.contains("bell") == true })
        try saveForm(window, "Add", heading: "Add a Reminder")
        let stored = try Bench.run("sqlite3", [database(desktop), "SELECT sound FROM alert"]).stdout
        #expect(stored == "bell\n", "\(stored)")
        _ = window.close()
    }

    /// Issue 52: an edit of a reminder deleted elsewhere while its form was open is not
    /// "no alert with id …": the form says what happened, and Save again keeps the edit as
    /// a new reminder, with the schedule it showed.
    @Test func anEditOfAReminderDeletedElsewhereCanBeKeptAsANewOne() throws {
        let desktop = try Desktop(server: false)
        let tea = try desktop.add("Tea", "--at", "16:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Tea", "checked"))
        try openForm(window, "Edit Tea", heading: "Edit Reminder")
        try #require(try window.drive("set", "text", "Title", "Green tea").status == 0)
        #expect(try desktop.nudge("rm", tea).status == 0)
        let found = try window.drive("find", "Next showings")
        try #require(found.status == 0, "\(found.stderr)")
        try #require(try window.drive("do", "push button", "Save", "click").status == 0)
        let said = try window.drive("find", "This reminder was deleted elsewhere meanwhile", "10")
        #expect(said.status == 0, "\((try? window.nodes())?.map(\.name) ?? [])")
        #expect(try window.reaches("dialog", "Edit Reminder"), "the form stays, with the edit")
        try #require(try window.drive("do", "push button", "Save", "click").status == 0)
        #expect(try window.reaches("dialog", "Edit Reminder", "gone"))
        #expect(try window.reaches("check box", "Green tea", "checked"))
        let listed = try desktop.nudge("list", "--all").stdout
        #expect(listed.contains("Green tea") && listed.contains("16:00") && !listed.contains(tea.prefix(8)), "\(listed)")
        _ = window.close()
    }

    /// Issue 52: Escape or Alt+F4 on a half-typed form asked nothing and threw it away.
    /// With changes, the form asks (Keep Editing, the default, or Discard) whichever way it
    /// is closed (Escape, Cancel, the window manager's close: all one close request);
    /// untouched, it just closes.
    @Test func aHalfTypedFormIsNotThrownAwayWithoutAsking() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        _ = try window.type("ctrl+n")
        try #require(try window.reaches("dialog", "Add a Reminder"))
        try #require(try window.drive("set", "text", "Title", "Half typed").status == 0)
        _ = try window.press("Escape")
        try #require(try window.reaches("push button", "Keep Editing"), "\((try? window.nodes())?.map { "\($0.role)|\($0.name)" } ?? [])")
        #expect(try window.drive("find", "Discard Changes?").status == 0)
        try #require(try window.drive("do", "push button", "Keep Editing", "click").status == 0)
        #expect(try window.reaches("push button", "Keep Editing", "gone"))
        #expect(try window.drive("read", "text", "Title").stdout == "Half typed\n")
        // Cancel asks the same (and the window manager's close, Alt+F4, is the same request).
        try #require(try window.drive("do", "push button", "Cancel", "click").status == 0)
        try #require(try window.reaches("push button", "Discard"))
        try #require(try window.drive("do", "push button", "Discard", "click").status == 0)
        #expect(try window.reaches("dialog", "Add a Reminder", "gone"))
        #expect(try desktop.nudge("list", "--all", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let said = window.windowProcess?.stderrSoFar ?? ""
        #expect(!said.contains("WARNING") && !said.contains("CRITICAL"), "\(said)")
        // Untouched, it just closes.
        _ = try window.type("ctrl+n")
        try #require(try window.reaches("dialog", "Add a Reminder"))
        _ = try window.type("Escape", into: "Add a Reminder")
        #expect(try window.reaches("dialog", "Add a Reminder", "gone"), "an untouched form closes at once")
        _ = window.close()
    }
}
