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
