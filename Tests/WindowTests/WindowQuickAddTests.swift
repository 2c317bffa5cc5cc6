import Foundation
import Testing
import TestSupport

/// Quick add (issue 54): one line of title and when at the top of the list, typed from the
/// keyboard, read as it is typed and said under it (and to a screen reader, as the line's
/// description), added with Enter as `nudge add` adds the same line.
extension WindowFormAndAccessTests {
    @Test func aLineOfTitleAndWhenIsReadAsTypedAndAddedWithEnter() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Tea", "--at", "15:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Tea", "checked"))
        // Reached and typed into by the keyboard, as a person does.
        try #require(try window.tab(to: "text\tRemind me"), "\(window.scene())")
        #expect(try window.focused() == "text\tRemind me")
        #expect(try window.drive("describe", "text", "Remind me").stdout.contains("description: A title and when in one line"))
        #expect(try window.write("call mum").status == 0)
        #expect(try window.drive("find", "Not a reminder yet", "10").status == 0)
        #expect(try window.write(" on 2030-12-01 at 6pm").status == 0)
        #expect(try window.drive("find", "“call mum”, ", "10").status == 0)
        #expect(try window.drive("describe", "text", "Remind me").stdout.contains("description: “call mum”, "))
        // Enter adds it, as the command line adds the same line; the line is empty again.
        #expect(try window.type("Return").status == 0)
        #expect(try window.reaches("check box", "call mum", "checked"))
        #expect(try window.drive("find", "Added “call mum”").status == 0)
        #expect(try window.drive("read", "text", "Remind me").stdout == "\n")
        #expect(try window.focused() == "text\tRemind me", "the line keeps the focus for the next one")
        // The same line added by the command line, in the same session, stores the same row.
        #expect(try desktop.nudge("add", "call mum on 2030-12-01 at 6pm").status == 0)
        let rows = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", database(desktop),
                                                      "SELECT COUNT(*), COUNT(DISTINCT title || schedule || sound || urgency || graceSeconds || snoozeSeconds || kind) FROM alert WHERE title = 'call mum'"]).stdout
        #expect(rows == "2|1\n", "\(rows)")
        // A line read two ways is said with both and not added; Escape empties the line,
        // and on an empty line leaves it for the list.
        // The day three days on in any zone: never today or tomorrow, where "at 9am" alone
        // could be the same showing as "<day> at 9am" (on a Saturday after 9, "sunday school
        // at 9am" read one way).
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let weekday = utc.component(.weekday, from: Date())
        let day = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][(weekday - 1 + 3) % 7]
        #expect(try window.write("\(day) school at 9am").status == 0)
        #expect(try window.drive("find", "Reads two ways", "10").status == 0)
        #expect(try window.type("Return").status == 0)
        #expect(try window.reaches("check box", "\(day) school", "gone", within: 2))
        #expect(try window.type("Escape").status == 0)
        #expect(try window.drive("read", "text", "Remind me").stdout == "\n")
        #expect(try window.type("Escape").status == 0)
        #expect(try window.focused() != "text\tRemind me")
        // A pasted book is cut at a title and a phrase, and refused in a line.
        try #require(try window.drive("set", "text", "Remind me", String(repeating: "tea ", count: 25_000)).status == 0)
        #expect(try window.drive("find", "Not a reminder yet", "10").status == 0)
        #expect(try desktop.nudge("list", "--json").stdout.components(separatedBy: "\"title\"").count == 4)
        _ = window.close()
    }
}
