import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `nudge ui` tried as a hostile user would: each test is a defect found that way, and
/// failed before its fix.
extension UITests {
    /// `count` copies of `title N` put straight into a store (as a big backup has them),
    /// its log emptied into the file.
    func fill(_ home: Home, count: Int, title: String) throws {
        try home.add("\(title) 0", "--at", "10:00")
        let columns = "body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, created, kind, whenAway, "
            + "nagSeconds, nagTimes"
        let sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1)) "
            + "INSERT INTO alert SELECT lower(hex(randomblob(16))), '\(title) ' || i, \(columns) FROM alert, n; "
            + "PRAGMA wal_checkpoint(TRUNCATE);"
        let filled = try Bench.run("/usr/bin/sqlite3", [home.database, sql])
        #expect(filled.status == 0, "\(filled.stderr)")
    }

    /// Copies `file` beside the store and renames it over it, as a person restoring a
    /// backup does (`cp backup nudge/r.tmp; mv nudge/r.tmp nudge/nudge.sqlite`).
    func restore(_ file: String, into home: Home) throws {
        let temporary = (home.database as NSString).deletingLastPathComponent + "/r.tmp"
        unlink(temporary)
        try FileManager.default.copyItem(atPath: file, toPath: temporary)
        #expect(rename(temporary, home.database) == 0)
    }

    /// The store is sound, unmarked, and `nudge list` lists `count` reminders.
    func expectSound(_ home: Home, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", home.database, "PRAGMA integrity_check"])
        #expect(check.stdout == "ok\n", "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: home.database + ".damaged"), sourceLocation: sourceLocation)
        let listed = try home.nudge("list", "--all", "--json")
        #expect(listed.status == 0, "\(listed.stderr)", sourceLocation: sourceLocation)
        let alerts = (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any]) ?? []
        #expect(alerts.count == count, sourceLocation: sourceLocation)
    }

    /// A backup restored by rename while the screen holds the store (and a `nudge add`
    /// meanwhile left pages in its log) is the store the person gets: the old store's log
    /// was applied to the new file, which SQLite then called malformed.
    @Test func aBackupRestoredWhileTheScreenIsOpenIsTheStoreYouGet() throws {
        let home = try Home(), backup = try Home()
        try fill(backup, count: 300, title: "Backed up")
        try home.add("Before", "--at", "09:30")
        let tmux = try open(home)
        #expect(try tmux.wait(for: "Nudge — 1 reminder") != nil)
        for i in 1...3 { try home.add("Meanwhile \(i)", "--at", "11:00") }
        #expect(try tmux.wait(for: "Nudge — 4 reminders") != nil, "\(tmux.lastScreen)")

        // Read at once, before the screen has even looked: nothing holds the old file's
        // shared index any more (the screen holds the store only while a turn uses it), so
        // the new file is read with its own size, not the old one's.
        try restore(backup.database, into: home)
        try expectSound(home, count: 300)
        #expect(try tmux.wait(for: "Nudge — 300 reminders", timeout: 10) != nil, "\(tmux.lastScreen)")

        // A backup of the same store, restored after more was added: the backup is what is there.
        let copy = home.dir + "/same.sqlite"
        _ = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", home.database, "VACUUM INTO '\(copy)'"])
        for i in 1...2 { try home.add("After the backup \(i)", "--at", "12:00") }
        #expect(try tmux.wait(for: "Nudge — 302 reminders") != nil, "\(tmux.lastScreen)")
        try restore(copy, into: home)
        #expect(try tmux.wait(for: "Nudge — 300 reminders", timeout: 10) != nil, "\(tmux.lastScreen)")
        try expectSound(home, count: 300)

        // And what is saved on the screen now lands in the restored store.
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Saved after the restore")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        try expectSound(home, count: 301)
        #expect(try close(tmux) == 0)
    }

    /// Two screens edit the same reminder: each saves only what it changed, and a field
    /// changed on both is a conflict shown, not overwritten (the first edit was undone).
    @Test func twoScreensEditingOneReminderLoseNothing() throws {
        let home = try Home()
        let id = try home.add("Tea", "--at", "15:00")
        let first = try open(home), second = try open(home)
        for tmux in [first, second] {
            #expect(try tmux.wait(for: "Tea") != nil)
            try tmux.press("e")
            #expect(try tmux.wait(for: "Edit the reminder") != nil)
        }
        // The first appends to the title and saves.
        try first.type(" time")
        try first.press("Enter")
        #expect(try first.wait(for: "edited ") != nil, "\(first.lastScreen)")
        // The second, opened before, changes only the time.
        try second.press("Down", "Down", "Down", "C-u")
        try second.type("16:00")
        try second.press("Enter")
        #expect(try second.wait(for: "edited ") != nil, "\(second.lastScreen)")
        var alert = try #require(try home.list().first)
        #expect(alert["title"] as? String == "Tea time")
        #expect((alert["schedule"] as? String)?.contains("16:00") == true, "\(alert)")

        // Both change the title: the second is told, and saves over it only when asked again.
        for tmux in [first, second] {
            try tmux.press("e")
            #expect(try tmux.wait(for: "Edit the reminder") != nil)
            try tmux.press("C-u")
        }
        try first.type("Green tea")
        try first.press("Enter")
        #expect(try first.wait(for: "edited ") != nil, "\(first.lastScreen)")
        try second.type("Black tea")
        try second.press("Enter")
        #expect(try second.wait(for: "changed meanwhile") != nil, "\(second.lastScreen)")
        #expect(try second.wait(for: "Green tea") != nil, "\(second.lastScreen)")
        alert = try #require(try home.list().first)
        #expect(alert["title"] as? String == "Green tea")
        try second.press("Enter")
        #expect(try second.wait(for: "edited ") != nil, "\(second.lastScreen)")
        alert = try #require(try home.list().first)
        #expect(alert["title"] as? String == "Black tea")
        #expect((alert["schedule"] as? String)?.contains("16:00") == true, "\(alert)")
        // Deleted meanwhile: the form says so, and Esc closes it.
        try second.press("e")
        #expect(try second.wait(for: "Edit the reminder") != nil)
        #expect(try home.nudge("rm", id).status == 0)
        try second.press("Enter")
        #expect(try second.wait(for: "deleted meanwhile elsewhere") != nil, "\(second.lastScreen)")
        try second.press("Escape")
        #expect(try second.wait(for: "not saved") != nil, "\(second.lastScreen)")
        // Or Enter again keeps the edit as a new reminder (issue 52), with what it showed.
        let again = try home.add("Oolong", "--at", "17:00")
        #expect(try second.wait(for: "Oolong") != nil, "\(second.lastScreen)")
        try second.press("e")
        #expect(try second.wait(for: "Edit the reminder") != nil)
        try second.press("C-u")
        try second.type("Oolong, kept")
        #expect(try home.nudge("rm", again).status == 0)
        try second.press("Enter")
        #expect(try second.wait(for: "Enter keeps your edit as a new reminder") != nil, "\(second.lastScreen)")
        try second.press("Enter")
        #expect(try second.wait(for: "added ") != nil, "\(second.lastScreen)")
        let kept = try #require(try home.list().first { $0["title"] as? String == "Oolong, kept" })
        #expect((kept["schedule"] as? String)?.contains("17:00") == true, "\(kept)")
        #expect((kept["id"] as? String).map { !$0.lowercased().replacingOccurrences(of: "-", with: "").hasPrefix(again) } == true)
        #expect(try close(first) == 0)
        #expect(try close(second) == 0)
    }

    /// A key the terminal describes with an escape sequence ncurses does not know (End
    /// sends `ESC [ 99 ~` here) is not Esc: the form and what was typed stay.
    @Test func anUnknownEscapeSequenceKeepsTheForm() throws {
        let home = try Home()
        let tmux = try open(home, term: "xterm-256color")
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Kept")
        try tmux.type("\u{1B}[99~")
        try tmux.type("\u{1B}[1;5D")
        try tmux.press("End")
        try tmux.type("\u{1B}O5Q")
        // A sequence with 2,000 parameters, and an X10 mouse report: read whole, typed nowhere.
        try tmux.type("\u{1B}[" + Array(repeating: "1", count: 2000).joined(separator: ";") + "~")
        try tmux.type("\u{1B}[M !!")
        // String sequences (a terminal's answer to a colour query, DCS): read to their end.
        try tmux.type("\u{1B}]11;rgb:0000/0000/0000\u{07}\u{1B}P d\u{1B}\\\u{1B}]2; \u{1B}\\")
        try tmux.type(" title")
        #expect(try tmux.wait(for: "Kept title") != nil, "\(tmux.lastScreen)")
        #expect(tmux.lastScreen.contains { $0.contains("Add a reminder") })
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().first?["title"] as? String == "Kept title")
        // Esc alone still cancels.
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.press("Escape")
        #expect(try tmux.wait(for: "not saved") != nil, "\(tmux.lastScreen)")
        #expect(try close(tmux) == 0)
    }

    /// A terminal made one or two lines high with a form open: the program lives on (it
    /// trapped), and the form and what was typed are there when it grows again.
    @Test func aTerminalOneLineHighKeepsTheForm() throws {
        let home = try Home()
        let tmux = try open(home)
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.type("Still here")
        for (width, height) in [(80, 1), (80, 2), (1, 1), (3, 2), (300, 1)] {
            try tmux.resize(width: width, height: height)
            #expect(try tmux.wait { $0.count == height } != nil, "\(width)×\(height): \(tmux.lastScreen)")
        }
        try tmux.resize(width: 100, height: 30)
        #expect(try tmux.wait { $0.count == 30 && $0.contains { $0.contains("Still here") } } != nil, "\(tmux.lastScreen)")
        #expect(try tmux.foregroundProgram(named: "nudge") != nil)
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().first?["title"] as? String == "Still here")
        #expect(try close(tmux) == 0)
    }

    /// 100 KB pasted into a field: the limit is met as the text arrives (it took 155 s at
    /// full CPU, growing with the square of the length), said once, and what fits is kept.
    @Test func aHundredKilobytePasteStopsAtTheLimit() throws {
        let home = try Home()
        let tmux = try open(home)
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.press("C-u")
        try tmux.type(String(repeating: "water ", count: 100_000 / 6))
        #expect(try tmux.wait(for: "at most 500 bytes", timeout: 60) != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        // The Enter comes after the rest of the 100 KB, read and refused key by key.
        #expect(try tmux.wait(for: "added ", timeout: 60) != nil, "\(tmux.lastScreen)")
        let title = try #require(try home.list().first?["title"] as? String)
        #expect(title.utf8.count == 500 && title.hasPrefix("water water"))
        // The filter takes no more than it can use either.
        try tmux.press("/")
        try tmux.type(String(repeating: "x", count: 100_000))
        #expect(try tmux.wait(for: "at most 500 bytes", timeout: 60) != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "Nothing matches the filter") != nil, "\(tmux.lastScreen)")
        #expect(try close(tmux) == 0)
    }

    /// Text pasted over the list is not keys: 5 KB of prose with a, e, d, y, space and
    /// Enter in it added, edited and deleted reminders. The terminal marks a paste
    /// (bracketed paste): over the list it is refused in a line; in a field or the filter
    /// it is text, its line breaks spaces; a begin mark with no end ends after a moment.
    @Test func aPasteIsTextNotKeys() throws {
        let home = try Home()
        try home.add("Tea", "--at", "08:00")
        let tmux = try open(home, term: "xterm-256color")
        #expect(try tmux.wait(for: "Tea") != nil, "\(tmux.lastScreen)")
        func paste(_ text: String) throws {
            let file = tmux.file("paste.txt")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            try tmux.tmux("load-buffer", "-b", "p", file)
            // -p: brackets the paste, as a terminal does for a program that asked for it.
            try tmux.tmux("paste-buffer", "-p", "-b", "p", "-t", "t")
        }
        let prose = String(repeating: "a day, then yes: edit the dates\nd\ny\n \tq\n", count: 120)
        try paste(prose)
        #expect(try tmux.wait(for: "a paste goes into a field") != nil, "\(tmux.lastScreen)")
        let listed = try home.list()
        #expect(listed.count == 1 && listed.first?["title"] as? String == "Tea" && listed.first?["enabled"] as? Bool == true)
        #expect(try tmux.foregroundProgram(named: "nudge") != nil)
        // Pasted text holding an end mark of its own: its tail is the paste's, not keys
        // (d, y deleted the selected reminder).
        try tmux.press("j")
        #expect(try tmux.wait { !$0.contains { $0.contains("a paste goes") } } != nil, "\(tmux.lastScreen)")
        try paste("hello\u{1B}[201~ dy")
        #expect(try tmux.wait(for: "a paste goes into a field") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().count == 1)
        try tmux.press("j")
        #expect(try tmux.wait { !$0.contains { $0.contains("a paste goes") } } != nil, "\(tmux.lastScreen)")
        // A paste that pauses on the way (a slow link), its end mark in the last piece.
        try tmux.type("\u{1B}[200~some pasted text ")
        Thread.sleep(forTimeInterval: 0.3)
        try tmux.type("dy and more\u{1B}[201~")
        #expect(try tmux.wait(for: "a paste goes into a field") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().count == 1)
        #expect(try tmux.wait { !$0.contains { $0.contains("Add a reminder") } } != nil, "\(tmux.lastScreen)")
        // Into a field: one line.
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil)
        try tmux.press("C-u")
        try paste("\nBuy\r\n\nmilk\tnow\n\n")
        #expect(try tmux.wait(for: "Buy milk now") != nil, "\(tmux.lastScreen)")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "added ") != nil, "\(tmux.lastScreen)")
        #expect(try home.list().contains { $0["title"] as? String == "Buy milk now" })
        // Into the filter.
        try tmux.press("/")
        try paste("milk\n")
        #expect(try tmux.wait { !$0.contains { $0.contains("Tea") } && $0.contains { $0.contains("Buy milk now") } } != nil,
                "\(tmux.lastScreen)")
        try tmux.press("Escape")
        // A begin mark typed with no end: a moment later it is a paste over, and keys are keys.
        try tmux.type("\u{1B}[200~stray")
        #expect(try tmux.wait(for: "a paste goes into a field") != nil, "\(tmux.lastScreen)")
        try tmux.press("a")
        #expect(try tmux.wait(for: "Add a reminder") != nil, "\(tmux.lastScreen)")
        try tmux.press("Escape")
        #expect(try home.list().count == 2)
        #expect(try close(tmux) == 0)
    }

    /// With a filter on, the reminder edited stays selected after saving: the highlight
    /// stayed on the row's old place, another reminder, which the next key acted on.
    @Test func theEditedRowStaysSelectedUnderAFilter() throws {
        let home = try Home()
        try home.add("Alpha one", "--at", "08:00")
        try home.add("Beta", "--at", "09:00")
        try home.add("Alpha two", "--at", "10:00")
        try home.add("Alpha three", "--at", "11:00")
        let tmux = try open(home)
        #expect(try tmux.wait { rows($0).count == 4 } != nil)
        try tmux.press("/")
        try tmux.type("alpha")
        try tmux.press("Enter")
        let filtered = try #require(try tmux.wait { rows($0).count == 3 && $0[0].contains("Nudge — 3 of 4 reminders") }, "\(tmux.lastScreen)")
        // Its place among the matches depends on the hour (the list is by next time).
        let place = try #require(rows(filtered).firstIndex { $0.contains("Alpha two") })
        try tmux.press("g")
        for _ in 0..<place { try tmux.press("Down") }
        try tmux.press("e")
        #expect(try tmux.wait(for: "Alpha two") != nil)
        try tmux.press("Down", "Down", "Down", "C-u")
        try tmux.type("12:00")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "edited ") != nil, "\(tmux.lastScreen)")
        // Space switches the reminder edited, and only it (wherever its next time puts it).
        try tmux.press("Space")
        #expect(try tmux.wait { rows($0).contains { $0.hasPrefix(" [off]") } } != nil, "\(tmux.lastScreen)")
        let off = try home.list().filter { $0["enabled"] as? Bool == false }.compactMap { $0["title"] as? String }
        #expect(off == ["Alpha two"])
        #expect(try close(tmux) == 0)
    }
}
