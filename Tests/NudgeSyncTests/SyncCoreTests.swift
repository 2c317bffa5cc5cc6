import Foundation
import ICalendar
import NudgeCalendar
import NudgeCore
import NudgeSync
import SyncTransport
import Testing
import TestSupport

/// The sync core with values only: an object's states and decisions, the merge, the overlay
/// that keeps what Nudge does not own, the multistatus reader, discovery's steps.
@Suite(.onTestThreads)
struct SyncCoreTests {
    static func event(_ lines: [String], alarms: [[String]] = []) -> Component {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT"] + lines
            + alarms.flatMap { ["BEGIN:VALARM"] + $0 + ["END:VALARM"] } + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        return CalendarObject.read(text)!
    }

    static let base = event(["UID:a@x", "DTSTART:20301202T090000Z", "SUMMARY:Tea", "CATEGORIES:Drinks"],
                            alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Tea"]])

    static func changed(_ calendar: Component, _ name: String, _ value: String?) -> Component {
        var calendar = calendar
        var event = calendar.components[0]
        if let value {
            if event[name] != nil { event.properties = event.properties.map { $0.name == name ? Property(name, value) : $0 } } else {
                event.properties.append(Property(name, value))
            }
        } else {
            event.properties.removeAll { $0.name == name }
        }
        calendar.components[0] = event
        return calendar
    }

    @Test("each combination of the three copies has its state", arguments: [
        ("all alike", true, true, true, ObjectState.synced),
        ("new here", false, true, false, .newHere),
        ("new there", false, false, true, .newThere),
        ("deleted here", true, false, true, .deletedHere),
        ("deleted there", true, true, false, .deletedThere),
        ("deleted on both", true, false, false, .alike),
    ])
    func states(_ name: String, _ hasBase: Bool, _ hasOurs: Bool, _ hasTheirs: Bool, _ expected: ObjectState) {
        let b = hasBase ? Self.base : nil, o = hasOurs ? Self.base : nil, t = hasTheirs ? Self.base : nil
        #expect(ObjectState(base: b, ours: o, theirs: t) == expected, "\(name)")
    }

    @Test func aChangeOnOneSideGoesToTheOther() {
        let ours = Self.changed(Self.base, "SUMMARY", "Green tea")
        let here = ObjectDecision.decide(base: Self.base, ours: ours, theirs: Self.base)
        #expect(here.send == ours && here.take == nil && here.agreed == ours)
        let there = ObjectDecision.decide(base: Self.base, ours: Self.base, theirs: ours)
        #expect(there.take == ours && there.send == nil)
    }

    @Test func bothSidesChangingDifferentPropertiesKeepBoth() {
        let ours = Self.changed(Self.base, "SUMMARY", "Green tea")
        let theirs = Self.changed(Self.base, "DTSTART", "20301203T090000Z")
        let decision = ObjectDecision.decide(base: Self.base, ours: ours, theirs: theirs)
        let merged = decision.agreed!.components[0]
        #expect(merged["SUMMARY"]?.value == "Green tea")
        #expect(merged["DTSTART"]?.value == "20301203T090000Z")
        #expect(merged["CATEGORIES"]?.value == "Drinks")
        #expect(decision.conflicts.isEmpty)
        #expect(decision.send == decision.agreed && decision.take == decision.agreed)
    }

    @Test func bothChangingOnePropertyKeepsTheServersAndNamesIt() {
        let ours = Self.changed(Self.base, "SUMMARY", "Green tea")
        let theirs = Self.changed(Self.base, "SUMMARY", "Black tea")
        let decision = ObjectDecision.decide(base: Self.base, ours: ours, theirs: theirs)
        #expect(decision.agreed?.components[0]["SUMMARY"]?.value == "Black tea")
        #expect(decision.conflicts == ["VEVENT/SUMMARY"])
        #expect(decision.send == nil, "the server's copy is what was merged: nothing to send")
        #expect(decision.take != nil)
    }

    @Test func aDeletionNeverWinsOverAnEdit() {
        let edited = Self.changed(Self.base, "SUMMARY", "Green tea")
        let deletedHere = ObjectDecision.decide(base: Self.base, ours: nil, theirs: edited)
        #expect(deletedHere.take == edited && !deletedHere.deleteThere && deletedHere.conflicts == ["deleted here"])
        let deletedThere = ObjectDecision.decide(base: Self.base, ours: edited, theirs: nil)
        #expect(deletedThere.send == edited && !deletedThere.deleteHere && deletedThere.conflicts == ["deleted there"])
    }

    @Test func stampsNeverConflict() {
        let ours = Self.changed(Self.base, "DTSTAMP", "20301101T000000Z")
        let theirs = Self.changed(Self.base, "DTSTAMP", "20301102T000000Z")
        let decision = ObjectDecision.decide(base: Self.base, ours: ours, theirs: theirs)
        #expect(decision.conflicts.isEmpty)
        #expect(decision.agreed == theirs)
    }

    @Test func theOverlayKeepsEverythingNudgeDoesNotOwn() {
        let server = Self.event(["UID:a@x", "DTSTAMP:20301101T000000Z", "DTSTART:20301202T090000Z", "SUMMARY:Tea",
                                 "CATEGORIES:Drinks", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", "ATTENDEE;CN=Bo:mailto:bo@x"],
                                alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Tea", "ACKNOWLEDGED:20301202T090100Z"],
                                         ["ACTION:EMAIL", "TRIGGER:-PT1H", "SUMMARY:Tea", "DESCRIPTION:Tea", "ATTENDEE:mailto:ann@x"]])
        let own = Self.event(["UID:a@x", "DTSTAMP:20261128T000000Z", "DTSTART:20301202T100000Z", "SUMMARY:Green tea", "X-NUDGE-ID:a"],
                             alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Green tea"]])
        let put = CalendarObject.overlay(own, on: server).components[0]
        #expect(put["SUMMARY"]?.value == "Green tea")
        #expect(put["DTSTART"]?.value == "20301202T100000Z")
        #expect(put["DTSTAMP"]?.value == "20301101T000000Z", "the server's stamp stays")
        for kept in ["CATEGORIES", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR", "ATTENDEE"] {
            #expect(put[kept] == server.components[0][kept], "\(kept) kept")
        }
        #expect(put["X-NUDGE-ID"]?.value == "a")
        let alarms = put.components.filter { $0.name == "VALARM" }
        #expect(alarms.count == 2)
        #expect(alarms[0]["DESCRIPTION"]?.value == "Green tea")
        #expect(alarms[0]["ACKNOWLEDGED"]?.value == "20301202T090100Z", "another's acknowledgement of our alarm stays")
        #expect(alarms[1] == server.components[0].components[1], "the other app's EMAIL alarm is untouched")
    }

    /// iOS writes a UID on every alarm it saves: Nudge's alarms stay Nudge's, replaced in
    /// place (their UIDs kept), never written again beside them (a hostile pass: the phone
    /// then had four alarms, and rang twice).
    @Test func nudgesAlarmsGivenUIDsByAPhoneStayNudges() {
        let saved = Self.event(["UID:a@nudge", "DTSTART:20301202T090000Z", "SUMMARY:Tea edited", "X-NUDGE-ID:a"],
                               alarms: [["UID:1D5C", "X-WR-ALARMUID:1D5C", "ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Tea"],
                                        ["UID:9F2A", "X-WR-ALARMUID:9F2A", "ACTION:AUDIO", "TRIGGER:PT0S"]])
        let own = Self.event(["UID:a@nudge", "DTSTART:20301202T090000Z", "SUMMARY:Tea edited", "X-NUDGE-ID:a"],
                             alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Tea edited"], ["ACTION:AUDIO", "TRIGGER:PT0S"]])
        let put = CalendarObject.overlay(own, on: saved).components[0]
        let alarms = put.components.filter { $0.name == "VALARM" }
        #expect(alarms.count == 2)
        #expect(alarms.map { $0["UID"]?.value } == ["1D5C", "9F2A"])
        #expect(alarms[0]["DESCRIPTION"]?.value == "Tea edited")
        // Merged against the copy last agreed on, as a sync does: still two.
        let merged = ObjectMerge.merge(base: saved.components[0], ours: put, theirs: saved.components[0]).merged
        #expect(merged.components.filter { $0.name == "VALARM" }.count == 2)
    }

    /// An object another client deleted and wrote again under another name (DAVx5 may):
    /// one object, at its new address, and the old one's record forgotten (a hostile pass:
    /// every write went to the old address and was refused, 409, for ever).
    @Test func anObjectMovedToAnotherAddressIsFollowedThere() {
        let id = UUID()
        let moved = Self.changed(Self.base, "SUMMARY", "Tea moved")
        let (steps, refused) = CollectionPlan.plan(
            calendar: "https://dav.example/cal/",
            known: [CollectionPlan.Known(url: "https://dav.example/cal/a.ics", uid: "a@x", etag: "\"1\"", agreed: Self.base, alertID: id)],
            changed: [CollectionPlan.Remote(url: "https://dav.example/cal/moved-by-davx5.ics", etag: "\"2\"", calendar: moved)],
            removed: ["https://dav.example/cal/a.ics"], local: nil)
        #expect(refused.isEmpty)
        #expect(steps.count == 1)
        #expect(steps.first?.url == "https://dav.example/cal/moved-by-davx5.ics")
        #expect(steps.first?.formerURL == "https://dav.example/cal/a.ics")
        #expect(steps.first?.etag == "\"2\"")
    }

    @Test func aMovedAlarmOfNudgesIsReadFromTheStandardProperties() {
        let lines = ["UID:a@nudge", "DTSTART:20261130T120000", "DURATION:PT0S", "RRULE:FREQ=DAILY;BYHOUR=12;BYMINUTE=0", "SUMMARY:Lunch pills",
                     "X-NUDGE-ID:89170860-e234-4dd0-ac7d-3031eb27835a", "X-NUDGE-SCHEDULE:at 43200 127", "X-NUDGE-ENABLED:TRUE"]
        let base = Self.event(lines, alarms: [["ACTION:DISPLAY", "DESCRIPTION:Lunch pills", "TRIGGER:PT0S"], ["ACTION:AUDIO", "TRIGGER:PT0S"]])
        let moved = Self.event(lines, alarms: [["ACTION:DISPLAY", "DESCRIPTION:Lunch pills", "TRIGGER:-PT10M"], ["ACTION:AUDIO", "TRIGGER:-PT10M"]])
        let read = CalendarObject.forImport(moved, base: base)
        #expect(read.components[0]["X-NUDGE-SCHEDULE"] == nil, "\(read.text)")
        let alerts = CalendarImport.alerts(in: [read], system: TimeZone(identifier: "UTC")!, now: ISO8601DateFormatter().date(from: "2026-11-30T00:00:00Z")!)
        guard case .alert(let alert, _, _)? = alerts.first else { Issue.record("\(alerts)"); return }
        #expect(alert.schedule.summary(in: TimeZone(identifier: "UTC")!).hasPrefix("daily at 11:50"), "\(alert.schedule)")
        let marked = CalendarObject.markingMovedAlarms(moved, base: base)
        #expect(marked.components[0].components.allSatisfy { $0["X-NUDGE-MOVED"] != nil })
    }

    @Test func switchingOffRemovesOnlyNudgesAlarm() {
        let server = Self.event(["UID:a@x", "DTSTART:20301202T090000Z", "SUMMARY:Tea"],
                                alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:Tea"], ["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:soon"]])
        let off = Self.event(["UID:a@x", "DTSTART:20301202T090000Z", "SUMMARY:Tea", "X-NUDGE-ENABLED:FALSE"])
        let put = CalendarObject.overlay(off, on: server).components[0]
        #expect(put.components.map { $0["TRIGGER"]?.value } == ["-PT15M"])
    }

    @Test func anEditElsewhereOfWhenItHappensIsReadFromTheStandardProperties() {
        let base = Self.event(["UID:a@nudge", "DTSTART:20301202T090000Z", "RRULE:FREQ=DAILY", "SUMMARY:Tea", "X-NUDGE-SCHEDULE:daily 09:00",
                               "X-NUDGE-ENABLED:TRUE"], alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S"]])
        let moved = Self.changed(base, "RRULE", "FREQ=WEEKLY")
        let read = CalendarObject.forImport(moved, base: base).components[0]
        #expect(read["X-NUDGE-SCHEDULE"] == nil)
        var silenced = base
        silenced.components[0].components = []
        #expect(CalendarObject.forImport(silenced, base: base).components[0]["X-NUDGE-ENABLED"]?.value == "FALSE")
        // Only the title changed: Nudge's schedule still says it all.
        let renamed = Self.changed(base, "SUMMARY", "Green tea")
        #expect(CalendarObject.forImport(renamed, base: base).components[0]["X-NUDGE-SCHEDULE"] != nil)
    }

    @Test func aPlanSendsNewRemindersAndTakesNewObjects() {
        let mine = Self.event(["UID:m@nudge", "DTSTART:20301202T090000Z", "SUMMARY:Mine", "X-NUDGE-ID:00000000-0000-0000-0000-000000000001"])
        let phone = Self.event(["UID:p@phone", "DTSTART:20301202T090000Z", "SUMMARY:Phone"], alarms: [["ACTION:DISPLAY", "TRIGGER:-PT5M"]])
        let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        let (steps, refused) = CollectionPlan.plan(
            calendar: "https://dav.example/cal/", known: [],
            changed: [.init(url: "https://dav.example/cal/p.ics", etag: "\"1\"", calendar: phone)], removed: [],
            local: [.init(alertID: id, uid: "m@nudge", calendar: mine)])
        #expect(refused.isEmpty)
        #expect(steps.count == 2)
        let send = steps.first { $0.uid == "m@nudge" }!
        #expect(send.url == "https://dav.example/cal/m@nudge.ics" && send.etag == nil && send.decision.send == mine)
        let take = steps.first { $0.uid == "p@phone" }!
        #expect(take.decision.take == phone && take.remoteETag == "\"1\"")
    }

    @Test func theSameUIDTwiceIsOneObjectAndOneRefusal() {
        let phone = Self.event(["UID:p@phone", "DTSTART:20301202T090000Z", "SUMMARY:Phone"])
        let (steps, refused) = CollectionPlan.plan(
            calendar: "https://dav.example/cal/", known: [],
            changed: [.init(url: "https://dav.example/cal/1.ics", etag: "1", calendar: phone),
                      .init(url: "https://dav.example/cal/2.ics", etag: "2", calendar: phone)], removed: [], local: nil)
        #expect(steps.map(\.url) == ["https://dav.example/cal/1.ics"])
        #expect(refused.map(\.url) == ["https://dav.example/cal/2.ics"])
    }

    @Test func aReminderRemovedHereIsRemovedThereAndAnObjectRemovedThereHere() {
        let id = UUID()
        let known = CollectionPlan.Known(url: "https://dav.example/cal/m.ics", uid: "m@nudge", etag: "\"7\"", agreed: Self.base, alertID: id)
        let gone = CollectionPlan.plan(calendar: "https://dav.example/cal/", known: [known], changed: [], removed: [], local: [])
        #expect(gone.steps.first?.decision.deleteThere == true && gone.steps.first?.etag == "\"7\"")
        let there = CollectionPlan.plan(calendar: "https://dav.example/cal/", known: [known], changed: [],
                                        removed: ["https://dav.example/cal/m.ics"], local: nil)
        #expect(there.steps.first?.decision.deleteHere == true)
    }

    // MARK: WebDAV

    @Test func aMultistatusIsReadWithItsHrefsResolved() throws {
        let xml = """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:response><d:href>/cal/a%20b.ics</d:href>
            <d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
            <d:propstat><d:prop><c:calendar-data/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
          </d:response>
          <d:response><d:href>gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
          <d:sync-token>http://x/sync/2</d:sync-token>
        </d:multistatus>
        """
        let status = try Multistatus.read(try XMLReader.read(Array(xml.utf8)), base: "https://dav.example/cal/")
        #expect(status.responses.map(\.url) == ["https://dav.example/cal/a%20b.ics", "https://dav.example/cal/gone.ics"])
        #expect(status.responses[0].property(Namespace.dav, "getetag")?.trimmed == "\"1\"")
        #expect(status.responses[0].property(Namespace.caldav, "calendar-data") == nil, "a 404 propstat is not a property")
        #expect(status.responses[1].status == 404)
        #expect(status.syncToken == "http://x/sync/2")
    }

    @Test("the XML reader expands no entity and loads no DTD", arguments: [
        #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><d:multistatus xmlns:d="DAV:">&b;</d:multistatus>"#,
        #"<?xml version="1.0"?><!DOCTYPE d SYSTEM "file:///etc/passwd"><d:multistatus xmlns:d="DAV:"/>"#,
        #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/hostname">]><d:multistatus xmlns:d="DAV:">&x;</d:multistatus>"#,
    ])
    func dtdsAreRefused(_ xml: String) {
        #expect(throws: DAVError.self) { try XMLReader.read(Array(xml.utf8)) }
    }

    @Test func deepOrBrokenXMLIsAnErrorNotACrash() {
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(throws: DAVError.self) { try XMLReader.read(Array(deep.utf8)) }
        #expect(throws: DAVError.self) { try XMLReader.read(Array("<a><b></a>".utf8)) }
        #expect(throws: DAVError.self) { try XMLReader.read([]) }
    }

    @Test func discoveryGoesFromTheAddressToTheWellKnownToTheHome() {
        var discovery = Discovery(address: "https://dav.example/", read: { bytes throws(DAVError) in try XMLReader.read(bytes) })
        #expect(discovery.first.method == "PROPFIND" && discovery.first.url == "https://dav.example/")
        func multistatus(_ body: String, url: String) -> Result<HTTPResponse, HTTPFailure> {
            .success(HTTPResponse(status: 207, body: Array(("<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">" + body + "</d:multistatus>").utf8), url: url))
        }
        // Nothing at the address: its /.well-known/caldav next.
        guard case .send(let wellKnown) = discovery.take(.success(HTTPResponse(status: 404, url: "https://dav.example/"))) else {
            Issue.record("no second request"); return
        }
        #expect(wellKnown.url == "https://dav.example/.well-known/caldav")
        // The principal, redirected to by the well-known address.
        guard case .send(let home) = discovery.take(multistatus(
            "<d:response><d:href>/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/p/ann/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>",
            url: "https://dav.example/")) else { Issue.record("no home request"); return }
        #expect(home.url == "https://dav.example/p/ann/")
        guard case .send(let list) = discovery.take(multistatus(
            "<d:response><d:href>/p/ann/</d:href><d:propstat><d:prop><c:calendar-home-set><d:href>/cal/ann/</d:href></c:calendar-home-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>",
            url: "https://dav.example/p/ann/")) else { Issue.record("no calendar listing"); return }
        #expect(list.url == "https://dav.example/cal/ann/" && list.headers.contains(.init("Depth", "1")))
        let found = discovery.take(multistatus("""
            <d:response><d:href>/cal/ann/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            <d:response><d:href>/cal/ann/tasks/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Tasks</d:displayname>
            <c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """, url: "https://dav.example/cal/ann/"))
        #expect(found == .found(DiscoveredAccount(principal: "https://dav.example/p/ann/", home: "https://dav.example/cal/ann/",
                                                  calendars: [RemoteCalendar(url: "https://dav.example/cal/ann/tasks/", name: "Tasks", components: ["VTODO"])])))
    }

    @Test func aRefusedPasswordEndsDiscoveryAtOnce() {
        var discovery = Discovery(address: "https://dav.example/", read: { bytes throws(DAVError) in try XMLReader.read(bytes) })
        #expect(discovery.take(.success(HTTPResponse(status: 401, url: "https://dav.example/"))) == .failed(.unauthorized(url: "https://dav.example/")))
    }

    @Test func onlyLoopbackIsPlainHTTPWithoutAsking() {
        #expect(HTTPRequest.isLoopback("http://127.0.0.1:5232/"))
        #expect(HTTPRequest.isLoopback("http://localhost/dav"))
        #expect(HTTPRequest.isLoopback("http://[::1]:8080/"))
        #expect(!HTTPRequest.isLoopback("http://127.0.0.1.evil.example/"))
        #expect(!HTTPRequest.isLoopback("http://dav.example/"))
    }

    @Test func oneObjectIsOneKeyHoweverAServerSpellsItsAddress() {
        #expect(CalDAVRequest.canonical("http://h:1/cal/a%40nudge.ics") == CalDAVRequest.canonical("http://h:1/cal/a@nudge.ics"))
        #expect(CalDAVRequest.canonical("http://h:1/cal/a%20b.ics") == "http://h:1/cal/a%20b.ics")
        #expect(CalDAVRequest.canonical("http://h:1/cal/%E2%9C%93.ics") == CalDAVRequest.canonical("http://h:1/cal/✓.ics"))
    }

    @Test func writesAreAlwaysConditional() {
        let new = CalDAVRequest.put("https://d/x.ics", text: [], etag: nil)
        #expect(new.headers.contains(.init("If-None-Match", "*")))
        let change = CalDAVRequest.put("https://d/x.ics", text: [], etag: "\"3\"")
        #expect(change.headers.contains(.init("If-Match", "\"3\"")))
        #expect(CalDAVRequest.delete("https://d/x.ics", etag: "\"3\"").headers == [.init("If-Match", "\"3\"")])
    }

    // MARK: Answers

    static func at(_ text: String) -> Date { AlarmAnswers.utc(text)! }

    @Test func doneHereAcknowledgesEveryAlarmAndOnlyEverMovesForward() {
        let phone = Self.event(["UID:p@phone", "DTSTART:20301202T090000Z", "SUMMARY:Dentist"],
                               alarms: [["ACTION:DISPLAY", "TRIGGER:-PT30M", "DESCRIPTION:Dentist"],
                                        ["ACTION:AUDIO", "TRIGGER:-PT5M", "ACKNOWLEDGED:20301202T083000Z"],
                                        ["ACTION:X-APPLE-PROXIMITY", "TRIGGER:PT0S"]])
        let marked = AlarmAnswers.mark(phone, .init(acknowledged: Self.at("20301202T083100Z")))
        let event = marked.components[0]
        #expect(event.components.map { $0["ACKNOWLEDGED"]?.value } == ["20301202T083100Z", "20301202T083100Z", nil],
                "display and audio alarms acknowledged, another app's kind left alone")
        #expect(event["X-MOZ-LASTACK"]?.value == "20301202T083100Z")
        #expect(AlarmAnswers.acknowledged(in: marked) == Self.at("20301202T083100Z"))
        // Marking twice is marking once; an earlier answer moves nothing back.
        #expect(AlarmAnswers.mark(marked, .init(acknowledged: Self.at("20301202T083100Z"))) == marked)
        #expect(AlarmAnswers.mark(marked, .init(acknowledged: Self.at("20301202T080000Z"))) == marked)
    }

    /// A changed occurrence's own alarms are acknowledged too (Done on its moved time is
    /// an answer to them); the snooze stays the series'.
    @Test func aChangedOccurrencesAlarmIsAcknowledgedAndNotSnoozed() {
        var series = Self.event(["UID:m@phone", "DTSTART:20301202T090000Z", "RRULE:FREQ=WEEKLY", "SUMMARY:Meeting"],
                                alarms: [["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:Meeting"]])
        let moved = Self.event(["UID:m@phone", "RECURRENCE-ID:20301209T090000Z", "DTSTART:20301210T130000Z", "SUMMARY:Meeting"],
                               alarms: [["ACTION:DISPLAY", "TRIGGER:-PT30M", "DESCRIPTION:Meeting"]]).components[0]
        series.components.append(moved)
        let marked = AlarmAnswers.mark(series, .init(acknowledged: Self.at("20301210T123100Z"), snoozedUntil: Self.at("20301210T124100Z")))
        #expect(marked.components[1].components.map { $0["ACKNOWLEDGED"]?.value } == ["20301210T123100Z"])
        #expect(marked.components[1]["X-MOZ-LASTACK"]?.value == "20301210T123100Z")
        #expect(marked.components[0].components.count == 2 && marked.components[1].components.count == 1, "the snooze alarm on the series only")
        #expect(AlarmAnswers.acknowledged(in: marked) == Self.at("20301210T123100Z"))
    }

    @Test func aSnoozeHereIsAnRFC9074SnoozeAlarmThatGoesWhenItIsOver() {
        let task = CalendarObject.read((["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTODO", "UID:rent@tasks.org",
                                         "DUE:20301201T090000Z", "SUMMARY:Pay the rent", "BEGIN:VALARM", "ACTION:DISPLAY",
                                         "TRIGGER;RELATED=END:-PT1H", "END:VALARM", "END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")!
        let snoozed = AlarmAnswers.mark(task, .init(acknowledged: Self.at("20301201T080100Z"), snoozedUntil: Self.at("20301201T081100Z")))
        let todo = snoozed.components[0]
        #expect(todo.components.count == 2)
        let original = todo.components[0], snooze = todo.components[1]
        #expect(original["UID"]?.value == "rent@tasks.org#alarm", "named, so the snooze can name it")
        #expect(original["ACKNOWLEDGED"]?.value == "20301201T080100Z")
        #expect(AlarmAnswers.isSnooze(snooze) && snooze["RELATED-TO"]?.value == "rent@tasks.org#alarm")
        #expect(snooze["TRIGGER"]?.value == "20301201T081100Z" && snooze["TRIGGER"]?.parameter("VALUE") == "DATE-TIME")
        #expect(snooze["DESCRIPTION"]?.text == "Pay the rent", "a display alarm has its text")
        #expect(todo["X-MOZ-SNOOZE-TIME"]?.value == "20301201T081100Z")
        #expect(AlarmAnswers.snoozedUntil(in: snoozed) == Self.at("20301201T081100Z"))
        #expect(AlarmAnswers.snoozedUntil(in: task) == nil)
        #expect(!ObjectMerge.isNudgeAlarm(snooze), "a snooze is an answer's alarm, not the reminder's")
        // Snoozed again: moved, not doubled. Over: gone, with the Thunderbird time it wrote.
        let again = AlarmAnswers.mark(snoozed, .init(acknowledged: Self.at("20301201T081200Z"), snoozedUntil: Self.at("20301201T082200Z")))
        #expect(again.components[0].components.filter(AlarmAnswers.isSnooze).map { $0["TRIGGER"]?.value } == ["20301201T082200Z"])
        let over = AlarmAnswers.mark(again, .init(acknowledged: Self.at("20301201T082300Z")))
        #expect(over.components[0].components.count == 1 && over.components[0]["X-MOZ-SNOOZE-TIME"] == nil)
        #expect(AlarmAnswers.mark(over, .init(acknowledged: Self.at("20301201T082300Z"))) == over)
        // Done with the setting on: the task is completed, once.
        let done = AlarmAnswers.mark(over, .init(acknowledged: Self.at("20301201T082300Z"), complete: Self.at("20301201T082300Z")))
        #expect(done.components[0]["STATUS"]?.value == "COMPLETED" && done.components[0]["PERCENT-COMPLETE"]?.value == "100")
        #expect(done.components[0]["COMPLETED"]?.value == "20301201T082300Z")
        #expect(AlarmAnswers.mark(done, .init(acknowledged: Self.at("20301201T090000Z"), complete: Self.at("20301201T090000Z")))
                    .components[0]["COMPLETED"]?.value == "20301201T082300Z")
    }

    @Test func acknowledgementsOnBothSidesAreNoConflictTheLaterIsKept() {
        let base = Self.event(["UID:p@phone", "DTSTART:20301202T090000Z", "SUMMARY:Dentist"], alarms: [["ACTION:DISPLAY", "TRIGGER:-PT30M"]])
        let ours = AlarmAnswers.mark(base, .init(acknowledged: Self.at("20301202T083100Z")))
        let theirs = AlarmAnswers.mark(base, .init(acknowledged: Self.at("20301202T083500Z")))
        let decision = ObjectDecision.decide(base: base, ours: ours, theirs: theirs)
        #expect(decision.conflicts.isEmpty)
        #expect(decision.agreed == theirs && decision.send == nil)
        let later = ObjectDecision.decide(base: base, ours: theirs, theirs: ours)
        #expect(later.conflicts.isEmpty && later.send == theirs)
    }

    @Test func aDeletionHereWinsOverAnAnswerThereNotOverAnEdit() {
        let base = Self.event(["UID:m@nudge", "DTSTAMP:20301101T000000Z", "DTSTART:20301202T090000Z", "SUMMARY:Tea"],
                              alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S"]])
        var answered = AlarmAnswers.mark(base, .init(acknowledged: Self.at("20301202T090100Z"), snoozedUntil: Self.at("20301202T091100Z")))
        answered = Self.changed(answered, "DTSTAMP", "20301202T090100Z")
        let decision = ObjectDecision.decide(base: base, ours: nil, theirs: answered)
        #expect(decision.deleteThere && decision.take == nil && decision.conflicts.isEmpty)
        // Saved again by the phone's library: its own order and spelling (PT0S as P0D) is no edit.
        var resaved = answered
        resaved.components[0].properties.reverse()
        resaved.components[0].components[0].properties = resaved.components[0].components[0].properties.map {
            $0.name == "TRIGGER" ? Property("TRIGGER", "P0D") : $0
        }
        #expect(ObjectDecision.decide(base: base, ours: nil, theirs: resaved).deleteThere)
        let edited = ObjectDecision.decide(base: base, ours: nil, theirs: Self.changed(answered, "SUMMARY", "Green tea"))
        #expect(!edited.deleteThere && edited.take != nil && edited.conflicts == ["deleted here"])
    }

    @Test func aSnoozeHereMergesWithAnEditThereAlarmByAlarm() {
        let base = Self.event(["UID:d@nudge", "DTSTART:20301202T090000Z", "RRULE:FREQ=HOURLY", "SUMMARY:R1"],
                              alarms: [["ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:R1"], ["ACTION:AUDIO", "TRIGGER:PT0S"]])
        let ours = AlarmAnswers.mark(base, .init(acknowledged: Self.at("20301202T090100Z"), snoozedUntil: Self.at("20301202T091100Z")))
        let theirs = Self.changed(base, "SUMMARY", "R7")
        let decision = ObjectDecision.decide(base: base, ours: ours, theirs: theirs)
        #expect(decision.conflicts.isEmpty)
        let merged = try! #require(decision.agreed).components[0]
        #expect(merged["SUMMARY"]?.value == "R7")
        // Each alarm once: the server's in their places, the snooze (only ours has it) after them.
        #expect(merged.components.map { $0["ACTION"]?.value } == ["DISPLAY", "AUDIO", "DISPLAY"])
        #expect(merged.components.map { $0["ACKNOWLEDGED"] != nil } == [true, true, false])
        #expect(merged.components[2]["RELATED-TO"]?.value == merged.components[0]["UID"]?.value)
        #expect(AlarmAnswers.mark(merged, .init(acknowledged: Self.at("20301202T090100Z"), snoozedUntil: Self.at("20301202T091100Z"))) == merged)
    }

    @Test func aFollowedCalendarIsWrittenOnlyForAnAnswerHere() {
        let phone = Self.event(["UID:p@phone", "DTSTART:20301202T090000Z", "SUMMARY:Phone"], alarms: [["ACTION:DISPLAY", "TRIGGER:-PT5M"]])
        let id = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
        let known = [CollectionPlan.Known(url: "https://dav.example/cal/p.ics", uid: "p@phone", etag: "\"1\"", agreed: phone, alertID: id)]
        let quiet = CollectionPlan.plan(calendar: "https://dav.example/cal/", known: known, changed: [], removed: [], local: nil)
        #expect(quiet.steps.allSatisfy { $0.decision.send == nil })
        let marks = [id: AlarmAnswers.Marks(acknowledged: Self.at("20301202T085600Z"))]
        let answered = CollectionPlan.plan(calendar: "https://dav.example/cal/", known: known, changed: [], removed: [], local: nil, marks: marks)
        let step = answered.steps[0]
        #expect(step.decision.state == .changedHere && step.etag == "\"1\"")
        #expect(step.decision.send.flatMap(AlarmAnswers.acknowledged) == Self.at("20301202T085600Z"))
        // Deleted on the phone meanwhile: an answer here does not bring it back.
        let gone = CollectionPlan.plan(calendar: "https://dav.example/cal/", known: known, changed: [], removed: ["https://dav.example/cal/p.ics"],
                                       local: nil, marks: marks)
        #expect(gone.steps[0].decision.deleteHere && gone.steps[0].decision.send == nil)
    }

    @Test("UTC date-times read and write alike", arguments: ["19700101T000000Z", "20301202T083100Z", "20240229T235959Z", "99991231T235959Z"])
    func utcTimesRoundTrip(_ text: String) {
        #expect(AlarmAnswers.utc(text).map(AlarmAnswers.utcText) == text)
    }

    @Test func notUTCIsNotATime() {
        #expect(AlarmAnswers.utc("20301202T083100") == nil && AlarmAnswers.utc("2030-12-02T08:31:00Z") == nil && AlarmAnswers.utc("20301302T083100Z") == nil)
    }


    // MARK: The desktop's own calendars

    /// A CalDAV calendar as GNOME's source registry writes it (evolution-data-server 3.46).
    static let evolutionSource = """
    [Data Source]
    DisplayName=Phone
    Enabled=true
    Parent=caldav-stub

    [Authentication]
    Host=Cloud.Example.org
    Port=443
    User=ann
    Method=plain/password
    ProxyUid=system-proxy

    [Security]
    Method=tls

    [WebDAV Backend]
    ResourcePath=/remote.php/dav/calendars/ann/personal/

    [Calendar]
    BackendName=caldav

    [Alarms]
    IncludeMe=true
    """

    /// Akonadi's DAV resource map as Qt 5's QDataStream writes a `QMap<QString, QString>`:
    /// the count, then each key and value (a QString: its byte length, then UTF-16BE).
    static func qMap(_ pairs: [(String?, String?)]) -> [UInt8] {
        func u32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> $0) } }
        func string(_ text: String?) -> [UInt8] {
            guard let text else { return [0xFF, 0xFF, 0xFF, 0xFF] }
            let units = Array(text.utf16)
            return u32(units.count * 2) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        return u32(pairs.count) + pairs.flatMap { string($0.0) + string($0.1) }
    }

    @Test func aCalendarKDERingsIsKnownByItsAkonadiResourcesMap() throws {
        let bytes = Self.qMap([("https://ann@cloud.example.org/remote.php/dav/calendars/ann/personal/", "https://cloud.example.org/remote.php/dav,CalDav"),
                               ("https://cloud.example.org/remote.php/dav/addressbooks/users/ann/contacts/", "https://cloud.example.org/remote.php/dav,CardDav"),
                               ("https://cloud.example.org/remote.php/dav/calendars/ann/työ/", "https://cloud.example.org/remote.php/dav,CalDav"),
                               (nil, "x,CalDav")])
        let calendars = try #require(DesktopCalendars.akonadiCollections(bytes, resource: "akonadi_davgroupware_resource_0", rings: true))
        #expect(calendars.count == 2 && calendars.allSatisfy { $0.ringsAlarms && $0.desktop == "KDE (Akonadi)" })
        #expect(DesktopCalendars.sameCalendar(calendars[0].url, "https://cloud.example.org/remote.php/dav/calendars/ann/personal"), "a user in the address is not the collection's")
        #expect(DesktopCalendars.sameCalendar(calendars[1].url, "https://cloud.example.org/remote.php/dav/calendars/ann/ty%C3%B6/"))
        #expect(DesktopCalendars.akonadiCollections(bytes, resource: "r", rings: false)?.allSatisfy { !$0.ringsAlarms } == true)
        // Cut short, an odd length, bytes after the map, a count beyond reason: not a map.
        #expect(DesktopCalendars.akonadiCollections(Array(bytes.dropLast()), resource: "r", rings: true) == nil)
        #expect(DesktopCalendars.akonadiCollections([0, 0, 0, 1, 0, 0, 0, 3, 0, 65, 0], resource: "r", rings: true) == nil)
        #expect(DesktopCalendars.akonadiCollections(bytes + [0], resource: "r", rings: true) == nil)
        #expect(DesktopCalendars.akonadiCollections([0xFF, 0xFF, 0xFF, 0xFE], resource: "r", rings: true) == nil)
        #expect(DesktopCalendars.akonadiCollections(Self.qMap([]), resource: "r", rings: true) == [])
    }

    @Test func aCalendarGNOMERingsIsKnownByItsAddress() throws {
        let calendar = try #require(DesktopCalendars.evolutionSource(Self.evolutionSource))
        #expect(calendar.name == "Phone" && calendar.ringsAlarms)
        #expect(DesktopCalendars.sameCalendar(calendar.url, "https://cloud.example.org/remote.php/dav/calendars/ann/personal/"))
        #expect(DesktopCalendars.sameCalendar(calendar.url, "https://cloud.example.org:443/remote.php/dav/calendars/ann/personal"))
        #expect(!DesktopCalendars.sameCalendar(calendar.url, "http://cloud.example.org/remote.php/dav/calendars/ann/personal/"))
        #expect(!DesktopCalendars.sameCalendar(calendar.url, "https://cloud.example.org/remote.php/dav/calendars/ann/work/"))
        // Its alarms switched off there, or the calendar disabled: GNOME rings nothing of it.
        let quiet = Self.evolutionSource.replacingOccurrences(of: "IncludeMe=true", with: "IncludeMe=false")
        #expect(DesktopCalendars.evolutionSource(quiet)?.ringsAlarms == false)
        let off = Self.evolutionSource.replacingOccurrences(of: "Enabled=true", with: "Enabled=false")
        #expect(DesktopCalendars.evolutionSource(off)?.ringsAlarms == false)
        // Plain http on another port; a task list; not CalDAV at all.
        let local = Self.evolutionSource.replacingOccurrences(of: "Method=tls", with: "Method=none").replacingOccurrences(of: "Port=443", with: "Port=5232")
        #expect(DesktopCalendars.evolutionSource(local)?.url == "http://cloud.example.org:5232/remote.php/dav/calendars/ann/personal/")
        let tasks = Self.evolutionSource.replacingOccurrences(of: "[Calendar]", with: "[Task List]")
        #expect(DesktopCalendars.evolutionSource(tasks) != nil)
        #expect(DesktopCalendars.evolutionSource(Self.evolutionSource.replacingOccurrences(of: "BackendName=caldav", with: "BackendName=local")) == nil)
        #expect(DesktopCalendars.evolutionSource("not a key file\u{0}[[[") == nil)
    }

}
