import Foundation
import NudgeCore

// What the core's suites build their cases from: fixed instants, zones by name, and alerts
// whose schedules are read in UTC. One place, so every suite means the same by them.

/// An instant written in ISO 8601 (`2026-11-23T09:00:00Z`).
func utc(_ text: String) -> Date {
    try! ScheduleParser.instant(text, zone: utcZone)
}

/// A zone by its IANA name.
func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

/// UTC: the system zone of the scheduler suites.
let utcZone = TimeZone(identifier: "UTC")!

/// An alert on `flags`, created at `created` (its schedule read then, in UTC). Without a
/// title it is the water reminder, as `Alert` makes it; the rest are `Alert`'s defaults.
func alert(_ flags: ScheduleFlags, title: String? = nil, zone: String? = nil,
           catchUp: Alert.CatchUp = .once(graceSeconds: 12 * 3600), kind: Alert.Kind? = nil,
           whenAway: Alert.WhenAway? = nil, nag: Alert.Nag? = nil,
           created: Date = utc("2026-11-23T00:00:00Z")) throws -> Alert {
    Alert(title: title, schedule: try ScheduleParser.schedule(flags, now: created, zone: utcZone), timeZone: zone,
          catchUp: catchUp, created: created, kind: kind, whenAway: whenAway, nag: nag)
}
