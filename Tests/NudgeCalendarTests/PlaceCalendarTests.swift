import Foundation
import ICalendar
@testable import NudgeCalendar
import NudgeCore
import Testing

/// Place reminders in a calendar file: no standard property says "on arriving", so they go
/// out as an event on the day they were made, without a rule or an alarm, with X-NUDGE-PLACE-*
/// properties; Nudge's export reads back whole, and the X-NUDGE-PLACE-* properties alone
/// (a file written by hand or by another program) read back too.
struct PlaceCalendarTests {
    let created = CalendarImportTests.instant("2026-11-23T08:00:00Z")
    let now = "2026-11-25T00:00:00Z"

    func place(_ flags: ScheduleFlags, title: String) throws -> Alert {
        Alert(title: title, schedule: try ScheduleParser.schedule(flags, now: created, zone: CalendarImportTests.utc), created: created)
    }

    func exported(_ alerts: [Alert]) -> String {
        var bytes: [UInt8] = []
        CalendarExport.write(alerts, system: CalendarImportTests.utc) { (piece: [UInt8]) in bytes += piece }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func nudgesExportReadsBackWhole() throws {
        let alerts = [try place(ScheduleFlags(days: "mon-fri", from: "08:00", until: "11:00", arrive: "office", oncePer: "4h"), title: "Timesheet"),
                      try place(ScheduleFlags(leave: "Kim's Home; Wi-Fi"), title: "Lock the door"),
                      try place(ScheduleFlags(arrive: "37.5665,126.978,300m"), title: "Station")]
        let text = exported(alerts)
        #expect(text.contains("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:office\r\nX-NUDGE-PLACE-HOURS:08:00-11:00\r\nX-NUDGE-PLACE-DAYS:MO\\,TU\\,WE\\,TH\\,FR\r\nX-NUDGE-PLACE-ONCE-PER:14400\r\n"))
        #expect(text.contains("X-NUDGE-PLACE-NETWORK:Kim's Home\\; Wi-Fi\r\n"))
        #expect(text.contains("X-NUDGE-PLACE-AREA:37.5665\\;126.978\\;300.0\r\n"), "TEXT, escaped: a server may read it so")
        #expect(!text.contains("RRULE") && !text.contains("VALARM"), "no rule or alarm another calendar would show at a time")
        let read = CalendarImport.alerts(in: try Component.read(text), system: CalendarImportTests.utc, now: CalendarImportTests.instant(now))
        #expect(read.compactMap(CalendarImportTests.alert) == alerts)
    }

    @Test func thePlacePropertiesAloneReadBack() throws {
        let read = try CalendarImportTests.outcomes([
            "UID:a@example\r\nDTSTART:20261123T080000Z\r\nSUMMARY:Timesheet\r\nX-NUDGE-PLACE-EDGE:arrive\r\nX-NUDGE-PLACE-NETWORK:office\r\nX-NUDGE-PLACE-HOURS:08:00-11:00\r\nX-NUDGE-PLACE-DAYS:MO,FR\r\n",
            "UID:b@example\r\nDTSTART:20261123T080000Z\r\nSUMMARY:Station\r\nX-NUDGE-PLACE-EDGE:LEAVE\r\nX-NUDGE-PLACE-AREA:37.5;127;2000\r\nX-NUDGE-PLACE-ONCE-PER:3600\r\n",
        ], now: now)
        let schedules = read.compactMap(CalendarImportTests.alert).map(\.schedule)
        #expect(schedules == [
            .place(PlaceTrigger(edge: .arrive, spot: .network("office"), window: DayWindow(start: LocalTime(hour: 8, minute: 0)!, end: LocalTime(hour: 11, minute: 0)!),
                                days: [.monday, .friday])),
            .place(PlaceTrigger(edge: .leave, spot: .area(.init(latitude: 37.5, longitude: 127, radius: 2000)!), oncePer: 3600)),
        ])
    }

    @Test func badPlacePropertiesAreRefusedWithTheirReason() throws {
        let cases: [(String, String)] = [
            ("X-NUDGE-PLACE-EDGE:NEAR\r\nX-NUDGE-PLACE-NETWORK:x\r\n", "X-NUDGE-PLACE-EDGE “NEAR” is not ARRIVE or LEAVE"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\n", "X-NUDGE-PLACE-EDGE without X-NUDGE-PLACE-NETWORK or X-NUDGE-PLACE-AREA"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-AREA:91;0;300\r\n", "X-NUDGE-PLACE-AREA “91;0;300” is not LATITUDE;LONGITUDE;RADIUS (degrees, metres from 50 to 1,000,000)"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK: \r\n", "X-NUDGE-PLACE-NETWORK “ ” is not a network's name"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:x\r\nX-NUDGE-PLACE-DAYS:MO,XX\r\n", "X-NUDGE-PLACE-DAYS “MO,XX” is not a list of MO, TU, WE, TH, FR, SA, SU"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:x\r\nX-NUDGE-PLACE-ONCE-PER:5\r\n", "X-NUDGE-PLACE-ONCE-PER “5” is not seconds from 60 to 2592000"),
            ("X-NUDGE-SCHEDULE:place arrive - 127 - network \r\n", "X-NUDGE-SCHEDULE “place arrive - 127 - network ” is not one this Nudge reads"),
            ("X-NUDGE-SCHEDULE:place arrive - 127 - network  a \r\n", "X-NUDGE-SCHEDULE “place arrive - 127 - network  a ” is not one this Nudge reads"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:x\r\nX-NUDGE-PLACE-AREA:1;2;300\r\n",
             "X-NUDGE-PLACE-NETWORK and X-NUDGE-PLACE-AREA together: a reminder has one place"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:x\r\nX-NUDGE-PLACE-NETWORK:y\r\n", "X-NUDGE-PLACE-NETWORK is given more than once"),
            ("X-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-AREA:0x10;2;300\r\n",
             "X-NUDGE-PLACE-AREA “0x10;2;300” is not LATITUDE;LONGITUDE;RADIUS (degrees, metres from 50 to 1,000,000)"),
            ("X-NUDGE-PLACE-NETWORK:x\r\nX-NUDGE-PLACE-DAYS:MO\r\n", "X-NUDGE-PLACE-NETWORK without X-NUDGE-PLACE-EDGE: say ARRIVE or LEAVE"),
            ("X-NUDGE-SCHEDULE:place arrive - 127 - area 0x25 127.0 300.0\r\n", "X-NUDGE-SCHEDULE “place arrive - 127 - area 0x25 127.0 300.0” is not one this Nudge reads"),
            ("X-NUDGE-SCHEDULE:place arrive - 127 - network office\r\nX-NUDGE-PLACE-EDGE:ARRIVE\r\nX-NUDGE-PLACE-NETWORK:home\r\n",
             "X-NUDGE-PLACE-* and X-NUDGE-SCHEDULE say different things: edit both, or remove X-NUDGE-SCHEDULE"),
        ]
        for (properties, reason) in cases {
            let read = try CalendarImportTests.outcomes(["UID:c@example\r\nDTSTART:20261123T080000Z\r\nSUMMARY:x\r\n" + properties], now: now)
            guard case .refused(_, let said)? = read.first else { Issue.record("not refused: \(properties)"); continue }
            #expect(said.description == reason)
        }
    }
}
