import ICalendar

/// The three-way merge of one calendar object, property by property, against the last
/// copy both sides agreed on; and the overlay that puts Nudge's reminder into a server's
/// object without touching anything Nudge does not own. Pure: components in, components out.
///
/// Properties are compared as units by name (every `EXDATE` of a component together, in
/// order); subcomponents by name and `UID` (RFC 9074 alarm UIDs), in order where they have
/// none. Stamps that every writer rewrites (`DTSTAMP`, `LAST-MODIFIED`, `SEQUENCE`) follow
/// the server and are never a conflict.
public enum ObjectMerge {
    /// What a merge made, and which properties both sides changed differently (the server's
    /// kept, ours named here so the person can see what was not applied).
    public struct Outcome: Sendable, Equatable {
        public var merged: Component
        /// `SUMMARY`, `VALARM/TRIGGER`: the units both sides changed, the server's value kept.
        public var conflicts: [String]
    }

    /// Properties the server's copy decides without a conflict.
    static let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "CREATED"]

    /// Properties where both sides' changes are never a conflict: the later time is kept
    /// (an alarm acknowledged on both devices is acknowledged, at the later).
    static let latest: Set<String> = ["ACKNOWLEDGED", "X-MOZ-LASTACK"]

    /// Merges `ours` and `theirs`, both descended from `base`.
    public static func merge(base: Component, ours: Component, theirs: Component) -> Outcome {
        var conflicts: [String] = []
        let merged = merge(base: base, ours: ours, theirs: theirs, path: "", conflicts: &conflicts)
        return Outcome(merged: merged, conflicts: conflicts)
    }

    private static func merge(base: Component, ours: Component, theirs: Component, path: String,
                              conflicts: inout [String]) -> Component {
        var result = Component(theirs.name)
        // Properties: theirs' order first, then names only ours has.
        var names: [String] = []
        for name in theirs.properties.map(\.name) + ours.properties.map(\.name) where !names.contains(name) { names.append(name) }
        for name in names {
            let b = base.all(name), o = ours.all(name), t = theirs.all(name)
            let chosen: [Property]
            if stamps.contains(name) || alike(o, b) || alike(o, t) {
                chosen = t
            } else if alike(t, b) {
                chosen = o
            } else if latest.contains(name) {
                // An acknowledgement on both sides: the later one, which covers the earlier.
                let time = { (list: [Property]) in list.compactMap { AlarmAnswers.utc($0.value) }.max() ?? .distantPast }
                chosen = time(o) > time(t) ? o : t
            } else {
                chosen = t
                conflicts.append(path + name)
            }
            result.properties += chosen
        }
        // Subcomponents, by key.
        let baseGroups = groups(base.components), ourGroups = groups(ours.components), theirGroups = groups(theirs.components)
        var keys: [Key] = []
        for key in theirGroups.map(\.key) + ourGroups.map(\.key) where !keys.contains(key) { keys.append(key) }
        for key in keys {
            let b = baseGroups.first { $0.key == key }?.component
            let o = ourGroups.first { $0.key == key }?.component
            let t = theirGroups.first { $0.key == key }?.component
            switch (b, o, t) {
            case (_, let o?, let t?) where alike(o, t): result.components.append(t)
            case (let b?, let o?, let t?):
                if alike(o, b) { result.components.append(t) } else if alike(t, b) { result.components.append(o) } else {
                    result.components.append(merge(base: b, ours: o, theirs: t, path: path + key.name + "/", conflicts: &conflicts))
                }
            case (nil, let o?, let t?):
                // Both added one with the same key, differently: theirs, and ours named.
                result.components.append(t)
                conflicts.append(path + key.name)
                _ = o
            case (let b?, nil, let t?):
                // Removed here; kept there if they changed it.
                if !alike(t, b) { result.components.append(t); conflicts.append(path + key.name) }
            case (let b?, let o?, nil):
                // Removed there; kept if we changed it.
                if !alike(o, b) { result.components.append(o); conflicts.append(path + key.name) }
            case (nil, let o?, nil): result.components.append(o)
            case (nil, nil, let t?): result.components.append(t)
            case (_, nil, nil): break
            }
        }
        return result
    }

    /// Whether two lists of one property say the same, however a library spelled them
    /// (``AlarmAnswers/sameSpelling(_:)``): a phone's library that saves an object again
    /// writes `PT0S` as `P0D` and a rule's parts in its own order, and that is no change.
    static func alike(_ a: [Property], _ b: [Property]) -> Bool {
        a == b || a.map(AlarmAnswers.sameSpelling) == b.map(AlarmAnswers.sameSpelling)
    }

    /// Whether two components say the same, whatever the order of their properties (a
    /// server that stores an object may write its properties in an order of its own).
    public static func alike(_ a: Component, _ b: Component) -> Bool { a == b || spelledAlike(a) == spelledAlike(b) }

    static func spelledAlike(_ component: Component) -> Component {
        var result = component
        result.properties = component.properties.map(AlarmAnswers.sameSpelling).enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        result.components = component.components.map(spelledAlike)
        return result
    }

    /// A subcomponent's key: its name, its UID, and its rank among those of its name
    /// without one (a UID Nudge gave an alarm for a snooze to name counts as none).
    struct Key: Equatable {
        var name: String
        var uid: String?
        var rank: Int
    }

    static func groups(_ components: [Component]) -> [(key: Key, component: Component)] {
        var ranks: [String: Int] = [:]
        return components.map { component in
            if let uid = component["UID"]?.value, !uid.contains(AlarmAnswers.madeAlarmUID) { return (Key(name: component.name, uid: uid, rank: 0), component) }
            let rank = ranks[component.name, default: 0]
            ranks[component.name] = rank + 1
            return (Key(name: component.name, uid: nil, rank: rank), component)
        }
    }

    // MARK: Overlay

    /// `server` with Nudge's reminder `own` put in: each property `own` has, or that
    /// Nudge writes (``owned``), takes `own`'s value; everything else of `server` stays
    /// as it is, in place (other apps' properties, their alarms, CATEGORIES, ATTENDEE,
    /// `ACKNOWLEDGED` on our own alarm). Nudge's alarms are `own`'s `VALARM`s, matched in
    /// order with the server's alarms that are Nudge's (``isNudgeAlarm(_:)``).
    public static func overlay(_ own: Component, on server: Component) -> Component {
        var result = server
        // Properties Nudge writes: replaced by own's, removed where own has none.
        var written = Set(own.properties.map(\.name))
        written.formUnion(owned)
        result.properties = replacing(server.properties, with: own.properties) { written.contains($0) || $0.hasPrefix("X-NUDGE-") }
        // Alarms: ours replace ours, in order; the server's others stay.
        // Only Nudge's own alarms of `own` count as ours: an object put under itself stays itself.
        // Matched by their ACTION first (a display alarm never becomes the server's audio
        // one: a hostile pass found a phone's AUDIO alarm rewritten as DISPLAY), in order.
        var ownAlarms = own.components.filter { $0.name == "VALARM" && isNudgeAlarm($0) }
        var components: [Component] = []
        for component in server.components {
            guard component.name == "VALARM", isNudgeAlarm(component) else {
                components.append(component)
                continue
            }
            let action = component["ACTION"]?.value.uppercased()
            if let k = ownAlarms.firstIndex(where: { $0["ACTION"]?.value.uppercased() == action }) ?? ownAlarms.indices.first {
                components.append(overlayAlarm(ownAlarms.remove(at: k), on: component))
            }
        }
        components += ownAlarms
        result.components = components + own.components.filter { $0.name != "VALARM" && !server.components.contains($0) }
            + own.components.filter { $0.name == "VALARM" && !isNudgeAlarm($0) && !server.components.contains($0) }
        return result
    }

    /// The properties of an event Nudge writes, replaced or removed as a whole.
    public static let owned: Set<String> = [
        "SUMMARY", "DESCRIPTION", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "TRANSP", "DUE",
    ]

    /// An alarm Nudge wrote: one with an `@nudge` UID, or a display or audio alarm at the
    /// event's start (what `nudge export` writes), with no UID or one a phone gave it (iOS
    /// writes `UID` and `X-WR-ALARMUID` on every alarm it saves: a hostile pass found
    /// Nudge's pair written again beside them, and the phone rang twice). A snooze alarm is
    /// an answer's (``AlarmAnswers``), not the reminder's.
    public static func isNudgeAlarm(_ alarm: Component) -> Bool {
        if AlarmAnswers.isSnooze(alarm) { return false }
        if let uid = alarm["UID"]?.value, uid.hasSuffix("@nudge") { return true }
        // Nudge's, moved on another device (``CalendarObject/markingMovedAlarms(_:base:)``).
        if alarm["X-NUDGE-MOVED"] != nil { return true }
        guard let action = alarm["ACTION"]?.value.uppercased(), action == "DISPLAY" || action == "AUDIO" else { return false }
        guard let trigger = alarm["TRIGGER"], trigger.parameter("VALUE") == nil, trigger.parameter("RELATED") == nil else { return false }
        return ["PT0S", "-PT0S", "+PT0S", "P0D", "-P0D", "PT0M", "-PT0M", "PT0H"].contains(trigger.value.uppercased())
    }

    /// Our alarm's properties over the server's copy of it: what others added to it
    /// (`ACKNOWLEDGED`, `X-MOZ-LASTACK`, an `X-APPLE-*`) stays.
    static func overlayAlarm(_ own: Component, on server: Component) -> Component {
        var result = server
        let names = Set(own.properties.map(\.name)).union(["ACTION", "TRIGGER", "DESCRIPTION", "ATTACH", "X-NUDGE-MOVED"])
        result.properties = replacing(server.properties, with: own.properties) { names.contains($0) }
        return result
    }

    /// `server`'s properties with those whose name is `owned` taken from `own`, each where
    /// the server had its name: one for one in place while both have them, the rest of
    /// own's after the server's last, the server's extra ones dropped. Own's names the
    /// server lacks go at the end. Alike lists come back alike, in the same order.
    static func replacing(_ server: [Property], with own: [Property], owned: (String) -> Bool) -> [Property] {
        var queue: [String: ArraySlice<Property>] = [:]
        for property in own { queue[property.name, default: []].append(property) }
        var last: [String: Int] = [:]
        for (index, property) in server.enumerated() where owned(property.name) { last[property.name] = index }
        var result: [Property] = []
        for (index, property) in server.enumerated() {
            guard owned(property.name) else {
                result.append(property)
                continue
            }
            if let next = queue[property.name]?.popFirst() { result.append(next) }
            if last[property.name] == index {
                result += queue[property.name] ?? []
                queue[property.name] = []
            }
        }
        for property in own where last[property.name] == nil { result.append(property) }
        return result
    }
}
