import ICalendar

/// A calendar object resource (RFC 4791 §4.1): one `VCALENDAR` holding the components of
/// one UID (an event or task and its changed occurrences) and the time zones they use.
public enum CalendarObject {
    /// The object's text as a `VCALENDAR`, or `nil` if it is not one.
    public static func read(_ text: String) -> Component? {
        guard let components = try? Component.read(text), components.count == 1, components[0].name == "VCALENDAR" else { return nil }
        return components[0]
    }

    /// The object's UID: its first event's or task's.
    public static func uid(_ calendar: Component) -> String? {
        calendar.components.first { ["VEVENT", "VTODO", "VJOURNAL"].contains($0.name) }?["UID"]?.value
    }

    /// Every event or task of a whole calendar (what `nudge export` writes) as objects of
    /// one UID each, each with the calendar's properties and the time zones it uses.
    public static func split(_ calendar: Component) -> [Component] {
        let zones = calendar.components.filter { $0.name == "VTIMEZONE" }
        var order: [String] = [], byUID: [String: [Component]] = [:]
        for component in calendar.components where component.name != "VTIMEZONE" {
            let uid = component["UID"]?.value ?? ""
            if byUID[uid] == nil { order.append(uid) }
            byUID[uid, default: []].append(component)
        }
        return order.map { uid in
            let members = byUID[uid]!
            let used = Set(members.flatMap(zoneIDs))
            return Component(calendar.name, properties: calendar.properties,
                             components: zones.filter { used.contains($0["TZID"]?.value ?? "") } + members)
        }
    }

    /// The TZIDs a component's times name.
    static func zoneIDs(_ component: Component) -> [String] {
        component.properties.compactMap { $0.parameter("TZID") } + component.components.flatMap(zoneIDs)
    }

    /// Nudge's object `own` (as `nudge export` writes it) put into the server's copy
    /// `server`: each event or task by UID through ``ObjectMerge/overlay(_:on:)``, the
    /// calendar's own properties and the time zones kept, any zone `own` needs added.
    public static func overlay(_ own: Component, on server: Component) -> Component {
        var result = server
        let members = own.components.filter { $0.name != "VTIMEZONE" }
        var components: [Component] = []
        // Matched by UID (none is a UID too) and rank among those with it: an object may
        // hold one UID twice.
        func key(_ component: Component) -> String { component["UID"]?.value ?? "" }
        let matchable = { (component: Component) in component.name != "VTIMEZONE" && component["RECURRENCE-ID"] == nil }
        var seen: [String: Int] = [:]
        for component in server.components {
            guard matchable(component) else {
                components.append(component)
                continue
            }
            let uid = key(component)
            let rank = seen[uid, default: 0]
            seen[uid] = rank + 1
            let same = members.filter { key($0) == uid && matchable($0) }
            guard rank < same.count else {
                components.append(component)
                continue
            }
            // The server's stamp stays, as it is: it says when the object was last written there.
            var mine = same[rank]
            if component["DTSTAMP"] != nil { mine.properties.removeAll { $0.name == "DTSTAMP" } }
            components.append(ObjectMerge.overlay(mine, on: component))
        }
        let zones = Set(server.components.filter { $0.name == "VTIMEZONE" }.compactMap { $0["TZID"]?.value })
        let newZones = own.components.filter { $0.name == "VTIMEZONE" && !zones.contains($0["TZID"]?.value ?? "") }
        components.insert(contentsOf: newZones, at: 0)
        // Ours the server does not have yet.
        var used: [String: Int] = [:]
        for member in members {
            let uid = key(member)
            let rank = used[uid, default: 0]
            used[uid] = rank + 1
            if matchable(member) {
                if rank >= seen[uid, default: 0] { components.append(member) }
            } else if !server.components.contains(where: { key($0) == uid && $0["RECURRENCE-ID"] == member["RECURRENCE-ID"] }) {
                components.append(member)
            }
        }
        result.components = components
        return result
    }

    /// What an object says for an import here, given the copy last agreed on: where another
    /// program changed when it happens (`DTSTART`, `RRULE`, `RDATE`, `EXDATE`, the end) but
    /// left Nudge's `X-NUDGE-SCHEDULE` as it was, the schedule is read from the standard
    /// properties, not from Nudge's; where it removed Nudge's alarm, the reminder is off
    /// (and on again where one comes back).
    public static func forImport(_ theirs: Component, base: Component?) -> Component {
        guard let base else { return theirs }
        var result = theirs
        result.components = theirs.components.map { component in
            guard component.name != "VTIMEZONE", let uid = component["UID"]?.value,
                  let before = base.components.first(where: { $0["UID"]?.value == uid && $0.name == component.name }),
                  component["X-NUDGE-SCHEDULE"] != nil else { return component }
            var event = component
            let timing = ["DTSTART", "RRULE", "RDATE", "EXDATE", "DTEND", "DUE"]
            if timing.contains(where: { event.all($0) != before.all($0) }) || movedNudgeAlarms(event, before: before),
               event["X-NUDGE-SCHEDULE"] == before["X-NUDGE-SCHEDULE"] {
                event.properties.removeAll { ["X-NUDGE-SCHEDULE", "X-NUDGE-PART"].contains($0.name) }
            }
            let alarmed = { (c: Component) in
                c.components.contains { $0.name == "VALARM" && $0["ACTION"]?.value.uppercased() == "DISPLAY" && !AlarmAnswers.isSnooze($0) }
            }
            if alarmed(before) != alarmed(event), event["X-NUDGE-ENABLED"] == before["X-NUDGE-ENABLED"] {
                event.properties = event.properties.map { $0.name == "X-NUDGE-ENABLED" ? Property("X-NUDGE-ENABLED", alarmed(event) ? "TRUE" : "FALSE") : $0 }
            }
            return event
        }
        return result
    }

    /// Whether another device moved Nudge's alarms of `component` (`TRIGGER:-PT10M` where
    /// Nudge wrote `PT0S`), as `before` had them: as many display and audio alarms as Nudge
    /// had, none of them Nudge's any more, all at one relative trigger. An alarm added beside
    /// Nudge's ("15 minutes before") is another's, not a move.
    public static func movedNudgeAlarms(_ component: Component, before: Component) -> Bool {
        let nudges = before.components.filter { $0.name == "VALARM" && ObjectMerge.isNudgeAlarm($0) }
        let ringing = component.components.filter { alarm in
            alarm.name == "VALARM" && !AlarmAnswers.isSnooze(alarm) && ["DISPLAY", "AUDIO"].contains(alarm["ACTION"]?.value.uppercased() ?? "")
        }
        guard !nudges.isEmpty, ringing.count == nudges.count, !ringing.contains(where: ObjectMerge.isNudgeAlarm),
              let trigger = ringing.first?["TRIGGER"], trigger.parameter("VALUE") == nil, trigger.parameter("RELATED") == nil,
              ringing.allSatisfy({ $0["TRIGGER"]?.value == trigger.value }) else { return false }
        return true
    }

    /// `theirs` as the copy to agree on, where another device moved Nudge's alarms: those
    /// alarms marked `X-NUDGE-MOVED`, so they stay Nudge's (``ObjectMerge/isNudgeAlarm(_:)``)
    /// and the reminder's new time, read from them, is written with Nudge's own alarm
    /// instead of beside it (a hostile pass: the phone then rang twice).
    public static func markingMovedAlarms(_ theirs: Component, base: Component?) -> Component {
        guard let base else { return theirs }
        var result = theirs
        result.components = theirs.components.map { component in
            guard component.name != "VTIMEZONE", let uid = component["UID"]?.value, component["X-NUDGE-SCHEDULE"] != nil || uid.hasSuffix("@nudge"),
                  let before = base.components.first(where: { $0["UID"]?.value == uid && $0.name == component.name }),
                  movedNudgeAlarms(component, before: before) else { return component }
            var event = component
            event.components = component.components.map { alarm in
                guard alarm.name == "VALARM", !AlarmAnswers.isSnooze(alarm), ["DISPLAY", "AUDIO"].contains(alarm["ACTION"]?.value.uppercased() ?? "") else { return alarm }
                var marked = alarm
                marked.properties.append(Property("X-NUDGE-MOVED", "TRUE"))
                return marked
            }
            return event
        }
        return result
    }

    /// The last path segment a new object gets: its UID with everything but letters,
    /// digits, `-`, `_` and `.` percent-encoded, and `.ics`.
    public static func resourceName(uid: String) -> String {
        var name = ""
        for byte in uid.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                name.append(Character(UnicodeScalar(byte)))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return name + ".ics"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
