import Foundation
import Testing
import TestSupport

/// The window's settings and its week of water, used as a person uses them.
extension WindowTests {
    @Test func settingsAreKeptAsNudgeConfigKeepsThemAndFollowChangesMadeElsewhere() throws {
        let desktop = try Desktop(server: false), cli = try Home()
        _ = try desktop.add("Drink water", "--water", "--every", "30m")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.drive("do", "push button", "Settings", "click").status == 0)
        try #require(try window.reaches("spin button", "Cup, ml"))
        for (spin, value) in [("Cup, ml", "300"), ("Daily goal, ml", "2500"), ("A day starts at, hour", "4"), ("Keep the log, days", "30")] {
            let set = try window.drive("value", "spin button", spin, value)
            try #require(set.status == 0, "\(set.stderr)")
        }
        for (setting, value) in [("cup", "300ml"), ("goal", "2500ml"), ("day-start", "04:00"), ("log-days", "30")] {
            try cli.nudge("config", setting, value)
        }
        #expect(try Bench.eventually(5) { try desktop.nudge("config").stdout == cli.nudge("config").stdout })
        // The window follows at once: the cup on its button, the goal in its words.
        #expect(try window.reaches("push button", "Drank 300 ml"))
        #expect(try window.reaches("label", "0 of 2,500 ml today"))
        // A change made by the command line shows in the open settings.
        try desktop.nudge("config", "goal", "3000ml")
        #expect(try Bench.eventually(10) { try window.drive("read", "spin button", "Daily goal, ml").stdout == "3000\n" },
                "\((try? window.drive("read", "spin button", "Daily goal, ml").stdout) ?? "")")
        // A value outside the range is held at its end, never kept past it.
        try #require(try window.drive("value", "spin button", "Cup, ml", "999999").status == 0)
        #expect(try Bench.eventually(5) { try desktop.nudge("config", "cup").stdout == "5000ml\n" },
                "\((try? desktop.nudge("config", "cup").stdout) ?? "")")
        _ = window.close()
    }

    /// The week's bars, today last, each named with its day and total.
    @Test func theWeeksWaterIsChartedDayByDay() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Drink water", "--water", "--every", "30m")
        // Yesterday at noon, in the session's zone: 750 ml; today, 250 ml.
        let zone = TimeZone(identifier: desktop.zone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let yesterday = calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: Date()))!.addingTimeInterval(12 * 3600)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        try desktop.nudge("drink", "750", "--at", formatter.string(from: yesterday))
        try desktop.nudge("drink", "250")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        let day = { (date: Date) -> String in
            ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][calendar.component(.weekday, from: date) - 1]
        }
        #expect(try window.reaches("level bar", "\(day(yesterday)): 750 ml"),
                "\((try? window.nodes())?.filter { $0.role == "level bar" }.map(\.name) ?? [])")
        #expect(try window.reaches("level bar", "\(day(Date())): 250 ml"))
        // A drink logged now moves today's bar.
        try desktop.nudge("drink", "500")
        #expect(try window.reaches("level bar", "\(day(Date())): 750 ml"))
        _ = window.close()
    }
}

extension WindowTests {
    /// The default reminder time is set in Settings as `nudge config default-time` sets it:
    /// switched on it is 09:00 and can be moved; off, it is none.
    @Test func theDefaultReminderTimeIsSetInSettings() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.drive("do", "push button", "Settings", "click").status == 0)
        try #require(try window.reaches("check box", "Default reminder time", "unchecked"))
        #expect(try desktop.nudge("config").stdout.contains("default-time none"))
        try #require(try window.drive("do", "check box", "Default reminder time", "toggle").status == 0)
        #expect(Bench.eventually(5) { (try? desktop.nudge("config").stdout.contains("default-time 09:00")) == true })
        try #require(try window.drive("value", "spin button", "Default reminder time, minute", "30").status == 0)
        #expect(Bench.eventually(5) { (try? desktop.nudge("config").stdout.contains("default-time 09:30")) == true })
        // Set elsewhere, it shows; cleared elsewhere, the switch goes off.
        try desktop.nudge("config", "default-time", "none")
        #expect(try window.reaches("check box", "Default reminder time", "unchecked"))
        try desktop.nudge("config", "default-time", "18:00")
        #expect(try window.reaches("check box", "Default reminder time", "checked"))
        _ = window.close()
    }
}

extension WindowTests {
    /// A calendar account added in Settings as `nudge sync add` adds one (Radicale on
    /// 127.0.0.1, gnome-keyring on the session's bus), its calendars chosen there, synced,
    /// and removed, by a person who uses the keyboard and a screen reader's names.
    @Test func aCalendarAccountIsAddedChosenAndRemovedInSettings() throws {
        let server = try CalDAVServer(.radicale)
        try server.makeCalendar("Reminders")
        try server.makeCalendar("Phone")
        let dentist = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:dentist@phone\r\nDTSTAMP:20261120T100000Z\r\n"
            + "DTSTART:20301202T060000Z\r\nSUMMARY:Dentist\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT30M\r\nDESCRIPTION:Dentist\r\nEND:VALARM\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        try server.phone("calendar('Phone').save_event(\(CalDAVServer.python(dentist)))")
        let desktop = try Desktop(server: false)
        let keyring = try KeyringSession.startKeyring(in: desktop.directory, environment: desktop.environment(), bus: desktop.address)
        defer { _ = keyring.stop() }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.drive("do", "push button", "Settings", "click").status == 0)
        try #require(try window.reaches("push button", "Add Account"))
        // Add with nothing typed: said, nothing run.
        try #require(try window.drive("do", "push button", "Add Account", "click").status == 0)
        #expect(try window.reaches("label", "Type the server's address first."))
        // The address, the user, and the password typed as a person types it (not set through
        // AT-SPI: a password field gives its text to no one). A wrong one first: said in the
        // row, the password field emptied, nothing kept.
        try #require(try window.drive("set", "text", "Server address", server.url).status == 0)
        try #require(try window.drive("set", "text", "User name", server.user ?? "").status == 0)
        try #require(try window.tab(to: "password text\tPassword", into: "Settings"))
        _ = try window.write("wrong", into: "Settings")
        _ = try window.type("Return", into: "Settings")
        let refused = try window.drive("find", "refused the user name or password", "60")
        #expect(refused.status == 0, "\(window.scene())")
        #expect(try desktop.nudge("sync", "status", "--json").stdout.contains(#""accounts":[]"#))
        #expect(try window.focused() == "password text\tPassword", "the keyboard stays where it was")
        _ = try window.write(server.password, into: "Settings")
        _ = try window.type("Return", into: "Settings")
        try #require(try window.reaches("combo box", "Phone", within: 60), "\(window.scene())")
        #expect(try window.reaches("label", "Added. Choose above what each calendar is for."))
        let described = try window.drive("describe", "combo box", "Phone").stdout
        #expect(described.contains("events, tasks"), "what a calendar holds is said with it: \(described)")
        #expect(try window.drive("audit").status == 0, "\((try? window.drive("audit").stdout) ?? "")")
        #expect(try desktop.nudge("sync", "status").stdout.contains("Phone"))
        // The phone's calendar followed, by keyboard: its choice, Space, Down, Enter.
        func choose(_ calendar: String, downs: Int, _ choice: String) throws {
            try #require(try window.tab(to: "combo box\t" + calendar, into: "Settings"), "\((try? window.focused()) ?? "")")
            _ = try window.press("space")
            #expect(Bench.eventually(5) { (try? window.focused()) == "list item\tNot synced" }, "\((try? window.focused()) ?? "")")
            for _ in 0..<downs { _ = try window.press("Down") }
            #expect(Bench.eventually(5) { (try? window.focused()) == "list item\t" + choice }, "\((try? window.focused()) ?? "")")
            _ = try window.press("Return")
        }
        try choose("Phone", downs: 1, "Its alarms pop up here")
        #expect(try Bench.eventually(30) { try desktop.nudge("list").stdout.contains("Dentist") }, "\((try? desktop.nudge("sync", "status").stdout) ?? "")")
        #expect(try window.drive("find", "Synced").status == 0)
        // The list says the calendar a followed reminder comes from, after its schedule.
        #expect(try window.drive("find", "· Phone", "30").status == 0, "\((try? window.nodes())?.map(\.name).filter { $0.contains("Dentist") || $0.contains("Phone") } ?? [])")
        try window.screenshot(to: try Self.shotPath("settings-sync.png"))
        #expect(try window.drive("audit").status == 0, "a choice changed is named too: \((try? window.drive("audit").stdout) ?? "")")
        // Closed while a sync runs (Escape at once), the window goes on; opened again, the
        // account is there.
        try #require(try window.drive("do", "push button", "Sync Now: ann @ " + server.url, "click").status == 0)
        _ = try window.type("Escape", into: "Settings")
        #expect(try window.reaches("push button", "Settings"))
        Thread.sleep(forTimeInterval: 2)
        #expect(window.windowProcess?.isRunning == true, "closing Settings while a sync ran ended the window")
        try #require(try window.drive("do", "push button", "Settings", "click").status == 0)
        try #require(try window.reaches("combo box", "Phone"))
        // Nudge's reminders to the other calendar; one made here goes there with Sync Now.
        try choose("Reminders", downs: 2, "Holds Nudge's reminders")
        #expect(try Bench.eventually(30) { try desktop.nudge("sync", "status").stdout.contains("Reminders") })
        _ = try desktop.add("Tea", "--at", "16:00")
        #expect(try Bench.eventually(30) {
            _ = try window.drive("do", "push button", "Sync Now: ann @ " + server.url, "click")
            return try server.phone("for o in objects('Reminders'): print(o.data)").contains("SUMMARY:Tea")
        })
        // Removed, after the question: its reminders go, nothing leaves the server.
        try #require(try window.drive("do", "push button", "Remove Account: ann @ " + server.url, "click").status == 0)
        try #require(try window.reaches("push button", "Remove"), "\(window.scene())")
        try #require(try window.drive("do", "push button", "Remove", "click").status == 0)
        #expect(try Bench.eventually(30) { try !desktop.nudge("list").stdout.contains("Dentist") })
        #expect(try window.reaches("combo box", "Phone", "gone"))
        #expect(Bench.eventually(5) { (try? window.focused()) == "text\tServer address" }, "the keyboard goes on: \((try? window.focused()) ?? "")")
        #expect(try server.phone("for o in objects('Phone'): print(o.data)").contains("Dentist"))
        _ = window.close()
    }
}
