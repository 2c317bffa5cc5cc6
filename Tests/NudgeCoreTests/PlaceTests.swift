import Foundation
import MemoryDelivery
import NudgeCore
import Testing

/// Place reminders as values: what the sources' readings mean (arrivals, departures,
/// flapping), which reminders an event fires (hours in the alert's zone, days, the rest
/// after a showing), and their stored, worded and flagged forms. Fixed instants, no clock.
struct PlaceTests {
    /// The Korean words the summaries use, as the catalog has them.
    static let koreanWords: [String: String] = [
        "on arriving at %s": "%s에 도착하면", "on leaving %s": "%s에서 떠나면",
        "on arriving within %1$s of %2$s": "(%2$s) 반경 %1$s 안에 들어오면", "on leaving the %1$s around %2$s": "(%2$s) 반경 %1$s 밖으로 나가면",
        "at most once every %s": "%s에 한 번까지", "%d s": "%d초", "%d min": "%d분", "%d h": "%d시간", "%1$d h %2$d min": "%1$d시간 %2$d분",
        "Sun": "일", "Mon": "월", "Tue": "화", "Wed": "수", "Thu": "목", "Fri": "금", "Sat": "토",
    ]

    let t0 = utc("2026-11-23T08:00:00Z")
    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    let office = PlaceTrigger.Spot.network("office")

    // MARK: PlaceTracker

    @Test func theFirstReadingIsWhereYouAreNotAnArrival() {
        var tracker = PlaceTracker(settle: 120)
        #expect(tracker.networks(["office", "ACME"], now: t0).isEmpty)
        #expect(tracker.places == [.network("ACME"), .network("office")])
        #expect(tracker.networks(["office", "ACME", "home"], now: at(10)) == [PlaceEvent(.arrive, .network("home"))])
    }

    @Test func aDepartureCountsOnceGoneForTheSettleTime() {
        var tracker = PlaceTracker(settle: 120)
        _ = tracker.networks(["office"], now: t0)
        #expect(tracker.networks([], now: at(10)).isEmpty)
        #expect(tracker.deadline == at(130))
        #expect(tracker.settle(now: at(129)).isEmpty)
        #expect(tracker.settle(now: at(130)) == [PlaceEvent(.leave, office)])
        #expect(tracker.deadline == nil)
        #expect(tracker.places.isEmpty)
        #expect(tracker.networks(["office"], now: at(200)) == [PlaceEvent(.arrive, office)])
    }

    /// Connect, disconnect, connect within a minute: one arrival, no departure.
    @Test func flappingIsOneStay() {
        var tracker = PlaceTracker(settle: 120)
        _ = tracker.networks([], now: t0)
        #expect(tracker.networks(["office"], now: at(1)) == [PlaceEvent(.arrive, office)])
        #expect(tracker.networks([], now: at(20)).isEmpty)
        #expect(tracker.networks(["office"], now: at(50)).isEmpty)
        #expect(tracker.deadline == nil)
        #expect(tracker.settle(now: at(1000)).isEmpty)
    }

    /// A source that vanishes says nothing (the daemon stops asking it); what it says on
    /// its return is compared with what it said last.
    @Test func aReturningSourceIsComparedWithItsLastWord() {
        var tracker = PlaceTracker(settle: 120)
        _ = tracker.networks(["office"], now: t0)
        #expect(tracker.networks(["office"], now: at(600)).isEmpty)
        #expect(tracker.networks(["home"], now: at(700)) == [PlaceEvent(.arrive, .network("home"))])
        #expect(tracker.settle(now: at(820)) == [PlaceEvent(.leave, office)])
    }

    @Test func areasHaveABaselineEachAndForgetWhenNoLongerNamed() throws {
        let station = try #require(PlaceTrigger.Area(latitude: 37.5547, longitude: 126.9707, radius: 500))
        let park = try #require(PlaceTrigger.Area(latitude: 37.5700, longitude: 126.9800, radius: 300))
        var tracker = PlaceTracker(settle: 60)
        // Inside the station's circle at the first fix: where you are.
        #expect(tracker.position(latitude: 37.5550, longitude: 126.9710, areas: [station], now: t0).isEmpty)
        // A second area's first fix is its own baseline.
        #expect(tracker.position(latitude: 37.5700, longitude: 126.9801, areas: [station, park], now: at(10)).isEmpty)
        // The station's departure is settling: it still counts.
        #expect(tracker.places == [.area(station), .area(park)])
        #expect(tracker.settle(now: at(70)) == [PlaceEvent(.leave, .area(station))])
        #expect(tracker.position(latitude: 37.5549, longitude: 126.9707, areas: [station, park], now: at(100)) == [PlaceEvent(.arrive, .area(station))])
        // A fix whose error is wider than a circle says nothing of it.
        // (The park's departure, begun at 100 s, is still settling, untouched.)
        #expect(tracker.position(latitude: 37.60, longitude: 127.1, accuracy: 5_000, areas: [station, park], now: at(110)).isEmpty)
        #expect(tracker.deadline == at(160))
        #expect(tracker.places == [.area(station), .area(park)])
        tracker.keepAreas([station])
        #expect(tracker.places == [.area(station)])
        #expect(tracker.deadline == nil, "the park's departure is forgotten with it")
    }

    @Test func anAreasEdgeAndAccuracy() throws {
        let area = try #require(PlaceTrigger.Area(latitude: 0, longitude: 0, radius: 1000))
        // 0.008983° of latitude is 998.9 m at the equator.
        #expect(area.contains(latitude: 0.008983, longitude: 0))
        #expect(!area.contains(latitude: 0.009, longitude: 0))
        #expect([50.0, 199, 200, 1999, 2000, 29_999, 30_000, 300_000].map { PlaceTrigger.Area(latitude: 0, longitude: 0, radius: $0)!.accuracyLevel }
                == [8, 8, 6, 6, 5, 5, 4, 1])
        #expect(PlaceTrigger.Area(latitude: 91, longitude: 0, radius: 100) == nil)
        #expect(PlaceTrigger.Area(latitude: 0, longitude: 0, radius: 49) == nil)
    }

    // MARK: Which reminders fire

    func trigger(_ flags: ScheduleFlags) throws -> PlaceTrigger {
        guard case .place(let trigger) = try ScheduleParser.schedule(flags, now: t0, zone: utcZone) else { throw CocoaError(.coderInvalidValue) }
        return trigger
    }

    /// Hours and days are the alert's zone's; the rest counts from the last showing.
    @Test func hoursDaysAndRest() throws {
        let morning = try trigger(ScheduleFlags(days: "weekdays", from: "08:00", until: "11:00", arrive: "office", oncePer: "4h"))
        let seoul = zone("Asia/Seoul")
        let arrive = PlaceEvent(.arrive, office)
        // Monday 2026-11-23 09:00 in Seoul is 00:00 UTC.
        #expect(morning.matches(arrive, now: utc("2026-11-23T00:00:00Z"), zone: seoul, last: nil))
        #expect(!morning.matches(arrive, now: utc("2026-11-23T02:00:01Z"), zone: seoul, last: nil), "11:00:01 is after the hours")
        #expect(!morning.matches(arrive, now: utc("2026-11-22T00:00:00Z"), zone: seoul, last: nil), "Sunday")
        #expect(!morning.matches(PlaceEvent(.leave, office), now: utc("2026-11-23T00:00:00Z"), zone: seoul, last: nil))
        #expect(!morning.matches(PlaceEvent(.arrive, .network("Office")), now: utc("2026-11-23T00:00:00Z"), zone: seoul, last: nil), "names are exact")
        let shown = utc("2026-11-23T00:00:00Z")
        #expect(!morning.matches(arrive, now: shown.addingTimeInterval(4 * 3600 - 1), zone: seoul, last: shown))
        // Four hours after 09:00 is 13:00, after the hours: the next morning's arrival counts.
        #expect(morning.matches(arrive, now: utc("2026-11-24T00:30:00Z"), zone: seoul, last: shown))
    }

    @Test func theSchedulerFiresWhatAnEventMatches() throws {
        let a = Alert(title: "Timesheet", schedule: .place(try trigger(ScheduleFlags(arrive: "office", oncePer: "4h"))), created: t0)
        let b = Alert(title: "Bye", schedule: .place(try trigger(ScheduleFlags(leave: "office"))), created: t0)
        let timed = try alert(ScheduleFlags(at: ["09:00"]), title: "Stand up", created: t0)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a, b, timed], zone: utcZone, now: t0, delivery: delivery)
        #expect(scheduler.nextShowing(a.id)?.instant == nil)
        #expect(scheduler.placesWatched.networks == ["office"])
        #expect(scheduler.place(PlaceEvent(.arrive, office), now: at(60)) == [.fired(alert: a.id, due: at(60), deliveryID: 1, count: 1)])
        // Within its rest: nothing; the departure fires the other.
        #expect(scheduler.place(PlaceEvent(.arrive, office), now: at(3600)).isEmpty)
        #expect(scheduler.place(PlaceEvent(.leave, office), now: at(3700)).map(\.alertID) == [b.id])
        #expect(delivery.delivered.map(\.notification.summary) == ["Timesheet", "Bye"])
        // Away: held for the return, as a timed reminder is.
        scheduler.setAway(true)
        #expect(scheduler.place(PlaceEvent(.leave, office), now: at(7200)) == [.held(alert: b.id, count: 1, since: at(7200))])
        // Off: nothing, and nothing watched.
        scheduler.setEnabled(a.id, false, now: at(8000))
        #expect(scheduler.place(PlaceEvent(.arrive, office), now: at(30_000)).isEmpty)
        // Done for today skips the rest of the day.
        _ = scheduler.doneForToday(b.id, now: at(8000))
        scheduler.setAway(false)
        _ = scheduler.run(now: at(8001))
        #expect(scheduler.place(PlaceEvent(.leave, office), now: at(9000)).isEmpty)
        #expect(scheduler.place(PlaceEvent(.leave, office), now: utc("2026-11-24T09:00:00Z")).map(\.alertID) == [b.id])
    }

    @Test func aRefusedPopUpWaitsForTheServer() throws {
        let a = Alert(title: "Timesheet", schedule: .place(try trigger(ScheduleFlags(arrive: "office"))), created: t0)
        let delivery = InMemoryDelivery()
        let scheduler = Scheduler(alerts: [a], zone: utcZone, now: t0, delivery: delivery)
        delivery.failure = DeliveryError(.noServer, "gone")
        #expect(scheduler.place(PlaceEvent(.arrive, office), now: at(60)).map(\.alertID) == [a.id])
        delivery.failure = nil
        #expect(scheduler.deliveryRestored(now: at(90)) == [.snoozeFired(alert: a.id, deliveryID: 1)])
    }

    // MARK: Forms

    @Test func storedWordedAndFlagged() throws {
        let cases: [(ScheduleFlags, String, String, String)] = [
            (ScheduleFlags(arrive: "office"), "place arrive - 127 - network office", "on arriving at office", "--arrive office"),
            (ScheduleFlags(days: "mon-fri", from: "08:00", until: "11:00", leave: "Kim's Home", oncePer: "90m"),
             "place leave 28800-39600 62 5400 network Kim's Home", "on leaving Kim's Home, 08:00–11:00, Mon–Fri, at most once every 1 h 30 min",
             "--leave 'Kim'\\''s Home' --from 08:00 --until 11:00 --days mon-fri --once-per 1h30m"),
            (ScheduleFlags(arrive: "37.5665,126.978,300m"), "place arrive - 127 - area 37.5665 126.978 300.0",
             "on arriving within 300 m of 37.5665, 126.978", "--arrive 37.5665,126.978,300m"),
            (ScheduleFlags(leave: "37.5,127,2km"), "place leave - 127 - area 37.5 127.0 2000.0", "on leaving the 2 km around 37.5, 127", "--leave 37.5,127,2km"),
            (ScheduleFlags(arrive: "network:1,2,3m"), "place arrive - 127 - network 1,2,3m", "on arriving at \u{201C}1,2,3m\u{201D}", "--arrive network:1,2,3m"),
        ]
        for (flags, stored, words, echoed) in cases {
            let schedule = try ScheduleParser.schedule(flags, now: t0, zone: utcZone)
            #expect(schedule.storageText == stored)
            #expect(Schedule(storageText: stored) == schedule)
            #expect(schedule.summary(in: utcZone) == words)
            #expect(schedule.flagsText(in: utcZone) == echoed)
            #expect(try ScheduleFlags(echoed: echoed).map { try ScheduleParser.schedule($0, now: t0, zone: utcZone) } == schedule)
            #expect(schedule.occurrences(after: t0, count: 3, in: utcZone).isEmpty)
        }
    }

    @Test func saidInWordsInBothLanguages() throws {
        let cases: [(String, PlaceTrigger)] = [
            ("on arriving at office-wifi", PlaceTrigger(edge: .arrive, spot: .network("office-wifi"))),
            ("When I leave Home Wi-Fi", PlaceTrigger(edge: .leave, spot: .network("Home Wi-Fi"))),
            ("office-wifi에 도착하면", PlaceTrigger(edge: .arrive, spot: .network("office-wifi"))),
            ("집 와이파이에서 나가면", PlaceTrigger(edge: .leave, spot: .network("집 와이파이"))),
            ("on arriving within 300 m of 37.5665, 126.978", PlaceTrigger(edge: .arrive, spot: .area(.init(latitude: 37.5665, longitude: 126.978, radius: 300)!))),
            ("37.5665, 126.978 반경 1 km 밖으로 나가면", PlaceTrigger(edge: .leave, spot: .area(.init(latitude: 37.5665, longitude: 126.978, radius: 1000)!))),
        ]
        for (phrase, trigger) in cases {
            let reading = try SchedulePhrase.read(phrase, now: t0, zone: utcZone)
            #expect(reading.schedule == .place(trigger), "\(phrase)")
            let english = reading.schedule.summary(in: utcZone)
            #expect(try SchedulePhrase.read(english, now: t0, zone: utcZone).schedule == reading.schedule, "\(english)")
        }
        #expect(throws: ScheduleError.self) { try SchedulePhrase.read("on arriving at 91,0,300m", now: t0, zone: utcZone) }
    }

    /// What list says reads back as the same reminder, hours, days and rest included, in
    /// each time style and both languages; a name that would read as something else is
    /// written in “…”.
    @Test func listsWordsReadBackWhole() throws {
        let korean = Language(tr: { PlaceTests.koreanWords[$0] ?? $0 }, trn: { s, _, _ in s })
        // As ICU writes times for en_US (a narrow no-break space before AM) and ko_KR.
        let twelveHour = TimeStyle(time: { t in "\((t.hour + 11) % 12 + 1):\(t.minute < 10 ? "0" : "")\(t.minute)\u{202F}\(t.hour < 12 ? "AM" : "PM")" },
                                   instant: InstantFormat.iso8601)
        let koreanStyle = TimeStyle(time: { t in "\(t.hour < 12 ? "오전" : "오후") \((t.hour + 11) % 12 + 1):\(t.minute < 10 ? "0" : "")\(t.minute)" },
                                    instant: InstantFormat.iso8601)
        let flags: [ScheduleFlags] = [
            ScheduleFlags(days: "mon-fri", from: "08:00", until: "11:00", arrive: "office", oncePer: "4h"),
            ScheduleFlags(days: "mon,wed,fri", leave: "Kim's Home", oncePer: "90m"),
            ScheduleFlags(from: "00:00", until: "12:30", arrive: "1,2,3m".replacingOccurrences(of: "1", with: "network:1")),
            ScheduleFlags(days: "sat,sun", leave: "37.5665,126.978,1.23456789km"),
            ScheduleFlags(arrive: "x, Mon"), ScheduleFlags(arrive: "x, 09:00\u{2013}10:00"), ScheduleFlags(arrive: "\u{201C}a\u{201D}"),
            ScheduleFlags(leave: "집에 도착하면"), ScheduleFlags(days: "tue", arrive: "on arriving at x", oncePer: "1m"),
            // A whole longitude west of Greenwich, last: a number, not hours (a fuzz find).
            ScheduleFlags(leave: "0.5665,-8,1km"), ScheduleFlags(from: "09:00", until: "12:00", leave: "-33,-8,1km"),
        ]
        for flag in flags {
            let schedule = try ScheduleParser.schedule(flag, now: t0, zone: utcZone)
            for (style, language) in [(TimeStyle.iso, Language.english), (twelveHour, .english), (.iso, korean), (koreanStyle, korean)] {
                let words = schedule.summary(in: utcZone, timeStyle: style, language: language)
                #expect(try SchedulePhrase.read(words, now: t0, zone: utcZone).schedule == schedule, "\(words)")
            }
        }
        #expect(try ScheduleParser.schedule(ScheduleFlags(arrive: "x, Mon"), now: t0, zone: utcZone).summary(in: utcZone) == "on arriving at \u{201C}x, Mon\u{201D}")
        // Hours that are not hours are refused, not read as part of the name.
        for wrong in ["office, 11:00\u{2013}08:00", "office, 12:00-09:00", "office, 25:00\u{2013}26:00", "office, 09:00\u{2014}", "office, 9:00 PM-9:00 AM"] {
            #expect(throws: ScheduleError.self, "\(wrong)") { try SchedulePhrase.read("on arriving at " + wrong, now: t0, zone: utcZone) }
        }
        #expect(try SchedulePhrase.read("on arriving at office, 09:00-12:00", now: t0, zone: utcZone).schedule
                == ScheduleParser.schedule(ScheduleFlags(from: "09:00", until: "12:00", arrive: "office"), now: t0, zone: utcZone))
        // A quoted name holds what would otherwise be hours, days or a rest.
        for name in ["a, at most once every 4 h", "a, Mon", "a, 09:00\u{2013}10:00"] {
            let schedule = try ScheduleParser.schedule(ScheduleFlags(days: "mon", arrive: name, oncePer: "2h"), now: t0, zone: utcZone)
            for language in [Language.english, korean] {
                let words = schedule.summary(in: utcZone, language: language)
                #expect(try SchedulePhrase.read(words, now: t0, zone: utcZone).schedule == schedule, "\(words)")
            }
        }
        // A circle south of the equator is echoed with '=' (a leading minus is an option's).
        let south = try ScheduleParser.schedule(ScheduleFlags(arrive: "-33.8688,151.2093,300m"), now: t0, zone: utcZone)
        #expect(south.flagsText(in: utcZone) == "--arrive=-33.8688,151.2093,300m")
        #expect(try ScheduleFlags(echoed: "--arrive=-33.8688,151.2093,300m").map { try ScheduleParser.schedule($0, now: t0, zone: utcZone) } == south)
        #expect(south.summary(in: utcZone, language: korean) == "(-33.8688, 151.2093) 반경 300 m 안에 들어오면")
    }

    @Test func whatIsTypedAsACircleIsACircleOrRefused() throws {
        for typo in ["1,2,3,4m", "1,2,300m,", "\u{FF11},\u{FF12},\u{FF13}00m", "0,0,49.96m", "0,0,1e3m", "0,0,100mm", "nan,0,100m", "inf,0,100m", "0,0,km", "37.5665,126.978,300", "0x10,2,300m"] {
            #expect(throws: ScheduleError.self, "\(typo)") { _ = try PlaceTrigger.spot(typo) }
        }
        #expect(try PlaceTrigger.spot("37.5665, 126.978, 300 m") == .area(.init(latitude: 37.5665, longitude: 126.978, radius: 300)!))
        #expect(try PlaceTrigger.spot("network:37.5665,126.978,300") == .network("37.5665,126.978,300"))
        #expect(try PlaceTrigger.spot("1,2,1.23456789km") == .area(.init(latitude: 1, longitude: 2, radius: 1234.6)!))
        #expect(PlaceTrigger.Area(latitude: 0.0000001, longitude: -0.0000004, radius: 1000.00001)?.text == "0,0,1km")
        // The joiner and variation selector inside an emoji are the emoji's.
        #expect(try PlaceTrigger.spot("Kim's \u{2615}\u{FE0F} \u{1F468}\u{200D}\u{1F469}") == .network("Kim's \u{2615}\u{FE0F} \u{1F468}\u{200D}\u{1F469}"))
        for hidden in ["off\u{200B}ice", "\u{202E}office", "off\u{2028}ice", "\u{3164}office", "off\u{034F}ice", "off\u{FE0F}ice"] {
            #expect(throws: ScheduleError.self, "\(hidden.unicodeScalars.map { String($0.value, radix: 16) })") { _ = try PlaceTrigger.spot(hidden) }
        }
        #expect(Schedule(storageText: "place arrive - 127 - network  a ") == nil)
        #expect(Schedule(storageText: "place arrive - 127 - network a\u{200B}") == nil)
        // A mark first would join the quote list writes before the name (the phrase fuzz
        // target's find); after a letter it is the letter's.
        #expect(throws: ScheduleError.self) { _ = try PlaceTrigger.spot("\u{0319}at home") }
        #expect(throws: ScheduleError.self) { _ = try PlaceTrigger.spot("\u{20DD}") }
        #expect(try PlaceTrigger.spot("cafe\u{0301}") == .network("cafe\u{0301}"))
        #expect(Schedule(storageText: "place leave - 127 - network \u{0319}at") == nil)
        // A name starting with a minus, even one that needs quotes, is joined to its flag;
        // the '=' inside a value stays the value's (the phrase fuzz target's find).
        let dashed = PlaceTrigger(edge: .arrive, spot: .network("--a=b c"), window: nil, days: Schedule.everyDay, oncePer: nil)
        #expect(dashed.flagsText == "--arrive='--a=b c'")
        #expect(ScheduleFlags(echoed: dashed.flagsText)?.arrive == "--a=b c")
        #expect(ScheduleFlags(echoed: "--leave -x=y")?.leave == "-x=y")
    }

    @Test func badFlagsSayWhatIsWrong() {
        func problem(_ flags: ScheduleFlags) -> String {
            do { _ = try ScheduleParser.schedule(flags, now: t0, zone: utcZone); return "accepted" } catch { return error.description }
        }
        #expect(problem(ScheduleFlags(arrive: "a", leave: "b")) == "more than one schedule '--arrive --leave': give exactly one (use --at, --every, --in, --on, --cron, --arrive or --leave)")
        #expect(problem(ScheduleFlags(at: ["09:00"], oncePer: "4h")) == "--once-per needs --arrive or --leave '4h' (use e.g. --arrive office-wifi --once-per 4h)")
        #expect(problem(ScheduleFlags(arrive: "  ")).hasPrefix("invalid place '  ': the name is empty"))
        #expect(problem(ScheduleFlags(arrive: "a\u{1B}[2J")).contains("control character"))
        #expect(problem(ScheduleFlags(arrive: "37,127,10m")).contains("the radius 50m to 1000km"))
        #expect(problem(ScheduleFlags(arrive: "x", oncePer: "30s")).contains("--once-per"))
        #expect(problem(ScheduleFlags(from: "09:00", arrive: "x")) == "a window needs both --from and --until '09:00' (use --from 09:30 --until 21:30)")
    }
}
