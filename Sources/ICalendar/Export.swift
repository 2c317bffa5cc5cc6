import Foundation
import NudgeCore

/// Alerts as an iCalendar calendar: one VEVENT per alert (more when its times need more
/// than one RRULE), each with its schedule as an RRULE other clients expand, a VALARM that
/// shows it (and one that plays its sound), and everything else of Nudge's in `X-NUDGE-*`
/// properties, so that importing the file again gives the same alerts. Pure: the caller
/// gives the system's zone, and the output depends on nothing else (no "now").
public enum CalendarExport {
    /// The product identifier written in `PRODID`.
    public static let product = "-//Nudge//Nudge reminders//EN"

    /// The calendar for `alerts`; alerts without a zone of their own follow `system` and are
    /// written in floating local time. `soundFile` finds a theme sound's file, if any.
    public static func calendar(_ alerts: [Alert], system: TimeZone,
                                soundFile: (String) -> String? = { _ in nil }) -> Component {
        var calendar = Component("VCALENDAR", properties: [
            Property("VERSION", "2.0"), Property("PRODID", product), Property("CALSCALE", "GREGORIAN"),
        ])
        var zones: [String: Date] = [:]
        for alert in alerts {
            calendar.components += events(alert, system: system, soundFile: soundFile)
            if let id = alert.timeZone, TimeZone(identifier: id) != nil { zones[id] = min(zones[id] ?? alert.created, alert.created) }
        }
        // Every zone used, so other clients need no zone database of their own.
        calendar.components.insert(contentsOf: zones.keys.sorted().map { timeZone($0, from: zones[$0]!) }, at: 0)
        return calendar
    }

    /// The UID of an alert's first event: stable across exports.
    public static func uid(_ alert: Alert) -> String { alert.id.uuidString.lowercased() + "@nudge" }

    // MARK: Events

    static func events(_ alert: Alert, system: TimeZone, soundFile: (String) -> String?) -> [Component] {
        let zone = alert.timeZone.flatMap(TimeZone.init(identifier:)) ?? system
        let clock = Clock(zone: zone, floating: alert.timeZone == nil)
        let rules = self.rules(alert.schedule, created: alert.created, clock: clock)
        return rules.enumerated().map { index, rule in
            var event = Component("VEVENT")
            event.properties.append(Property("UID", index == 0 ? uid(alert) : alert.id.uuidString.lowercased() + "-\(index + 1)@nudge"))
            event.properties.append(Property("DTSTAMP", Clock.utc(alert.created)))
            event.properties.append(rule.start)
            if let rrule = rule.rrule { event.properties.append(Property("RRULE", rrule)) }
            event.properties.append(.text("SUMMARY", alert.title))
            if !alert.body.isEmpty { event.properties.append(.text("DESCRIPTION", alert.body)) }
            // An event of no length: the moment the reminder shows; not busy time.
            event.properties.append(Property("DURATION", "PT0S"))
            event.properties.append(Property("TRANSP", "TRANSPARENT"))
            event.properties += nudgeProperties(alert)
            if rules.count > 1 { event.properties.append(Property("X-NUDGE-PART", "\(index + 1)/\(rules.count)")) }
            if alert.enabled { event.components = alarms(alert, soundFile: soundFile) }
            return event
        }
    }

    /// What shows the reminder, and what plays its sound.
    static func alarms(_ alert: Alert, soundFile: (String) -> String?) -> [Component] {
        var alarms = [Component("VALARM", properties: [
            Property("ACTION", "DISPLAY"), Property("TRIGGER", "PT0S"), .text("DESCRIPTION", alert.title),
        ])]
        if let sound = alert.sound {
            var audio = Component("VALARM", properties: [Property("ACTION", "AUDIO"), Property("TRIGGER", "PT0S")])
            let path: String? = switch sound {
            case .file(let path): path
            case .named(let name): soundFile(name)
            }
            if let path { audio.properties.append(Property("ATTACH", fileURI(path), parameters: [("VALUE", ["URI"])])) }
            alarms.append(audio)
        }
        return alarms
    }

    /// Nudge's own settings, for a round trip (KAlarm keeps its own the same way).
    static func nudgeProperties(_ alert: Alert) -> [Property] {
        var properties = [
            Property("X-NUDGE-ID", alert.id.uuidString.lowercased()),
            Property("X-NUDGE-SCHEDULE", alert.schedule.storageText),
            Property("X-NUDGE-ENABLED", alert.enabled ? "TRUE" : "FALSE"),
            Property("X-NUDGE-KIND", alert.kind.rawValue),
            Property("X-NUDGE-URGENCY", alert.urgency.description),
            .text("X-NUDGE-SOUND", alert.sound?.description ?? ""),
            Property("X-NUDGE-SNOOZE", "\(alert.snoozeSeconds)"),
            Property("X-NUDGE-CREATED", Clock.utc(alert.created, fraction: true)),
        ]
        switch alert.catchUp {
        case .once(let grace): properties.append(Property("X-NUDGE-CATCH-UP", "\(grace)"))
        case .skip: properties.append(Property("X-NUDGE-CATCH-UP", "SKIP"))
        }
        if !alert.icon.isEmpty { properties.append(.text("X-NUDGE-ICON", alert.icon)) }
        if let away = alert.whenAway { properties.append(Property("X-NUDGE-WHEN-AWAY", away.rawValue)) }
        if let nag = alert.nag { properties.append(Property("X-NUDGE-NAG", "\(nag.seconds),\(nag.times)")) }
        if let zone = alert.timeZone { properties.append(.text("X-NUDGE-TIME-ZONE", zone)) }
        return properties
    }

    static func fileURI(_ path: String) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: ";,"))
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }

    // MARK: Schedules as RRULEs

    /// One event's start and rule.
    struct Rule {
        var start: Property
        var rrule: String?
    }

    static let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    static func byDay(_ days: Set<Weekday>) -> String {
        days.sorted { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 }.map { Self.days[$0.rawValue] }.joined(separator: ",")
    }

    /// The rules that together give the schedule's times. RRULE's BYHOUR and BYMINUTE
    /// combine every hour with every minute, so times are grouped by their minute (and
    /// second): 09:30 and 13:00 are two rules, every 30 min 09:30–21:30 two more.
    static func rules(_ schedule: Schedule, created: Date, clock: Clock) -> [Rule] {
        let firstDay = clock.day(of: created)
        switch schedule {
        case .daily(let times, let days):
            return timeRules(times, days: days, firstDay: firstDay, clock: clock)
        case .afterAnswer(let seconds, let window, let days):
            // Counted from each answer: no calendar can say that. The clock's version of it
            // (every N inside the window) is the closest; X-NUDGE-SCHEDULE keeps the truth.
            let window = window ?? DayWindow(start: LocalTime(secondOfDay: 0)!, end: LocalTime(secondOfDay: 86_399)!)!
            let times = stride(from: window.start.secondOfDay, through: window.end.secondOfDay, by: max(seconds, 60))
                .compactMap(LocalTime.init(secondOfDay:))
            return timeRules(times, days: days, firstDay: firstDay, clock: clock)
        case .interval(let seconds, let anchor, let days):
            // Steps of elapsed time from the anchor: in UTC, exact (to the second: the anchor's
            // fraction, the moment it was made, has no place in a DATE-TIME). Limited to some
            // days, the days are the zone's: then in the zone's time (exact while its offset
            // holds).
            let (frequency, interval) = seconds % 3600 == 0 ? ("HOURLY", seconds / 3600)
                : seconds % 60 == 0 ? ("MINUTELY", seconds / 60) : ("SECONDLY", seconds)
            var rrule = "FREQ=\(frequency);INTERVAL=\(interval)"
            if days.count == 7 { return [Rule(start: Property("DTSTART", Clock.utc(anchor)), rrule: rrule)] }
            rrule += ";BYDAY=" + byDay(days)
            return [Rule(start: clock.start(anchor), rrule: rrule)]
        case .once(let instant):
            return [Rule(start: clock.start(instant), rrule: nil)]
        case .cron(let cron):
            let fields = cron.fields
            var base = "FREQ=DAILY"
            if fields.months.count < 12 { base += ";BYMONTH=" + fields.months.map(String.init).joined(separator: ",") }
            let time = ";BYHOUR=" + fields.hours.map(String.init).joined(separator: ",")
                + ";BYMINUTE=" + fields.minutes.map(String.init).joined(separator: ",")
            let first = LocalTime(hour: fields.hours[0], minute: fields.minutes[0])!
            // Both day fields restricted: a day matching either one, as cron does: two rules.
            var dayRules: [(String, (CivilDay) -> Bool)] = []
            if let dom = fields.daysOfMonth {
                dayRules.append((";BYMONTHDAY=" + dom.map(String.init).joined(separator: ","), { dom.contains($0.components.day) }))
            }
            if let dow = fields.weekdays {
                dayRules.append((";BYDAY=" + dow.map { Self.days[$0] }.joined(separator: ","), { dow.contains($0.weekday.rawValue) }))
            }
            if dayRules.isEmpty { dayRules.append(("", { _ in true })) }
            return dayRules.map { days, matches in
                // DTSTART is the rule's first occurrence (RFC 5545 counts it as one).
                var day = firstDay
                for _ in 0..<(366 * 8) where !(fields.months.contains(day.components.month) && matches(day)) { day = day.advanced(by: 1) }
                return Rule(start: clock.start(day, first), rrule: base + days + time)
            }
        }
    }

    static func timeRules(_ times: [LocalTime], days: Set<Weekday>, firstDay: CivilDay, clock: Clock) -> [Rule] {
        let frequency = days.count == 7 ? "FREQ=DAILY" : "FREQ=WEEKLY;BYDAY=" + byDay(days)
        var start = firstDay
        while days.count < 7, !days.contains(start.weekday) { start = start.advanced(by: 1) }
        let groups = Dictionary(grouping: times) { $0.secondOfDay % 3600 }
        return groups.keys.sorted().map { key in
            let hours = groups[key]!.map { $0.secondOfDay / 3600 }.sorted()
            var rrule = frequency + ";BYHOUR=" + hours.map(String.init).joined(separator: ",") + ";BYMINUTE=\(key / 60)"
            if key % 60 != 0 { rrule += ";BYSECOND=\(key % 60)" }
            return Rule(start: clock.start(start, LocalTime(secondOfDay: hours[0] * 3600 + key)!), rrule: rrule)
        }
    }

    // MARK: Time zones

    /// A VTIMEZONE with every change of offset from a year before `start` to 30 years
    /// after, each as its own onset, read from the system's zone database.
    static func timeZone(_ id: String, from start: Date) -> Component {
        let zone = TimeZone(identifier: id)!
        var component = Component("VTIMEZONE", properties: [Property("TZID", id)])
        var t = start.addingTimeInterval(-366 * 86_400)
        let end = start.addingTimeInterval(30 * 366 * 86_400)
        func onset(_ instant: Date, from before: Int) -> Component {
            let after = zone.secondsFromGMT(for: instant)
            var part = Component(zone.isDaylightSavingTime(for: instant) ? "DAYLIGHT" : "STANDARD", properties: [
                Property("DTSTART", Clock.local(instant, offset: before)),
                Property("TZOFFSETFROM", Clock.offset(before)), Property("TZOFFSETTO", Clock.offset(after)),
            ])
            // A real abbreviation (CET, KST), not the "GMT+1" made up when there is none.
            if let name = zone.abbreviation(for: instant), name.allSatisfy(\.isLetter) { part.properties.append(.text("TZNAME", name)) }
            return part
        }
        // The offset in force before the first change, from the start of time as far as
        // any client is concerned.
        let initial = zone.secondsFromGMT(for: t)
        var first = onset(t, from: initial)
        first.properties[0] = Property("DTSTART", "19700101T000000")
        component.components.append(first)
        while let next = zone.nextDaylightSavingTimeTransition(after: t), next < end {
            component.components.append(onset(next, from: zone.secondsFromGMT(for: next.addingTimeInterval(-1))))
            t = next
        }
        return component
    }
}

/// Dates and times as iCalendar writes them, in one zone (with its TZID) or floating.
struct Clock {
    let zone: TimeZone
    let floating: Bool
    let calendar: Calendar

    init(zone: TimeZone, floating: Bool) {
        (self.zone, self.floating) = (zone, floating)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// The civil day an instant falls on here.
    func day(of instant: Date) -> CivilDay {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return CivilDay(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// DTSTART for an instant, in this zone's local time.
    func start(_ instant: Date) -> Property {
        property(Clock.local(instant, offset: zone.secondsFromGMT(for: instant)))
    }

    /// DTSTART for a day and a local time.
    func start(_ day: CivilDay, _ time: LocalTime) -> Property {
        let (year, month, date) = day.components
        return property(String(format: "%04d%02d%02dT%02d%02d%02d", year, month, date,
                        time.secondOfDay / 3600, time.secondOfDay / 60 % 60, time.secondOfDay % 60))
    }

    private func property(_ local: String) -> Property {
        Property("DTSTART", local, parameters: floating ? [] : [("TZID", [zone.identifier])])
    }

    /// `20261123T093000` for an instant at an offset from UTC.
    static func local(_ instant: Date, offset: Int) -> String {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let day = CivilDay(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
        let second = seconds - day.daysSinceEpoch * 86_400
        let (year, month, date) = day.components
        return String(format: "%04d%02d%02dT%02d%02d%02d", year, month, date, second / 3600, second / 60 % 60, second % 60)
    }

    /// `20261123T003000Z`; with `fraction`, the microseconds after a dot (an X- value only).
    static func utc(_ instant: Date, fraction: Bool = false) -> String {
        let text = local(instant, offset: 0) + "Z"
        guard fraction else { return text }
        let micro = Int(((instant.timeIntervalSince1970 - instant.timeIntervalSince1970.rounded(.down)) * 1_000_000).rounded())
        return String(text.dropLast()) + String(format: ".%06dZ", min(micro, 999_999))
    }

    /// `+0900`, `-0330`.
    static func offset(_ seconds: Int) -> String {
        String(format: "%@%02d%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) / 60 % 60)
    }
}
