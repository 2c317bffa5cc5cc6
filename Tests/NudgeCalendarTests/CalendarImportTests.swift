import Foundation
import ICalendar
@testable import NudgeCalendar
import NudgeCore
import Testing

/// Components read as alerts, with fixed instants (none depends on today).
struct CalendarImportTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func outcomes(_ events: [String], now: String) throws -> [CalendarImport.Outcome] {
        let text = "BEGIN:VCALENDAR\r\n" + events.map { "BEGIN:VEVENT\r\n" + $0 + "END:VEVENT\r\n" }.joined() + "END:VCALENDAR\r\n"
        return CalendarImport.alerts(in: try Component.read(text), system: utc, now: instant(now))
    }

    static func alert(_ outcome: CalendarImport.Outcome?) -> Alert? {
        if case .alert(let alert, _, _)? = outcome { return alert }
        return nil
    }

    /// A followed calendar rings what rings on the other devices (a hostile pass: a weekly
    /// meeting and a birthday without alarms popped up here, a day-early e-mail alarm was the
    /// pop-up, and a second alarm never rang).
    @Test func aFollowedCalendarRingsOnlyItsDisplayAndAudioAlarms() throws {
        func read(_ events: [String]) throws -> [CalendarImport.Outcome] {
            let text = "BEGIN:VCALENDAR\r\n" + events.map { "BEGIN:VEVENT\r\n" + $0 + "END:VEVENT\r\n" }.joined() + "END:VCALENDAR\r\n"
            return CalendarImport.alerts(in: try Component.read(text), system: Self.utc, now: Self.instant("2026-12-01T00:00:00Z"), alarmsOnly: true)
        }
        let display = { (trigger: String) in "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\n" }
        let email = "BEGIN:VALARM\r\nACTION:EMAIL\r\nSUMMARY:x\r\nDESCRIPTION:x\r\nATTENDEE:mailto:a@example.org\r\nTRIGGER:-P1D\r\nEND:VALARM\r\n"
        // No alarm: nothing rings, repeating or not.
        for rule in ["RRULE:FREQ=WEEKLY\r\n", "RRULE:FREQ=YEARLY\r\n", ""] {
            let outcomes = try read(["UID:a\r\nSUMMARY:Meeting\r\nDTSTART:20261207T160000Z\r\n" + rule])
            #expect(outcomes.allSatisfy { if case .skipped = $0 { true } else { false } }, "\(rule)")
        }
        // An e-mail alarm first: the display alarm rings, never the e-mail's.
        let mailed = try #require(Self.alert(try read(["UID:b\r\nSUMMARY:Dentist\r\nDTSTART:20261210T100000Z\r\n" + email + display("-PT15M")]).first))
        #expect(mailed.schedule == .once(Self.instant("2026-12-10T09:45:00Z")))
        #expect(try read(["UID:c\r\nSUMMARY:Mail only\r\nDTSTART:20261210T100000Z\r\n" + email]).allSatisfy { if case .skipped = $0 { true } else { false } })
        // Two alarms of a one-shot: both ring.
        let both = try #require(Self.alert(try read(["UID:d\r\nSUMMARY:Flight\r\nDTSTART:20261216T100000Z\r\n" + display("-P1D") + display("-PT15M")]).first))
        #expect(both.schedule.occurrences(after: Self.instant("2026-12-01T00:00:00Z"), count: 3, in: Self.utc)
                == [Self.instant("2026-12-15T10:00:00Z"), Self.instant("2026-12-16T09:45:00Z")])
        // Two alarms of a repeating one on the same days (15 and 5 minutes before): both.
        let weekly = try #require(Self.alert(try read(["UID:g\r\nSUMMARY:Standup\r\nDTSTART:20261207T090000Z\r\nRRULE:FREQ=WEEKLY\r\n"
                                                      + display("-PT15M") + display("-PT5M")]).first))
        #expect(weekly.schedule.occurrences(after: Self.instant("2026-12-01T00:00:00Z"), count: 3, in: Self.utc)
                == [Self.instant("2026-12-07T08:45:00Z"), Self.instant("2026-12-07T08:55:00Z"), Self.instant("2026-12-14T08:45:00Z")])
        // A day-before alarm first: the same-day one rings (the event was dropped).
        let dayBefore = try #require(Self.alert(try read(["UID:h\r\nSUMMARY:Bins\r\nDTSTART:20261207T090000Z\r\nRRULE:FREQ=WEEKLY\r\n"
                                                         + display("-P1D") + display("-PT1M")]).first))
        #expect(dayBefore.schedule.occurrences(after: Self.instant("2026-12-01T00:00:00Z"), count: 1, in: Self.utc) == [Self.instant("2026-12-07T08:59:00Z")])
        // A series that starts today, its first alarm passed: the later one still rings today, and both after.
        let today = CalendarImport.alerts(in: try Component.read("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:i\r\nSUMMARY:Call\r\nDTSTART:20261201T101000Z\r\n"
            + "RRULE:FREQ=WEEKLY\r\n" + display("-PT15M") + display("-PT5M") + "END:VEVENT\r\nEND:VCALENDAR\r\n"),
            system: Self.utc, now: Self.instant("2026-12-01T10:00:00Z"), alarmsOnly: true)
        let started = try #require(Self.alert(today.first))
        #expect(started.schedule.occurrences(after: Self.instant("2026-12-01T10:00:00Z"), count: 3, in: Self.utc)
                == [Self.instant("2026-12-01T10:05:00Z"), Self.instant("2026-12-08T09:55:00Z"), Self.instant("2026-12-08T10:05:00Z")])
        // A series without an alarm whose one changed occurrence has one: that one alone.
        let override = try #require(Self.alert(try read([
            "UID:e\r\nSUMMARY:Gym\r\nDTSTART:20261201T180000Z\r\nRRULE:FREQ=DAILY\r\n",
            "UID:e\r\nSUMMARY:Gym\r\nRECURRENCE-ID:20261203T180000Z\r\nDTSTART:20261203T193000Z\r\n" + display("-PT10M"),
        ]).first))
        #expect(override.schedule.occurrences(after: Self.instant("2026-12-01T00:00:00Z"), count: 3, in: Self.utc) == [Self.instant("2026-12-03T19:20:00Z")])
        // A file imported is read as before: a repeating event without an alarm at its start.
        #expect(Self.alert(try Self.outcomes(["UID:f\r\nSUMMARY:Meeting\r\nDTSTART:20261207T160000Z\r\nRRULE:FREQ=WEEKLY\r\n"], now: "2026-12-01T00:00:00Z").first) != nil)
    }

    @Test func windowsZoneNamesAreZonesOfTheZoneDatabase() throws {
        for (windows, iana) in WindowsZones.table {
            #expect(TimeZone(identifier: iana) != nil, "\(windows): \(iana) is not in this system's zone database")
        }
        #expect(try CalendarImport.zone("W. Europe Standard Time", of: "DTSTART").identifier == "Europe/Berlin")
        #expect(try CalendarImport.zone("Korea Standard Time", of: "DTSTART").identifier == "Asia/Seoul")
        #expect(try CalendarImport.zone("/Europe/Paris", of: "DTSTART").identifier == "Europe/Paris")
        #expect(throws: CalendarImport.Refusal.self) { try CalendarImport.zone("Mars Standard Time", of: "DTSTART") }
    }

    @Test func aUIDIsReadOnceAndAChangedOccurrenceGoesWithItsSeriesWhereverItStands() throws {
        let outcomes = try Self.outcomes([
            "UID:a\r\nRECURRENCE-ID:20261207T090000Z\r\nDTSTART:20261207T100000Z\r\nRRULE:FREQ=WEEKLY\r\n",
            "UID:a\r\nDTSTART:20261130T090000Z\r\nRRULE:FREQ=WEEKLY\r\n",
            "UID:a\r\nDTSTART:20261130T100000Z\r\nRRULE:FREQ=DAILY\r\n",
            "UID:b\r\nDTSTART:20261130T100000Z\r\n",
            "UID:b\r\nDTSTART:20261130T100000Z\r\nRRULE:FREQ=DAILY\r\n",
        ], now: "2026-11-23T00:00:00Z")
        let reasons = outcomes.map { outcome -> String in
            switch outcome {
            case .alert(let alert, let component, _): "alert \(component) \(alert.schedule.storageText)"
            case .refused(let component, let reason): "refused \(component): \(reason.description.prefix(14))"
            case .skipped: "skipped"
            case .over: "over"
            }
        }
        let weekly = try #require(Self.alert(outcomes[1]))
        // A component that is no reminder (no alarm, no rule) does not take its UID.
        let daily = try #require(Self.alert(outcomes[4])).schedule.storageText
        #expect(reasons == ["skipped", "alert VEVENT (UID a) \(weekly.schedule.storageText)", "refused VEVENT (UID a): the same UID a",
                            "skipped", "alert VEVENT (UID b) \(daily)"])
        // The series has no alarm, so neither needs the occurrence: it moved from 09:00 to 10:00.
        #expect(weekly.schedule.occurrences(after: Self.instant("2026-11-23T00:00:00Z"), count: 3, in: Self.utc)
            == ["2026-11-30T09:00:00Z", "2026-12-07T10:00:00Z", "2026-12-14T09:00:00Z"].map(Self.instant))
    }

    /// A series with changed occurrences (RFC 5545 RECURRENCE-ID) as a phone writes them:
    /// moved with an alarm of its own, cancelled, only retitled, moved without an alarm
    /// while the series has one; with RDATE and EXDATE, in a zone of its own.
    @Test func changedOccurrencesRDateAndExDateGiveTheTimesOtherCalendarsShow() throws {
        func alarm(_ trigger: String) -> String { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\n" }
        let berlin = "TZID=Europe/Berlin:"
        let outcomes = try Self.outcomes([
            "UID:s\r\nRECURRENCE-ID;\(berlin)20261207T100000\r\nDTSTART;\(berlin)20261208T140000\r\nSUMMARY:Moved\r\n" + alarm("-PT30M"),
            "UID:s\r\nSUMMARY:Stand-up\r\nDTSTART;\(berlin)20261130T100000\r\nRRULE:FREQ=WEEKLY\r\n"
                + "RDATE;\(berlin)20261231T170000\r\nEXDATE;\(berlin)20270104T100000\r\n" + alarm("-PT15M"),
            "UID:s\r\nRECURRENCE-ID;\(berlin)20261214T100000\r\nDTSTART;\(berlin)20261214T100000\r\nSTATUS:CANCELLED\r\n" + alarm("-PT15M"),
            "UID:s\r\nRECURRENCE-ID;\(berlin)20261221T100000\r\nDTSTART;\(berlin)20261221T100000\r\nSUMMARY:Other\r\n" + alarm("-PT15M"),
            "UID:s\r\nRECURRENCE-ID:20261228T090000Z\r\nDTSTART:20261228T120000Z\r\n",
        ], now: "2026-11-23T00:00:00Z")
        #expect(outcomes.count == 5)
        let series = try #require(Self.alert(outcomes[1]))
        #expect(series.title == "Stand-up" && series.timeZone == "Europe/Berlin")
        for index in [0, 2, 3, 4] { #expect(Self.alert(outcomes[index]) == nil) }
        #expect(series.schedule.occurrences(after: Self.instant("2026-11-23T00:00:00Z"), count: 8, in: TimeZone(identifier: "Europe/Berlin")!)
            == ["2026-11-30T08:45:00Z", "2026-12-08T12:30:00Z", "2026-12-21T08:45:00Z", "2026-12-31T15:45:00Z",
                "2027-01-11T08:45:00Z", "2027-01-18T08:45:00Z", "2027-01-25T08:45:00Z", "2027-02-01T08:45:00Z"].map(Self.instant))
        // Stored and read back as it is; said in list.
        #expect(Schedule(storageText: series.schedule.storageText) == series.schedule)
        #expect(series.schedule.summary(in: TimeZone(identifier: "Europe/Berlin")!).hasSuffix("except 4 times, also 2 other times"),
                "\(series.schedule.summary(in: TimeZone(identifier: "Europe/Berlin")!))")
        // A change to this and every later occurrence cannot be said: refused, named.
        let future = try Self.outcomes([
            "UID:f\r\nDTSTART:20261130T090000Z\r\nRRULE:FREQ=DAILY\r\n" + alarm("PT0S"),
            "UID:f\r\nRECURRENCE-ID;RANGE=THISANDFUTURE:20261207T090000Z\r\nDTSTART:20261207T100000Z\r\n" + alarm("PT0S"),
        ], now: "2026-11-23T00:00:00Z")
        guard case .refused(_, let reason)? = future.first else { Issue.record("\(future)"); return }
        #expect(reason.description.hasPrefix("RECURRENCE-ID;RANGE=THISANDFUTURE"))
    }

    /// From a hostile pass: an all-day series on the day Berlin moves its clock (its PT9H
    /// alarm is 09:00 that day as on every other), with that day cancelled, excluded or moved;
    /// a PERIOD's start in UTC; an occurrence moved onto another's old time, which the export
    /// must not leave out (EXDATE wins over RDATE in other calendars).
    @Test func changedOccurrencesHoldOnTheDayTheClockMovesAndInTheExport() throws {
        func alarm(_ trigger: String) -> String { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\n" }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func times(_ events: [String], count: Int, now: String = "2027-03-01T00:00:00Z") throws -> [Date] {
            let outcomes = CalendarImport.alerts(in: try Component.read("BEGIN:VCALENDAR\r\n" + events.map { "BEGIN:VEVENT\r\n" + $0 + "END:VEVENT\r\n" }.joined()
                + "END:VCALENDAR\r\n"), system: berlin, now: Self.instant(now))
            let alert = try #require(Self.alert(outcomes.first { Self.alert($0) != nil }), "\(outcomes)")
            return alert.schedule.occurrences(after: Self.instant(now), count: count, in: berlin)
        }
        let series = "UID:ad@x\r\nDTSTART;VALUE=DATE:20270326\r\nRRULE:FREQ=DAILY;COUNT=4\r\n" + alarm("PT9H")
        // 26 and 27 March at 09:00 CET (08:00Z), 28 and 29 at 09:00 CEST (07:00Z).
        #expect(try times([series], count: 5) == ["2027-03-26T08:00:00Z", "2027-03-27T08:00:00Z", "2027-03-28T07:00:00Z", "2027-03-29T07:00:00Z"].map(Self.instant))
        let withoutThe28th = ["2027-03-26T08:00:00Z", "2027-03-27T08:00:00Z", "2027-03-29T07:00:00Z"].map(Self.instant)
        #expect(try times([series.replacingOccurrences(of: "RRULE", with: "EXDATE;VALUE=DATE:20270328\r\nRRULE")], count: 5) == withoutThe28th)
        #expect(try times([series, "UID:ad@x\r\nRECURRENCE-ID;VALUE=DATE:20270328\r\nDTSTART;VALUE=DATE:20270328\r\nSTATUS:CANCELLED\r\n"], count: 5) == withoutThe28th)
        #expect(try times([series, "UID:ad@x\r\nRECURRENCE-ID;VALUE=DATE:20270328\r\nDTSTART;TZID=Europe/Berlin:20270328T150000\r\n" + alarm("-PT15M")], count: 5)
                == ["2027-03-26T08:00:00Z", "2027-03-27T08:00:00Z", "2027-03-28T12:45:00Z", "2027-03-29T07:00:00Z"].map(Self.instant))
        // A PERIOD whose start is in UTC: 10:00Z, not 10:00 in Berlin.
        let period = "UID:p@x\r\nDTSTART;TZID=Europe/Berlin:20270401T090000\r\nRDATE;VALUE=PERIOD:20270404T100000Z/PT1H\r\n" + alarm("PT0S")
        #expect(try times([period], count: 3) == ["2027-04-01T07:00:00Z", "2027-04-04T10:00:00Z"].map(Self.instant))
        // The 7th moved onto the 8th's 09:00, the 8th moved to 12:00: both ring, and the 8th's
        // 09:00 is not left out, so an export says it too.
        let moves = ["UID:m@x\r\nDTSTART;TZID=Europe/Berlin:20270106T090000\r\nRRULE:FREQ=DAILY;COUNT=4\r\n" + alarm("PT0S"),
                     "UID:m@x\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270107T090000\r\nDTSTART;TZID=Europe/Berlin:20270108T090000\r\n" + alarm("PT0S"),
                     "UID:m@x\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270108T090000\r\nDTSTART;TZID=Europe/Berlin:20270108T120000\r\n" + alarm("PT0S")]
        #expect(try times(moves, count: 5, now: "2027-01-01T00:00:00Z") == ["2027-01-06T08:00:00Z", "2027-01-08T08:00:00Z", "2027-01-08T11:00:00Z", "2027-01-09T08:00:00Z"].map(Self.instant))
        let outcomes = CalendarImport.alerts(in: try Component.read("BEGIN:VCALENDAR\r\n" + moves.map { "BEGIN:VEVENT\r\n" + $0 + "END:VEVENT\r\n" }.joined()
            + "END:VCALENDAR\r\n"), system: berlin, now: Self.instant("2027-01-01T00:00:00Z"))
        guard case .restricted(_, let restriction)? = Self.alert(outcomes[0])?.schedule else { Issue.record("\(outcomes)"); return }
        #expect(restriction.except == [Self.instant("2027-01-07T08:00:00Z")], "\(restriction.except)")
    }

    /// An event of one time with RDATEs (a DATE-TIME list and a PERIOD) and one of them
    /// moved; an invitation to occurrences of a series not in the calendar.
    @Test func aOneTimeEventWithRDatesAndOrphanOccurrences() throws {
        func alarm(_ trigger: String) -> String { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\n" }
        let events = [
            "UID:c\r\nDTSTART:20261201T090000Z\r\nRDATE:20261202T090000Z,20261203T090000Z\r\nRDATE;VALUE=PERIOD:20261204T090000Z/PT1H\r\n" + alarm("PT0S"),
            "UID:c\r\nRECURRENCE-ID:20261203T090000Z\r\nDTSTART:20261203T150000Z\r\n" + alarm("PT0S"),
            "UID:d\r\nRECURRENCE-ID:20261210T090000Z\r\nDTSTART:20261210T100000Z\r\nSUMMARY:Review\r\n" + alarm("-PT10M"),
            "UID:d\r\nRECURRENCE-ID:20261217T090000Z\r\nDTSTART:20261217T110000Z\r\n" + alarm("-PT10M"),
        ]
        func times(_ now: String, _ index: Int) throws -> [Date]? {
            let outcomes = try Self.outcomes(events, now: now)
            guard let alert = Self.alert(outcomes[index]) else { return nil }
            #expect(Schedule(storageText: alert.schedule.storageText) == alert.schedule, "\(alert.schedule.storageText)")
            return alert.schedule.occurrences(after: Self.instant(now), count: 9, in: Self.utc)
        }
        #expect(try times("2026-11-23T00:00:00Z", 0)
            == ["2026-12-01T09:00:00Z", "2026-12-02T09:00:00Z", "2026-12-03T15:00:00Z", "2026-12-04T09:00:00Z"].map(Self.instant))
        #expect(try times("2026-12-01T12:00:00Z", 0) == ["2026-12-02T09:00:00Z", "2026-12-03T15:00:00Z", "2026-12-04T09:00:00Z"].map(Self.instant))
        #expect(try Self.outcomes(events, now: "2026-12-05T00:00:00Z").first.map { if case .over = $0 { true } else { false } } == true)
        #expect(try times("2026-11-23T00:00:00Z", 2) == ["2026-12-10T09:50:00Z", "2026-12-17T10:50:00Z"].map(Self.instant))
        #expect(try Self.alert(Self.outcomes(events, now: "2026-11-23T00:00:00Z")[2])?.title == "Review")
    }

    /// The same file read weeks later leaves out less (a start and a date left out gone
    /// by) but says the same; what the person set stays when the file's content is taken.
    @Test func theSameFileReadLaterSaysTheSame() throws {
        let event = "UID:later\r\nSUMMARY:Stretch\r\nDTSTART:20261210T090000Z\r\nRRULE:FREQ=DAILY\r\nEXDATE:20261212T090000Z\r\n"
        let early = try #require(Self.alert(try Self.outcomes([event], now: "2026-12-01T00:00:00Z").first))
        let late = try #require(Self.alert(try Self.outcomes([event], now: "2026-12-20T00:00:00Z").first))
        #expect(early.schedule != late.schedule && early.id == late.id)
        #expect(!CalendarImport.differs(early, from: late, complete: false, now: Self.instant("2026-12-20T00:00:00Z")))
        // Changed in the file: another title, another time.
        let renamed = try #require(Self.alert(try Self.outcomes([event.replacingOccurrences(of: "Stretch", with: "Walk")], now: "2026-12-20T00:00:00Z").first))
        let moved = try #require(Self.alert(try Self.outcomes([event.replacingOccurrences(of: "T0900", with: "T1000")], now: "2026-12-20T00:00:00Z").first))
        for changed in [renamed, moved] {
            #expect(CalendarImport.differs(early, from: changed, complete: false, now: Self.instant("2026-12-20T00:00:00Z")))
        }
        // Switched off, silent, snoozing longer: the person's, kept when the file's content is taken.
        var stored = early
        (stored.enabled, stored.sound, stored.snoozeSeconds) = (false, nil, 1200)
        #expect(!CalendarImport.differs(stored, from: late, complete: false, now: Self.instant("2026-12-20T00:00:00Z")))
        let replaced = CalendarImport.replacing(stored, with: renamed, complete: false)
        #expect(replaced.title == "Walk" && replaced.schedule == renamed.schedule)
        #expect(!replaced.enabled && replaced.sound == nil && replaced.snoozeSeconds == 1200 && replaced.created == stored.created && replaced.id == stored.id)
        // Nudge's own export says everything: every column is taken.
        var own = renamed
        own.enabled = true
        #expect(CalendarImport.replacing(stored, with: own, complete: true).enabled)
        #expect(CalendarImport.differs(stored, from: own, complete: true, now: Self.instant("2026-12-20T00:00:00Z")))
    }
}

extension CalendarImportTests {
    /// TRIGGER and DURATION as RFC 5545 writes them. `-PT15M15M` was read as 30 minutes,
    /// and `-P9999999999999999W` trapped on overflow (a file could crash `nudge import`).
    @Test func durationsAreReadAsTheRFCWritesThemAndBounded() {
        let read: [(String, Int?)] = [
            ("-PT15M", -900), ("PT0S", 0), ("P1DT2H", 93_600), ("+P1W", 604_800), ("pt1h30m", 5400), ("PT1H5S", 3605),
            ("P2D", 172_800), ("-PT15M15M", nil), ("P1W2D", nil), ("PT", nil), ("P", nil), ("P1DT", nil), ("PT1D", nil),
            ("P1H", nil), ("PT5", nil), ("P1M", nil), ("PTT1H", nil), ("PT1S1M", nil), ("-P9999999999999999W", nil),
            ("PT99999999999999999999S", nil), ("P36600D", 36_600 * 86_400), ("P36601D", nil),
        ]
        for (text, seconds) in read { #expect(CalendarImport.duration(text) == seconds, "\(text)") }
    }

    @Test func anAlarmNoDurationHoldsIsRefusedNotACrash() throws {
        let outcomes = try Self.outcomes(["UID:t1\r\nSUMMARY:T\r\nDTSTART:20270104T090000Z\r\nRRULE:FREQ=DAILY\r\n"
            + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-P9999999999999999W\r\nEND:VALARM\r\n"], now: "2027-01-01T00:00:00Z")
        guard case .refused(_, let reason)? = outcomes.first else { Issue.record("\(outcomes)"); return }
        #expect(reason.description == "TRIGGER “-P9999999999999999W” is not a duration")
    }

    /// A task rings until done: its STATUS says so, or without one a COMPLETED time. One
    /// reopened on the phone (STATUS:NEEDS-ACTION) that kept its COMPLETED time rings again.
    @Test func aTaskIsOverByItsStatusAndAReopenedOneRings() throws {
        func outcome(_ lines: String) throws -> CalendarImport.Outcome? {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:rent\r\nSUMMARY:Rent\r\nDUE:20301201T090000Z\r\n" + lines
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT1H\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            return CalendarImport.alerts(in: try Component.read(text), system: Self.utc, now: Self.instant("2030-11-01T00:00:00Z")).first
        }
        func over(_ outcome: CalendarImport.Outcome?) -> Bool {
            if case .over? = outcome { return true }
            return false
        }
        #expect(over(try outcome("STATUS:COMPLETED\r\nCOMPLETED:20301101T000000Z\r\n")))
        #expect(over(try outcome("COMPLETED:20301101T000000Z\r\n")))
        #expect(over(try outcome("STATUS:CANCELLED\r\n")))
        #expect(Self.alert(try outcome("STATUS:NEEDS-ACTION\r\nCOMPLETED:20301101T000000Z\r\n")) != nil)
        #expect(Self.alert(try outcome("STATUS:IN-PROCESS\r\nCOMPLETED:20301101T000000Z\r\nPERCENT-COMPLETE:100\r\n")) != nil)
        #expect(Self.alert(try outcome("")) != nil)
    }
}
