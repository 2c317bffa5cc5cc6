import DBus
import Foundation
import Testing
import TestSupport

/// Water reminders and after-answer schedules with the real daemon, bus and dunst: what
/// arrives is read from the bus (dbus-monitor) and the log.
@Suite(.onTestThreadsAhead, .serialized)
struct WaterReminderLiveTests {
    /// "Drank 250 ml" chosen from dunst's menu logs the cup, and the next pop-up's body
    /// shows the new total; a drink from the CLI reaches the running daemon too.
    @Test func drankFromThePopUpCountsAndTheNextBodySaysSo() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        let id = try desktop.dueSoon(lead: 1) { first in
            try desktop.add("--at", desktop.clockText(first), "--at", desktop.clockText(first.addingTimeInterval(4)))
        }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        try desktop.chooseFromMenu("Drank 250 ml")
        #expect(Bench.eventually(3) { (try? desktop.events(id)) == ["fired", "drank"] })
        #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 })
        #expect(Bench.eventually(8) { (try? desktop.events(id)) == ["fired", "drank", "fired"] })
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.count == 2)
        // The body's lines: the monitor prints the string as it is, line breaks included.
        #expect(calls.first?.text.contains("\n0 of 2,000 ml today\"") == true, "\(calls.first?.text ?? "")")
        #expect(calls.first?.actions.contains("Drank 250 ml") == true)
        #expect(calls.last?.text.contains("\n250 of 2,000 ml today\"") == true, "\(calls.last?.text ?? "")")
        // The drink is in the store: the CLI takes it back.
        #expect(try desktop.nudge("drink", "--undo").stdout.hasPrefix("took back 250 ml from "))
        // A drink from the CLI: the daemon's day follows at once.
        #expect(try desktop.nudge("drink", "300ml").status == 0)
        #expect(Bench.eventually(3) { (try? desktop.daemon("Status").first?.vardict?["water-today"]?.uint32) == 300 })
    }

    /// The launcher entry carries the day's water beside the count while a water reminder
    /// is on (docks that draw `progress` show a bar), and hides it when none is.
    @Test func theLauncherShowsTheDaysWater() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let id = try desktop.add("--water", "--every", "3h")
        let badge = try desktop.monitor("type='signal',interface='com.canonical.Unity.LauncherEntry'")
        let progress = "\"progress\"\n         variant             double 0.25"
        let visible = "\"progress-visible\"\n         variant             boolean true"
        let invisible = "\"progress-visible\"\n         variant             boolean false"
        #expect(try desktop.nudge("drink", "500ml").status == 0)
        #expect(Bench.eventually(5) { badge.soFar.contains(progress) }, "\(badge.soFar)")
        #expect(badge.soFar.contains(visible))
        #expect(!badge.soFar.contains(invisible))
        #expect(try desktop.nudge("off", id).status == 0)
        #expect(Bench.eventually(5) { badge.soFar.contains(invisible) }, "\(badge.soFar)")
        _ = badge.stop()
    }

    /// A POSIX TZ whose local midnight is `seconds` away (an offset with seconds, which
    /// glibc and Nudge follow exactly): the next drink day starts then.
    static func zoneWithMidnight(in seconds: Int) -> (tz: String, east: Int) {
        let now = Int(Date().timeIntervalSince1970.rounded(.up))
        var east = ((86400 - seconds - now % 86400) % 86400 + 86400) % 86400
        if east > 43200 { east -= 86400 }
        let west = -east, magnitude = abs(east)
        let tz = String(format: "NUD%@%d:%02d:%02d", west < 0 ? "-" : "+", magnitude / 3600, magnitude / 60 % 60, magnitude % 60)
        return (tz, east)
    }

    /// HH:MM:SS `seconds` from now, `east` seconds ahead of UTC (worked out by hand:
    /// formatters round such offsets to minutes).
    static func clock(east: Int, in seconds: Int) -> String {
        let local = ((Int(Date().timeIntervalSince1970.rounded(.up)) + seconds + east) % 86400 + 86400) % 86400
        return String(format: "%02d:%02d:%02d", local / 3600, local / 60 % 60, local % 60)
    }

    /// The day's goal met (from the CLI) rests the water reminder for the rest of the
    /// day: neither shown nor missed, while a plain reminder still comes; the next drink
    /// day (local midnight, a few seconds later here) brings it back with a fresh total.
    @Test func meetingTheGoalRestsTheDayAndTheNextDayBringsThemBack() throws {
        let (tz, east) = Self.zoneWithMidnight(in: 14)
        let desktop = try Desktop(zone: tz)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let monitor = try desktop.monitor()
        // Water at 23:59:54 (to be skipped) and 00:00:04 (the next day); tea at 23:59:54.
        let water = try desktop.add("--at", Self.clock(east: east, in: 8), "--at", Self.clock(east: east, in: 18))
        let tea = try desktop.add("Tea", "--at", Self.clock(east: east, in: 8))
        let drink = try desktop.nudge("drink", "2l")
        #expect(drink.stdout.hasSuffix("2,000 of 2,000 ml today\n"), "\(drink.stdout)\(drink.stderr)")
        #expect(Bench.eventually(3) { (try? desktop.events(water)) == ["goal-met"] })
        #expect(try desktop.nudge("list").stdout.contains("goal met"))
        #expect(Bench.eventually(10) { (try? desktop.events(tea)) == ["fired"] })
        #expect(Bench.eventually(14) { (try? desktop.events(water)) == ["goal-met", "fired"] }, "\(daemon.stop().stderr)")
        monitor.settle()
        let calls = MonitoredNotify.parse(monitor.stop())
        #expect(calls.map(\.summary) == ["Tea", "Time to drink water 💧"])
        #expect(calls.last?.text.contains("\n0 of 2,000 ml today\"") == true, "\(calls.last?.text ?? "")")
        #expect(try desktop.events(water).contains("missed") == false)
    }

    /// `--after-done`: unanswered, the next pop-up is an interval after this one; Done
    /// moves it to an interval after the answer, as the daemon and `list` both say.
    @Test func afterDoneMovesTheNextPopUpAfterADone() throws {
        let desktop = try Desktop()
        let id = try desktop.add("Stretch", "--every", "1m", "--after-done")
        // Made 58 s ago (on a whole second), so its first pop-up is due 2 s from now: the
        // CLI never writes a past creation. Late or not, that instant is the one it shows
        // for and counts the next from.
        let made = (Date().timeIntervalSince1970 - 58).rounded(.down)
        let due = Date(timeIntervalSince1970: made + 60)
        let store = desktop.environment()["XDG_DATA_HOME"]!! + "/nudge/nudge.sqlite"
        let backdate = try Bench.run("sqlite3", [store, "UPDATE alert SET created = \(made)"])
        try #require(backdate.status == 0)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(30) { (try? desktop.events(id)) == ["fired"] })
        // Unanswered: a minute after that pop-up's instant, to the microsecond.
        #expect(desktop.next(id) == due.addingTimeInterval(60))
        try desktop.chooseFromMenu(",done]")
        #expect(Bench.eventually(30) { (try? desktop.events(id)) == ["fired", "acknowledged"] })
        // After the Done: a minute after the answer, which the log keeps in whole seconds.
        let doneAt = try #require(try desktop.logged(id).last).at
        let next = try #require(desktop.next(id))
        #expect(next > due.addingTimeInterval(60), "the Done came after the pop-up")
        #expect(next.timeIntervalSince1970.rounded(.down) - 60 == doneAt.timeIntervalSince1970, "\(next) for a Done at \(doneAt)")
        // list says the same second.
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(desktop.nudge("list", "--json").stdout.utf8)) as? [[String: Any]])
        let listedNext = try #require(ISO8601DateFormatter().date(from: listed.first?["next"] as? String ?? ""))
        #expect(listedNext.timeIntervalSince1970 == next.timeIntervalSince1970.rounded(.down), "list agrees")
    }
}
