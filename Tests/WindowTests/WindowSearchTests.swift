import Foundation
import Testing
import TestSupport

/// Search: Ctrl+F (or typing into the window) narrows the list to the reminders whose
/// title or schedule holds the words, with how many match beside the heading.
extension WindowTests {
    @Test func ctrlFNarrowsTheListByTitleAndScheduleWords() throws {
        let desktop = try Desktop(server: false)
        for (title, time) in [("Tea", "15:00"), ("Green tea", "16:00"), ("Stretch", "09:30"), ("Take the medicine", "21:00"), ("Call mum", "18:00")] {
            _ = try desktop.add(title, "--on", "2099-01-01 " + time)
        }
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("label", "5 reminders"))
        _ = try window.type("ctrl+f")
        let focused = try window.focused()
        #expect(focused.hasSuffix("\tSearch reminders"), "\(focused)")
        _ = try window.write("tea")
        #expect(try window.reaches("check box", "Stretch", "gone"))
        #expect(try window.reaches("check box", "Tea"))
        #expect(try window.reaches("check box", "Green tea"))
        #expect(try window.reaches("label", "2 of 5 reminders"))
        // The schedule's words too, as typed: "9:00 PM" with a plain space (en_US writes U+202F).
        _ = try window.type("ctrl+a")
        _ = try window.write("9:00 PM")
        #expect(try window.reaches("check box", "Take the medicine"), "\((try? window.drive("describe", "check box", "Take the medicine").stdout) ?? "") \((try? window.nodes())?.filter { $0.role == "check box" }.map(\.name) ?? [])")
        #expect(try window.reaches("check box", "Tea", "gone"))
        _ = try window.type("ctrl+a")
        _ = try window.write("dentist")
        #expect(try window.reaches("label", "No reminder’s title or schedule holds “dentist”"))
        // Escape ends the search: every reminder again.
        _ = try window.type("Escape")
        #expect(try window.reaches("check box", "Stretch"))
        #expect(try window.reaches("label", "5 reminders"))
        _ = window.close()
    }
}

extension WindowTests {
    /// What waits for an answer is searched as the rest is (issue 52: "zzz" said "2 of 3"
    /// and still showed the two waiting rows; a waiting match showed beside "No reminder's
    /// title … holds"); the bar counts reminders waiting, not pop-ups.
    @Test func aSearchNarrowsWhatWaitsToo() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        _ = try desktop.add("Stretch", "--on", "2099-01-01 09:30")
        // Two due at one instant (a retry with a longer lead removes both first).
        var green: String?
        _ = try desktop.dueSoon(lead: 1) { due in
            if let green { _ = try desktop.nudge("rm", green) }
            green = try desktop.add("Green tea", "--at", desktop.clockText(due))
            return try desktop.add("Call mum", "--at", desktop.clockText(due))
        }
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 2 })
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("push button", "Done: Green tea"))
        #expect(try window.reaches("push button", "Done: Call mum"))
        #expect(try window.drive("find", "2 unanswered").status == 0, "\(named(window))")
        _ = try window.type("ctrl+f")
        _ = try window.write("zzz")
        #expect(try window.reaches("label", "0 of 3 reminders"))
        #expect(try window.reaches("push button", "Done: Green tea", "gone"))
        #expect(try window.reaches("push button", "Done: Call mum", "gone"))
        #expect(try window.reaches("label", "No reminder’s title or schedule holds “zzz”"))
        _ = try window.type("ctrl+a")
        _ = try window.write("tea")
        #expect(try window.reaches("label", "1 of 3 reminders"), "\(named(window)) \((try? window.nodes())?.filter { $0.role == "label" }.map(\.name) ?? [])")
        #expect(try window.reaches("push button", "Done: Green tea"))
        #expect(try window.reaches("push button", "Done: Call mum", "gone"))
        #expect(try window.reaches("check box", "Stretch", "gone"))
        #expect(try window.reaches("label", "No reminder’s title or schedule holds “tea”", "gone"))
        _ = window.close()
    }

    /// The desktop's search hands over what was typed there (`--search TEXT`, GNOME's "more
    /// results", KRunner's Open in Nudge): the window opens searching for it, and a window
    /// already open takes the next words.
    @Test func searchFromTheDesktopOpensTheWindowSearching() throws {
        let desktop = try Desktop(server: false)
        for (title, time) in [("Tea", "15:00"), ("Green tea", "16:00"), ("Stretch", "09:30")] {
            _ = try desktop.add(title, "--on", "2099-01-01 " + time)
        }
        let window = try WindowSession(desktop: desktop)
        try window.open(["--search", "tea"])
        #expect(try window.reaches("label", "2 of 3 reminders"))
        #expect(try window.reaches("check box", "Stretch", "gone"))
        let second = try window.runWindow(["--search", "stretch"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try window.reaches("label", "1 of 3 reminders"))
        #expect(try window.reaches("check box", "Stretch"))
        #expect(try window.reaches("check box", "Tea", "gone"))
        let missing = try window.runWindow(["--search"])
        #expect(missing.status == 64 && missing.stderr == "nudge-window: --search needs the words to search for\n")
        _ = window.close()
    }
}
