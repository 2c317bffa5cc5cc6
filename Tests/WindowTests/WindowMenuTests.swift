import Foundation
import Testing
import TestSupport

/// GNOME's conventions, from the keyboard as a person uses them: the primary menu (F10) with
/// Keyboard Shortcuts, Help and About Nudge; Ctrl+? for the keys; Ctrl+W and Ctrl+Q.
extension WindowTests {
    @Test func f10OpensThePrimaryMenuWithItsThreeItems() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Tea", "--at", "15:00")
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("check box", "Tea", "checked"))
        // Named as GNOME's apps name it, for the screen reader and the tooltip.
        // A push button on GTK 4.8, a toggle button on newer GTKs.
        #expect(Bench.eventually(30) { named(window).contains { $0.hasSuffix(" button|Main Menu") } }, "\(named(window))")
        #expect(try window.reaches("menu item", "About Nudge", "gone", within: 0))
        let typed = try window.type("F10")
        #expect(typed.status == 0, "\(typed.stderr)")
        for item in ["Keyboard Shortcuts", "Help", "About Nudge"] {
            #expect(try window.reaches("menu item", item), "\(item): \(named(window))")
        }
        // Escape closes it again.
        _ = try window.type("Escape")
        #expect(try window.reaches("menu item", "About Nudge", "gone"))
        _ = window.close()
    }

    @Test func ctrlQuestionMarkOpensTheKeyboardShortcuts() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("label", "Close the window", "gone", within: 0))
        let typed = try window.type("ctrl+question")
        #expect(typed.status == 0, "\(typed.stderr)")
        // Every key the window takes, the search another part of the window adds among them.
        for shortcut in ["Add a reminder", "Search the reminders", "Undo a delete", "Settings", "Main menu", "Keyboard shortcuts",
                         "Help", "Close the window", "Quit"] {
            #expect(try window.reaches("label", shortcut), "\(shortcut): \(named(window))")
        }
        try window.screenshot(to: try Self.shotPath("shortcuts-en.png"))
        _ = window.close()
    }

    @Test func aboutNudgeFromTheMenuShowsTheVersion() throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        let version = try Bench.run(Bench.nudgePath, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!version.isEmpty)
        #expect(try window.drive("find", version, "0").status != 0)
        _ = try window.type("F10")
        try #require(try window.reaches("menu item", "About Nudge"), "\(named(window))")
        try #require(try window.drive("do", "menu item", "About Nudge", "click").status == 0)
        #expect(try window.drive("find", version).status == 0, "\(named(window))")
        try window.screenshot(to: try Self.shotPath("about-en.png"))
        _ = window.close()
    }

    /// F1 opens the guide where the metainfo says it is, in the person's browser: here a
    /// stand-in registered as the session's https handler (mimeapps.list), which writes down
    /// the address it was given.
    @Test func f1OpensTheGuideInTheBrowser() throws {
        let desktop = try Desktop(server: false)
        let files = FileManager.default, opened = desktop.directory + "/opened"
        let browser = desktop.directory + "/browser.sh"
        try "#!/bin/sh\nprintf '%s' \"$1\" > \(opened).part && mv \(opened).part \(opened)\n".write(toFile: browser, atomically: true, encoding: .utf8)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser)
        try files.createDirectory(atPath: desktop.directory + "/data/applications", withIntermediateDirectories: true)
        try files.createDirectory(atPath: desktop.directory + "/config", withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Browser\nExec=\(browser) %u\nMimeType=x-scheme-handler/https;\n"
            .write(toFile: desktop.directory + "/data/applications/nudge-test-browser.desktop", atomically: true, encoding: .utf8)
        try "[Default Applications]\nx-scheme-handler/https=nudge-test-browser.desktop\n"
            .write(toFile: desktop.directory + "/config/mimeapps.list", atomically: true, encoding: .utf8)
        let metainfo = try String(contentsOf: Bench.packageRoot.appendingPathComponent("packaging/io.github.nudge.Nudge.metainfo.xml"),
                                  encoding: .utf8)
        let help = try #require(metainfo.split(separator: "\n").first { $0.contains("<url type=\"help\">") })
            .replacingOccurrences(of: #"\s*<url type="help">(.*)</url>"#, with: "$1", options: .regularExpression)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        _ = try window.type("F1")
        #expect(Bench.eventually(20) { files.fileExists(atPath: opened) })
        #expect((try? String(contentsOfFile: opened, encoding: .utf8)) == help)
        _ = window.close()
    }

    /// F1 where no program opens web addresses (nothing installed for https): a note says the
    /// guide's address could not be opened, and gives it whole (a toast cut it at 360 px),
    /// with a button that copies it; where F1 showed nothing before.
    @Test func f1WithoutABrowserSaysSoWithTheAddress() throws {
        let desktop = try Desktop(server: false)
        // The system's data, but no program for https: the icons and schemas only.
        let share = desktop.directory + "/share"
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        for folder in ["icons", "glib-2.0", "mime", "themes"] {
            try FileManager.default.createSymbolicLink(atPath: share + "/" + folder, withDestinationPath: "/usr/share/" + folder)
        }
        let metainfo = try String(contentsOf: Bench.packageRoot.appendingPathComponent("packaging/io.github.nudge.Nudge.metainfo.xml"),
                                  encoding: .utf8)
        let help = try #require(metainfo.split(separator: "\n").first { $0.contains("<url type=\"help\">") })
            .replacingOccurrences(of: #"\s*<url type="help">(.*)</url>"#, with: "$1", options: .regularExpression)
        let window = try WindowSession(desktop: desktop)
        try window.open(environment: ["XDG_DATA_DIRS": share])
        _ = try window.type("F1")
        let said = try window.drive("find", "could not be opened", "20")
        #expect(said.status == 0, "\(named(window))")
        #expect(said.stdout.contains(help), "\(said.stdout)")
        try #require(try window.drive("do", "push button", "Copy Address", "click").status == 0)
        #expect(try window.drive("find", "The guide’s address is copied.", "10").status == 0)
        _ = window.close()
    }

    @Test(arguments: ["ctrl+w", "ctrl+q"])
    func theKeyClosesTheWindowAndTheProgramEndsWell(key: String) throws {
        let desktop = try Desktop(server: false)
        let window = try WindowSession(desktop: desktop)
        try window.open()
        let process = try #require(window.windowProcess)
        // xdotool's own status says nothing here: the window it typed into is gone when it
        // lets the modifiers go (BadWindow).
        _ = try window.type(key)
        let ended = process.finish(timeout: 20)
        #expect(ended.status == 0, "\(key): \(ended.status) \(ended.stderr)")
        #expect(ended.seconds < 20, "\(key) did not end the program")
    }
}
