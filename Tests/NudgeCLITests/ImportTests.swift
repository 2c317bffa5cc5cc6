import Foundation
import Testing
import TestSupport

extension Home {
    /// Imports a calendar of these events; it must all come in.
    func importCalendar(_ events: [ImportTests.Event], environment: [String: String?] = [:]) throws {
        let file = dir + "/calendar-\(UUID().uuidString).ics"
        try ImportTests.calendar(events).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try nudge(["import", file], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
    }
}

/// `nudge import` checked against the same oracle as the export (Python's icalendar and
/// recurring-ical-events): every schedule read from another calendar's rules fires when
/// the oracle says that event occurs (moved by its alarm), over a year, in several zones.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench and its oracle: run `make test`"))
struct ImportTests {
    /// One event of a foreign calendar: its lines, and the seconds its alarm moves it.
    struct Event {
        var uid: String
        var lines: [String]
        var alarm: Int = 0
    }

    static func calendar(_ events: [Event], component: String = "VEVENT") -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Other calendar//EN\r\n"
        for event in events {
            let kind = event.lines.contains("X-KIND:VTODO") ? "VTODO" : component
            text += "BEGIN:\(kind)\r\nUID:\(event.uid)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(event.uid)\r\n"
            text += event.lines.filter { !$0.hasPrefix("X-KIND") }.map { $0 + "\r\n" }.joined()
            text += "END:\(kind)\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    static func alarm(_ trigger: String) -> [String] {
        ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER\(trigger)", "END:VALARM"]
    }

    static var foreign: [Event] {
        [
            Event(uid: "daily-berlin", lines: ["DTSTART;TZID=Europe/Berlin:20260105T090000", "RRULE:FREQ=DAILY"] + alarm(":-PT15M"), alarm: -900),
            Event(uid: "weekly-floating", lines: ["DTSTART:20260105T183000", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"] + alarm(":PT0S")),
            Event(uid: "monthly-ny", lines: ["DTSTART;TZID=America/New_York:20260101T120000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15"]),
            Event(uid: "yearly-utc", lines: ["DTSTART:20260310T080000Z", "RRULE:FREQ=YEARLY;BYMONTH=3,9;BYMONTHDAY=10"]),
            Event(uid: "window", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=MINUTELY;INTERVAL=30;BYHOUR=9,10,11"]),
            Event(uid: "every-2h-utc", lines: ["DTSTART:20260105T003000Z", "RRULE:FREQ=HOURLY;INTERVAL=2"]),
            Event(uid: "weekend-berlin", lines: ["DTSTART;TZID=Europe/Berlin:20260103T080000", "RRULE:FREQ=DAILY;BYDAY=SA,SU;BYHOUR=8,20;BYMINUTE=0"]),
            Event(uid: "weekly-plain", lines: ["DTSTART;TZID=Australia/Sydney:20260107T070000", "RRULE:FREQ=WEEKLY;WKST=MO"]),
            Event(uid: "monthly-31st", lines: ["DTSTART:20260131T100000", "RRULE:FREQ=MONTHLY"]),
            Event(uid: "related-end", lines: ["DTSTART;TZID=Asia/Kolkata:20260105T140000", "DURATION:PT1H", "RRULE:FREQ=DAILY",
                                              "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER;RELATED=END:-PT10M", "END:VALARM"], alarm: 3000),
            Event(uid: "exdate-past", lines: ["DTSTART:20260105T081000", "RRULE:FREQ=DAILY", "EXDATE:20260106T081000,20260107T081000",
                                              "EXDATE;VALUE=DATE:20260108"]),
            Event(uid: "first-monday-berlin", lines: ["DTSTART;TZID=Europe/Berlin:20260105T090000", "RRULE:FREQ=MONTHLY;BYDAY=1MO"]),
            // (Python's dateutil expands a mix like BYDAY=-1FR,WE to DTSTART alone: RestrictionTests has one.)
            Event(uid: "last-friday-every-other-month", lines: ["DTSTART:20260130T170000", "RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR"]),
            Event(uid: "thanksgiving-ny", lines: ["DTSTART;TZID=America/New_York:20261126T120000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"]),
            Event(uid: "second-to-last-sunday", lines: ["DTSTART:20260118T100000Z", "RRULE:FREQ=MONTHLY;BYDAY=-2SU"]),
            Event(uid: "mondays-of-winter", lines: ["DTSTART:20260105T080000", "RRULE:FREQ=MONTHLY;BYDAY=MO;BYMONTH=1,2,12"]),
            Event(uid: "last-day-of-the-month", lines: ["DTSTART:20260131T180000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"]),
            Event(uid: "friday-the-13th-berlin", lines: ["DTSTART;TZID=Europe/Berlin:20260213T130000", "RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"]),
            Event(uid: "end-of-february", lines: ["DTSTART:20260228T090000Z", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"]),
                        Event(uid: "fridays-by-year", lines: ["DTSTART:20260102T080000", "RRULE:FREQ=YEARLY;BYDAY=FR"]),
                        Event(uid: "todo-daily", lines: ["X-KIND:VTODO", "DTSTART:20260105T071500", "RRULE:FREQ=DAILY"] + alarm(":PT0S")),
        ]
    }

    /// Rules that end, leave dates out or start ahead, around a day computed from now.
    static func ending(around soon: Date, in zone: String) -> [Event] {
        let local = DateFormatter()
        local.timeZone = TimeZone(identifier: zone)
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyyMMdd'T'HHmmss"
        func day(_ days: Double, _ time: String = "") -> String {
            let text = local.string(from: soon.addingTimeInterval(days * 86_400))
            return time.isEmpty ? String(text.prefix(8)) : text.prefix(8) + "T" + time
        }
        return [
            Event(uid: "count-ahead", lines: ["DTSTART:\(day(-13, "081500"))", "RRULE:FREQ=DAILY;COUNT=60"]),
            Event(uid: "until-ahead-berlin", lines: ["DTSTART;TZID=Europe/Berlin:\(day(-30, "200000"))", "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=\(day(150))T000000Z"]),
            Event(uid: "exdates-ahead", lines: ["DTSTART;TZID=America/New_York:\(day(-40, "070000"))", "RRULE:FREQ=DAILY;BYHOUR=7,19",
                                               "EXDATE;TZID=America/New_York:\(day(2, "190000")),\(day(9, "070000"))"]),
            Event(uid: "every-3-days", lines: ["DTSTART:\(day(-7, "093000"))", "RRULE:FREQ=DAILY;INTERVAL=3"] + Self.alarm(":-PT30M"), alarm: -1800),
            Event(uid: "fortnight-sunday-weeks", lines: ["DTSTART:\(day(-60, "100000"))", "RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=\(Self.dayName(soon, -60, zone)),SU"]),
            Event(uid: "quarterly", lines: ["DTSTART;TZID=Asia/Kolkata:20260115T113000", "RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"]),
            Event(uid: "every-other-year", lines: ["DTSTART:20250704T090000Z", "RRULE:FREQ=YEARLY;INTERVAL=2"]),
            Event(uid: "starts-ahead", lines: ["DTSTART:\(day(25, "181500"))", "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=\(day(200, "000000"))"]),
            Event(uid: "window-ends", lines: ["DTSTART:\(day(-2, "090000"))", "RRULE:FREQ=MINUTELY;INTERVAL=45;BYHOUR=9,10,11,12;COUNT=100"]),
        ]
    }

    /// The RRULE name of the weekday `days` days from `instant`, in a zone.
    static func dayName(_ instant: Date, _ days: Double, _ zone: String) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEEEE"
        return formatter.string(from: instant.addingTimeInterval(days * 86_400)).uppercased()
    }

    @Test(arguments: [("Asia/Seoul", "C"), ("Europe/Berlin", "ko_KR.UTF-8"), ("America/New_York", "C")])
    func foreignRulesFireWhenTheOracleSays(zone: String, lang: String) throws {
        let home = try Home()
        let environment: [String: String?] = ["TZ": zone, "LANG": lang]
        // A one-shot three days ahead, in floating time (computed: the test holds any day).
        let soon = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 3 * 86_400)
        let local = DateFormatter()
        local.timeZone = TimeZone(identifier: zone)
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyyMMdd'T'HHmmss"
        let ending = Self.ending(around: soon, in: zone)
        let events = Self.foreign + ending + [Event(uid: "once", lines: ["DTSTART:\(local.string(from: soon))", "BEGIN:VALARM", "ACTION:DISPLAY",
                                                                          "TRIGGER:-PT5M", "END:VALARM"], alarm: -300)]
        let file = home.dir + "/other.ics"
        try Self.calendar(events).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try home.nudge(["import", file], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try home.list().count == events.count)
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86_400).rounded(.down))
        let end = start.addingTimeInterval(365 * 86_400)
        let iso = ISO8601DateFormatter()
        // The oracle's occurrences of each event; the reminder fires at each moved by the alarm.
        let out = try Bench.run(ExportTests.python, [ExportTests.oracle, file, iso.string(from: start.addingTimeInterval(-86_400)),
                                                     iso.string(from: end.addingTimeInterval(86_400))], environment: ["TZ": zone], timeout: 120)
        #expect(out.status == 0, "\(out.stderr)")
        let expanded = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: [String]])
        let alerts = try home.list()
        for event in events {
            let expected = (expanded[event.uid] ?? []).compactMap { iso.date(from: $0) }.map { $0.addingTimeInterval(Double(event.alarm)) }
                .filter { $0 >= start && $0 < end }.map { iso.string(from: $0) }
            let id = try #require(alerts.first { $0["title"] as? String == event.uid }?["shortId"] as? String, "\(event.uid) not imported")
            let next = try home.nudge(["next", id, "--after", iso.string(from: start.addingTimeInterval(-1)), "--count", "\(expected.count + 1)",
                                       "--json", "--schedule-preview"], environment: environment)
            let instants = ((try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [[String: String]]) ?? [])
                .compactMap { $0["utc"] }.compactMap { iso.date(from: $0) }.filter { $0 >= start && $0 < end }.map { iso.string(from: $0) }
            // Only the differences are told: a year of times is too long to read.
            let (extra, missing) = (instants.filter { !expected.contains($0) }, expected.filter { !instants.contains($0) })
            let same = instants == expected
            #expect(same, "\(event.uid) in \(zone): nudge only \(extra.prefix(5)), oracle only \(missing.prefix(5)); \(instants.count) vs \(expected.count)")
        }
        // Again: nothing twice.
        let again = try home.nudge(["import", file], environment: ["TZ": zone])
        #expect(again.status == 0 && again.stdout.hasPrefix("imported 0, already there \(events.count), refused 0"))
        #expect(try home.list().count == events.count)
    }

    /// An EXDATE of a day (where the event has a time) leaves out that day in the event's
    /// zone, as the person meant it. (RFC 5545 wants the same type as DTSTART; Python's
    /// recurring-ical-events also leaves out the times of that date in UTC.)
    @Test func aDayLeftOutIsTheWholeDayInTheEventsZone() throws {
        let home = try Home()
        let newYork = TimeZone(identifier: "America/New_York")!
        let format = DateFormatter()
        (format.timeZone, format.locale, format.dateFormat) = (newYork, Locale(identifier: "en_US_POSIX"), "yyyyMMdd")
        // Around a day computed from now: 7 and 19 o'clock, New York time.
        let today = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        func day(_ n: Double) -> String { format.string(from: today.addingTimeInterval(n * 86_400 + 12 * 3600)) }
        let file = home.dir + "/whole-day.ics"
        try Self.calendar([Event(uid: "two-a-day", lines: ["DTSTART;TZID=America/New_York:\(day(-5))T070000", "RRULE:FREQ=DAILY;BYHOUR=7,19",
                                                          "EXDATE;VALUE=DATE:\(day(3))"])]).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try home.nudge(["import", file], environment: ["TZ": "Asia/Seoul"]).status == 0)
        let id = try #require(try home.list().first?["shortId"] as? String)
        let parse = DateFormatter()
        (parse.timeZone, parse.locale, parse.dateFormat) = (newYork, Locale(identifier: "en_US_POSIX"), "yyyyMMdd HH:mm")
        let iso = ISO8601DateFormatter()
        let after = parse.date(from: day(2) + " 12:00")!
        let next = try home.nudge(["next", id, "--after", iso.string(from: after), "--count", "3", "--json"], environment: ["TZ": "Asia/Seoul"])
        let instants = ((try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [[String: String]]) ?? []).compactMap { $0["utc"] }
        #expect(instants == [day(2) + " 19:00", day(4) + " 07:00", day(4) + " 19:00"].map { iso.string(from: parse.date(from: $0)!) })
    }

    /// Export, import into another store: the same alerts, column by column, in C and Korean.
    @Test(arguments: ["C", "ko_KR.UTF-8"])
    func aRoundTripKeepsEverything(lang: String) throws {
        let home = try Home(), other = try Home()
        for arguments in ExportTests.reminders { try home.add(arguments + ["--body", "b, c; d\ne"]) }
        try home.add("Loud", "--at", "07:00", "--urgency", "critical", "--snooze", "20m", "--sound", "none", "--when-away", "show")
        try home.add("--every", "45m", "--after-done", "--from", "09:00", "--until", "18:00")
        try home.nudge("off", try home.add("Off", "--at", "23:00"))
        try home.importCalendar(Self.foreign + Self.ending(around: Date().addingTimeInterval(3 * 86_400), in: "Asia/Seoul"), environment: ["LANG": lang])
        let file = home.dir + "/all.ics"
        #expect(try home.nudge(["export", "-o", file], environment: ["LANG": lang]).status == 0)
        let imported = try other.nudge(["import", file], environment: ["LANG": lang])
        #expect(imported.status == 0, "\(imported.stderr)")
        let columns = "id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, kind, whenAway, "
            + "nagSeconds, nagTimes, round(created, 3)"
        func rows(_ h: Home) throws -> String {
            try Bench.run("/usr/bin/sqlite3", ["-json", h.database, "SELECT \(columns) FROM alert ORDER BY id"]).stdout
        }
        let (exported, importedRows) = (try rows(home), try rows(other))
        #expect(exported == importedRows)
        #expect(try home.nudge("list", "--all", "--json").stdout == other.nudge("list", "--all", "--json").stdout)
    }

    /// What Nudge cannot say is refused with the component and the property named; the rest
    /// comes in; --strict takes nothing.
    @Test func whatCannotBeSaidIsRefusedOneLineEach() throws {
        let home = try Home()
        let refused: [(Event, String)] = [
            (Event(uid: "count-and-until", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY;COUNT=1000;UNTIL=29991231T000000Z"]), "COUNT with UNTIL"),
            (Event(uid: "count-huge", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY;COUNT=99999999999"]), "COUNT=99999999999"),
            (Event(uid: "week-start", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=XX"]), "WKST=XX"),
            (Event(uid: "weekly-monthday", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYMONTHDAY=5"]), "BYMONTHDAY with FREQ=WEEKLY"),
            (Event(uid: "every-millennium", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=YEARLY;INTERVAL=1000"]), "INTERVAL=1000"),
            (Event(uid: "exdate-mars", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY", "EXDATE;TZID=Mars/Olympus_Mons:20300105T090000"]), "EXDATE;TZID=Mars/Olympus_Mons"),
            (Event(uid: "until-junk", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY;UNTIL=soon"]), "UNTIL=SOON"),
            (Event(uid: "weekly-first-friday", lines: ["DTSTART:20260102T090000", "RRULE:FREQ=WEEKLY;BYDAY=1FR"]), "BYDAY=1FR"),
            (Event(uid: "sixth-friday", lines: ["DTSTART:20260102T090000", "RRULE:FREQ=MONTHLY;BYDAY=6FR"]), "6FR"),
            (Event(uid: "twentieth-monday", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=YEARLY;BYDAY=20MO"]), "20MO"),
            (Event(uid: "setpos", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1"]), "BYSETPOS"),
            (Event(uid: "exrule", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY", "EXRULE:FREQ=WEEKLY"]), "EXRULE"),
            (Event(uid: "mars", lines: ["DTSTART;TZID=Mars/Olympus_Mons:20260105T090000", "RRULE:FREQ=DAILY"]), "TZID=Mars/Olympus_Mons"),
            (Event(uid: "every-second", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=SECONDLY"]), "FREQ=SECONDLY"),
            (Event(uid: "every-century", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=HOURLY;INTERVAL=1000000000"]), "INTERVAL=1000000000"),
            (Event(uid: "two-lines\\nsummary-ok", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=YEARLY;BYWEEKNO=20"]), "BYWEEKNO"),
            // RFC 5545: a rule part occurs once at most.
            (Event(uid: "interval-twice", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=YEARLY;INTERVAL=3;INTERVAL=3"]), "INTERVAL"),
            // The years --on takes: 9999-12-31 23:00 in Pago Pago is in 10000 in UTC.
            (Event(uid: "year-10000", lines: ["DTSTART;TZID=Pacific/Pago_Pago:99991231T230000"] + Self.alarm(":PT0S")), "after the year 9999"),
        ]
        let fine = Event(uid: "fine", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY"])
        // Over already: nothing to import, nothing to refuse.
        let over = [Event(uid: "count-over", lines: ["DTSTART:20200101T090000", "RRULE:FREQ=DAILY;COUNT=3"]),
                    Event(uid: "until-over", lines: ["DTSTART:20200101T090000", "RRULE:FREQ=WEEKLY;UNTIL=20200301T000000Z"]),
                    Event(uid: "once-over", lines: ["DTSTART:20200101T090000", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM"])]
        let file = home.dir + "/mixed.ics"
        try Self.calendar(refused.map(\.0) + [fine] + over).write(toFile: file, atomically: true, encoding: .utf8)
        let strict = try home.nudge("import", "--strict", file)
        #expect(strict.status == 65 && strict.stdout.isEmpty)
        #expect(try home.list().isEmpty)
        let out = try home.nudge("import", file)
        #expect(out.status == 65)
        #expect(out.stdout == "imported 1, already there 0, refused \(refused.count); \(over.count) over already, not imported\n")
        let lines = out.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == refused.count, "\(lines)")
        for ((event, property), line) in zip(refused, lines) {
            #expect(line.contains("(UID \(event.uid))") && line.contains(property), "\(line)")
        }
        #expect(try home.list().map { $0["title"] as? String } == ["fine"])
    }

    /// A value repeated 100,000 times in a rule says nothing more than once: the schedule
    /// stored is the rule's, not a megabyte (270,000 BYDAY values made a 1.17 MB schedule).
    @Test func aValueRepeatedInARuleIsTakenOnce() throws {
        let home = try Home()
        let days = Array(repeating: "5FR,-5MO,1SU", count: 30_000).joined(separator: ",")
        let months = Array(repeating: "2", count: 30_000).joined(separator: ",")
        try home.importCalendar([Event(uid: "repeated", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=MONTHLY;BYDAY=\(days);BYMONTH=\(months)"])])
        let stored = try Bench.run("/usr/bin/sqlite3", ["-cmd", ".timeout 10000", home.database, "SELECT length(schedule) FROM alert"]).stdout
        #expect((Int(stored.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max) < 200, "\(stored)")
    }

    /// Two imports of the same reminders at once: one adds them, the other finds them there
    /// (both said "imported 300" when each read the store before the other wrote).
    @Test func twoImportsAtOnceTakeTurns() throws {
        let home = try Home()
        try home.add("Already", "--in", "1h")
        let events = (0..<300).map { Event(uid: "c\($0)", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY"]) }
        let first = home.dir + "/first.ics", second = home.dir + "/second.ics"
        try Self.calendar(events).write(toFile: first, atomically: true, encoding: .utf8)
        // The same UIDs with other titles.
        try Self.calendar(events).replacingOccurrences(of: "SUMMARY:c", with: "SUMMARY:Other c").write(toFile: second, atomically: true, encoding: .utf8)
        let both = try Bench.run("/bin/sh", ["-c", "\"$0\" import \"$1\" > \"$1.out\" 2>&1 & \"$0\" import \"$2\" > \"$2.out\" 2>&1 & wait",
                                            Bench.nudgePath, first, second], environment: home.environment())
        #expect(both.status == 0)
        let outs = try [first, second].map { try String(contentsOfFile: $0 + ".out", encoding: .utf8) }
        let added = outs.compactMap { $0.split(separator: "\n").last { $0.hasPrefix("imported ") } }.map { $0.split(separator: " ")[1].trimmingCharacters(in: .punctuationCharacters) }
        #expect(added.sorted() == ["0", "300"], "\(outs)")
        #expect(outs.contains { $0.contains("300 changed in the file, kept as stored") }, "\(outs)")
        #expect(try home.list().count == 301)
    }

    /// Bad files: one line, exit 65, and the store exactly as it was.
    @Test func badFilesLeaveTheStoreUntouched() throws {
        let home = try Home()
        try home.add("Keep me", "--at", "09:00")
        let before = try home.nudge("list", "--all", "--json").stdout
        var junk = [UInt8](repeating: 0, count: 10 << 20)
        var state: UInt64 = 0x9E3779B97F4A7C15
        for i in junk.indices { state = state &* 6364136223846793005 &+ 1442695040888963407; junk[i] = UInt8(truncatingIfNeeded: state >> 33) }
        let valid = Self.calendar([Event(uid: "a", lines: ["DTSTART:20260105T090000", "RRULE:FREQ=DAILY"])])
        let cases: [(String, [UInt8])] = [
            ("not-ical.ics", Array("Subject: hello\n\nnot a calendar\n".utf8)),
            ("truncated.ics", Array(valid.utf8.prefix(valid.utf8.count - 30))),
            ("junk.ics", junk),
            ("text-junk.ics", Array(String(repeating: "BEGIN:VCALENDAR\nX", count: 1).utf8) + Array(repeating: UInt8(ascii: "x"), count: 10 << 20)),
            ("bad-zone.ics", Array(Self.calendar([Event(uid: "z", lines: ["DTSTART;TZID=Nowhere/City:20260105T090000", "RRULE:FREQ=DAILY"])]).utf8)),
            ("absurd.ics", Array(Self.calendar([Event(uid: "f", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=SECONDLY;INTERVAL=1"])]).utf8)),
            ("empty.ics", []),
        ]
        for (name, bytes) in cases {
            let file = home.dir + "/" + name
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            let out = try home.nudge("import", file)
            #expect(out.status == 65, "\(name): \(out.status) \(out.stderr)")
            let errors = out.stderr.split(separator: "\n")
            #expect(errors.count == (name.hasPrefix("bad-zone") || name.hasPrefix("absurd") ? 1 : 1), "\(name): \(out.stderr)")
            #expect(try home.nudge("list", "--all", "--json").stdout == before, "\(name) changed the store")
        }
        let missing = try home.nudge("import", home.dir + "/no-such.ics")
        #expect(missing.status == 74 && missing.stderr.split(separator: "\n").count == 1)
    }

    /// The instants `nudge next` gives for an alert after an instant, in UTC.
    static func next(_ home: Home, title: String, after: String, count: Int) throws -> [String] {
        let id = try #require(try home.list().first { $0["title"] as? String == title }?["shortId"] as? String, "\(title) not imported")
        let out = try home.nudge("next", id, "--after", after, "--count", "\(count)", "--json")
        return ((try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: String]]) ?? []).compactMap { $0["utc"] }
    }

    /// A UID is read once per file (a changed occurrence, RECURRENCE-ID, is read with its
    /// series wherever it stands, before it too); a reminder stored already is kept when the file says
    /// something else, each one named, and --replace takes the file's content, keeping the
    /// reminder's id, its switch and its state.
    @Test func aUIDIsReadOnceAndChangedContentIsKeptUnlessReplaced() throws {
        let home = try Home()
        let file = home.dir + "/twice.ics"
        func write(_ events: [Event]) throws { try Self.calendar(events).write(toFile: file, atomically: true, encoding: .utf8) }
        func schedules() throws -> [String: String] {
            Dictionary(try home.list().map { ($0["title"] as? String ?? "", $0["schedule"] as? String ?? "") }, uniquingKeysWith: { a, b in a + " & " + b })
        }
        let standup = Event(uid: "standup", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO"])
        try write([Event(uid: "dup", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=DAILY"]),
                   Event(uid: "dup", lines: ["DTSTART:20260105T100000Z", "RRULE:FREQ=DAILY"]),
                   Event(uid: "standup", lines: ["RECURRENCE-ID:20260112T090000Z", "DTSTART:20260112T110000Z"] + Self.alarm(":PT0S")),
                   standup])
        let first = try home.nudge("import", file)
        #expect(first.status == 65)
        #expect(first.stdout == "imported 2, already there 0, refused 1\n")
        let lines = first.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(first.stderr)")
        #expect(lines.first?.contains("(UID dup): the same UID as an earlier component of the file") == true, "\(first.stderr)")
        #expect(try schedules() == ["dup": "daily at 09:00", "standup": "every Mon at 09:00"])

        // The same UID at another time: the stored one stays, and the line says so. What the
        // person set (off, done for today) is theirs.
        let id = try #require(try home.list().first { $0["title"] as? String == "dup" }?["shortId"] as? String)
        #expect(try home.nudge("done", id).status == 0)
        #expect(try home.nudge("off", id).status == 0)
        try write([Event(uid: "dup", lines: ["DTSTART:20260105T080000Z", "RRULE:FREQ=DAILY"]), standup])
        let again = try home.nudge("import", file)
        #expect(again.status == 0)
        #expect(again.stdout == "imported 0, already there 1, refused 0; 1 changed in the file, kept as stored\n")
        #expect(again.stderr.split(separator: "\n").count == 1 && again.stderr.contains("(UID dup): changed in the file"), "\(again.stderr)")
        #expect(try schedules()["dup"] == "daily at 09:00")

        // --replace: the file's schedule; the same id, still off, the same state.
        func state() throws -> String { try Bench.run("/usr/bin/sqlite3", ["-json", home.database, "SELECT * FROM alertState ORDER BY alertId"]).stdout }
        let before = try state()
        let replaced = try home.nudge("import", "--replace", file)
        #expect(replaced.status == 0 && replaced.stderr.isEmpty, "\(replaced.stderr)")
        #expect(replaced.stdout == "imported 0, already there 1, refused 0; 1 replaced with the file's content\n")
        let alert = try #require(try home.list().first { $0["title"] as? String == "dup" })
        #expect(alert["shortId"] as? String == id && alert["schedule"] as? String == "daily at 08:00" && alert["enabled"] as? Bool == false)
        #expect(try state() == before && before.contains("doneForDay"))
        #expect(try home.nudge("import", file).stdout == "imported 0, already there 2, refused 0\n")
        #expect(try home.list().count == 2)
    }

    /// An all-day event's alarm before it (TRIGGER:-PT15M on a DATE, 23:45 the day before)
    /// would move a yearly or monthly reminder to another day: refused, as for a daily one.
    /// An alarm on the day itself comes in at its time.
    @Test func anAlarmTheDayBeforeAnAllDayEventIsRefused() throws {
        let home = try Home()
        let file = home.dir + "/birthdays.ics"
        try Self.calendar([
            Event(uid: "birthday", lines: ["DTSTART;VALUE=DATE:20261201", "RRULE:FREQ=YEARLY"] + Self.alarm(":-PT15M")),
            Event(uid: "rent", lines: ["DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=MONTHLY"] + Self.alarm(":-P1D")),
            Event(uid: "anniversary", lines: ["DTSTART;VALUE=DATE:20261201", "RRULE:FREQ=YEARLY"] + Self.alarm(":PT9H")),
        ]).write(toFile: file, atomically: true, encoding: .utf8)
        let out = try home.nudge("import", file)
        #expect(out.status == 65)
        #expect(out.stdout == "imported 1, already there 0, refused 2\n")
        let lines = out.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("TRIGGER: it moves the reminder to another day") }, "\(out.stderr)")
        #expect(lines.first?.contains("(UID birthday)") == true && lines.last?.contains("(UID rent)") == true)
        // Floating time: 09:00 in the system's zone (Seoul, UTC+9).
        #expect(try Self.next(home, title: "anniversary", after: "2027-01-01T00:00:00Z", count: 2) == ["2027-12-01T00:00:00Z", "2028-12-01T00:00:00Z"])
    }

    /// A rule that never happens (February 30, the 31st of April, a leap day only in years
    /// that are not leap years) is refused; one that happens once in decades or centuries
    /// comes in and is found however far away its next time is.
    @Test func aRuleThatNeverHappensIsRefusedAndARareOneIsFound() throws {
        let home = try Home()
        let never = [
            Event(uid: "february-30", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"]),
            Event(uid: "april-31", lines: ["DTSTART:20260401T090000Z", "RRULE:FREQ=MONTHLY;BYMONTH=4,6,9,11;BYMONTHDAY=31"]),
            Event(uid: "leap-day-in-odd-years", lines: ["DTSTART:20270228T090000Z", "RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29"]),
            Event(uid: "31st-every-april", lines: ["DTSTART:20260401T090000Z", "RRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31"]),
        ]
        // Not within its dates, but in other years: over, not refused.
        let over = Event(uid: "fifth-sunday-of-february-till-2028", lines: ["DTSTART:20260301T090000Z", "RRULE:FREQ=MONTHLY;BYDAY=-5SU;BYMONTH=2;UNTIL=20280101T000000Z"])
        let rare = [
            Event(uid: "fifth-friday-of-february", lines: ["DTSTART:20080229T090000Z", "RRULE:FREQ=MONTHLY;BYDAY=5FR;BYMONTH=2"]),
            Event(uid: "leap-day-every-century", lines: ["DTSTART:20000229T090000Z", "RRULE:FREQ=YEARLY;INTERVAL=100;BYMONTH=2;BYMONTHDAY=29"]),
        ]
        let file = home.dir + "/rare.ics"
        try Self.calendar(never + rare + [over]).write(toFile: file, atomically: true, encoding: .utf8)
        let out = try home.nudge("import", file)
        #expect(out.status == 65)
        #expect(out.stdout == "imported 2, already there 0, refused 4; 1 over already, not imported\n")
        let lines = out.stderr.split(separator: "\n")
        #expect(lines.count == 4, "\(out.stderr)")
        for (event, line) in zip(never, lines) {
            #expect(line.contains("(UID \(event.uid)): RRULE") && line.hasSuffix("it never happens, in any year"), "\(line)")
        }
        // 2036 is more than eight years away; from 2189 the next is 2228, 40 years on.
        #expect(try Self.next(home, title: "fifth-friday-of-february", after: "2026-03-01T00:00:00Z", count: 2)
                == ["2036-02-29T09:00:00Z", "2064-02-29T09:00:00Z"])
        #expect(try Self.next(home, title: "fifth-friday-of-february", after: "2189-01-01T00:00:00Z", count: 1) == ["2228-02-29T09:00:00Z"])
        // 2100, 2200 and 2300 are not leap years.
        #expect(try Self.next(home, title: "leap-day-every-century", after: "2026-01-01T00:00:00Z", count: 1) == ["2400-02-29T09:00:00Z"])
    }

    /// Calendars as they come: old Mac line ends (CR alone), a byte order mark, a line
    /// folded inside a character, Outlook's Windows zone names.
    @Test func calendarsAsTheyCome() throws {
        let home = try Home()
        let daily = Self.calendar([Event(uid: "crlf", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=DAILY"])])
        // A title of Korean text (3 bytes a character), its line folded at 75 octets: inside a character.
        let title = String(repeating: "물 마시기 ", count: 12)
        var folded = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:folded\r\nDTSTART:20260105T090000Z\r\nRRULE:FREQ=DAILY\r\n".utf8)
        let summary = Array(("SUMMARY:" + title).utf8)
        #expect(summary[75] & 0xC0 == 0x80)
        folded += summary[..<75] + Array("\r\n ".utf8) + summary[75...] + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let good: [(String, [UInt8], String)] = [
            ("mac.ics", Array(daily.replacingOccurrences(of: "\r\n", with: "\r").replacingOccurrences(of: "crlf", with: "mac").utf8), "mac"),
            ("bom.ics", [0xEF, 0xBB, 0xBF] + Array(daily.replacingOccurrences(of: "crlf", with: "bom").utf8), "bom"),
            ("folded.ics", folded, title),
        ]
        for (name, bytes, title) in good {
            #expect(FileManager.default.createFile(atPath: home.dir + "/" + name, contents: Data(bytes)))
            let out = try home.nudge("import", home.dir + "/" + name)
            #expect(out.status == 0 && out.stdout == "imported 1, already there 0, refused 0\n", "\(name): \(out.stderr)")
            #expect(try home.list().contains { $0["title"] as? String == title }, "\(name)")
        }

        // Outlook's zones by their Windows names, EXDATE's too.
        let outlook = home.dir + "/outlook.ics"
        try Self.calendar([
            Event(uid: "berlin", lines: ["DTSTART;TZID=W. Europe Standard Time:20260105T090000", "RRULE:FREQ=DAILY",
                                         "EXDATE;TZID=W. Europe Standard Time:20270105T090000"]),
            Event(uid: "new-york", lines: ["DTSTART;TZID=\"Eastern Standard Time\":20260105T090000", "RRULE:FREQ=WEEKLY;BYDAY=MO"]),
            Event(uid: "seoul", lines: ["DTSTART;TZID=Korea Standard Time:20260105T090000", "RRULE:FREQ=DAILY"]),
        ]).write(toFile: outlook, atomically: true, encoding: .utf8)
        let imported = try home.nudge("import", outlook)
        #expect(imported.status == 0, "\(imported.stderr)")
        let zones = Dictionary(try home.list().map { ($0["title"] as? String ?? "", $0["timeZone"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(zones["berlin"] == "Europe/Berlin" && zones["new-york"] == "America/New_York" && zones["seoul"] == "Asia/Seoul", "\(zones)")
        #expect(try Self.next(home, title: "berlin", after: "2027-01-04T00:00:00Z", count: 2) == ["2027-01-04T08:00:00Z", "2027-01-06T08:00:00Z"])
        #expect(try Self.next(home, title: "new-york", after: "2027-07-01T00:00:00Z", count: 1) == ["2027-07-05T13:00:00Z"])
    }

    /// A broken file is one short line, exit 65: a NUL byte named with its line, a file of
    /// old Mac line ends cut short named where it is, never the whole file quoted.
    @Test func aBrokenFileIsOneShortLine() throws {
        let home = try Home()
        let daily = Self.calendar([Event(uid: "crlf", lines: ["DTSTART:20260105T090000Z", "RRULE:FREQ=DAILY"])])
        let cut = Array(daily.replacingOccurrences(of: "\r\n", with: "\r").utf8.dropLast(25))
        let padded = Array(("BEGIN:VCALENDAR\r" + String(repeating: "X-PAD:" + String(repeating: "x", count: 90) + "\r", count: 50_000)).utf8)
        var longRule = daily.replacingOccurrences(of: "FREQ=DAILY", with: "FREQ=" + String(repeating: "D", count: 1 << 20))
        longRule = longRule.replacingOccurrences(of: "crlf", with: "long")
        let nul = Array(daily.replacingOccurrences(of: "SUMMARY:crlf", with: "SUMMARY:cr\0lf").utf8)
        let bad: [(String, [UInt8], Int32, String)] = [
            ("nul.ics", nul, 65, "nudge: nul.ics is not iCalendar: line 7 holds a NUL byte\n"),
            ("cut-mac.ics", cut, 65, "nudge: cut-mac.ics, line 4: BEGIN:VEVENT is never closed (the file is cut short?)\n"),
            ("padded.ics", padded, 65, "nudge: padded.ics, line 1: BEGIN:VCALENDAR is never closed (the file is cut short?)\n"),
            ("long-rule.ics", Array(longRule.utf8), 65, ""),
        ]
        for (name, bytes, status, message) in bad {
            let path = home.dir + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let out = try home.nudge(["import", path], environment: ["TZ": "UTC"])
            #expect(out.status == status, "\(name): \(out.status)")
            #expect(out.stderr.utf8.count < 300, "\(name): \(out.stderr.utf8.count) bytes of stderr")
            if !message.isEmpty { #expect(out.stderr.replacingOccurrences(of: home.dir + "/", with: "") == message) }
        }
    }
}
