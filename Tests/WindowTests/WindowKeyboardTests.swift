import Foundation
import Testing
import TestSupport

/// The window used by keyboard alone: Tab and Shift+Tab reach everything, cycle after
/// cycle; a switch toggles by Space and Enter; a reminder is added, edited, switched off,
/// deleted and put back without the mouse.
extension WindowFormAndAccessTests {
    private static let controls = ["push button\tAdd a Reminder", "push button\tSettings",
                                   "push button\tEdit Stretch", "push button\tDelete Stretch", "check box\tStretch",
                                   "push button\tEdit Tea", "push button\tDelete Tea", "check box\tTea",
                                   "push button\tEdit Take the medicine", "push button\tDelete Take the medicine", "check box\tTake the medicine"]

    @Test(arguments: ["Tab", "shift+Tab"])
    func tabReachesEveryControlCycleAfterCycle(key: String) throws {
        let desktop = try Desktop(server: false)
        for (title, time) in [("Stretch", "09:30"), ("Tea", "15:00"), ("Take the medicine", "21:00")] {
            _ = try desktop.add(title, "--on", "2099-01-01 " + time)
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Take the medicine", "checked"))
        var cycles: [[String]] = [[]]
        var first: String?
        for _ in 0..<120 {
            _ = try window.type(key)
            let focused = try window.focused()
            if first == nil { first = focused } else if focused == first {
                cycles.append([])
                if cycles.count > 3 { break }
            }
            cycles[cycles.count - 1].append(focused)
        }
        #expect(cycles.count > 3, "never came back to \(first ?? "?"): \(cycles)")
        for (index, cycle) in cycles.prefix(3).enumerated() {
            let missing = Self.controls.filter { !cycle.contains($0) }
            #expect(missing.isEmpty, "\(key), cycle \(index + 1) missed \(missing): \(cycle)")
            // Every stop acts by Space or Enter, the same forward and back (issue 52: Shift+Tab
            // stopped on the "Reminders are not shown" row, and the autostart row was a stop of
            // its own beside its switch): the service card's Start and switch, no row of it.
            let switches = ["toggle button", "switch", "check box"].map { $0 + "\tStart with your session" }
            #expect(cycle.contains("push button\tStart") && cycle.contains(where: switches.contains),
                    "\(key), cycle \(index + 1) missed Start or the autostart switch: \(cycle)")
            let inert = cycle.filter { $0.hasSuffix("\tReminders are not shown")
                || $0.hasSuffix("\tStart with your session") && !switches.contains($0) }
            #expect(inert.isEmpty, "\(key), cycle \(index + 1) stops where nothing acts: \(inert)")
        }
        _ = window.close()
    }

    /// Keys typed faster than the window draws each go one stop (the last CI's failure under
    /// GNOME 48's Wayland: the list's own placing of the focus, run after the key that
    /// brought the focus in, ran after the next key too, and took the focus back a stop).
    @Test func twoShiftTabsAtOnceIntoTheListGoTwoStops() throws {
        let desktop = try Desktop(server: false)
        for (title, time) in [("Tea", "15:00"), ("Take the medicine", "21:00")] {
            _ = try desktop.add(title, "--on", "2099-01-01 " + time)
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Take the medicine", "checked"))
        try #require(try window.tab(to: "push button\tAdd a Reminder", backward: true))
        for _ in 0..<3 {
            // Both keys in one go, with no wait between them.
            _ = try Bench.run("/usr/bin/xdotool", ["key", "--clearmodifiers", "--delay", "0", "shift+Tab", "shift+Tab"],
                              environment: window.environment(), timeout: 20)
            #expect(Bench.eventually(5) { (try? window.focused()) == "push button\tDelete Take the medicine" },
                    "\((try? window.focused()) ?? "nothing")")
            try #require(try window.tab(to: "push button\tAdd a Reminder"))
        }
        _ = window.close()
    }

    /// Start pressed by keyboard starts the service, and the focus goes to the next thing to
    /// do, the autostart switch, not to the card's inner list where keys did nothing (issue 52).
    @Test func startByKeyboardLeavesTheFocusOnTheAutostartSwitch() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Tea", "--on", "2099-01-01 15:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Tea", "checked"))
        try #require(try window.tab(to: "push button\tStart"))
        _ = try window.type("space")
        #expect(try window.reaches("push button", "Start", "gone"))
        #expect(Bench.eventually(10) { ((try? window.focused()) ?? "").hasSuffix("\tStart with your session") },
                "\((try? window.focused()) ?? "")")
        _ = window.close()
    }

    /// The focus on a reminder that fires goes with it up to what waits, where its answers
    /// are the next Tab stops (issue 52: the focus fell to nothing when its row moved, Tab
    /// reached nothing and Shift+Tab only the header, so the reminder that had just fired
    /// could not be answered by keyboard).
    @Test func theFocusGoesWithAReminderThatFires() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        for (title, time) in [("Stretch", "09:30"), ("Take the medicine", "21:00")] {
            _ = try desktop.add(title, "--on", "2099-01-01 " + time)
        }
        // Long enough ahead to reach it by Tab before it fires, on a busy machine too.
        _ = try desktop.dueSoon(lead: 20) { try desktop.add("Tea", "--at", desktop.clockText($0)) }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.tab(to: "check box\tTea"))
        #expect(try window.reaches("push button", "Done: Tea", within: 40))
        #expect(Bench.eventually(5) { (try? window.focused()) == "check box\tTea" }, "\((try? window.focused()) ?? "nothing")")
        // On from there: its answers, in the section at the top.
        var stops: [String] = []
        for _ in 0..<4 {
            _ = try window.type("Tab")
            stops.append((try? window.focused()) ?? "")
        }
        #expect(stops.contains("push button\tDone: Tea"), "\(stops)")
        #expect(!stops.contains(""), "Tab reached nothing: \(stops)")
        _ = window.close()
    }

    /// A reminder switched off goes last and on goes back, far out of view both ways, and the
    /// focus on its switch goes with it every time (issue 52's hostile pass: the second time
    /// on, the focus went to the row that had stood before it at the end, since the place it
    /// was given was one the view then gave another reminder).
    @Test func theFocusFollowsAReminderSwitchedOffAndOnAgainAndAgain() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("First", "--on", "2098-12-31 23:00")
        try WindowTests.insertOneShots(300, titled: "F", into: desktop)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.tab(to: "check box\tF 1"))
        let id = String(format: "%032x", 1)
        for round in 0..<3 {
            for (command, state) in [("off", "unchecked"), ("on", "checked")] {
                _ = try desktop.nudge(command, id)
                #expect(try window.reaches("check box", "F 1", state))
                #expect(Bench.eventually(10) { (try? window.focused()) == "check box\tF 1" },
                        "round \(round), \(command): \((try? window.focused()) ?? "nothing")")
            }
        }
        _ = window.close()
    }

    @Test func spaceAndEnterToggleAFocusedSwitch() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Tea", "--on", "2099-01-01 15:00")
        // Another after it: Tea switched off goes last, and the focus goes with it.
        _ = try desktop.add("Coffee", "--on", "2099-01-01 16:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        try #require(try window.tab(to: "check box\tTea"))
        _ = try window.type("space")
        #expect(try window.reaches("check box", "Tea", "unchecked"))
        #expect(Bench.eventually(5) { (try? desktop.nudge("list", "--all").stdout.contains("off")) == true })
        #expect(Bench.eventually(5) { (try? window.focused()) == "check box\tTea" }, "\((try? window.focused()) ?? "")")
        _ = try window.type("Return")
        #expect(try window.reaches("check box", "Tea", "checked"))
        _ = try window.type("KP_Enter")
        #expect(try window.reaches("check box", "Tea", "unchecked"))
        _ = window.close()
    }

    @Test func aReminderIsAddedEditedSwitchedDeletedAndPutBackByKeyboardAlone() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        // Add: Ctrl+N, the title (the focus starts there), Enter.
        _ = try window.type("ctrl+n")
        try #require(try window.reaches("dialog", "Add a Reminder"))
        _ = try window.write("Tea", into: "Add a Reminder")
        #expect(try window.drive("find", "Next showings", "10").status == 0)
        _ = try window.type("Return", into: "Add a Reminder")
        #expect(try window.reaches("check box", "Tea", "checked"))
        // Edit: Tab to its edit button, Enter, a new title, Enter.
        try #require(try window.tab(to: "push button\tEdit Tea"))
        _ = try window.type("Return")
        try #require(try window.reaches("dialog", "Edit Reminder"))
        _ = try window.type("ctrl+a", into: "Edit Reminder")
        _ = try window.write("Green tea", into: "Edit Reminder")
        #expect(try window.drive("find", "Next showings", "10").status == 0)
        _ = try window.type("Return", into: "Edit Reminder")
        #expect(try window.reaches("check box", "Green tea", "checked"))
        // Off by Space.
        try #require(try window.tab(to: "check box\tGreen tea"))
        _ = try window.type("space")
        #expect(try window.reaches("check box", "Green tea", "unchecked"))
        // Delete by Enter on its button; Ctrl+Z puts it back, off as it was.
        try #require(try window.tab(to: "push button\tDelete Green tea"))
        _ = try window.type("Return")
        #expect(try window.reaches("check box", "Green tea", "gone"))
        // The focus, its row gone, on what says what happened (issue 52).
        #expect(Bench.eventually(5) { (try? window.focused()) == "push button\tDeleted “Green tea”. Undo" }, "\((try? window.focused()) ?? "nothing")")
        _ = try window.type("ctrl+z")
        // (The window aborted here once in a make test, and each time it ran beside two other
        // window tests: libadwaita 1.2's assertion on a toast put back and shown again while
        // it hid; its stderr is said if it ever does again.)
        #expect(try window.reaches("check box", "Green tea", "unchecked"),
                "window running: \(window.windowProcess?.isRunning ?? false); \(window.windowProcess?.stderrSoFar ?? "")")
        // Its toast goes with the delete it told of, and the focus is back on its switch.
        #expect(try window.reaches("push button", "Deleted “Green tea”. Undo", "gone", within: 10))
        #expect(Bench.eventually(5) { (try? window.focused()) == "check box\tGreen tea" }, "\((try? window.focused()) ?? "nothing")")
        let listed = try desktop.nudge("list", "--all").stdout
        #expect(listed.contains("Green tea") && listed.contains("off"), "\(listed)")
        _ = window.close()
    }

    /// Page Down and Page Up page through the list from a row's control, as they page through
    /// any long list: a keyboard user reaches the thousandth reminder in a few presses, not
    /// a thousand Tabs. Home and End go to the list's ends.
    @Test func pageDownAndPageUpPageThroughTheList() throws {
        let desktop = try Desktop(server: false)
        // One-shots on a fixed day far ahead: S 1 first, S 60 last, whatever the hour.
        for index in 1...60 {
            _ = try desktop.add("S \(index)", "--on", String(format: "2099-01-01 %02d:%02d", 9 + index / 60, index % 60))
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "S 1", "checked"))
        try #require(try window.tab(to: "check box\tS 1"))
        /// The number of the reminder whose control has the focus (S 12 → 12).
        func focusedRow() throws -> Int {
            let focused = try window.focused()
            return Int(focused.split(separator: " ").last ?? "") ?? -1
        }
        _ = try window.type("Next")
        #expect(Bench.eventually(10) { ((try? focusedRow()) ?? 0) > 3 }, "Page Down: \((try? window.focused()) ?? "")")
        let first = try focusedRow()
        _ = try window.type("Next")
        #expect(Bench.eventually(10) { ((try? focusedRow()) ?? 0) > first }, "a second Page Down: \((try? window.focused()) ?? "")")
        let second = try focusedRow()
        // A page is the same both ways.
        #expect(second - first <= first + 1, "pages of \(first) and then \(second - first) rows")
        _ = try window.type("Prior")
        #expect(Bench.eventually(10) { ((try? focusedRow()) ?? 99) < second }, "Page Up: \((try? window.focused()) ?? "")")
        // Up to the top of the list: the service's first control, above the reminders.
        for _ in 0..<3 { _ = try window.type("Prior") }
        #expect(Bench.eventually(10) { (try? window.focused()) == "push button\tStart" }, "back at the top: \((try? window.focused()) ?? "")")
        _ = try window.type("End")
        #expect(Bench.eventually(10) { (try? focusedRow()) == 60 }, "End: \((try? window.focused()) ?? "")")
        // Home: the list's first control (the service's, above the reminders).
        _ = try window.type("Home")
        #expect(Bench.eventually(10) { (try? window.focused()) == "push button\tStart" }, "Home: \((try? window.focused()) ?? "")")
        _ = window.close()
    }
}
