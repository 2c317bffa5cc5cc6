import Foundation
import NudgeCore
import NudgeKit
import NudgeStore
import Testing
import TestSupport

/// The settings every face gives an alert, read and checked in-process: each value by its
/// own type, then how they go together. Messages are English (no catalog in tests).
@Suite(.onTestThreads)
struct AlertSettingsTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-03-02T00:00:00Z, a Monday: 09:00 in Seoul.
    let now = Date(timeIntervalSince1970: 1_772_409_600)

    func refusal(_ read: () throws(OperationError) -> Void) -> OperationError? {
        do { try read(); return nil } catch { return error }
    }

    @Test func eachValueIsReadByItsTypeOrRefusedWithItsReason() throws {
        #expect(try Urgency(parsing: "CRITICAL") == .critical)
        #expect(try Alert.Kind(parsing: "Water") == .water)
        #expect(try Alert.WhenAway(parsing: "show") == .show)
        #expect(try CatchUpChoice(parsing: "skip") == .skip)
        #expect(try ZoneChoice(parsing: "System") == .system)
        #expect(try ZoneChoice(parsing: "Asia/Seoul") == .pinned(seoul))
        #expect(try SoundChoice(parsing: "none") == .silent)
        #expect(try SoundChoice(parsing: "bell").sound == Sound("bell"))
        #expect(try SnoozeLength(parsing: "1h30m").seconds == 5400)
        #expect(try GraceLength(parsing: "30d").seconds == 30 * 86400)
        #expect(try NagInterval(parsing: "none") == .never)
        #expect(try NagInterval(parsing: "5m") == .every(seconds: 300))
        #expect(try NagTimes(parsing: "100").count == 100)

        let refused: [(any SettingValue.Type, String, String)] = [
            (Urgency.self, "loud", "invalid urgency 'loud': use low, normal or critical"),
            (Alert.Kind.self, "tea", "invalid kind 'tea': use water or reminder"),
            (Alert.WhenAway.self, "later", "invalid --when-away 'later': use hold or show"),
            (CatchUpChoice.self, "all", "invalid catch-up 'all': use once or skip"),
            (NagTimes.self, "101", "invalid --nag-max '101': use 1 to 100"),
            (NagTimes.self, "x", "invalid --nag-max 'x': use 1 to 100"),
            (SnoozeLength.self, "8d", "invalid snooze '8d': it must be between 1s and 7d (use numbers with units, the largest first, each once: 90s, 20m, 1h30m, 10 min, 1시간 30분)"),
            (GraceLength.self, "0s", "invalid duration '0s': it must be more than 0 (use numbers with units, the largest first, each once: 90s, 20m, 1h30m, 10 min, 1시간 30분)"),
            (NagInterval.self, "soon", "invalid duration 'soon' (use numbers with units, the largest first, each once: 90s, 20m, 1h30m, 10 min, 1시간 30분)"),
            (ZoneChoice.self, "Mars/Base", "unknown time zone 'Mars/Base' (use an IANA name such as Europe/Berlin, America/New_York or UTC)"),
            (SoundChoice.self, String(repeating: "s", count: 5000), "invalid sound: 5000 bytes, at most 4096"),
            (SoundChoice.self, "", "invalid sound '': give a name or a path"),
        ]
        for (type, text, message) in refused {
            let error = refusal { () throws(OperationError) in _ = try type.init(parsing: text) }
            #expect(error?.message == message)
            #expect(error?.code == .usage)
        }
    }

    @Test func valuesThatDoNotGoTogetherAreRefusedAndTheAlertKeepsWhatItHad() throws {
        let alert = try Operations.make(title: "Stretch", schedule: ScheduleFlags(at: ["09:30"]),
                                        settings: AlertSettings(zone: .pinned(seoul), nag: .every(seconds: 600)), .test(now: now), now: now)
        let conflicts: [(AlertSettings, String)] = [
            (AlertSettings(catchUp: .skip, grace: try GraceLength(parsing: "1m")), "--grace goes with --catch-up once"),
            (AlertSettings(kind: .reminder, water: true), "--water and --kind reminder contradict each other"),
            (AlertSettings(nag: .never, nagMax: try NagTimes(parsing: "3")), "--nag-max goes with --nag DURATION"),
            (AlertSettings(body: String(repeating: "b", count: 4001), urgency: .critical), "invalid body: 4001 characters, at most 4000"),
        ]
        for (settings, message) in conflicts {
            var changed = alert
            #expect(refusal { () throws(OperationError) in try settings.apply(to: &changed, title: nil) }?.message == message)
            #expect(changed == alert)
        }
    }

    @Test func settingsChangeOnlyWhatTheyName() throws {
        var alert = try Operations.make(title: "Stretch", schedule: ScheduleFlags(at: ["09:30"]),
                                        settings: AlertSettings(urgency: .critical, zone: .pinned(seoul), catchUp: .once,
                                                                grace: try GraceLength(parsing: "2h"), nag: .every(seconds: 600)), .test(now: now), now: now)
        #expect(alert.timeZone == "Asia/Seoul")
        #expect(alert.catchUp == .once(graceSeconds: 7200))
        #expect(alert.nag == Alert.Nag(seconds: 600, times: 6))
        #expect(alert.schedule.occurrences(after: now, count: 1, in: seoul) == [Date(timeIntervalSince1970: 1_772_409_600 + 1800)])

        try AlertSettings(sound: .silent, nagMax: try NagTimes(parsing: "2"), off: true).apply(to: &alert, title: nil)
        #expect(alert.title == "Stretch" && alert.urgency == .critical && alert.catchUp == .once(graceSeconds: 7200))
        #expect(alert.sound == nil && alert.nag == Alert.Nag(seconds: 600, times: 2) && !alert.enabled)

        try AlertSettings(zone: .system, catchUp: .skip, nag: .never).apply(to: &alert, title: "Walk")
        #expect(alert.title == "Walk" && alert.timeZone == nil && alert.catchUp == .skip && alert.nag == nil)
    }

    @Test func aOneShotInThePastIsRefused() {
        let error = refusal { () throws(OperationError) in
            _ = try Operations.make(title: "Late", schedule: ScheduleFlags(on: "2026-03-01 09:00"),
                                    settings: AlertSettings(zone: .pinned(seoul)), .test(now: now), now: now)
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("it is in the past") == true)
    }
}

extension AlertSettingsTests {
    /// February 30 never comes: such an alert would be kept and never shown.
    @Test func aCronExpressionNoDayMatchesIsRefused() throws {
        for cron in ["0 9 30 2 *", "0 9 31 4 *"] {
            let error = refusal { () throws(OperationError) in
                _ = try Operations.make(title: "Never", schedule: ScheduleFlags(cron: cron), settings: AlertSettings(zone: .pinned(seoul)), .test(now: now), now: now)
            }
            #expect(error?.code == .usage)
            #expect(error?.message.hasPrefix("invalid cron expression '\(cron)': no day matches it, so it would never fire") == true)
        }
        // A rare day that comes is fine: February 29.
        #expect(try Operations.make(title: "Leap", schedule: ScheduleFlags(cron: "0 9 29 2 *"), settings: AlertSettings(zone: .pinned(seoul)),
                                    .test(now: now), now: now).schedule.occurrences(after: now, count: 1, in: seoul).count == 1)
    }
}
