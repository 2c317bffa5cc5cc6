import Foundation
import ICalendar
import NudgeCalendar

/// Answers that travel with a calendar object: what the person did with its alarm here,
/// written where other clients read it, and what they did elsewhere, read back. Pure.
///
/// - Done, a dismissal or a snooze here sets RFC 9074 `ACKNOWLEDGED` (UTC) on the object's
///   alarms, and Thunderbird's `X-MOZ-LASTACK` on the event or task, so a phone that follows
///   the calendar stops ringing.
/// - A snooze here adds an RFC 9074 snooze alarm: `ACTION:DISPLAY`, an absolute `TRIGGER`,
///   `RELATED-TO;RELTYPE=SNOOZE` naming the alarm snoozed (given a UID if it had none), and,
///   on an object that does not repeat, Thunderbird's `X-MOZ-SNOOZE-TIME`. Once the snooze
///   is over or answered, Nudge's snooze alarm and the `X-MOZ-SNOOZE-TIME` it wrote go.
/// - With ``Marks/complete``, a task answered Done here is completed (`STATUS:COMPLETED`,
///   `COMPLETED`, `PERCENT-COMPLETE:100`).
///
/// A mark only ever moves a time forward, and marking twice is marking once: an object
/// whose copy already says as much is left as it is (no write).
public enum AlarmAnswers {
    /// What the person did here with one reminder's alarm.
    public struct Marks: Sendable, Equatable {
        /// The last answer of any kind (Done, dismissed, snoozed): the alarm is acknowledged then.
        public var acknowledged: Date?
        /// A snooze in force: the alarm rings again then.
        public var snoozedUntil: Date?
        /// The last Done, when Done on a task completes it (the person's setting); else `nil`.
        public var complete: Date?

        public init(acknowledged: Date? = nil, snoozedUntil: Date? = nil, complete: Date? = nil) {
            self.acknowledged = acknowledged
            self.snoozedUntil = snoozedUntil
            self.complete = complete
        }
    }

    /// The object `calendar` with `marks` written in. Each event or task of it is marked;
    /// a changed occurrence (RECURRENCE-ID) only with the acknowledgement, on its own alarms
    /// (an answer to its moved time is to them; one earlier than their time leaves them to
    /// ring), as the snooze and the completion are the series'.
    public static func mark(_ calendar: Component, _ marks: Marks) -> Component {
        // Times are written to the second: compared to the second too, or a time with a
        // fraction would be "later" than its own copy at every sync.
        let second = { (time: Date?) in time.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) } }
        let marks = Marks(acknowledged: second(marks.acknowledged), snoozedUntil: second(marks.snoozedUntil), complete: second(marks.complete))
        var result = calendar
        result.components = calendar.components.map { component in
            guard component.name == "VEVENT" || component.name == "VTODO" else { return component }
            return markItem(component, component["RECURRENCE-ID"] == nil ? marks : Marks(acknowledged: marks.acknowledged))
        }
        return result
    }

    /// The latest acknowledgement an object carries: `ACKNOWLEDGED` on its alarms or
    /// `X-MOZ-LASTACK` on its event or task, whichever is later.
    public static func acknowledged(in calendar: Component) -> Date? {
        var latest: Date?
        for item in calendar.components where item.name == "VEVENT" || item.name == "VTODO" {
            let times = item.all("X-MOZ-LASTACK").compactMap { utc($0.value) }
                + item.components.filter { $0.name == "VALARM" && !isSnooze($0) }.flatMap { $0.all("ACKNOWLEDGED") }.compactMap { utc($0.value) }
            for time in times where latest.map({ time > $0 }) ?? true { latest = time }
        }
        return latest
    }

    /// The latest snooze an object carries: an RFC 9074 snooze alarm's absolute `TRIGGER`,
    /// or Thunderbird's `X-MOZ-SNOOZE-TIME` (`X-MOZ-SNOOZE-TIME-…` on a series), whichever
    /// is later; `nil` without one.
    public static func snoozedUntil(in calendar: Component) -> Date? {
        var latest: Date?
        for item in calendar.components where (item.name == "VEVENT" || item.name == "VTODO") && item["RECURRENCE-ID"] == nil {
            let times = item.properties.filter { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME") }.compactMap { utc($0.value) }
                + item.components.filter { $0.name == "VALARM" && isSnooze($0) }.flatMap { $0.all("TRIGGER") }
                    .filter { $0.parameter("VALUE")?.uppercased() == "DATE-TIME" }.compactMap { utc($0.value) }
            for time in times where latest.map({ time > $0 }) ?? true { latest = time }
        }
        return latest
    }

    /// The object as it is without what answers and re-saving put in it (acknowledgements,
    /// snoozes, alarm UIDs, stamps), its properties in one order and its durations in one
    /// spelling (a phone's library writes `PT0S` as `P0D`, and orders as it likes): what an
    /// edit is told from an answer by. A deletion on one side wins over an answer on the
    /// other, never over an edit.
    public static func withoutAnswers(_ component: Component) -> Component {
        var result = component
        result.properties = component.properties.filter { property in
            !(["ACKNOWLEDGED", "X-MOZ-LASTACK", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "X-WR-ALARMUID"].contains(property.name)
                || property.name.hasPrefix("X-MOZ-SNOOZE-TIME") || (component.name == "VALARM" && property.name == "UID"))
        }.map(sameSpelling).enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        // Time zone definitions are no edit either: a library writes them its own way.
        result.components = component.components.filter { !($0.name == "VALARM" && isSnooze($0)) && $0.name != "VTIMEZONE" }.map(withoutAnswers)
        return result
    }

    /// A property as any library might have spelled it, in one spelling: a duration in
    /// seconds, a rule's parts in order of name, a local time without the `Z` that a
    /// `TZID` makes meaningless (python's icalendar writes `TZID=UTC:…Z`).
    static func sameSpelling(_ property: Property) -> Property {
        var same = property
        if ["TRIGGER", "DURATION"].contains(property.name), let seconds = durationSeconds(property.value) {
            same.value = "\(seconds)s"
        } else if property.name == "RRULE" || property.name == "EXRULE" {
            same.value = property.value.uppercased().split(separator: ";").sorted().joined(separator: ";")
        } else if property.parameter("TZID") != nil, property.value.hasSuffix("Z") {
            same.value = String(property.value.dropLast())
        }
        return same
    }

    /// A duration's seconds (`-PT15M` → -900, `P1DT2H` → 93600); `nil` for anything else.
    static func durationSeconds(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        var sign = 1
        if rest.hasPrefix("-") { sign = -1; rest = rest.dropFirst() } else if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total = 0, number: Int?, inTime = false, any = false
        for character in rest {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + digit
                guard number! < 100_000_000 else { return nil }
                continue
            }
            if character == "T" {
                guard number == nil, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let n = number else { return nil }
            switch (character, inTime) {
            case ("W", false): total += n * 604_800
            case ("D", false): total += n * 86_400
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
            number = nil
            any = true
        }
        return any && number == nil ? sign * total : nil
    }

    /// What marks the UID Nudge gave an alarm so a snooze could name it (`…#alarm`): the
    /// merge still matches that alarm by its place, as before it had one.
    public static let madeAlarmUID = "#alarm"

    /// A snooze alarm (RFC 9074 §7): one related to another as its snooze.
    public static func isSnooze(_ alarm: Component) -> Bool {
        alarm.all("RELATED-TO").contains { $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" }
    }

    /// The alarms an answer is to: those that tell the person (display, audio, email),
    /// snooze alarms aside.
    static func answerable(_ alarm: Component) -> Bool {
        alarm.name == "VALARM" && !isSnooze(alarm) && ["DISPLAY", "AUDIO", "EMAIL"].contains(alarm["ACTION"]?.value.uppercased() ?? "")
    }

    private static func markItem(_ item: Component, _ marks: Marks) -> Component {
        var item = item
        let alarms = item.components.indices.filter { answerable(item.components[$0]) }
        guard !alarms.isEmpty || marks.complete != nil else { return item }
        if let acknowledged = marks.acknowledged, !alarms.isEmpty {
            let text = utcText(acknowledged)
            for index in alarms {
                item.components[index].properties = raised(item.components[index].properties, "ACKNOWLEDGED", to: acknowledged, text: text)
            }
            item.properties = raised(item.properties, "X-MOZ-LASTACK", to: acknowledged, text: text)
        }
        snooze(&item, until: marks.snoozedUntil, alarms: alarms)
        if let done = marks.complete, item.name == "VTODO", !isOver(item) {
            item.properties.removeAll { ["STATUS", "COMPLETED", "PERCENT-COMPLETE"].contains($0.name) }
            item.properties += [Property("STATUS", "COMPLETED"), Property("COMPLETED", utcText(done)), Property("PERCENT-COMPLETE", "100")]
        }
        return item
    }

    /// A task completed or cancelled already (``CalendarImport/isOver(task:)``).
    public static func isOver(_ task: Component) -> Bool { CalendarImport.isOver(task: task) }

    /// `properties` with `name` at `time` where it was earlier or missing; a later one stays.
    private static func raised(_ properties: [Property], _ name: String, to time: Date, text: String) -> [Property] {
        let existing = properties.filter { $0.name == name }
        if let latest = existing.compactMap({ utc($0.value) }).max(), latest >= time { return properties }
        var result = properties.filter { $0.name != name }
        // In place of the first one, where there was one.
        let at = properties.firstIndex { $0.name == name }.map { index in properties[..<index].filter { $0.name != name }.count }
        result.insert(Property(name, text), at: at ?? result.count)
        return result
    }

    /// Nudge's snooze alarm, kept as the snooze in force says: added, moved, or removed
    /// (with the `X-MOZ-SNOOZE-TIME` it wrote) once there is none.
    private static func snooze(_ item: inout Component, until: Date?, alarms: [Int]) {
        let ours = { (alarm: Component) in isSnooze(alarm) && (alarm["UID"]?.value.hasSuffix("@nudge") ?? false) }
        let previous = item.components.first(where: ours)
        let previousTime = previous?["TRIGGER"].flatMap { utc($0.value) }
        if let until, previousTime == until { return }
        if until == nil, previous == nil { return }
        item.components.removeAll(where: ours)
        if let previousTime {
            item.properties.removeAll { $0.name == "X-MOZ-SNOOZE-TIME" && utc($0.value) == previousTime }
        }
        guard let until, let first = alarms.first else { return }
        // The alarm snoozed needs a UID to be named; one made from the object's keeps a
        // second marking alike. Nudge's own alarm keeps `@nudge` so it stays Nudge's.
        var base = item["UID"]?.value ?? "alarm"
        if base.hasSuffix("@nudge") { base.removeLast(6) }
        if item.components[first]["UID"] == nil {
            // Only an object of Nudge's own has Nudge's alarms: a phone's alarm at the start is the phone's.
            let own = (item["UID"]?.value.hasSuffix("@nudge") ?? false) && ObjectMerge.isNudgeAlarm(item.components[first])
            item.components[first].properties.insert(Property("UID", base + madeAlarmUID + (own ? "@nudge" : "")), at: 0)
        }
        let snoozed = item.components[first]["UID"]!.value
        let text = utcText(until)
        var alarm = Component("VALARM", properties: [
            Property("UID", base + "#snooze@nudge"),
            Property("RELATED-TO", snoozed, parameters: [("RELTYPE", ["SNOOZE"])]),
            Property("ACTION", "DISPLAY"),
            Property("TRIGGER", text, parameters: [("VALUE", ["DATE-TIME"])]),
        ])
        alarm.properties.append(item.components[first]["DESCRIPTION"] ?? Property.text("DESCRIPTION", item["SUMMARY"]?.text ?? "Reminder"))
        item.components.insert(alarm, at: first + 1)
        let repeats = item["RRULE"] != nil || item["RDATE"] != nil
        if !repeats {
            item.properties.removeAll { $0.name == "X-MOZ-SNOOZE-TIME" }
            item.properties.append(Property("X-MOZ-SNOOZE-TIME", text))
        }
    }

    // MARK: UTC times

    /// `20261128T090000Z` for an instant (whole seconds, down).
    public static func utcText(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.down)))
        func two(_ n: Int?) -> String { String(n ?? 0).leftPadded(2) }
        return String(c.year ?? 0).leftPadded(4) + two(c.month) + two(c.day) + "T" + two(c.hour) + two(c.minute) + two(c.second) + "Z"
    }

    /// An instant from a UTC date-time (`20261128T090000Z`); `nil` for anything else.
    public static func utc(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
              let minute = number(11..<13), let second = number(13..<15),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), no calendar object needed.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}
