import Foundation
import DaemonAPI
import NudgeCore
import Platform

/// `TZ` in glibc's forms, and the footer of a TZif file `TZ` names: the even selector
/// byte makes the rest the value of `TZ`, the odd one the bytes of the zone file
/// `TZ=:Fuzz/Zone` names, in a zone folder of the target's own. Whatever `TZ` says, the
/// zone resolves (UTC with a warning at worst), and a rule read is read again the same.
enum ZoneFuzz {
    static let target = FuzzTarget("tz", "TZ values (glibc's forms) and TZif footers", grow: TypedFuzz.grow) { bytes throws(FuzzFailure) in
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let value: String
        if selector % 2 == 0 {
            value = FuzzTargets.text(rest)
            // The environment cannot hold a NUL; glibc reads up to the first.
            guard !value.contains("\0") else { return }
            if let rule = PosixTZ.parseRule(value) {
                try expect(PosixTZ.parseRule(rule.text) == rule, "\(value.shown) read as \(rule), its text reads otherwise")
                try expect(abs(rule.standardOffset) <= 25 * 3600, "\(value.shown): standard offset \(rule.standardOffset) s")
            }
        } else {
            guard write(rest) else { throw FuzzFailure("cannot write the zone file in \(folder)") }
            value = ":Fuzz/Zone"
            if let footer = PosixTZ.footer(ofZoneFile: rest), let rule = PosixTZ.parseRule(footer) {
                try expect(rule.text == footer, "the footer \(footer.shown) read as the rule \(rule.text.shown)")
            }
        }
        let resolved = SystemZone.resolve(environment: Environment(["TZ": value, "TZDIR": folder]), localtime: folder + "/none")
        try expect(abs(resolved.zone.secondsFromGMT(for: FuzzTargets.now)) <= 26 * 3600, "TZ=\(value.shown) resolved to \(resolved.zone.identifier)")
    }

    /// The target's zone folder: `Fuzz/Zone` (rewritten for each input) and nothing else.
    static let folder: String = {
        let path = NSTemporaryDirectory() + "nudge-fuzz-zoneinfo-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path + "/Fuzz", withIntermediateDirectories: true)
        return path
    }()

    static func write(_ bytes: [UInt8]) -> Bool {
        FileManager.default.createFile(atPath: folder + "/Fuzz/Zone", contents: Data(bytes))
    }
}
