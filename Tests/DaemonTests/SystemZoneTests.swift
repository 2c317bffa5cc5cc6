import DaemonAPI
import Foundation
import NudgeCore
import NudgeDaemon
import Platform
import Testing
import TestSupport

/// `TZ` is read as glibc reads it: the C library's own `date` is the oracle, at fixed
/// instants in winter and summer.
@Suite(.onTestThreads)
struct SystemZoneTests {
    static let values = [
        "UTC+3", "UTC-5:30", "GMT+3", ":Europe/Berlin", "Europe/Berlin", "/usr/share/zoneinfo/Asia/Tokyo",
        ":/usr/share/zoneinfo/America/New_York", "<+03>-3", "<-0330>3:30", "CET-1CEST,M3.5.0,M10.5.0/3",
        "EST5EDT", "EST5EDT,M3.2.0,M11.1.0", "AEST-10AEDT,M10.1.0,M4.1.0/3", "Etc/GMT+3", "Etc/GMT-14", "",
        "Asia/Seoul", "Australia/Lord_Howe",
    ]
    static let instants = [1_768_478_400.0, 1_784_116_800.0, 1_774_745_000.0, 1_792_893_000.0]

    static func glibcOffset(_ tz: String, at instant: Double) throws -> String {
        let out = try Bench.run("/bin/date", ["-d", "@\(Int(instant))", "+%:z"], environment: ["TZ": tz])
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: values) func readsTZAsTheCLibraryDoes(tz: String) throws {
        let resolved = SystemZone.resolve(environment: ["TZ": tz])
        #expect(resolved.warning == nil)
        for instant in Self.instants {
            let expected = try Self.glibcOffset(tz, at: instant)
            let offset = resolved.zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
            let ours = offset == 0 ? "+00:00" : InstantFormat.offset(offset)
            #expect(ours == expected, "TZ=\(tz) at \(instant)")
        }
    }

    @Test func whatCannotBeReadIsSaid() {
        let unknown = SystemZone.resolve(environment: ["TZ": "Foo/Bar"])
        #expect(unknown.zone.secondsFromGMT() == 0)
        #expect(unknown.warning?.description.contains("TZ='Foo/Bar'") == true)
        let rule = SystemZone.resolve(environment: ["TZ": "XYZ9ABC,M1.1.1,M2.2.2"])
        #expect(rule.zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_784_116_800)) == -9 * 3600)
        #expect(rule.warning?.description.contains("standard time (-09:00)") == true)
    }

    @Test func unsetFollowsTheLocaltimeLink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zone-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Asia/Seoul")
        #expect(SystemZone.resolve(environment: [:], localtime: folder + "/localtime").zone.identifier == "Asia/Seoul")
    }

    @Test func ambiguousOffsetNamesAreRefusedForPinnedZones() throws {
        #expect(throws: ScheduleError.self) { try ScheduleParser.zone("GMT+3") }
        #expect(throws: ScheduleError.self) { try ScheduleParser.zone("utc-5") }
        #expect(try ScheduleParser.zone("Etc/GMT+3").secondsFromGMT() == -3 * 3600)
    }
}
