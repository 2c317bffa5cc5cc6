import Foundation
import ICalendar
import NudgeCore

/// Alerts as an iCalendar calendar: one VEVENT per alert (more when its times need more
/// than one RRULE), each with its schedule as an RRULE other clients expand, a VALARM that
/// shows it (and one that plays its sound), and everything else of Nudge's in `X-NUDGE-*`
/// properties, so that importing the file again gives the same alerts. Pure: the caller
/// gives the system's zone, and the output depends on nothing else (no "now").
public enum CalendarExport {
    /// The product identifier written in `PRODID`.
    public static let product = "-//Nudge//Nudge reminders//EN"

    /// The calendar's bytes for `alerts`, handed to `emit` in pieces as they are made
    /// (100,000 alerts need no tree, nor the whole file in memory twice); the events are
    /// written on every CPU. Alerts without a zone of their own follow `system` and are
    /// written in floating local time. `soundFile` finds a theme sound's file, if any.
    public static func write<Failure: Error>(_ alerts: [Alert], system: TimeZone, soundFile: (String) -> String? = { _ in nil },
                                             emit: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var head: [UInt8] = []
        let calendar = header(alerts)
        Component.fold("BEGIN:VCALENDAR", into: &head)
        for property in calendar.properties { Component.fold(property.line, into: &head) }
        for zone in calendar.components { zone.write(to: &head) }
        try emit(head)
        // Each theme sound's file looked up once, and made a URI once.
        var files: [String: String] = [:]
        for case .named(let name)? in Set(alerts.map(\.sound)) { files[name] = soundFile(name).map(fileURI) }
        let known = files
        var zones: [String: TimeZone] = [:]
        for case let id? in Set(alerts.map(\.timeZone)) { zones[id] = TimeZone(identifier: id) }
        let lookedUp = zones
        let pieces = 64
        for batch in stride(from: 0, to: alerts.count, by: pieces * 2_000) {
            let slice = alerts[batch..<min(batch + pieces * 2_000, alerts.count)]
            for chunk in Parallel.chunks(slice.count, minimumChunk: 2_000, { range in
                var writer = LineWriter(capacity: range.count * 1_100)
                for alert in slice[(slice.startIndex + range.lowerBound)..<(slice.startIndex + range.upperBound)] {
                    writeEvents(alert, system: system, zones: lookedUp, soundURI: { known[$0] }, to: &writer)
                }
                return writer.bytes
            }) {
                try emit(chunk)
            }
        }
        var tail: [UInt8] = []
        Component.fold("END:VCALENDAR", into: &tail)
        try emit(tail)
    }

    /// The calendar's properties and a VTIMEZONE for every zone used, so other clients
    /// need no zone database of their own.
    static func header(_ alerts: [Alert]) -> Component {
        var zones: [String: Date] = [:]
        for alert in alerts {
            guard let id = alert.timeZone else { continue }
            if let first = zones[id] { zones[id] = min(first, alert.created) } else if TimeZone(identifier: id) != nil { zones[id] = alert.created }
        }
        return Component("VCALENDAR", properties: [
            Property("VERSION", "2.0"), Property("PRODID", product), Property("CALSCALE", "GREGORIAN"),
        ], components: zones.keys.sorted().map { timeZone($0, from: zones[$0]!) })
    }

    /// The UID of an alert's first event: stable across exports.
    public static func uid(_ alert: Alert) -> String { uid(alert.id) }

    /// The UID of the first event of the alert with this id.
    public static func uid(_ id: UUID) -> String { id.uuidString.lowercased() + "@nudge" }

    // MARK: Events

    /// An alert's events, written as bytes (no tree: 100,000 alerts would make millions
    /// of properties only to write them). `zones`: the zones already looked up by name.
    /// `soundURI` gives a theme sound's file as a URI.
    static func writeEvents(_ alert: Alert, system: TimeZone, zones: [String: TimeZone] = [:], soundURI: (String) -> String?,
                            to out: inout LineWriter) {
        let zone = alert.timeZone.flatMap { zones[$0] ?? TimeZone(identifier: $0) } ?? system
        let form = TimeForm(zone: zone, tzid: alert.timeZone)
        let rules = self.rules(alert.schedule, first: form.local(alert.created), form: form)
        let id = alert.id.uuidString.lowercased()
        let title = Property.escape(alert.title), stamp = TimeForm.utc(alert.created)
        for (index, rule) in rules.enumerated() {
            out.line("BEGIN", "VEVENT")
            out.line("UID", index == 0 ? id + "@nudge" : id + "-\(index + 1)@nudge")
            out.line("DTSTAMP", stamp)
            out.line(rule.start)
            if let rrule = rule.rrule { out.line("RRULE", rrule.description) }
            if !rule.except.isEmpty { out.line(form.times("EXDATE", rule.except, utc: rule.utc)) }
            if !rule.also.isEmpty { out.line(form.times("RDATE", rule.also, utc: rule.utc)) }
            out.line("SUMMARY", title)
            if !alert.body.isEmpty { out.line("DESCRIPTION", Property.escape(alert.body)) }
            // An event of no length: the moment the reminder shows; not busy time.
            out.line("DURATION", "PT0S")
            out.line("TRANSP", "TRANSPARENT")
            // Nudge's settings once, on the first part; the others name the alert.
            if index == 0 { writeNudgeProperties(alert, id: id, to: &out) } else { out.line("X-NUDGE-ID", id) }
            if rules.count > 1 { out.line("X-NUDGE-PART", "\(index + 1)/\(rules.count)") }
            if case .place(let trigger) = alert.schedule {
                writePlace(trigger, to: &out)
            } else if alert.enabled {
                writeAlarms(alert, title: title, soundURI: soundURI, to: &out)
            }
            out.line("END", "VEVENT")
        }
    }

    /// A place reminder's trigger, for other programs and people reading the file (no
    /// standard property says "on arriving"): `X-NUDGE-PLACE-EDGE:ARRIVE`, the place as
    /// `X-NUDGE-PLACE-NETWORK:office-wifi` or `X-NUDGE-PLACE-AREA:37.5665;126.978;300`
    /// (degrees and metres, GEO's order), and when given `X-NUDGE-PLACE-HOURS:09:00-12:00`,
    /// `X-NUDGE-PLACE-DAYS:MO,TU` and `X-NUDGE-PLACE-ONCE-PER:14400` (seconds).
    static func writePlace(_ trigger: PlaceTrigger, to out: inout LineWriter) {
        out.line("X-NUDGE-PLACE-EDGE", trigger.edge.rawValue.uppercased())
        switch trigger.spot {
        case .network(let name): out.line("X-NUDGE-PLACE-NETWORK", Property.escape(name))
        case .area(let area): out.line("X-NUDGE-PLACE-AREA", Property.escape("\(area.latitude);\(area.longitude);\(area.radius)"))
        }
        if let window = trigger.window { out.line("X-NUDGE-PLACE-HOURS", "\(window.start)-\(window.end)") }
        if trigger.days.count < 7 { out.line("X-NUDGE-PLACE-DAYS", Property.escape(byDay(trigger.days).map(\.description).joined(separator: ","))) }
        if let oncePer = trigger.oncePer { out.line("X-NUDGE-PLACE-ONCE-PER", String(oncePer)) }
    }

    /// What shows the reminder, and what plays its sound.
    static func writeAlarms(_ alert: Alert, title: String, soundURI: (String) -> String?, to out: inout LineWriter) {
        out.line("BEGIN", "VALARM")
        out.line("ACTION", "DISPLAY")
        out.line("TRIGGER", "PT0S")
        out.line("DESCRIPTION", title)
        out.line("END", "VALARM")
        guard let sound = alert.sound else { return }
        out.line("BEGIN", "VALARM")
        out.line("ACTION", "AUDIO")
        out.line("TRIGGER", "PT0S")
        let uri: String? = switch sound {
        case .file(let path): fileURI(path)
        case .named(let name): soundURI(name)
        }
        if let uri { out.line(Property("ATTACH", uri, parameters: [("VALUE", ["URI"])])) }
        out.line("END", "VALARM")
    }

    /// Nudge's own settings, for a round trip (KAlarm keeps its own the same way).
    static func writeNudgeProperties(_ alert: Alert, id: String, to out: inout LineWriter) {
        out.line("X-NUDGE-ID", id)
        // X- values are TEXT (RFC 5545 §3.2.20): a comma unescaped is a list to a server that
        // reads it so (Radicale kept "at 28800" of "at 28800,73800 62").
        out.line("X-NUDGE-SCHEDULE", Property.escape(alert.schedule.storageText))
        out.line("X-NUDGE-ENABLED", alert.enabled ? "TRUE" : "FALSE")
        out.line("X-NUDGE-KIND", alert.kind.rawValue)
        out.line("X-NUDGE-URGENCY", alert.urgency.description)
        out.line("X-NUDGE-SOUND", Property.escape(alert.sound?.description ?? ""))
        out.line("X-NUDGE-SNOOZE", String(alert.snoozeSeconds))
        out.line("X-NUDGE-CREATED", TimeForm.utc(alert.created, fraction: true))
        switch alert.catchUp {
        case .once(let grace): out.line("X-NUDGE-CATCH-UP", String(grace))
        case .skip: out.line("X-NUDGE-CATCH-UP", "SKIP")
        }
        if !alert.icon.isEmpty { out.line("X-NUDGE-ICON", Property.escape(alert.icon)) }
        if let away = alert.whenAway { out.line("X-NUDGE-WHEN-AWAY", away.rawValue) }
        if let nag = alert.nag { out.line("X-NUDGE-NAG", Property.escape("\(nag.seconds),\(nag.times)")) }
        if let zone = alert.timeZone { out.line("X-NUDGE-TIME-ZONE", Property.escape(zone)) }
    }

    static func fileURI(_ path: String) -> String {
        // Most paths need no escaping: no Foundation round trip for them.
        if path.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || "/-._~".utf8.contains($0) }) {
            return "file://" + path
        }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: ";,"))
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }

    // MARK: Schedules as RRULEs

    /// One event's start, rule and instants left out.
    struct Rule {
        var start: Property
        var rrule: RecurrenceRule?
        var except: [Date] = []
        /// Instants added (RDATE): on the first rule only.
        var also: [Date] = []
        /// Whether its times are written in UTC.
        var utc = false
    }

    /// BYDAY's days, Monday first.
    static func byDay(_ days: Set<Weekday>) -> [RecurrenceRule.DayOfWeek] {
        days.sorted { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 }.map { RecurrenceRule.DayOfWeek($0.rruleDay) }
    }

    /// The rules that together give the schedule's times. RRULE's BYHOUR and BYMINUTE
    /// combine every hour with every minute, so times are grouped by their minute (and
    /// second): 09:30 and 13:00 are two rules, every 30 min 09:30–21:30 two more.
    ///
    /// Each rule starts at its first time at or after `first` (a local day and second):
    /// RFC 5545 counts DTSTART as an occurrence, and a period's count starts from it.
    /// `narrowing`: a restricted schedule's period and places, which the rules say.
    static func rules(_ schedule: Schedule, first: (day: CivilDay, second: Int), form: TimeForm,
                      narrowing: Schedule.Restriction? = nil) -> [Rule] {
        let period = narrowing?.period, monthDays = narrowing.flatMap { $0.monthDays.isEmpty ? nil : $0.monthDays }
        switch schedule {
        case .daily(let times, let days):
            return timeRules(times, days: days, first: first, form: form, narrowing: narrowing)
        case .afterAnswer(let seconds, let window, let days):
            // Counted from each answer: no calendar can say that. The clock's version of it
            // (every N inside the window) is the closest; X-NUDGE-SCHEDULE keeps the truth.
            let window = window ?? DayWindow(start: LocalTime(secondOfDay: 0)!, end: LocalTime(secondOfDay: 86_399)!)!
            let times = stride(from: window.start.secondOfDay, through: window.end.secondOfDay, by: max(seconds, 60))
                .compactMap(LocalTime.init(secondOfDay:))
            return timeRules(times, days: days, first: first, form: form, narrowing: narrowing)
        case .interval(let seconds, let anchor, let days):
            // Steps of elapsed time from the anchor: in UTC, exact (to the second: the anchor's
            // fraction, the moment it was made, has no place in a DATE-TIME). Limited to some
            // days, the days are the zone's: then in the zone's time (exact while its offset
            // holds).
            let (frequency, interval): (RecurrenceRule.Frequency, Int) = seconds % 3600 == 0 ? (.hourly, seconds / 3600)
                : seconds % 60 == 0 ? (.minutely, seconds / 60) : (.secondly, seconds)
            var rrule = RecurrenceRule(frequency)
            rrule.interval = interval
            if days.count == 7 { return [Rule(start: Property("DTSTART", TimeForm.utc(anchor)), rrule: rrule, utc: true)] }
            rrule.byDay = byDay(days)
            return [Rule(start: form.start(anchor), rrule: rrule)]
        case .once(let instant):
            return [Rule(start: form.start(instant), rrule: nil)]
        case .place:
            // No time: the event is the day it was made (DTSTART is required), without a
            // rule or an alarm; the X-NUDGE-PLACE properties say the rest.
            return [Rule(start: form.start(first.day, LocalTime(secondOfDay: first.second)!), rrule: nil)]
        case .cron(let cron):
            let fields = cron.fields
            var base = frequency(narrowing)
            if fields.months.count < 12 { base.byMonth = fields.months }
            (base.byHour, base.byMinute) = (fields.hours, fields.minutes)
            base.byMonthDay = monthDays
            // Both day fields restricted: a day matching either one, as cron does: two rules.
            // (month, day of month, weekday) → whether the rule's days include it.
            var dayRules: [(RecurrenceRule, (Int, Int, Int) -> Bool)] = []
            if let dom = fields.daysOfMonth {
                var rule = base
                rule.byMonthDay = dom
                dayRules.append((rule, { _, date, _ in dom.contains(date) }))
            }
            if let dow = fields.weekdays {
                // Weekdays by their place in the month, when the schedule has places.
                var rule = base
                let places = narrowing.map { byPlace($0.places) } ?? []
                rule.byDay = places.isEmpty ? dow.map { RecurrenceRule.DayOfWeek(Weekday(rawValue: $0)!.rruleDay) } : places
                dayRules.append((rule, { _, _, weekday in dow.contains(weekday) }))
            }
            // Every day: a rule by month or year must say so (it would take DTSTART's day).
            if dayRules.isEmpty {
                var rule = base
                if [.month, .year].contains(period?.unit) && monthDays == nil { rule.byMonthDay = Array(1...31) }
                dayRules.append((rule, { _, _, _ in true }))
            }
            let times = cron.times
            return dayRules.map { rule, matches in
                func holds(_ day: CivilDay) -> Bool {
                    let (_, month, date) = day.components
                    return fields.months.contains(month) && matches(month, date, day.weekday.rawValue) && narrowing?.includes(day) != false
                }
                // The first day that holds, the first's itself when a time is left on it.
                let day = holds(first.day) && times.last!.secondOfDay >= first.second ? first.day
                    : Schedule.firstDay(from: first.day.advanced(by: 1), period: period, matches: holds) ?? first.day
                let after = day == first.day ? first.second : 0
                let start = times.first { $0.secondOfDay >= after } ?? times[0]
                return Rule(start: form.start(day, start), rrule: rule)
            }
        case .restricted(let base, let restriction):
            // Its first instant moves the rules' starts; the rest is said by the rule's
            // INTERVAL and UNTIL, and by EXDATE.
            var start = first
            if let from = restriction.from {
                let local = form.local(from)
                if (local.day, local.second) > (start.day, start.second) { start = (local.day, local.second) }
            }
            let except = restriction.except.sorted()
            return rules(base, first: start, form: form, narrowing: restriction).enumerated().map { index, rule in
                var rule = rule
                if let until = restriction.until {
                    rule.rrule?.until = rule.utc || !form.floating ? TimeForm.utc(until) : form.stamp(until)
                }
                rule.except = except
                if index == 0 { rule.also = restriction.also.sorted() }
                return rule
            }
        }
    }

    /// `FREQ=DAILY`; with a period `FREQ=WEEKLY;INTERVAL=2;WKST=MO`; with places in the
    /// month `FREQ=MONTHLY`.
    static func frequency(_ narrowing: Schedule.Restriction?) -> RecurrenceRule {
        guard let period = narrowing?.period else {
            return RecurrenceRule(narrowing?.places.isEmpty == false || narrowing?.monthDays.isEmpty == false ? .monthly : .daily)
        }
        let units: [Schedule.Period.Unit: RecurrenceRule.Frequency] = [.day: .daily, .week: .weekly, .month: .monthly, .year: .yearly]
        var rule = RecurrenceRule(units[period.unit]!)
        rule.interval = period.every
        if period.unit == .week { rule.weekStart = period.weekStart.rruleDay }
        return rule
    }

    /// `BYDAY`'s `1MO,-1FR,WE`; empty for no places.
    static func byPlace(_ places: [Schedule.Place]) -> [RecurrenceRule.DayOfWeek] {
        places.map { RecurrenceRule.DayOfWeek($0.weekday.rruleDay, place: $0.place) }
    }

    static func timeRules(_ times: [LocalTime], days: Set<Weekday>, first: (day: CivilDay, second: Int), form: TimeForm,
                          narrowing: Schedule.Restriction?) -> [Rule] {
        let period = narrowing?.period, places = byPlace(narrowing?.places ?? [])
        // Every day said as days of the week, by week, month or year (else they would take
        // DTSTART's); weekdays by their places when they have them.
        let byDay = !places.isEmpty ? places
            : days.count == 7 && (period.map { $0.unit == .day } ?? true) ? nil : byDay(days)
        var base = period == nil && places.isEmpty && narrowing?.monthDays.isEmpty != false && byDay != nil
            ? RecurrenceRule(.weekly) : frequency(narrowing)
        base.byDay = byDay
        if let monthDays = narrowing?.monthDays, !monthDays.isEmpty { base.byMonthDay = monthDays }
        // The month's last weekday: the last of its Mondays to Fridays (BYSETPOS counts the
        // set's times too: one time a rule).
        let lastWeekday = narrowing?.monthDays == [Schedule.Restriction.lastWeekday]
        if lastWeekday {
            base.byMonthDay = nil
            base.byDay = Self.byDay([.monday, .tuesday, .wednesday, .thursday, .friday])
            base.bySetPos = [-1]
        }
        // By minute and second in the hour, then by time: each group one run.
        let sorted = times.sorted { ($0.secondOfDay % 3600, $0.secondOfDay) < ($1.secondOfDay % 3600, $1.secondOfDay) }
        var groups: [ArraySlice<LocalTime>] = []
        var runStart = 0
        for i in sorted.indices.dropFirst() where sorted[i].secondOfDay % 3600 != sorted[runStart].secondOfDay % 3600 || lastWeekday {
            groups.append(sorted[runStart..<i])
            runStart = i
        }
        if !sorted.isEmpty { groups.append(sorted[runStart...]) }
        return groups.map { group in
            let key = group.first!.secondOfDay % 3600
            // Its first time at or after the first second, on a day the rule holds.
            func holds(_ day: CivilDay) -> Bool { days.contains(day.weekday) && narrowing?.includes(day) != false }
            let day = holds(first.day) && group.last!.secondOfDay >= first.second ? first.day
                : Schedule.firstDay(from: first.day.advanced(by: 1), period: period, matches: holds) ?? first.day
            let after = day == first.day ? first.second : 0
            let start = group.first { $0.secondOfDay >= after } ?? group.first!
            var rrule = base
            rrule.byHour = group.map { $0.secondOfDay / 3600 }
            rrule.byMinute = [key / 60]
            if key % 60 != 0 { rrule.bySecond = [key % 60] }
            return Rule(start: form.start(day, start), rrule: rrule)
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
                Property("DTSTART", TimeForm.local(instant, offset: before)),
                Property("TZOFFSETFROM", TimeForm.offset(before)), Property("TZOFFSETTO", TimeForm.offset(after)),
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

/// The form an event's dates and times are written in: in one zone (with its TZID), floating,
/// or in UTC; it tells no time.
struct TimeForm {
    let zone: TimeZone
    /// The zone's name as the alert has it (and its VTIMEZONE): Foundation calls UTC "GMT".
    let tzid: String?
    var floating: Bool { tzid == nil }
    /// Local days and times, as the scheduler reads them (no Calendar, which costs more to
    /// make than a whole event to write).
    let civil: CivilZone

    /// `tzid` nil: floating time.
    init(zone: TimeZone, tzid: String?) {
        (self.zone, self.tzid, civil) = (zone, tzid, CivilZone(zone))
    }

    /// The civil day and second of the day an instant falls on here.
    func local(_ instant: Date) -> (day: CivilDay, second: Int) { civil.local(instant) }

    /// `20261123T093000`: an instant in this zone's local time.
    func stamp(_ instant: Date) -> String {
        let (day, second) = civil.local(instant)
        let (year, month, date) = day.components
        return TimeForm.stamp(year, month, date, second)
    }

    /// A list of instants (EXDATE): in UTC, or as DTSTART is written (local, with its TZID).
    func times(_ name: String, _ instants: [Date], utc: Bool) -> Property {
        if utc { return Property(name, instants.map { TimeForm.utc($0) }.joined(separator: ",")) }
        return Property(name, instants.map(stamp).joined(separator: ","), parameters: tzid.map { [("TZID", [$0])] } ?? [])
    }

    /// DTSTART for an instant, in this zone's local time.
    func start(_ instant: Date) -> Property {
        property(stamp(instant))
    }

    /// DTSTART for a day and a local time.
    func start(_ day: CivilDay, _ time: LocalTime) -> Property {
        let (year, month, date) = day.components
        return property(TimeForm.stamp(year, month, date, time.secondOfDay))
    }

    /// Digits, zero-padded to `width` (String(format:) costs more than the rest of a line).
    static func digits(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func stamp(_ year: Int, _ month: Int, _ day: Int, _ second: Int) -> String {
        digits(year, 4) + digits(month, 2) + digits(day, 2) + "T" + digits(second / 3600, 2) + digits(second / 60 % 60, 2) + digits(second % 60, 2)
    }

    private func property(_ local: String) -> Property {
        Property("DTSTART", local, parameters: tzid.map { [("TZID", [$0])] } ?? [])
    }

    /// `20261123T093000` for an instant at an offset from UTC.
    /// 2001-01-01T00:00:00Z, Date's reference, in seconds since 1970.
    static let referenceSince1970 = Int(Date.timeIntervalBetween1970AndReferenceDate)

    static func local(_ instant: Date, offset: Int) -> String {
        // Counted from Date's own reference (a whole number of seconds after 1970): the
        // count from 1970 is a second rounding, which moved a time near the year 2126 by a
        // microsecond (found by the ical fuzz target).
        let seconds = Int(instant.timeIntervalSinceReferenceDate.rounded(.down)) + Self.referenceSince1970 + offset
        let day = CivilDay(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
        let second = seconds - day.daysSinceEpoch * 86_400
        let (year, month, date) = day.components
        return stamp(year, month, date, second)
    }

    /// `20261123T003000Z`; with `fraction`, the microseconds after a dot (an X- value only).
    static func utc(_ instant: Date, fraction: Bool = false) -> String {
        let text = local(instant, offset: 0) + "Z"
        guard fraction else { return text }
        let since = instant.timeIntervalSinceReferenceDate
        let micro = Int(((since - since.rounded(.down)) * 1_000_000).rounded())
        return String(text.dropLast()) + "." + digits(min(micro, 999_999), 6) + "Z"
    }

    /// `+0900`, `-0330`.
    static func offset(_ seconds: Int) -> String {
        String(format: "%@%02d%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) / 60 % 60)
    }
}
