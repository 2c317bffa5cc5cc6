import Foundation
import Testing
import TestSupport

/// `nudge sync` against real servers (Radicale, Xandikos) on 127.0.0.1, with python-caldav
/// as the phone and gnome-keyring serving the Secret Service on a private bus.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench (make test)"))
struct SyncLiveTests {
    /// A session, a server with Nudge's calendar (`Reminders`, or Xandikos' `calendar`) and
    /// a followed one (`Phone`, Radicale only), and the account added.
    struct World {
        let server: CalDAVServer
        let session: KeyringSession
        let own: String
        let phone: String?
        let account: String
    }

    static func world(_ kind: CalDAVServer.Kind, own: Bool = true, follow: Bool = true) throws -> World {
        let server = try CalDAVServer(kind)
        let session = try KeyringSession()
        var ownName = "calendar", phone: String? = nil
        if kind == .radicale {
            try server.makeCalendar("Reminders")
            try server.makeCalendar("Phone")
            ownName = "Reminders"
            phone = "Phone"
        }
        var arguments = ["sync", "add", server.url]
        if let user = server.user { arguments += ["--user", user, "--password-stdin"] }
        if own { arguments += ["--own", ownName] }
        if follow, let phone { arguments += ["--follow", phone] }
        let added = try session.nudge(arguments, input: server.password)
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.split(separator: "\n").first { $0.hasPrefix("Account ") }?.split(separator: " ")[1].dropLast() ?? ""
        return World(server: server, session: session, own: ownName, phone: phone, account: String(id))
    }

    static let dentist = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Phone//EN
    BEGIN:VEVENT
    UID:dentist@phone
    DTSTAMP:20261120T100000Z
    DTSTART;TZID=Asia/Seoul:20301202T150000
    SUMMARY:Dentist
    CATEGORIES:Health
    X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-PT30M
    DESCRIPTION:Dentist
    END:VALARM
    END:VEVENT
    END:VCALENDAR
    """

    /// A task as tasks.org writes one: a due time, an alarm relative to it, no DESCRIPTION.
    static let task = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:+//IDN tasks.org//android-130901//EN
    BEGIN:VTODO
    UID:rent@tasks.org
    DTSTAMP:20261120T100000Z
    DUE:20301201T090000Z
    SUMMARY:Pay the rent
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER;RELATED=END:-PT1H
    END:VALARM
    END:VTODO
    END:VCALENDAR
    """

    @Test("the password goes to the keyring, and nowhere else", arguments: [CalDAVServer.Kind.radicale])
    func thePasswordIsInTheKeyringOnly(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind)
        let found = world.session.secretTool(["lookup", "application", "io.github.nudge.Nudge", "user", "ann", "server", "127.0.0.1"])
        #expect(found.stdout == world.server.password)
        let attributes = world.session.secretTool(["search", "--all", "application", "io.github.nudge.Nudge"]).stdout
        #expect(attributes.contains("schema = org.gnome.keyring.NetworkPassword"))
        #expect(attributes.contains("label = Nudge: ann on 127.0.0.1"))
        // Not in the store, its journal, or anything else Nudge wrote.
        let written = try FileManager.default.subpathsOfDirectory(atPath: world.session.dir + "/data")
        for file in written {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: world.session.dir + "/data/" + file))) ?? Data()
            #expect(bytes.range(of: Data(world.server.password.utf8)) == nil, "the password is in \(file)")
        }
        // Removing the account removes the password.
        let removed = try world.session.nudge("sync", "remove", world.account)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(world.session.secretTool(["lookup", "application", "io.github.nudge.Nudge", "user", "ann"]).stdout.isEmpty)
    }

    @Test func aWrongPasswordAddsNothing() throws {
        let server = try CalDAVServer(.radicale)
        let session = try KeyringSession()
        let added = try session.nudge(["sync", "add", server.url, "--user", "ann", "--password-stdin"], input: "wrong")
        #expect(added.status == 69)
        #expect(added.stderr.contains("refused the user name or password"), "\(added.stderr)")
        #expect(added.stderr.split(separator: "\n").count == 1)
        #expect(try session.nudge("sync", "status", "--json").stdout == #"{"accounts":[],"completeTasks":false}"# + "\n")
        #expect(session.secretTool(["search", "--all", "application", "io.github.nudge.Nudge"]).stdout.isEmpty)
    }

    @Test func withoutAKeyringItSaysWhatToInstall() throws {
        let server = try CalDAVServer(.radicale)
        let session = try KeyringSession(keyring: false)
        let added = try session.nudge(["sync", "add", server.url, "--user", "ann", "--password-stdin"], input: server.password)
        #expect(added.status == 69)
        #expect(added.stderr.contains("gnome-keyring"), "\(added.stderr)")
        #expect(try session.nudge("sync", "status", "--json").stdout == #"{"accounts":[],"completeTasks":false}"# + "\n")
    }

    @Test func badAddressesAreRefusedBeforeAnythingIsSent() throws {
        let session = try KeyringSession(keyring: false)
        for (address, words) in [("ftp://dav.example/", "invalid URL"), ("dav.example", "invalid URL"),
                                 ("http://dav.example/", "refusing plain http://"),
                                 ("http://ann:pw@127.0.0.1:1/", "holds a user name or password"),
                                 ("http://127.0.0.1:1/dav calendars", "holds a space or a line break"),
                                 ("http://127.0.0.1:1/\ndav", "holds a space or a line break"),
                                 ("http://127.0.0.1:1/" + String(repeating: "a", count: 100_000), "longer than 2,048 characters")] {
            let added = try session.nudge("sync", "add", address)
            #expect(added.status == 64, "\(address.prefix(60))")
            #expect(added.stderr.contains(words) && added.stderr.utf8.count < 400, "\(address.prefix(60)): \(added.stderr.prefix(400))")
        }
        let missing = try session.nudge("sync", "add", "https://127.0.0.1:1/", "--ca-file", "/nonexistent.pem")
        #expect(missing.status == 64 && missing.stderr.contains("certificate file"))
    }

    @Test("the phone's events and tasks with alarms pop up here, and follow its edits", arguments: [CalDAVServer.Kind.radicale])
    func thePhonesRemindersComeHere(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, own: false)
        let phone = world.phone!
        try world.server.phone("""
        calendar(\(CalDAVServer.python(phone))).save_event(\(CalDAVServer.python(Self.dentist)))
        calendar(\(CalDAVServer.python(phone))).save_todo(\(CalDAVServer.python(Self.task)))
        """)
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.status == 0, "\(synced.stderr)")
        let list = try world.session.list()
        let dentist = try #require(list.first { $0["title"] as? String == "Dentist" })
        // 15:00 in Seoul, 30 minutes before.
        #expect(dentist["next"] as? String == "2030-12-02T14:30:00+09:00")
        #expect(dentist["calendar"] as? String == phone, "listed with the calendar it comes from")
        let rent = try #require(list.first { $0["title"] as? String == "Pay the rent" })
        #expect(rent["next"] as? String == "2030-12-01T08:00:00Z", "an hour before it is due (in UTC, as DUE is)")
        // nudge ui names the calendar too, after the schedule, and finds it by it.
        let tmux = try Tmux(width: 120, height: 20, environment: world.session.environment([:]))
        try tmux.run("'\(Bench.nudgePath)' ui")
        #expect(try tmux.wait(for: "Dentist") != nil, "\(tmux.lastScreen)")
        #expect(try tmux.wait(until: { $0.contains { $0.contains("Dentist") && $0.contains("· \(phone)") } }) != nil, "\(tmux.lastScreen)")
        try tmux.press("q")
        // Edited on the phone: changed here within one sync.
        try world.server.phone("""
        for o in objects(\(CalDAVServer.python(phone))):
            if "dentist@phone" in o.data:
                o.data = o.data.replace("SUMMARY:Dentist", "SUMMARY:Dentist (moved)").replace("20301202T150000", "20301203T160000")
                o.save()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let moved = try #require(try world.session.list().first { ($0["title"] as? String)?.hasPrefix("Dentist") == true })
        #expect(moved["title"] as? String == "Dentist (moved)")
        #expect(moved["next"] as? String == "2030-12-03T15:30:00+09:00")
        // Deleted on the phone: gone here.
        try world.server.phone("""
        for o in objects(\(CalDAVServer.python(phone))):
            if "rent@tasks.org" in o.data:
                o.delete()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Dentist (moved)"])
        // A sync with nothing changed changes nothing.
        let quiet = try world.session.nudge("sync", "now")
        #expect(quiet.stdout.contains("0 fetched, 0 changed here, 0 removed here, 0 sent"), "\(quiet.stdout)")
    }

    /// A weekly meeting as a phone's calendar writes one: one occurrence moved (its own
    /// DTSTART and alarm), one cancelled, an extra date (RDATE), one day left out (EXDATE).
    static let meeting = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Phone//EN
    BEGIN:VEVENT
    UID:meeting@phone
    DTSTAMP:20261120T100000Z
    DTSTART;TZID=Europe/Berlin:20301202T100000
    DTEND;TZID=Europe/Berlin:20301202T110000
    RRULE:FREQ=WEEKLY
    RDATE;TZID=Europe/Berlin:20301227T170000
    EXDATE;TZID=Europe/Berlin:20301223T100000
    SUMMARY:Team meeting
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-PT15M
    DESCRIPTION:Team meeting
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:meeting@phone
    DTSTAMP:20261120T100000Z
    RECURRENCE-ID;TZID=Europe/Berlin:20301209T100000
    DTSTART;TZID=Europe/Berlin:20301210T140000
    DTEND;TZID=Europe/Berlin:20301210T150000
    SUMMARY:Team meeting (moved)
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-PT30M
    DESCRIPTION:Team meeting
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:meeting@phone
    DTSTAMP:20261120T100000Z
    RECURRENCE-ID;TZID=Europe/Berlin:20301216T100000
    DTSTART;TZID=Europe/Berlin:20301216T100000
    STATUS:CANCELLED
    SUMMARY:Team meeting
    END:VEVENT
    END:VCALENDAR
    """

    @Test("a moved or cancelled occurrence and an extra date ring here as the phone shows them")
    func changedOccurrencesRingWhereThePhoneShowsThem() throws {
        let world = try Self.world(.radicale, own: false)
        let phone = world.phone!
        try world.server.phone("calendar(\(CalDAVServer.python(phone))).save_event(\(CalDAVServer.python(Self.meeting)))")
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.status == 0 && synced.stderr.isEmpty, "\(synced.stderr)")
        func times() throws -> [String] {
            let id = try #require(try world.session.list().first { $0["title"] as? String == "Team meeting" }?["shortId"] as? String)
            let out = try world.session.nudge("next", id, "--after", "2030-12-01T00:00:00Z", "--count", "6", "--json")
            #expect(out.status == 0, "\(out.stderr)")
            return ((try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: String]]) ?? []).compactMap { $0["utc"] }
        }
        // 09:45 in Berlin (08:45Z) each Monday; the 9th moved to the 10th at 14:00 with its
        // alarm 30 minutes before; the 16th cancelled; the 23rd left out; the 27th added.
        #expect(try times() == ["2030-12-02T08:45:00Z", "2030-12-10T12:30:00Z", "2030-12-27T15:45:00Z", "2030-12-30T08:45:00Z",
                                "2031-01-06T08:45:00Z", "2031-01-13T08:45:00Z"])
        // The phone moves another occurrence: here within one sync.
        try world.server.phone("""
        for o in objects(\(CalDAVServer.python(phone))):
            if "meeting@phone" in o.data:
                extra = "BEGIN:VEVENT\\r\\nUID:meeting@phone\\r\\nDTSTAMP:20261121T100000Z\\r\\nRECURRENCE-ID;TZID=Europe/Berlin:20301230T100000\\r\\nDTSTART;TZID=Europe/Berlin:20301230T080000\\r\\nSUMMARY:Team meeting\\r\\nBEGIN:VALARM\\r\\nACTION:DISPLAY\\r\\nTRIGGER:-PT15M\\r\\nDESCRIPTION:x\\r\\nEND:VALARM\\r\\nEND:VEVENT\\r\\n"
                o.data = o.data.replace("END:VCALENDAR", extra + "END:VCALENDAR")
                o.save()
        """)
        let again = try world.session.nudge("sync", "now")
        #expect(again.status == 0 && again.stderr.isEmpty && again.stdout.contains("1 changed here"), "\(again.stdout)\(again.stderr)")
        #expect(try times() == ["2030-12-02T08:45:00Z", "2030-12-10T12:30:00Z", "2030-12-27T15:45:00Z", "2030-12-30T06:45:00Z",
                                "2031-01-06T08:45:00Z", "2031-01-13T08:45:00Z"])
    }

    @Test("Nudge's reminders go to the server and come back as the phone changed them", arguments: CalDAVServer.Kind.allCases)
    func nudgesRemindersGoThere(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind)
        let id = try world.session.nudge("add", "Tea", "--every", "2h").stdout.split(separator: " ")[1].dropLast()
        #expect(try world.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(world.own)
        let seen = try world.server.phone("for o in objects(\(own)): print(o.data)")
        #expect(seen.contains("SUMMARY:Tea") && seen.contains("BEGIN:VALARM") && seen.contains("RRULE:FREQ=HOURLY;INTERVAL=2"), "\(seen)")
        // The phone adds what Nudge does not know; Nudge's next edit keeps it.
        try world.server.phone("""
        for o in objects(\(own)):
            o.data = o.data.replace("END:VEVENT", "CATEGORIES:Drinks\\r\\nX-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Home:geo:37.5,127.0\\r\\nEND:VEVENT")
            o.save()
        """)
        // As the server keeps them (it may write a value its own way: Radicale escapes the comma).
        let unknown = try world.server.phone("for o in objects(\(own)): print(o.data)").split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("X-APPLE-") || $0.hasPrefix("CATEGORIES") }
        #expect(unknown.count == 2)
        #expect(try world.session.nudge("edit", String(id), "--title", "Green tea").status == 0)
        let edited = try world.session.nudge("sync", "now")
        #expect(edited.status == 0 && edited.stderr.isEmpty, "\(edited.stderr)")
        let after = try world.server.phone("for o in objects(\(own)): print(o.data)")
        #expect(after.contains("SUMMARY:Green tea"), "\(after)")
        for line in unknown { #expect(after.split(whereSeparator: \.isNewline).contains(line), "\(line) kept byte for byte") }
        // Switched off here: the alarm is removed there; the event stays.
        #expect(try world.session.nudge("off", String(id)).status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let off = try world.server.phone("for o in objects(\(own)): print(o.data)")
        #expect(!off.contains("BEGIN:VALARM") && off.contains("SUMMARY:Green tea"), "\(off)")
        // Renamed on the phone: the title here follows.
        try world.server.phone("""
        for o in objects(\(own)):
            o.data = o.data.replace("SUMMARY:Green tea", "SUMMARY:Oolong")
            o.save()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Oolong"])
        // Removed here: removed there.
        #expect(try world.session.nudge("rm", String(id)).status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.server.phone("print(len(objects(\(own))))").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("both sides changing one title keeps the server's and says so", arguments: [CalDAVServer.Kind.radicale])
    func aConflictIsKeptAndShown(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, follow: false)
        let id = try world.session.nudge("add", "Tea", "--every", "2h").stdout.split(separator: " ")[1].dropLast()
        #expect(try world.session.nudge("sync", "now").status == 0)
        try world.server.phone("""
        for o in objects(\(CalDAVServer.python(world.own))):
            o.data = o.data.replace("SUMMARY:Tea", "SUMMARY:Phone tea")
            o.save()
        """)
        #expect(try world.session.nudge("edit", String(id), "--title", "Desk tea", "--snooze", "5m").status == 0)
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.stdout.contains("1 conflicts"), "\(synced.stdout)")
        #expect(try world.session.titles() == ["Phone tea"])
        let status = try world.session.nudge("sync", "status")
        #expect(status.stdout.contains("1 conflicts kept"), "\(status.stdout)")
        #expect(status.stdout.contains("SUMMARY"), "\(status.stdout)")
        // What only one side changed is kept: our snooze went there.
        let there = try world.server.phone("for o in objects(\(CalDAVServer.python(world.own))): print(o.data)")
        #expect(there.contains("X-NUDGE-SNOOZE:300"), "\(there)")
        #expect(try world.session.nudge("sync", "now").stdout.contains("0 sent"))
        // Kept, ours with it, until dismissed: another change on the phone after it does not
        // drop it (a hostile pass: an unrelated LOCATION written there lost "Desk tea").
        #expect(try world.session.nudge("sync", "status").stdout.contains("1 conflicts kept"))
        try world.server.phone("""
        for o in objects(\(CalDAVServer.python(world.own))):
            o.data = o.data.replace("SUMMARY:Phone tea", "SUMMARY:Phone tea\\r\\nLOCATION:Home")
            o.save()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.nudge("sync", "status").stdout.contains("1 conflicts kept"))
        let listed = try world.session.nudge("sync", "conflict")
        let uid = try #require(listed.stdout.split(separator: "\t").first.map(String.init), "\(listed.stdout)")
        let saved = try world.session.nudge("sync", "conflict", uid)
        #expect(saved.status == 0 && saved.stdout.contains("SUMMARY:Desk tea") && saved.stdout.hasPrefix("BEGIN:VCALENDAR"), "\(saved.stdout)")
        #expect(saved.stderr.contains("SUMMARY"), "\(saved.stderr)")
        #expect(try world.session.nudge("sync", "conflict", uid, "--dismiss").status == 0)
        #expect(try world.session.nudge("sync", "status").stdout.contains("0 conflicts kept"))
        let none = try world.session.nudge("sync", "conflict", uid)
        #expect(none.status == 64 && none.stderr.contains("no conflict kept"), "\(none.stderr)")
    }

    /// Deleted and written again under another name by another client (DAVx5 may do so):
    /// followed to its new address, and an edit here is written there (a hostile pass: every
    /// write went to the old address, 409, for ever).
    @Test("an object moved to another address is written there", arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func anObjectMovedToAnotherAddressIsWrittenThere(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, follow: false)
        let id = try world.session.nudge("add", "Moving", "--at", "13:13").stdout.split(separator: " ")[1].dropLast()
        #expect(try world.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(world.own)
        try world.server.phone("""
        cal = calendar(\(own))
        for o in objects(\(own)):
            data = o.data
            o.delete()
            client.put(str(cal.url).rstrip("/") + "/moved-by-davx5.ics", data, {"Content-Type": "text/calendar"})
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.nudge("edit", String(id), "--title", "Moved and edited").status == 0)
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
        let there = try world.server.phone("for o in objects(\(own)): print(str(o.url)); print(o.data)")
        #expect(there.contains("moved-by-davx5.ics") && there.contains("SUMMARY:Moved and edited"), "\(there)")
        #expect(there.components(separatedBy: "BEGIN:VEVENT").count == 2, "one object: \(there)")
        #expect(try world.session.nudge("sync", "status").stdout.contains("0 waiting"))
    }

    /// The phone moves Nudge's alarm (TRIGGER:PT0S to -PT10M): the reminder here rings
    /// 10 minutes earlier, and the object there is written back with one alarm of Nudge's at
    /// that time (a hostile pass: here it stayed at 12:00, and the phone rang at 11:50 and
    /// again at 12:00 beside Nudge's alarm written again).
    @Test("an alarm moved on the phone moves the reminder", arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func anAlarmMovedOnThePhoneMovesTheReminder(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, follow: false)
        _ = try world.session.nudge("add", "Lunch pills", "--at", "12:00")
        #expect(try world.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(world.own)
        try world.server.phone("""
        import re
        for o in objects(\(own)):
            o.data = re.sub(r"TRIGGER[^:\\r\\n]*:[^\\r\\n]*", "TRIGGER:-PT10M", o.data)
            o.save()
        """)
        let moved = try world.session.nudge("sync", "now", "--verbose")
        #expect(moved.status == 0)
        let schedules = try world.session.list().map { "\($0["schedule"] ?? "")" }
        // (With the day it starts from where that is still ahead.)
        #expect(schedules.count == 1 && schedules[0].hasPrefix("daily at 11:50"), "\(schedules) \(moved.stdout) \(moved.stderr)")
        #expect(try world.session.nudge("sync", "now").status == 0)
        let there = try world.server.phone("for o in objects(\(own)): print(o.data)")
        #expect(!there.contains("-PT10M") && !there.contains("X-NUDGE-MOVED"), "\(there)")
        #expect(there.components(separatedBy: "BEGIN:VALARM").count == 3, "Nudge's display and audio alarms, once: \(there)")
        #expect(there.contains("BYHOUR=11") && there.contains("BYMINUTE=50"), "\(there)")
        let quiet = try world.session.nudge("sync", "now")
        #expect(quiet.stdout.contains("0 changed here, 0 removed here, 0 sent"), "\(quiet.stdout)")
    }

    /// A reminder written as two objects (its times grouped by minute): one part deleted on
    /// the phone leaves the other's times, written to the part that is left; one part's
    /// times changed there are taken beside the other's (a hostile pass: the deleted part
    /// came back as a copy of the other, and the phone rang twice; a changed part's times
    /// replaced the whole reminder's).
    @Test("one part of a reminder of two objects, deleted or changed on the phone", arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func onePartOfAReminderOfTwoObjects(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, follow: false)
        _ = try world.session.nudge("add", "Split", "--every", "30m", "--from", "13:30", "--until", "15:00")
        _ = try world.session.nudge("add", "Other", "--every", "30m", "--from", "09:30", "--until", "11:00")
        _ = try world.session.nudge("add", "Third", "--every", "30m", "--from", "17:30", "--until", "19:00")
        #expect(try world.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(world.own)
        func there() throws -> [String] {
            try world.server.phone("for o in objects(\(own)): print([l for l in o.data.splitlines() if l.startswith('RRULE') or l.startswith('UID')])")
                .split(separator: "\n").map(String.init).sorted()
        }
        let first = try there()
        #expect(first.count == 6, "\(first)")
        // Third's second part (its :30 times) deleted on the phone: it stays deleted, and the
        // reminder here keeps the :00 times.
        try world.server.phone("""
        for o in objects(\(own)):
            if "SUMMARY:Third" in o.data and "X-NUDGE-SCHEDULE" not in o.data:
                o.delete()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let third = try world.session.list().filter { ($0["title"] as? String) == "Third" }.map { "\($0["schedule"] ?? "")" }
        #expect(third.count == 1 && third[0].hasPrefix("daily at 18:00, 19:00"), "\(third)")
        let afterThird = try there()
        #expect(afterThird.count == 5, "the part deleted there stays deleted: \(afterThird)")
        // The first part of Split (its :00 times, 14:00 and 15:00) deleted on the phone.
        try world.server.phone("""
        for o in objects(\(own)):
            if "SUMMARY:Split" in o.data and "X-NUDGE-SCHEDULE" in o.data:
                o.delete()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let split = try world.session.list().filter { ($0["title"] as? String) == "Split" }.map { "\($0["schedule"] ?? "")" }
        // (With the day it starts from where that is still ahead: the part's own DTSTART.)
        #expect(split.count == 1 && split[0].hasPrefix("daily at 13:30, 14:30"), "\(split)")
        let left = try there()
        #expect(left.count == 4, "the part left is written, no copy beside it: \(left)")
        // Other's first part's times moved on the phone (BYHOUR 10,11 to 16,17): both parts' times here.
        try world.server.phone("""
        import re
        for o in objects(\(own)):
            if "SUMMARY:Other" in o.data and "X-NUDGE-SCHEDULE" in o.data:
                o.data = re.sub(r"BYHOUR=10,11", "BYHOUR=16,17", o.data)
                o.save()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let other = try world.session.list().filter { ($0["title"] as? String) == "Other" }.map { "\($0["schedule"] ?? "")" }
        #expect(other.count == 1 && other[0].hasPrefix("daily at 09:30, 10:30, 16:00, 17:00"), "\(other)")
        #expect(try world.session.nudge("sync", "now").status == 0)
        let moved = try there()
        #expect(moved.count == 4, "\(moved)")
        let quiet = try world.session.nudge("sync", "now")
        #expect(quiet.stdout.contains("0 changed here, 0 removed here, 0 sent"), "\(quiet.stdout)")
    }

    /// A reminder of three objects: its first deleted on the phone leaves the other two, no
    /// copy; another part's times changed there are taken; edited here to one time, its other
    /// parts go there (a hostile pass: a time doubled and the deleted part came back; the
    /// phone's edit of the second part was written over; the old parts stayed, ringing).
    @Test("a reminder of three objects, changed on either side", arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func aReminderOfThreeObjects(_ kind: CalDAVServer.Kind) throws {
        let world = try Self.world(kind, follow: false)
        let tri = try world.session.nudge("add", "Tri", "--every", "20m", "--from", "20:00", "--until", "21:00").stdout.split(separator: " ")[1].dropLast()
        #expect(try world.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(world.own)
        func rules() throws -> [String] {
            try world.server.phone("""
            for o in objects(\(own)):
                print([l for l in o.data.splitlines() if l.startswith('RRULE')][0])
            """).split(separator: "\n").map(String.init).sorted()
        }
        #expect(try rules().count == 3)
        try world.server.phone("""
        for o in objects(\(own)):
            if "X-NUDGE-SCHEDULE" in o.data:
                o.delete()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let left = try rules()
        #expect(left.count == 2 && Set(left).count == 2, "two parts, none alike: \(left)")
        let read = try world.session.list().map { "\($0["schedule"] ?? "")" }
        #expect(read.count == 1 && read[0].hasPrefix("daily at 20:20, 20:40"), "\(read)")
        // The :40 part's times moved on the phone to :45: taken here, kept there.
        try world.server.phone("""
        import re
        for o in objects(\(own)):
            if "BYMINUTE=40" in o.data:
                o.data = o.data.replace("BYMINUTE=40", "BYMINUTE=45").replace("T204000", "T204500")
                o.save()
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let moved = try world.session.list().map { "\($0["schedule"] ?? "")" }
        #expect(moved.count == 1 && moved[0].hasPrefix("daily at 20:20, 20:45"), "\(moved)")
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try rules().contains { $0.contains("BYMINUTE=45") }, "the phone's edit stays")
        // Edited here to one time: one object left.
        #expect(try world.session.nudge("edit", String(tri), "--at", "20:15").status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let one = try rules()
        #expect(one.count == 1 && one[0].contains("BYMINUTE=15"), "\(one)")
        let quiet = try world.session.nudge("sync", "now")
        #expect(quiet.stdout.contains("0 changed here, 0 removed here, 0 sent"), "\(quiet.stdout)")
    }

    @Test func aServerThatIsDownIsSaidAndNothingIsLost() throws {
        let world = try Self.world(.radicale, follow: false)
        _ = try world.session.nudge("add", "Tea", "--every", "2h")
        world.server.kill()
        let down = try world.session.nudge("sync", "now")
        #expect(down.status == 69)
        #expect(down.stderr.contains("cannot be reached"), "\(down.stderr)")
        let status = try world.session.nudge("sync", "status")
        #expect(status.stdout.contains("1 waiting to be sent"), "\(status.stdout)")
        #expect(status.stdout.contains("last error: the server cannot be reached"), "\(status.stdout)")
        let doctor = try world.session.nudge("doctor").stdout
        #expect(doctor.contains("warn calendar sync: ann @ ") && doctor.contains("did not sync: the server cannot be reached"), "\(doctor)")
        try world.server.start()
        let back = try world.session.nudge("sync", "now")
        #expect(back.status == 0 && back.stdout.contains("1 sent"), "\(back.stdout) \(back.stderr)")
        #expect(try world.session.nudge("sync", "status").stdout.contains("0 waiting to be sent"))
    }

    @Test func theDaemonSyncsByItselfOnStartAndAfterAChange() throws {
        let world = try Self.world(.radicale)
        let phone = CalDAVServer.python(world.phone!)
        try world.server.phone("calendar(\(phone)).save_event(\(CalDAVServer.python(Self.dentist)))")
        let daemon = try Bench.start(["daemon"], environment: world.session.environment([:]))
        defer { _ = daemon.stop() }
        // A few seconds after it starts, the phone's event is a reminder here.
        #expect(Bench.eventually(30) { ((try? world.session.titles()) ?? []).contains("Dentist") }, "\(daemon.stderrSoFar)")
        // A few seconds after a change here, it is on the server.
        _ = try world.session.nudge("add", "Tea", "--every", "2h")
        let own = CalDAVServer.python(world.own)
        #expect(Bench.eventually(30) { ((try? world.server.phone("for o in objects(\(own)): print(o.data)")) ?? "").contains("SUMMARY:Tea") },
                "\(daemon.stderrSoFar)")
        // Its own writes start no sync of their own: one run per cause (and at most one
        // more that finds nothing), then quiet until the 15-minute timer.
        #expect(Bench.eventually(20) { (try? world.session.nudge("sync", "status", "--json").stdout.contains("\"waiting\":0")) == true })
        func lastSynced() throws -> [String] {
            try world.session.nudge("sync", "status", "--json").stdout.split(separator: ",").filter { $0.contains("lastSynced") }.map(String.init)
        }
        _ = Bench.eventually(15) { false }
        let settled = try lastSynced()
        _ = Bench.eventually(12) { false }
        #expect(try lastSynced() == settled, "the daemon went on syncing: \(daemon.stderrSoFar)")
    }

    /// A sync that finds nothing changed on either side reads nothing more (the figures'
    /// quick sync), yet what changes the objects without changing a reminder still goes:
    /// the zone the reminders are written in, and a Done here.
    @Test func aQuietSyncStillSendsWhatTheZoneAndAnAnswerChanged() throws {
        let world = try Self.world(.radicale, follow: false)
        _ = try world.session.nudge("add", "Call", "2030-12-02 15:00")
        let id = try #require(try world.session.list().first?["id"] as? String)
        func sync(_ zone: String = "Asia/Seoul") throws -> String {
            let done = try world.session.nudge(["sync", "now"], environment: ["TZ": zone])
            #expect(done.status == 0, "\(done.stderr)")
            return done.stdout
        }
        #expect(try sync().contains("1 sent"))
        #expect(try sync().contains("0 fetched, 0 changed here, 0 removed here, 0 sent"))
        let own = CalDAVServer.python(world.own)
        func object() -> String { (try? world.server.phone("for o in objects(\(own)): print(o.data)")) ?? "" }
        #expect(object().contains("DTSTART:20301202T150000"), "\(object())")
        // Moved to Berlin: the one-shot is written in the zone's time there (an instant, as
        // the export writes it).
        #expect(try sync("Europe/Berlin").contains("1 sent"))
        #expect(object().contains("DTSTART:20301202T070000"), "\(object())")
        #expect(try sync("Europe/Berlin").contains("0 sent"))
        // Done here: the alarm is acknowledged there.
        #expect(try world.session.nudge(["done", id], environment: ["TZ": "Europe/Berlin"]).status == 0)
        #expect(try sync("Europe/Berlin").contains("1 sent"))
        #expect(object().contains("ACKNOWLEDGED:"), "\(object())")
    }

    /// A calendar made on the server after the account was added is found when named (found
    /// by a hostile pass: it could never be chosen); a name no calendar has is still refused.
    @Test func aCalendarMadeSinceIsFoundWhenNamed() throws {
        let world = try Self.world(.radicale)
        try world.server.makeCalendar("Home")
        let chosen = try world.session.nudge("sync", "choose", "--follow", "Home")
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("Home (events, tasks): its alarms pop up here"), "\(chosen.stdout)")
        let wrong = try world.session.nudge("sync", "choose", "--follow", "Holiday")
        #expect(wrong.status == 64 && wrong.stderr.contains("no calendar 'Holiday' in the account (it has 'Home', 'Phone', 'Reminders')"),
                "\(wrong.stderr)")
    }

    /// The daemon's `nudge-sync serve` children (pids).
    static func syncProcesses(of daemon: Int32) -> [Int32] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // pid (comm) state ppid …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == daemon,
                  let line = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8) else { return false }
            return line.split(separator: "\0").dropFirst().first == "serve"
        }
    }

    /// The daemon's syncs are one process that stays (a sync does not pay a process's
    /// start), started again when it was killed, let go with the last account, and gone
    /// with the daemon.
    @Test func theDaemonsSyncProcessStaysAndGoesWithTheLastAccount() throws {
        let world = try Self.world(.radicale)
        let own = CalDAVServer.python(world.own)
        func onServer(_ title: String) -> Bool {
            ((try? world.server.phone("for o in objects(\(own)): print(o.data)")) ?? "").contains("SUMMARY:" + title)
        }
        let daemon = try Bench.start(["daemon"], environment: world.session.environment([:]))
        defer { _ = daemon.stop() }
        _ = try world.session.nudge("add", "Tea", "--every", "2h")
        #expect(Bench.eventually(30) { onServer("Tea") }, "\(daemon.stderrSoFar)")
        let first = Self.syncProcesses(of: daemon.pid)
        #expect(first.count == 1, "\(first)")
        _ = try world.session.nudge("add", "Stretch", "--every", "3h")
        #expect(Bench.eventually(30) { onServer("Stretch") }, "\(daemon.stderrSoFar)")
        #expect(Self.syncProcesses(of: daemon.pid) == first, "the same process synced again")
        // Killed: the next sync starts another.
        if let pid = first.first { kill(pid, SIGKILL) }
        _ = try world.session.nudge("add", "Walk", "--every", "4h")
        #expect(Bench.eventually(30) { onServer("Walk") }, "\(daemon.stderrSoFar)")
        let second = Self.syncProcesses(of: daemon.pid)
        #expect(second.count == 1 && second != first, "\(first) \(second)")
        // The last account removed: the process goes.
        #expect(try world.session.nudge("sync", "remove", world.account).status == 0)
        #expect(Bench.eventually(10) { Self.syncProcesses(of: daemon.pid).isEmpty }, "\(daemon.stderrSoFar)")
        // Added again and synced: one again, which ends with the daemon.
        let added = try world.session.nudge(["sync", "add", world.server.url, "--user", world.server.user ?? "", "--password-stdin", "--own", world.own],
                                            input: world.server.password)
        #expect(added.status == 0, "\(added.stderr)")
        _ = try world.session.nudge("add", "Read", "--every", "5h")
        #expect(Bench.eventually(30) { onServer("Read") }, "\(daemon.stderrSoFar)")
        let third = Self.syncProcesses(of: daemon.pid)
        #expect(third.count == 1, "\(third)")
        _ = daemon.stop()
        // Gone, or a zombie that is no longer the daemon's to reap.
        func alive(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
        }
        #expect(Bench.eventually(10) { !third.contains(where: alive) }, "the sync process outlived the daemon")
    }

    @Test func anObjectInAFollowedCalendarNeverTakesOverNudgesOwnReminder() throws {
        let world = try Self.world(.radicale)
        let id = try world.session.list().first?["id"] as? String ?? ""
        _ = try world.session.nudge("add", "Tea", "--every", "2h")
        #expect(try world.session.nudge("sync", "now").status == 0)
        let tea = try #require(try world.session.list().first { $0["title"] as? String == "Tea" }?["id"] as? String)
        _ = id
        let dashed = String(tea.prefix(8)) + "-" + tea.dropFirst(8).prefix(4) + "-" + tea.dropFirst(12).prefix(4) + "-" + tea.dropFirst(16).prefix(4) + "-" + tea.dropFirst(20)
        let impostor = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Phone//EN
        BEGIN:VEVENT
        UID:impostor@phone
        DTSTAMP:20261128T000000Z
        DTSTART:20301212T100000Z
        SUMMARY:Impostor
        X-NUDGE-ID:\(dashed)
        X-NUDGE-SCHEDULE:every 60 0 127
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:PT0S
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """
        try world.server.phone("calendar(\(CalDAVServer.python(world.phone!))).save_event(\(CalDAVServer.python(impostor)))")
        for _ in 0..<2 { #expect(try world.session.nudge("sync", "now").status == 0) }
        let list = try world.session.list()
        let mine = try #require(list.first { $0["id"] as? String == tea })
        #expect(mine["title"] as? String == "Tea" && mine["calendar"] == nil, "\(mine)")
        #expect(list.contains { $0["title"] as? String == "Impostor" && $0["calendar"] as? String == world.phone })
        let own = try world.server.phone("for o in objects(\(CalDAVServer.python(world.own))): print(o.data)")
        #expect(own.contains("SUMMARY:Tea"), "Nudge's reminder is still on the server: \(own)")
    }

    @Test func aSecondComputerReadsEveryReminderAsTheFirstWroteIt() throws {
        let first = try Self.world(.radicale, follow: false)
        for arguments in [["Pills", "--at", "08:00", "--at", "20:30", "--days", "mon-fri"],
                          ["Stand", "--every", "45m", "--after-done", "--from", "09:30", "--until", "21:30", "--days", "weekdays"],
                          ["Water", "every 30 minutes from 9:30 to 21:30 on weekdays"]] {
            #expect(try first.session.nudge(["add"] + arguments).status == 0)
        }
        #expect(try first.session.nudge("sync", "now").status == 0)
        let second = try KeyringSession()
        let added = try second.nudge(["sync", "add", first.server.url, "--user", "ann", "--password-stdin", "--own", first.own], input: first.server.password)
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        #expect(added.stdout.contains(" 0 sent"), "\(added.stdout)")
        func schedules(_ session: KeyringSession) throws -> [String] {
            try session.list().map { "\($0["title"] ?? "") \($0["schedule"] ?? "") \($0["enabled"] ?? "")" }.sorted()
        }
        #expect(try schedules(second) == schedules(first.session))
        let again = try first.session.nudge("sync", "now")
        #expect(again.stdout.contains("0 changed here, 0 removed here, 0 sent"), "\(again.stdout)")
        // A title changed on another part of a reminder of several objects is taken.
        try first.server.phone("""
        for o in objects(\(CalDAVServer.python(first.own))):
            if "X-NUDGE-PART:2/" in o.data and "SUMMARY:Pills" in o.data:
                o.data = o.data.replace("SUMMARY:Pills", "SUMMARY:Pills evening")
                o.save()
        """)
        #expect(try first.session.nudge("sync", "now").status == 0)
        #expect(try first.session.titles().contains("Pills evening"))
    }

    /// A second desktop that follows the first's calendar (its own reminders go to another):
    /// nothing of the first's is deleted there, each reminder of the first is one reminder
    /// here, however many objects it is, and the first keeps all of its own (a hostile pass:
    /// the second deleted every one of them from the server, the first then lost them all).
    @Test func aSecondDesktopFollowingTheFirstsCalendarTouchesNothingThere() throws {
        let first = try Self.world(.radicale, follow: false)
        #expect(try first.session.nudge("add", "Tea", "--at", "09:00").status == 0)
        #expect(try first.session.nudge("add", "Stretch", "--every", "30m", "--from", "13:30", "--until", "15:00").status == 0)
        #expect(try first.session.nudge("sync", "now").status == 0)
        let own = CalDAVServer.python(first.own)
        func objects() throws -> [String] {
            try first.server.phone("for o in objects(\(own)): print(str(o.url).rsplit('/', 1)[-1])").split(separator: "\n").map(String.init).sorted()
        }
        let before = try objects()
        #expect(before.count == 3, "\(before)")
        let second = try KeyringSession()
        let added = try second.nudge(["sync", "add", first.server.url, "--user", "ann", "--password-stdin", "--own", "Phone", "--follow", first.own],
                                     input: first.server.password)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(!added.stdout.contains("removed there") || added.stdout.contains("0 removed there"), "\(added.stdout)")
        #expect(try second.nudge("sync", "now").status == 0)
        #expect(try objects() == before, "the followed calendar is as the first left it")
        let followed = try second.list().map { "\($0["title"] ?? "")" }.sorted()
        #expect(followed == ["Stretch", "Tea"], "one reminder each: \(followed)")
        let again = try first.session.nudge("sync", "now")
        #expect(again.stdout.contains("0 removed here"), "\(again.stdout)")
        #expect(try first.session.titles() == ["Stretch", "Tea"])
    }

    @Test func theSameAccountAddedTwiceIsOneAndItsRemovalTakesThePassword() throws {
        let server = try CalDAVServer(.radicale)
        try server.makeCalendar("Reminders")
        let session = try KeyringSession()
        // The server's root and the user's own folder lead to the same principal: one account.
        for address in [server.url, server.url + "ann/"] {
            let added = try session.nudge(["sync", "add", address, "--user", "ann", "--password-stdin"], input: server.password)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let ids = try session.nudge("sync", "status", "--json").stdout.components(separatedBy: "\"id\":\"").dropFirst().map { String($0.prefix(8)) }
        #expect(ids.count == 1)
        #expect(try session.nudge("sync", "remove", ids[0]).status == 0)
        #expect(session.secretTool(["search", "--all", "application", "io.github.nudge.Nudge"]).stdout.isEmpty)
    }

    @Test("Done, a snooze and a completed task here reach the phone as RFC 9074 and Thunderbird write them")
    func answersHereReachThePhone() throws {
        let world = try Self.world(.radicale, own: false)
        let phone = CalDAVServer.python(world.phone!)
        try world.server.phone("""
        calendar(\(phone)).save_event(\(CalDAVServer.python(Self.dentist)))
        calendar(\(phone)).save_todo(\(CalDAVServer.python(Self.task)))
        """)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let list = try world.session.list()
        let dentist = try #require(list.first { $0["title"] as? String == "Dentist" }?["id"] as? String)
        let rent = try #require(list.first { $0["title"] as? String == "Pay the rent" }?["id"] as? String)
        #expect(try world.session.nudge("done", dentist).status == 0)
        #expect(try world.session.nudge("snooze", rent, "10m").status == 0)
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.status == 0 && synced.stdout.contains("2 sent"), "\(synced.stdout)\(synced.stderr)")
        // What the phone reads, parsed by its own library (python-caldav's icalendar).
        let read = try world.server.phone("""
        for o in sorted(objects(\(phone)), key=lambda o: str(o.url)):
            for item in o.icalendar_instance.walk():
                if item.name in ("VEVENT", "VTODO"):
                    print(item.name, "lastack" if item.get("X-MOZ-LASTACK") else "-", "snoozetime" if item.get("X-MOZ-SNOOZE-TIME") else "-",
                          "categories" if item.get("CATEGORIES") else "-")
                if item.name == "VALARM":
                    print(" alarm", "acknowledged" if item.get("ACKNOWLEDGED") else "-", "uid" if item.get("UID") else "-",
                          "snooze-of=" + str(item.get("RELATED-TO")) if item.get("RELATED-TO") else "-")
        """)
        #expect(read == """
        VEVENT lastack - categories
         alarm acknowledged - -
        VTODO lastack snoozetime -
         alarm acknowledged uid -
         alarm - uid snooze-of=rent@tasks.org#alarm

        """, "\(read)")
        // Synced again: nothing more to write, nothing taken back as a change.
        let quiet = try world.session.nudge("sync", "now")
        #expect(quiet.stdout.contains("0 fetched, 0 changed here, 0 removed here, 0 sent"), "\(quiet.stdout)")
        #expect(try world.session.titles() == ["Dentist", "Pay the rent"], "the snooze alarm is no reminder of its own")
        // Done on the task, with complete-tasks on: completed there, over here.
        #expect(try world.session.nudge("sync", "status").stdout.contains("leaves the task open"))
        #expect(try world.session.nudge("config", "complete-tasks", "on").status == 0)
        #expect(try world.session.nudge("sync", "status").stdout.contains("completes the task"))
        #expect(try world.session.nudge("done", rent).status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        let task = try world.server.phone("""
        for o in objects(\(phone)):
            if "rent@tasks.org" in o.data:
                t = o.icalendar_component
                print(t.get("STATUS"), t.get("PERCENT-COMPLETE"), "snooze" if "RELTYPE=SNOOZE" in o.data else "no snooze")
        """)
        #expect(task == "COMPLETED 100 no snooze\n", "\(task)")
        #expect(try world.session.titles() == ["Dentist"])
        // Opened again on the phone, which left its COMPLETED time behind (STATUS says it is
        // open): it stays open, and rings here again (the Done here was written once, not
        // again and again).
        try world.server.phone("""
        for o in objects(\(phone)):
            if "rent@tasks.org" in o.data:
                t = o.icalendar_component
                t["STATUS"] = "NEEDS-ACTION"
                t["PERCENT-COMPLETE"] = 0
                o.save()
        """)
        for _ in 0..<2 { #expect(try world.session.nudge("sync", "now").status == 0) }
        #expect(try world.session.titles() == ["Dentist", "Pay the rent"])
        let reopened = try world.server.phone("""
        for o in objects(\(phone)):
            if "rent@tasks.org" in o.data:
                print(o.icalendar_component.get("STATUS"))
        """)
        #expect(reopened == "NEEDS-ACTION\n")
        // Removed here, then only acknowledged on the phone: it does not come back.
        #expect(try world.session.nudge("rm", dentist).status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        try world.server.phone("""
        for o in objects(\(phone)):
            if "dentist@phone" in o.data:
                o.data = o.data.replace("BEGIN:VALARM\\r\\n", "BEGIN:VALARM\\r\\nACKNOWLEDGED:20301202T143500Z\\r\\n", 1).replace("BEGIN:VALARM\\n", "BEGIN:VALARM\\nACKNOWLEDGED:20301202T143500Z\\n", 1)
                o.save()
        """)
        let acked = try world.session.nudge("sync", "now")
        #expect(acked.stdout.contains("1 fetched, 0 changed here"), "\(acked.stdout)")
        #expect(try world.session.titles() == ["Pay the rent"])
    }

    @Test func anAlarmAnsweredOnThePhoneClosesThePopUpHere() throws {
        let server = try CalDAVServer(.xandikos)
        let desktop = try Desktop()
        let added = try desktop.nudge("sync", "add", server.url, "--follow", "calendar")
        #expect(added.status == 0, "\(added.stderr)")
        // An alarm 20 seconds from now: a minute before an event 80 seconds from now.
        let alarm = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 20).rounded(.up))
        let utc = { (instant: Date) in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.string(from: instant)
        }
        try server.phone("""
        calendar("calendar").save_event(\(CalDAVServer.python("""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Phone//EN
        BEGIN:VEVENT
        UID:call@phone
        DTSTAMP:20261128T000000Z
        DTSTART:\(utc(alarm.addingTimeInterval(60)))
        SUMMARY:Call back
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT1M
        DESCRIPTION:Call back
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """)))
        """)
        #expect(try desktop.nudge("sync", "now").status == 0)
        let dashed = try #require(try desktop.list().first { $0["title"] as? String == "Call back" }?["id"] as? String)
        let id = dashed.replacingOccurrences(of: "-", with: "")
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(60) { (try? desktop.events(id))?.contains("fired") == true }, "\(daemon.stderrSoFar)")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 1 })
        // Answered on the phone.
        try server.phone("""
        for o in objects("calendar"):
            if "call@phone" in o.data:
                o.data = o.data.replace("TRIGGER:-PT1M", "TRIGGER:-PT1M\\nACKNOWLEDGED:\(utc(Date()))")
                o.save()
        """)
        #expect(try desktop.nudge("sync", "now").status == 0)
        #expect(Bench.eventually(10) { (try? desktop.events(id))?.last == "answered-elsewhere" }, "\((try? desktop.events(id)) ?? [])")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 0 }, "the pop-up here closed")
        let state = try #require(try desktop.list().first { $0["id"] as? String == dashed }, "kept, as a reminder that happened once is")
        #expect(state["pending"] as? Int == 0, "\(state)")
        // Nothing was written back for it: the answer was the phone's.
        let there = try server.phone("for o in objects('calendar'): print(o.data)")
        #expect(!there.contains("X-MOZ-LASTACK"), "\(there)")
    }


    /// Snoozed on the phone (RFC 9074: the alarm acknowledged, a snooze alarm at its end):
    /// the pop-up here closes, and the reminder rings here again when the snooze ends.
    @Test func anAlarmSnoozedOnThePhoneRingsHereWhenTheSnoozeEnds() throws {
        let server = try CalDAVServer(.xandikos)
        let desktop = try Desktop()
        let added = try desktop.nudge("sync", "add", server.url, "--follow", "calendar")
        #expect(added.status == 0, "\(added.stderr)")
        let alarm = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 15).rounded(.up))
        let utc = { (instant: Date) in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.string(from: instant)
        }
        try server.phone("""
        calendar("calendar").save_event(\(CalDAVServer.python("""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Phone//EN
        BEGIN:VEVENT
        UID:standup@phone
        DTSTAMP:20261128T000000Z
        DTSTART:\(utc(alarm.addingTimeInterval(600)))
        SUMMARY:Stand-up
        BEGIN:VALARM
        UID:standup-alarm
        ACTION:DISPLAY
        TRIGGER:-PT10M
        DESCRIPTION:Stand-up
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """)))
        """)
        #expect(try desktop.nudge("sync", "now").status == 0)
        let dashed = try #require(try desktop.list().first { $0["title"] as? String == "Stand-up" }?["id"] as? String)
        let id = dashed.replacingOccurrences(of: "-", with: "")
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(60) { (try? desktop.events(id))?.contains("fired") == true }, "\(daemon.stderrSoFar)")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 1 })
        // Snoozed on the phone for 10 seconds, as RFC 9074 writes it.
        let until = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 10).rounded(.up))
        try server.phone("""
        for o in objects("calendar"):
            if "standup@phone" in o.data:
                snooze = "BEGIN:VALARM\\nUID:standup-snooze\\nACTION:DISPLAY\\nTRIGGER;VALUE=DATE-TIME:\(utc(until))\\nRELATED-TO;RELTYPE=SNOOZE:standup-alarm\\nDESCRIPTION:Stand-up\\nEND:VALARM\\n"
                data = o.data.replace("\\r\\n", "\\n").replace("TRIGGER:-PT10M", "TRIGGER:-PT10M\\nACKNOWLEDGED:\(utc(Date()))")
                o.data = data.replace("END:VEVENT", snooze + "END:VEVENT")
                o.save()
        """)
        #expect(try desktop.nudge("sync", "now").status == 0)
        #expect(Bench.eventually(10) { (try? desktop.events(id))?.suffix(2) == ["answered-elsewhere", "snoozed"] }, "\((try? desktop.events(id)) ?? [])")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 0 }, "the pop-up here closed")
        let snoozed = try #require(try desktop.list().first { $0["id"] as? String == dashed })
        #expect(snoozed["snoozedUntil"] is String, "\(snoozed)")
        // At the snooze's end it rings here again.
        #expect(Bench.eventually(40) { (try? desktop.events(id))?.last == "snooze-fired" }, "\((try? desktop.events(id)) ?? [])")
        #expect(Bench.eventually(10) { (try? desktop.displayed()) == 1 })
        // Synced again: the phone's snooze is not taken a second time.
        #expect(try desktop.nudge("sync", "now").status == 0)
        #expect(try desktop.events(id).filter { $0 == "snoozed" }.count == 1)
    }

    /// Radicale with the phone's dentist in a followed calendar, synced here: the world, the
    /// calendar's name and its address as the store has it.
    static func followedDentist() throws -> (World, String, String) {
        let world = try Self.world(.radicale, own: false)
        let phone = world.phone!
        try world.server.phone("calendar(\(CalDAVServer.python(phone))).save_event(\(CalDAVServer.python(Self.dentist)))")
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Dentist"])
        let status = try JSONSerialization.jsonObject(with: Data(try world.session.nudge("sync", "status", "--json").stdout.utf8)) as? [String: Any]
        let calendars = ((status?["accounts"] as? [[String: Any]])?.first?["calendars"] as? [[String: Any]]) ?? []
        let url = try #require(calendars.first { $0["name"] as? String == phone }?["url"] as? String)
        return (world, phone, url)
    }

    @Test("a calendar GNOME rings already is left to it, until Nudge is asked to ring it too")
    func aCalendarTheDesktopRingsIsLeftToIt() throws {
        let (world, phone, url) = try Self.followedDentist()
        // GNOME Calendar adds the same calendar: through evolution-data-server's own source
        // registry, on this session's bus, as it does.
        let path = url.replacingOccurrences(of: "http://127.0.0.1:\(world.server.port)", with: "")
        let registry = try Bench.start("/usr/libexec/evolution-source-registry", [], environment: world.session.environment([:]))
        defer { _ = registry.stop() }
        let source = """
        [Data Source]\nDisplayName=Phone (GNOME)\nEnabled=true\nParent=caldav-stub\n\n[Authentication]\nHost=127.0.0.1\nPort=\(world.server.port)\n\
        User=ann\nMethod=plain/password\n\n[Security]\nMethod=none\n\n[WebDAV Backend]\nResourcePath=\(path)\n\n[Calendar]\nBackendName=caldav\n\n\
        [Alarms]\nIncludeMe=true\n
        """
        #expect(Bench.eventually(20) {
            (try? Bench.run("/usr/bin/gdbus", ["call", "--session", "-d", "org.gnome.evolution.dataserver.Sources5", "-o",
                                         "/org/gnome/evolution/dataserver/SourceManager", "-m",
                                         "org.gnome.evolution.dataserver.SourceManager.CreateSources", "{'nudge-test-phone': '\(source)'}"],
                      environment: world.session.environment([:])))?.status == 0
        }, "\(registry.stderrSoFar)")
        #expect(Bench.eventually(10) { FileManager.default.fileExists(atPath: world.session.dir + "/config/evolution/sources/nudge-test-phone.source") })
        // Left to GNOME: its reminders go from here, and every face says so.
        let left = try world.session.nudge("sync", "now")
        #expect(left.status == 0 && left.stdout.contains("Phone: rung by GNOME (evolution-data-server), so not here"), "\(left.stdout)")
        #expect(try world.session.titles().isEmpty)
        #expect(try world.session.nudge("sync", "status").stdout.contains("rung by GNOME (evolution-data-server), so not here"))
        let doctor = try world.session.nudge("doctor").stdout
        #expect(doctor.contains("Phone is rung by GNOME (evolution-data-server), so not by Nudge"), "\(doctor)")
        // Asked to ring it too: back here, and the doctor warns of two pop-ups.
        #expect(try world.session.nudge("sync", "choose", "--ring", phone).status == 0)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Dentist"])
        #expect(try world.session.nudge("doctor").stdout.contains("two pop-ups for one alarm"))
        #expect(try world.session.nudge("sync", "status", "--json").stdout.contains("\"alsoRungBy\":\"GNOME (evolution-data-server)\",\"ringsHere\":true"))
    }


    @Test("a calendar KDE rings already (Akonadi's DAV resource has it) is left to it, unless KDE's reminders are off")
    func aCalendarKDERingsIsLeftToIt() throws {
        let (world, _, url) = try Self.followedDentist()
        // KDE's DAV resource, set up for the same server: Akonadi's list of agents, the
        // resource's map of collections written by Qt's own QDataStream (PyQt5), and KDE's
        // reminder daemon starting with the session.
        let config = world.session.dir + "/config", data = world.session.dir + "/data"
        for folder in [config + "/akonadi", config + "/autostart", data + "/akonadi-davgroupware"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try "[Instances][akonadi_davgroupware_resource_0]\nAgentType=akonadi_davgroupware_resource\n\n[Instances][akonadi_maildir_resource_0]\nAgentType=akonadi_maildir_resource\n"
            .write(toFile: config + "/akonadi/agentsrc", atomically: true, encoding: .utf8)
        let autostart = config + "/autostart/org.kde.kalendarac.desktop"
        try "[Desktop Entry]\nType=Application\nName=KOrganizer Reminder Client\nExec=kalendarac\n".write(toFile: autostart, atomically: true, encoding: .utf8)
        let base = "http://127.0.0.1:\(world.server.port)/"
        let written = try Bench.run("/usr/bin/python3", ["-c", """
        import sys
        from PyQt5.QtCore import QByteArray, QDataStream, QIODevice, QFile
        pairs = [(sys.argv[2], sys.argv[3] + ",CalDav"), (sys.argv[3] + "contacts/", sys.argv[3] + ",CardDav")]
        f = QFile(sys.argv[1]); f.open(QIODevice.WriteOnly)
        out = QDataStream(f); out.setVersion(QDataStream.Qt_5_15)
        out.writeUInt32(len(pairs))
        for key, value in reversed(pairs):
            out.writeQString(key); out.writeQString(value)
        f.close()
        """, data + "/akonadi-davgroupware/akonadi_davgroupware_resource_0_c2u.dat", url, base])
        #expect(written.status == 0, "\(written.stderr)")
        let left = try world.session.nudge("sync", "now")
        #expect(left.status == 0 && left.stdout.contains("Phone: rung by KDE (Akonadi), so not here"), "\(left.stdout)")
        #expect(try world.session.titles().isEmpty)
        #expect(try world.session.nudge("doctor").stdout.contains("Phone is rung by KDE (Akonadi), so not by Nudge"))
        // KDE's reminders switched off for this person (the autostart entry hidden, as KConfig
        // reads a boolean in any case): Nudge rings it.
        try "[Desktop Entry]\nType=Application\nName=KOrganizer Reminder Client\nExec=kalendarac\nHidden=True\n"
            .write(toFile: autostart, atomically: true, encoding: .utf8)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Dentist"])
        // Switched off in its own settings (KDE's autostart condition, false in kalendaracrc),
        // then on again.
        try "[Desktop Entry]\nType=Application\nName=KOrganizer Reminder Client\nExec=kalendarac\nX-KDE-autostart-condition=kalendaracrc:General:Autostart:true\n"
            .write(toFile: autostart, atomically: true, encoding: .utf8)
        try "[General]\nAutostart=false\n".write(toFile: config + "/kalendaracrc", atomically: true, encoding: .utf8)
        #expect(try world.session.nudge("sync", "now").status == 0)
        #expect(try world.session.titles() == ["Dentist"])
        try "[General]\nAutostart=true\n".write(toFile: config + "/kalendaracrc", atomically: true, encoding: .utf8)
        #expect(try world.session.nudge("sync", "now").stdout.contains("Phone: rung by KDE (Akonadi), so not here"))
        #expect(try world.session.titles().isEmpty)
        #expect(try world.session.nudge("sync", "status", "--json").stdout.contains("\"alsoRungBy\":\"KDE (Akonadi)\",\"ringsHere\":false"))
        // The resource removed from Akonadi: its map, left behind, counts for nothing.
        try "[Desktop Entry]\nType=Application\nName=KOrganizer Reminder Client\nExec=kalendarac\n".write(toFile: autostart, atomically: true, encoding: .utf8)
        try "[Instances][akonadi_maildir_resource_0]\nAgentType=akonadi_maildir_resource\n".write(toFile: config + "/akonadi/agentsrc", atomically: true, encoding: .utf8)
        #expect(try world.session.nudge("sync", "now").stdout.contains("Phone: rung by") == false)
        #expect(try world.session.titles() == ["Dentist"])
    }

    @Test("Nudge's reminders moved to another calendar are there once: deleted from the old one")
    func nudgesRemindersMovedToAnotherCalendarAreThereOnce() throws {
        let world = try Self.world(.radicale, follow: false)
        _ = try world.session.nudge(["add", "Tea", "--at", "16:00"], input: "")
        _ = try world.session.nudge(["add", "Stretch", "--every", "2h"], input: "")
        #expect(try world.session.nudge("sync", "now").stdout.contains("2 sent"))
        func summaries(_ calendar: String) throws -> [String] {
            try world.server.phone("for o in objects('\(calendar)'): print([l for l in o.data.splitlines() if l.startswith('SUMMARY')][0])")
                .split(separator: "\n").map(String.init).sorted()
        }
        #expect(try summaries("Reminders") == ["SUMMARY:Stretch", "SUMMARY:Tea"])
        // The phone changed one meanwhile: that one stays there, as the phone left it.
        try world.server.phone("""
        for o in objects('Reminders'):
            if 'SUMMARY:Stretch' in o.data:
                o.data = o.data.replace('SUMMARY:Stretch', 'SUMMARY:Stretch (phone)'); o.save()
        """)
        let chosen = try world.session.nudge("sync", "choose", "--own", "Phone")
        #expect(chosen.status == 0 && chosen.stdout.contains("Nudge's reminders move from Reminders to Phone"), "\(chosen.stdout)\(chosen.stderr)")
        let synced = try world.session.nudge("sync", "now")
        #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
        #expect(synced.stderr.contains("changed on the server since Nudge wrote it"), "\(synced.stderr)")
        #expect(try summaries("Reminders") == ["SUMMARY:Stretch (phone)"])
        #expect(try summaries("Phone") == ["SUMMARY:Stretch", "SUMMARY:Tea"])
        #expect(try world.session.nudge("sync", "now").stdout.contains("0 sent"))
        #expect(try world.session.titles() == ["Stretch", "Tea"])
    }

    @Test("another app's event in Nudge's calendar is never rewritten in Nudge's form")
    func anotherAppsEventInNudgesCalendarStaysAsItWasWritten() throws {
        let server = try CalDAVServer(.xandikos)
        let session = try KeyringSession(keyring: false)
        try server.phone("""
        calendar("calendar").save_event(\(CalDAVServer.python("""
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Phone//EN
        BEGIN:VEVENT
        UID:dentist@phone
        DTSTAMP:20261120T100000Z
        DTSTART:20301130T010000Z
        DTEND:20301130T020000Z
        RRULE:FREQ=DAILY;COUNT=5
        SUMMARY:Dentist
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER:-PT30M
        DESCRIPTION:Dentist
        END:VALARM
        END:VEVENT
        END:VCALENDAR
        """)))
        """)
        let added = try session.nudge("sync", "add", server.url, "--own", "calendar")
        #expect(added.status == 0 && added.stdout.contains("0 sent"), "\(added.stdout)\(added.stderr)")
        func event() throws -> String {
            try server.phone("for o in objects('calendar'): print(o.data.replace('\\r', ''))")
        }
        let untouched = try event()
        #expect(untouched.contains("DTSTART:20301130T010000Z") && untouched.contains("DTEND:20301130T020000Z")
                && untouched.contains("RRULE:FREQ=DAILY;COUNT=5") && !untouched.contains("X-NUDGE"), "\(untouched)")
        #expect(try session.nudge("sync", "now").stdout.contains("0 sent"))
        // Renamed here: the new title goes there, and nothing else changes.
        let id = try #require(try session.list().first { $0["title"] as? String == "Dentist" }?["id"] as? String)
        #expect(try session.nudge("edit", id, "--title", "Dentist (Dr. Kim)").status == 0)
        let renamed = try session.nudge("sync", "now")
        #expect(renamed.stdout.contains("1 sent"), "\(renamed.stdout)")
        let after = try event()
        #expect(after.contains("SUMMARY:Dentist (Dr. Kim)") && after.contains("DTSTART:20301130T010000Z") && after.contains("DTEND:20301130T020000Z")
                && after.contains("RRULE:FREQ=DAILY;COUNT=5"), "\(after)")
        #expect(try session.nudge("sync", "now").stdout.contains("0 sent"))
    }

}

