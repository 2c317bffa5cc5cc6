import Foundation
import Testing
import TestSupport

/// `nudge export` checked against an oracle that is not ours: Python's icalendar and
/// recurring-ical-events (`scripts/ics-oracle`, installed by `make test`) expand the file
/// over a year, and every instant must be what `nudge next` says, in several zones and
/// across their DST changes.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench and its oracle: run `make test`"))
struct ExportTests {
    static let python = Bench.packageRoot.appendingPathComponent(".build/oracle/bin/python3").path
    static let oracle = Bench.packageRoot.appendingPathComponent("scripts/ics-oracle").path

    /// Reminders of every kind; none at a time a DST change skips (there Nudge fires when
    /// the gap ends, RFC 5545 half an hour later: see docs/guide.md).
    static let reminders: [[String]] = [
        ["Daily", "--at", "09:00"],
        ["Weekdays twice", "--at", "07:15", "--at", "18:45", "--days", "weekdays"],
        ["Water window", "--every", "30m", "--from", "09:30", "--until", "21:30", "--days", "weekdays"],
        ["Every 90 min", "--every", "90m"],
        ["Cron either day", "--cron", "0 9 1 * mon"],
        ["Cron weekends", "--cron", "*/20 8-10 * * sat,sun"],
        ["Cron quarterly", "--cron", "30 12 15 1,4,7,10 *"],
        ["Berlin", "--at", "08:00", "--days", "mon,wed,fri", "--tz", "Europe/Berlin"],
        ["Sydney", "--at", "06:30", "--tz", "Australia/Sydney"],
        ["Kolkata", "--at", "10:00", "--tz", "Asia/Kolkata"],
        ["New York cron", "--cron", "0 17 * * fri", "--tz", "America/New_York"],
        ["Soon", "--in", "49h"],
    ]

    /// Every reminder's instants from the oracle and from `nudge next`, over a year from
    /// the day after they were made (computed, so the test holds on any date).
    @Test(arguments: [("Asia/Seoul", "ko_KR.UTF-8"), ("Europe/Berlin", "C"), ("America/New_York", "ko_KR.UTF-8")])
    func everyInstantIsTheOraclesOverAYear(zone: String, lang: String) throws {
        let home = try Home()
        let environment: [String: String?] = ["TZ": zone, "LANG": lang]
        for arguments in Self.reminders { try home.add(arguments + ["--body", "x"]) }
        // And schedules only calendars make: every Nth week, an end, times left out, a start ahead.
        try home.importCalendar(ImportTests.foreign + ImportTests.ending(around: Date().addingTimeInterval(3 * 86_400), in: zone), environment: environment)
        let file = home.dir + "/export.ics"
        let exported = try home.nudge(["export", "-o", file], environment: environment)
        #expect(exported.status == 0 && exported.stdout.isEmpty, "\(exported.stderr)")
        // Whole seconds: DATE-TIME has none smaller, and an interval's anchor (the moment
        // it was made) has; both sides' instants are compared to the second, as written.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86_400).rounded(.down))
        let end = start.addingTimeInterval(365 * 86_400)
        let iso = ISO8601DateFormatter()
        let out = try Bench.run(Self.python, [Self.oracle, "--check", file, iso.string(from: start), iso.string(from: end)],
                                environment: ["TZ": zone], timeout: 120)
        #expect(out.status == 0, "\(out.stderr)")
        let expanded = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: [String]])
        for alert in try home.list() {
            let id = try #require(alert["id"] as? String).lowercased(), title = alert["title"] as? String ?? ""
            let oracle = expanded[id] ?? []
            let next = try home.nudge(["next", String(id.prefix(8)), "--after", iso.string(from: start.addingTimeInterval(-1)),
                                       "--count", "\(oracle.count + 1)", "--json", "--schedule-preview"], environment: environment)
            let instants = ((try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [[String: String]]) ?? [])
                .compactMap { $0["utc"] }.compactMap { iso.date(from: $0) }.filter { $0 >= start && $0 < end }.map { iso.string(from: $0) }
            #expect(instants == oracle, "\(title) in \(zone): nudge \(instants.prefix(3))… (\(instants.count)) vs oracle \(oracle.prefix(3))… (\(oracle.count)); first difference \(zip(instants, oracle).first { $0 != $1 }.map { "\($0)" } ?? "in length")")
        }
    }

    /// What other calendars read back: the text as written, escapes and all, and Nudge's
    /// own settings; the same bytes in any locale and on a second export.
    @Test func titlesBodiesAndSettingsReadBackAndNothingDependsOnTheLocale() throws {
        let home = try Home()
        let title = "물 마시기, 250 ml; \\ 💧"
        let id = try home.add(title, "--at", "09:30", "--body", "line one\nline two, with; marks", "--snooze", "15m",
                              "--urgency", "critical", "--tz", "Europe/Berlin")
        try home.nudge("off", try home.add("Off", "--at", "10:00"))
        let first = try home.nudge("export")
        #expect(first.status == 0)
        for lang in ["C", "ko_KR.UTF-8"] {
            #expect(try home.nudge(["export"], environment: ["LANG": lang]).stdout == first.stdout, "differs in \(lang)")
        }
        let file = home.dir + "/export.ics"
        try first.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let script = """
        import icalendar, json, sys
        cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        print(json.dumps([{k: str(e.get(k)) for k in ['UID', 'SUMMARY', 'DESCRIPTION', 'X-NUDGE-SNOOZE', 'X-NUDGE-URGENCY',
          'X-NUDGE-ENABLED', 'X-NUDGE-TIME-ZONE']} | {'alarms': [str(a.get('ACTION')) for a in e.walk('VALARM')],
          'tzid': str(e['DTSTART'].params.get('TZID'))} for e in cal.walk('VEVENT')]))
        """
        let out = try Bench.run(Self.python, ["-c", script, file])
        #expect(out.status == 0, "\(out.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        let event = try #require(events.first { ($0["SUMMARY"] as? String) == title })
        #expect(event["DESCRIPTION"] as? String == "line one\nline two, with; marks")
        #expect(event["X-NUDGE-SNOOZE"] as? String == "900" && event["X-NUDGE-URGENCY"] as? String == "critical")
        #expect(event["tzid"] as? String == "Europe/Berlin" && event["X-NUDGE-TIME-ZONE"] as? String == "Europe/Berlin")
        #expect(event["alarms"] as? [String] == ["DISPLAY", "AUDIO"])
        let full = try #require(try home.list().first { $0["shortId"] as? String == id }?["id"] as? String)
        #expect(event["UID"] as? String == full.lowercased() + "@nudge")
        let off = try #require(events.first { ($0["SUMMARY"] as? String) == "Off" })
        #expect(off["X-NUDGE-ENABLED"] as? String == "FALSE" && (off["alarms"] as? [String])?.isEmpty == true)
        #expect(off["tzid"] as? String == "None", "a reminder that follows the system's zone is in floating time")
    }

    @Test func anUnknownIdOrAnUnwritableFileIsOneLineAndNothingIsLeftBehind() throws {
        let home = try Home()
        try home.add("Daily", "--at", "09:00")
        let unknown = try home.nudge("export", "ffff1234")
        #expect(unknown.status == 64 && unknown.stdout.isEmpty && unknown.stderr.split(separator: "\n").count == 1)
        let folder = home.dir + "/no/such/folder/out.ics"
        let unwritable = try home.nudge("export", "-o", folder)
        #expect(unwritable.status == 74 && unwritable.stderr.contains("cannot write") && unwritable.stderr.split(separator: "\n").count == 1)
        // An existing file is replaced whole, and no temporary file stays.
        let file = home.dir + "/out.ics"
        try "old".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try home.nudge("export", "-o", file).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.dir).filter { $0.hasSuffix(".tmp") }.isEmpty)
        // A link keeps its place (its target is replaced); a pipe is written into, never
        // replaced by a file (as -o /dev/stdout must not replace /dev/stdout).
        try FileManager.default.createSymbolicLink(atPath: home.dir + "/link.ics", withDestinationPath: file)
        #expect(try home.nudge("export", "-o", home.dir + "/link.ics").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.dir + "/link.ics") == file)
        let piped = try home.nudgeIntoPipe(["export", "-o"])
        #expect(piped.outcome.status == 0, "\(piped.outcome.stderr)")
        #expect(piped.stillAPipe)
        #expect(piped.read.hasPrefix("BEGIN:VCALENDAR\r\n"))
        // `-o -` is stdout (no file named "-"); an empty path is a usage error.
        let dash = try home.nudge("export", "-o", "-")
        #expect(dash.status == 0 && dash.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
        let empty = try home.nudge("export", "-o", "")
        #expect(empty.status == 64 && empty.stderr == "nudge: invalid -o '': give a file's path, or - for stdout\n")
        let svg = try home.nudge("stats", "--svg", "")
        #expect(svg.status == 64 && svg.stderr == "nudge: invalid --svg '': give a file's path\n")
    }
}
