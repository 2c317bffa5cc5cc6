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
