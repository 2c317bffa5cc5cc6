import Foundation
import ICalendar
import NudgeCore

/// iCalendar events and to-dos as alerts. Nudge's own exports come back exactly (their
/// `X-NUDGE-*` properties say everything); anything else is read from its DTSTART (in its
/// TZID, UTC or floating), its RRULE and its first VALARM's TRIGGER, and what Nudge's
/// schedules cannot say is refused with the component and the property named.
public enum CalendarImport {
    /// One component read: an alert, or why not.
    public enum Outcome: Sendable {
        /// A reminder; `component` names the component for messages (``name(_:)``), and
        /// `complete` says the file gives every column (Nudge's own export), not only the
        /// title, body, schedule and zone.
        case alert(Alert, component: String, complete: Bool)
        /// Not a reminder (no alarm and no rule), or a part of an alert already read.
        case skipped
        /// A reminder with nothing left to fire: a one-shot gone by, a rule ended.
        case over
        /// What cannot be imported: the component, named, and the property and why.
        case refused(component: String, reason: Phrase)
    }

    /// Every VEVENT and VTODO of the calendars, in order. `now` places one-shots that are
    /// over and sets when new alerts were made; `system` reads floating times. A UID is read
    /// once: a later component with it is refused, so one id never stands for two things.
    /// A changed occurrence (RECURRENCE-ID) is read with its series, wherever it stands:
    /// its old time left out, its new one added (see ``changes(_:of:start:offset:system:now:)``);
    /// without its series in the calendar (an invitation to one occurrence), the first is
    /// read as the event, with the others. Nudge's own reminders keep their schedule: a
    /// changed occurrence of one is refused, the series read.
    ///
    /// With `alarmsOnly` (calendars followed by sync) only what rings on the other devices
    /// rings here: a component with a display or audio alarm (never an e-mail's), or the
    /// changed occurrences that have one; a repeating event without any (a birthday, a
    /// weekly meeting) is skipped, as a one-shot without one always is.
    public static func alerts(in calendars: [Component], system: TimeZone, now: Date, alarmsOnly: Bool = false) -> [Outcome] {
        var outcomes: [Outcome] = []
        var seen: Set<String> = [], ids: Set<UUID> = []
        for calendar in calendars where calendar.name == "VCALENDAR" {
            let items = calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
            // The changed occurrences by UID, and the UIDs that have a series.
            var changed: [String: [Int]] = [:], series: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                guard let uid = item["UID"]?.value else { continue }
                if item["RECURRENCE-ID"] != nil { changed[uid, default: []].append(index) } else if series[uid] == nil { series[uid] = index }
            }
            for (index, component) in items.enumerated() {
                if let id = component["X-NUDGE-ID"]?.value, !seen.insert(id).inserted {
                    outcomes.append(.skipped)
                    continue
                }
                let uid = component["UID"]?.value
                var occurrences = uid.flatMap { changed[$0] }?.map { items[$0] } ?? []
                do throws(Refusal) {
                    if component["RECURRENCE-ID"] != nil {
                        let own = uid.flatMap { series[$0] }.map { items[$0]["X-NUDGE-SCHEDULE"] != nil } ?? false
                        if uid == nil || own {
                            // TRANSLATORS: nudge import: a component that changes one occurrence of another's rule (RFC 5545's RECURRENCE-ID), which cannot be tied to it or belongs to one of Nudge's own reminders.
                            throw Refusal(Phrase("RECURRENCE-ID: one occurrence of a rule changed, which Nudge's schedules cannot say (the rule itself is read)"))
                        }
                        // Read with its series, or, without one, the first read as the event.
                        guard let uid, series[uid] == nil, changed[uid]?.first == index else {
                            outcomes.append(.skipped)
                            continue
                        }
                        occurrences.removeFirst()
                    } else if component["X-NUDGE-SCHEDULE"] != nil || component["X-NUDGE-PLACE-EDGE"] != nil || uid.map({ series[$0] != index }) ?? true {
                        occurrences = []
                    }
                    let read = try alert(component, changed: occurrences, system: system, now: now, alarmsOnly: alarmsOnly)
                    if case .skipped = read {
                        outcomes.append(read)
                        continue
                    }
                    guard ids.insert(id(component)).inserted else {
                        throw Refusal(component["UID"] != nil
                            // TRANSLATORS: nudge import: two components of one file have the same UID; the first is the one read.
                            ? Phrase("the same UID as an earlier component of the file: only the first is read")
                            // TRANSLATORS: nudge import: two components without a UID have the same SUMMARY and DTSTART; the first is the one read.
                            : Phrase("no UID, and the same SUMMARY and DTSTART as an earlier component: only the first is read"))
                    }
                    guard case .alert(let alert, _, _) = read else {
                        outcomes.append(read)
                        continue
                    }
                    // The limits every alert keeps (a title of one line, sizes, no controls).
                    for (field, value, property) in [(Limits.Field.title, alert.title, "SUMMARY"), (.body, alert.body, "DESCRIPTION"),
                                                     (.icon, alert.icon, "X-NUDGE-ICON"), (.sound, alert.sound?.description ?? "", "X-NUDGE-SOUND")] {
                        do { try Limits.check(field, value) } catch { throw Refusal(reason: "\(property): \(error.description)") }
                    }
                    // Nothing is stored that the store would not read back: a schedule no
                    // check above foresaw is refused here, never kept unreadable.
                    guard Schedule(storageText: alert.schedule.storageText) == alert.schedule else {
                        // TRANSLATORS: nudge import: a component whose schedule, as read, the store could not hold.
                        throw Refusal(Phrase("its schedule, as read, is one the store cannot hold"))
                    }
                    outcomes.append(read)
                } catch {
                    outcomes.append(.refused(component: name(component), reason: error.phrase))
                }
            }
        }
        return outcomes
    }

    /// Why a component is refused: English text naming the property (most), or a phrase
    /// for the person's language.
    struct Refusal: Error {
        var phrase: Phrase
        init(reason: String) { phrase = .verbatim(reason) }
        init(_ phrase: Phrase) { self.phrase = phrase }
        /// In English, for a refusal that names the property around it.
        var reason: String { phrase.description }
    }

    /// A part of an RRULE that cannot be imported, and why (the part cut short: a file's
    /// text is never quoted whole).
    static func refuse(_ what: String, _ why: String) -> Refusal { Refusal(reason: "RRULE \(what.quotedPrefix(60)): \(why)") }

    /// `VEVENT “Stand-up” (UID abc@x)`.
    static func name(_ component: Component) -> String {
        var name = component.name
        if let summary = component["SUMMARY"]?.text { name += " “" + summary.escapingControls.quotedPrefix(60) + "”" }
        if let uid = component["UID"]?.value { name += " (UID " + uid.escapingControls.quotedPrefix(80) + ")" }
        return name
    }

    /// The id the reminder read from `component` has (what ``alerts(in:system:now:)`` gives
    /// it): Nudge's own back, else one made from the UID. Sync keys followed objects by it.
    public static func alertID(of component: Component) -> UUID { id(component) }

    /// Whether a task is done or cancelled (RFC 5545 3.8.1.11): its STATUS says so; without
    /// one, a COMPLETED time does. A task reopened elsewhere (STATUS:NEEDS-ACTION or
    /// IN-PROCESS) is open even where its app left the COMPLETED time behind.
    public static func isOver(task: Component) -> Bool {
        guard let status = task["STATUS"]?.value.uppercased() else { return task["COMPLETED"] != nil }
        return status == "COMPLETED" || status == "CANCELLED"
    }

    /// The id an imported component gets: Nudge's own back, else one made from the UID, so
    /// importing the same file again finds the same alerts.
    static func id(_ component: Component) -> UUID {
        if let own = component["X-NUDGE-ID"]?.value, let uuid = UUID(uuidString: own) { return uuid }
        let uid = component["UID"]?.value ?? (component["SUMMARY"]?.value ?? "") + (component["DTSTART"]?.value ?? "")
        // FNV-1a, 128 bits, as a version-8 UUID: stable, no crypto needed.
        var hash: (UInt64, UInt64) = (0x6c62272e07bb0142, 0x62b821756295c58d)
        for byte in uid.utf8 {
            hash.0 ^= UInt64(byte)
            hash.0 = hash.0 &* 0x100000001b3
            hash.1 = (hash.1 ^ hash.0) &* 0x100000001b3
        }
        var bytes = withUnsafeBytes(of: (hash.0.bigEndian, hash.1.bigEndian)) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The component as an alert, or why not (refusals are thrown); `changed`: the
    /// occurrences of it changed elsewhere (RECURRENCE-ID).
    /// The alarms of a component that ring (display, audio, and e-mail unless `alarmsOnly`),
    /// in order; a snooze alarm (RFC 9074: RELATED-TO;RELTYPE=SNOOZE) is an answer's, not
    /// the reminder's.
    static func ringing(_ component: Component, alarmsOnly: Bool) -> [Component] {
        let actions: Set<String> = alarmsOnly ? ["DISPLAY", "AUDIO"] : ["DISPLAY", "AUDIO", "EMAIL"]
        return component.components.filter { $0.name == "VALARM" && actions.contains($0["ACTION"]?.value.uppercased() ?? "")
            && !$0.all("RELATED-TO").contains { $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" } }
    }

    static func alert(_ component: Component, changed: [Component] = [], system: TimeZone, now: Date, alarmsOnly: Bool = false) throws(Refusal) -> Outcome {
        // A title is one line: other calendars' may hold several.
        let title = (component["SUMMARY"]?.text ?? "").split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" }).joined(separator: " ")
        let body = component["DESCRIPTION"]?.text ?? ""
        // Read as TEXT: a server may write a comma of Nudge's value as `\,` (Radicale does).
        if let own = component["X-NUDGE-SCHEDULE"]?.text {
            guard let schedule = Schedule(storageText: own) else { throw Refusal(reason: "X-NUDGE-SCHEDULE “\(own.quotedPrefix(60))” is not one this Nudge reads") }
            // A place said twice must say the same (one edited by hand, the other not, is refused).
            if component["X-NUDGE-PLACE-EDGE"] != nil, Schedule.place(try place(component)) != schedule {
                throw Refusal(reason: "X-NUDGE-PLACE-* and X-NUDGE-SCHEDULE say different things: edit both, or remove X-NUDGE-SCHEDULE")
            }
            return .alert(try nudgeAlert(component, title: title, body: body, schedule: schedule, now: now), component: name(component), complete: true)
        }
        if let other = component.properties.first(where: { $0.name.hasPrefix("X-NUDGE-PLACE-") }), component["X-NUDGE-PLACE-EDGE"] == nil {
            throw Refusal(reason: "\(other.name) without X-NUDGE-PLACE-EDGE: say ARRIVE or LEAVE")
        }
        if component["X-NUDGE-PLACE-EDGE"] != nil {
            let schedule = Schedule.place(try place(component))
            return .alert(try nudgeAlert(component, title: title, body: body, schedule: schedule, now: now), component: name(component), complete: true)
        }
        var alarms = ringing(component, alarmsOnly: alarmsOnly)
        let alarm = alarms.first
        // Switched off by Nudge in another program's object: its alarm removed, and still Nudge's.
        let switchedOff = component["X-NUDGE-ENABLED"]?.text.uppercased() == "FALSE"
        guard alarm != nil || (component["RRULE"] != nil && !alarmsOnly) || (alarmsOnly && switchedOff) else {
            // Followed: only the changed occurrences that have an alarm of their own ring.
            if alarmsOnly, component["RRULE"] != nil || component["RDATE"] != nil {
                return try alarmedOccurrences(component, changed: changed, title: title, body: body, system: system, now: now)
            }
            return .skipped
        }
        if component["EXRULE"] != nil { throw Refusal(reason: "EXRULE: Nudge's schedules have no excluded rules") }
        guard component.all("RRULE").count <= 1 else { throw Refusal(reason: "RRULE: more than one rule in one component") }
        // A task done elsewhere rings no more.
        if component.name == "VTODO", Self.isOver(task: component) { return .over }
        // A task without a start is placed by when it is due (tasks.org, Nextcloud Tasks).
        let startName = component.name == "VTODO" && component["DTSTART"] == nil && component["DUE"] != nil ? "DUE" : "DTSTART"
        let start = try dateTime(component, startName, system: system)
        var offset = try trigger(alarm, component: component, start: start, system: system)
        // Followed, a repeating one's alarm on another day than the event (a day before)
        // cannot be said: its first alarm that can rings, and the others on the same days.
        if alarmsOnly, let parts = try? component["RRULE"].map({ rrule throws(Refusal) in try Self.parts(rrule.value) }) {
            while alarms.count > 1, (try? Self.times(parts, start: start, offset: offset)) == nil {
                alarms.removeFirst()
                offset = try trigger(alarms.first, component: component, start: start, system: system)
            }
        }
        var changes = try self.changes(changed, of: component, start: start, offset: offset, alarmed: alarm != nil, system: system, now: now,
                                       alarmsOnly: alarmsOnly)
        // A one-shot's other alarms ring too (a day before, and 15 minutes before), where
        // a calendar is followed (`nudge import` reads the first, as the guide says).
        if alarmsOnly, component["RRULE"] == nil {
            for other in alarms.dropFirst() {
                let at = start.instant.addingTimeInterval(Double(try trigger(other, component: component, start: start, system: system)))
                if at > now { changes.added.insert(at) }
            }
        }
        var schedule = try Self.schedule(component, start: start, offset: offset, changes: changes, now: now)
        // A repeating one's other alarms on the same days (15 and 5 minutes before): their
        // times too, where one schedule says them all; else the first alarm's alone.
        if alarmsOnly, component["RRULE"] != nil, alarms.count > 1, var joined = schedule {
            for other in alarms.dropFirst() {
                guard let more = try? Self.schedule(component, start: start, offset: try trigger(other, component: component, start: start, system: system),
                                                    changes: changes, now: now),
                      let both = Self.sameDays(joined, more) else { continue }
                joined = both
            }
            schedule = joined
        }
        guard let schedule else { return .over }
        // Nudge's dates are in the years 1970 to 9999, as `--on` has them.
        let zone = start.zoneID.flatMap(TimeZone.init(identifier:)) ?? system
        if let first = schedule.occurrences(after: now, count: 1, in: zone).first, !Limits.inYears(first, zone: zone) {
            throw Refusal(reason: "DTSTART: its first time is after the year \(Limits.years.upperBound)")
        }
        // Switched off by Nudge in another program's object (its alarm removed, X-NUDGE-ENABLED
        // written): off when it comes back here too (found by the soak, seed 7432: restored
        // after a deletion here, it came back on and rang).
        return .alert(Alert(id: id(component), title: title.isEmpty ? "Reminder" : title, body: body, schedule: schedule,
                            enabled: component["X-NUDGE-ENABLED"]?.text.uppercased() != "FALSE",
                            timeZone: start.zoneID, created: now), component: name(component), complete: false)
    }

    /// Two schedules' times together where they ring on the same days (the same rule, two
    /// alarms): `nil` where one schedule cannot say both.
    static func sameDays(_ a: Schedule, _ b: Schedule) -> Schedule? {
        switch (a, b) {
        case (.daily(let t1, let d1), .daily(let t2, let d2)) where d1 == d2:
            return .daily(times: Array(Set(t1 + t2)).sorted(), days: d1)
        case (.restricted(let x, var r1), .restricted(let y, var r2)):
            let from = [r1.from, r2.from].compactMap { $0 }.min()
            let bothFrom = r1.from != nil && r2.from != nil
            (r1.from, r2.from) = (nil, nil)
            guard r1.except.isEmpty, r2.except.isEmpty, r1.also.isEmpty, r2.also.isEmpty, r1.until == nil, r2.until == nil,
                  r1 == r2, let inner = sameDays(x, y) else { return nil }
            r1.from = bothFrom ? from : nil
            return r1.isEmpty ? inner : .restricted(inner, r1)
        case (.restricted(let x, var r), .daily), (.daily, .restricted(let x, var r)):
            // One alarm's first time still ahead (a series that starts today): no start for both.
            let other = if case .daily = a { a } else { b }
            r.from = nil
            guard r.isEmpty, let inner = sameDays(x, other) else { return nil }
            return inner
        default:
            return nil
        }
    }

    /// A followed series without an alarm whose changed occurrences have one (RECURRENCE-ID
    /// with a VALARM): those occurrences alone ring, once each; `.skipped` when none does.
    static func alarmedOccurrences(_ component: Component, changed: [Component], title: String, body: String,
                                   system: TimeZone, now: Date) throws(Refusal) -> Outcome {
        var ahead: [Date] = []
        for occurrence in changed where ringing(occurrence, alarmsOnly: true).first != nil {
            if occurrence["STATUS"]?.value.uppercased() == "CANCELLED" || occurrence.name == "VTODO" && isOver(task: occurrence) { continue }
            let startName = occurrence.name == "VTODO" && occurrence["DTSTART"] == nil && occurrence["DUE"] != nil ? "DUE" : "DTSTART"
            let start: DateTime
            if occurrence[startName] != nil {
                start = try dateTime(occurrence, startName, system: system)
            } else {
                var holder = Component("VEVENT", properties: occurrence["RECURRENCE-ID"].map { [$0] } ?? [])
                if holder.properties.isEmpty { continue }
                holder.properties[0].name = "DTSTART"
                start = try dateTime(holder, "DTSTART", system: system)
            }
            var alone = occurrence
            alone.properties.removeAll { $0.name == "RRULE" }
            let at = start.instant.addingTimeInterval(Double(try trigger(ringing(occurrence, alarmsOnly: true).first, component: alone, start: start, system: system)))
            if at > now { ahead.append(at) }
        }
        ahead.sort()
        guard let first = ahead.first else { return .skipped }
        let schedule: Schedule = ahead.count == 1 ? .once(first) : .restricted(.once(first), Schedule.Restriction(also: Set(ahead.dropFirst())))
        let zone = (try? dateTime(component, component["DTSTART"] != nil ? "DTSTART" : "DUE", system: system))?.zoneID
        return .alert(Alert(id: id(component), title: title.isEmpty ? "Reminder" : title, body: body, schedule: schedule, timeZone: zone, created: now),
                      component: name(component), complete: false)
    }

    /// A place reminder's trigger from its X-NUDGE-PLACE properties alone (a file another
    /// program wrote, or one edited by hand): see ``CalendarExport``.
    static func place(_ c: Component) throws(Refusal) -> PlaceTrigger {
        for name in ["EDGE", "NETWORK", "AREA", "HOURS", "DAYS", "ONCE-PER"] where c.all("X-NUDGE-PLACE-" + name).count > 1 {
            throw Refusal(reason: "X-NUDGE-PLACE-\(name) is given more than once")
        }
        if c["X-NUDGE-PLACE-NETWORK"] != nil && c["X-NUDGE-PLACE-AREA"] != nil {
            throw Refusal(reason: "X-NUDGE-PLACE-NETWORK and X-NUDGE-PLACE-AREA together: a reminder has one place")
        }
        let edgeText = c["X-NUDGE-PLACE-EDGE"]?.text ?? ""
        guard let edge = PlaceTrigger.Edge(rawValue: edgeText.lowercased()) else {
            throw Refusal(reason: "X-NUDGE-PLACE-EDGE “\(edgeText.quotedPrefix(20))” is not ARRIVE or LEAVE")
        }
        let spot: PlaceTrigger.Spot
        if let name = c["X-NUDGE-PLACE-NETWORK"]?.text {
            guard case .network(let read)? = try? PlaceTrigger.spot("network:" + name) else {
                throw Refusal(reason: "X-NUDGE-PLACE-NETWORK “\(name.quotedPrefix(40))” is not a network's name")
            }
            spot = .network(read)
        } else if let text = c["X-NUDGE-PLACE-AREA"]?.text {
            let parts = text.split(separator: ";", omittingEmptySubsequences: false)
            guard parts.count == 3, case .area(let area)? = try? PlaceTrigger.spot("\(parts[0]),\(parts[1]),\(parts[2])m") else {
                throw Refusal(reason: "X-NUDGE-PLACE-AREA “\(text.quotedPrefix(40))” is not LATITUDE;LONGITUDE;RADIUS (degrees, metres from 50 to 1,000,000)")
            }
            spot = .area(area)
        } else {
            throw Refusal(reason: "X-NUDGE-PLACE-EDGE without X-NUDGE-PLACE-NETWORK or X-NUDGE-PLACE-AREA")
        }
        var window: DayWindow?
        if let hours = c["X-NUDGE-PLACE-HOURS"]?.text {
            let ends = hours.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard ends.count == 2, let a = try? ScheduleParser.time(ends[0]), let b = try? ScheduleParser.time(ends[1]),
                  let w = DayWindow(start: a, end: b) else {
                throw Refusal(reason: "X-NUDGE-PLACE-HOURS “\(hours.quotedPrefix(20))” is not HH:MM-HH:MM")
            }
            window = w
        }
        var days = Schedule.everyDay
        if let text = c["X-NUDGE-PLACE-DAYS"]?.text {
            let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            let read = text.split(separator: ",", omittingEmptySubsequences: false).map { names.firstIndex(of: $0.uppercased()) }
            guard !read.isEmpty, read.allSatisfy({ $0 != nil }) else {
                throw Refusal(reason: "X-NUDGE-PLACE-DAYS “\(text.quotedPrefix(30))” is not a list of MO, TU, WE, TH, FR, SA, SU")
            }
            days = Set(read.compactMap { $0.flatMap(Weekday.init(rawValue:)) })
        }
        var oncePer: Int?
        if let text = c["X-NUDGE-PLACE-ONCE-PER"]?.text {
            guard let seconds = Int(text), Limits.Quantity.oncePer.range.contains(seconds) else {
                throw Refusal(reason: "X-NUDGE-PLACE-ONCE-PER “\(text.quotedPrefix(20))” is not seconds from 60 to 2592000")
            }
            oncePer = seconds
        }
        return PlaceTrigger(edge: edge, spot: spot, window: window, days: days, oncePer: oncePer)
    }

    // MARK: Imported again

    /// The stored alert as the file has it (`nudge import --replace`): every column of
    /// Nudge's own export (`complete`), else the title, body, schedule and zone the file
    /// says, the rest as the person set it (on or off, sound, snooze…). Its id and when it
    /// was made stay.
    public static func replacing(_ stored: Alert, with imported: Alert, complete: Bool) -> Alert {
        var alert = complete ? imported : stored
        if !complete { (alert.title, alert.body, alert.schedule, alert.timeZone) = (imported.title, imported.body, imported.schedule, imported.timeZone) }
        (alert.id, alert.created) = (stored.id, stored.created)
        return alert
    }

    /// Whether the file says something else than the stored alert from `now` on. A start
    /// gone by and times left out that are over count for nothing: an import keeps only
    /// those ahead, so the same file read a day later says the same.
    public static func differs(_ stored: Alert, from imported: Alert, complete: Bool, now: Date) -> Bool {
        func ahead(_ schedule: Schedule) -> String {
            guard case .restricted(let base, var restriction) = schedule else { return schedule.storageText }
            if let from = restriction.from, from <= now { restriction.from = nil }
            restriction.except = restriction.except.filter { $0 > now }
            return (restriction.isEmpty ? base : .restricted(base, restriction)).storageText
        }
        var (new, old) = (replacing(stored, with: imported, complete: complete), stored)
        guard new.schedule == old.schedule || ahead(new.schedule) == ahead(old.schedule) else { return true }
        (new.schedule, old.schedule) = (.once(now), .once(now))
        return new != old
    }

    // MARK: Nudge's own

    static func nudgeAlert(_ c: Component, title: String, body: String, schedule: Schedule, now: Date) throws(Refusal) -> Alert {
        // As TEXT, as for X-NUDGE-SCHEDULE: `300\,5` is `300,5`.
        func value(_ name: String) -> String? { c[name]?.text }
        let catchUp: Alert.CatchUp = value("X-NUDGE-CATCH-UP").flatMap(Int.init).map { .once(graceSeconds: $0) } ?? .skip
        let sound = c["X-NUDGE-SOUND"]?.text
        let nag = value("X-NUDGE-NAG").flatMap { text -> Alert.Nag? in
            let parts = text.split(separator: ",").compactMap { Int($0) }
            return parts.count == 2 ? Alert.Nag(seconds: parts[0], times: parts[1]) : nil
        }
        let zone = c["X-NUDGE-TIME-ZONE"]?.text
        if let zone, TimeZone(identifier: zone) == nil { throw Refusal(reason: "X-NUDGE-TIME-ZONE: no time zone is called “\(zone.quotedPrefix(40))”") }
        return Alert(id: id(c), title: title, body: body, schedule: schedule, enabled: value("X-NUDGE-ENABLED") != "FALSE",
                     sound: sound.map { $0.isEmpty ? nil : Sound($0) } ?? .reminder,
                     urgency: value("X-NUDGE-URGENCY").flatMap(Urgency.init(name:)) ?? .normal,
                     icon: c["X-NUDGE-ICON"]?.text ?? "", timeZone: zone, catchUp: catchUp,
                     snoozeSeconds: value("X-NUDGE-SNOOZE").flatMap(Int.init) ?? 600,
                     created: value("X-NUDGE-CREATED").flatMap(DateTime.utcWithFraction) ?? now,
                     kind: value("X-NUDGE-KIND").flatMap(Alert.Kind.init(rawValue:)) ?? .reminder,
                     whenAway: value("X-NUDGE-WHEN-AWAY").flatMap(Alert.WhenAway.init(rawValue:)), nag: nag)
    }

    // MARK: Times

    /// A DTSTART as read: the instant, the local day and time it names, and its zone (`nil`
    /// for floating time, which follows the system's zone).
    struct DateTime {
        var instant: Date
        var day: CivilDay
        var time: LocalTime
        var zone: TimeZone
        var zoneID: String?

        /// `20261123T161857.199Z` (X-NUDGE-CREATED).
        static func utcWithFraction(_ text: String) -> Date? {
            let parts = text.dropLast().split(separator: ".")
            guard text.hasSuffix("Z"), let whole = parts.first, let base = try? parse(String(whole), zone: TimeZone(identifier: "UTC")!) else { return nil }
            // Digits only, to the microsecond, as the export writes them: "0.1e5" was 10,000
            // seconds, and a nanosecond kept here came back from an export another instant
            // (found by the ical fuzz target).
            guard parts.count <= 2 else { return nil }
            let digits: [UInt8] = parts.count > 1 ? Array(parts[1].utf8) : []
            guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
            var micro = 0
            for digit in digits.prefix(6) { micro = micro * 10 + Int(digit - 48) }
            for _ in digits.count..<max(digits.count, 6) { micro *= 10 }
            return base.instant.addingTimeInterval(Double(micro) / 1_000_000)
        }

        static func parse(_ text: String, zone: TimeZone) throws(Refusal) -> (instant: Date, day: CivilDay, time: LocalTime) {
            let digits = Array(text.utf8)
            func number(_ range: Range<Int>) -> Int? {
                guard range.upperBound <= digits.count else { return nil }
                var n = 0
                for byte in digits[range] { guard (48...57).contains(byte) else { return nil }; n = n * 10 + Int(byte - 48) }
                return n
            }
            guard let year = number(0..<4), let month = number(4..<6), let date = number(6..<8),
                  let day = CivilDay(year: year, month: month, day: date) else {
                throw Refusal(reason: "“\(text.quotedPrefix(30))” is not a date (YYYYMMDD)")
            }
            var time = LocalTime(secondOfDay: 0)!
            if digits.count > 8 {
                guard digits.count == 15, digits[8] == UInt8(ascii: "T"), let h = number(9..<11), let m = number(11..<13), let s = number(13..<15),
                      let t = LocalTime(hour: h, minute: m, second: min(s, 59)) else {
                    throw Refusal(reason: "“\(text.quotedPrefix(30))” is not a date-time (YYYYMMDDTHHMMSS)")
                }
                time = t
            }
            let clock = CivilZone(zone)
            return (clock.instant(day, time), day, time)
        }
    }

    /// The zone a property's TZID names, as the tz database has it (Outlook's "/" prefix
    /// dropped), or by its Windows name ("W. Europe Standard Time", as Outlook writes it);
    /// refused, naming the property, when there is none.
    static func zone(_ tzid: String, of name: String) throws(Refusal) -> TimeZone {
        let id = tzid.hasPrefix("/") ? String(tzid.drop { $0 == "/" }) : tzid
        guard let found = TimeZone(identifier: id) ?? WindowsZones.iana(id).flatMap(TimeZone.init(identifier:)) else {
            throw Refusal(reason: "\(name);TZID=\(tzid.quotedPrefix(40)): no time zone of that name in the zone database")
        }
        return found
    }

    static func dateTime(_ component: Component, _ name: String, system: TimeZone) throws(Refusal) -> DateTime {
        guard let property = component[name] else { throw Refusal(reason: "no \(name)") }
        var value = property.value
        let zone: TimeZone, zoneID: String?
        if value.hasSuffix("Z") {
            value.removeLast()
            (zone, zoneID) = (TimeZone(identifier: "UTC")!, "UTC")
        } else if let tzid = property.parameter("TZID") {
            let found = try Self.zone(tzid, of: name)
            (zone, zoneID) = (found, found.identifier)
        } else {
            (zone, zoneID) = (system, nil)
        }
        do {
            let parsed = try DateTime.parse(value, zone: zone)
            return DateTime(instant: parsed.instant, day: parsed.day, time: parsed.time, zone: zone, zoneID: zoneID)
        } catch {
            throw Refusal(reason: "\(name): " + error.reason)
        }
    }

    /// Seconds from the start to the alarm (negative: before it). An alarm at a date-time
    /// of its own is taken as is for a one-shot; related to the end, after the event's length.
    static func trigger(_ alarm: Component?, component: Component, start: DateTime, system: TimeZone) throws(Refusal) -> Int {
        guard let trigger = alarm?["TRIGGER"] else { return 0 }
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
            // RFC 5545 §3.8.6.3: an alarm at a fixed moment rings once, whatever the rule.
            guard component["RRULE"] == nil else {
                throw Refusal(reason: "TRIGGER;VALUE=DATE-TIME on a repeating component: an alarm at one fixed moment, not one per time")
            }
            var holder = Component("VALARM", properties: [Property("TRIGGER", trigger.value)])
            holder.properties[0].parameters = trigger.parameters.filter { $0.name.uppercased() != "VALUE" }
            let moment = try dateTime(holder, "TRIGGER", system: system)
            return Int(moment.instant.timeIntervalSince(start.instant).rounded())
        }
        guard let seconds = duration(trigger.value) else { throw Refusal(reason: "TRIGGER “\(trigger.value.quotedPrefix(30))” is not a duration") }
        if trigger.parameter("RELATED")?.uppercased() == "END" {
            return try length(of: component, start: start, system: system) + seconds
        }
        return seconds
    }

    /// From the start to the end: DTEND or DURATION of an event, DUE of a task (nothing
    /// when the task is placed by its DUE). What a `RELATED=END` alarm is counted from.
    static func length(of component: Component, start: DateTime, system: TimeZone) throws(Refusal) -> Int {
        if let text = component["DURATION"]?.value {
            guard let length = duration(text) else { throw Refusal(reason: "DURATION “\(text.quotedPrefix(30))” is not a duration") }
            return length
        }
        let endName = component.name == "VTODO" ? "DUE" : "DTEND"
        guard component[endName] != nil else {
            // An event with neither ends where it starts (RFC 5545 §3.6.1); a task placed by its due time too.
            if component.name == "VTODO", component["DTSTART"] != nil {
                throw Refusal(reason: "TRIGGER;RELATED=END on a task without a DUE")
            }
            return 0
        }
        if component.name == "VTODO", component["DTSTART"] == nil { return 0 }
        let end = try dateTime(component, endName, system: system)
        return Int(end.instant.timeIntervalSince(start.instant).rounded())
    }

    /// `-PT15M`, `P1DT2H`, `PT0S`, `-P1W` in seconds, as RFC 5545's dur-value writes them:
    /// weeks alone, or days, then `T` and hours, minutes, seconds, each unit once and in
    /// that order (`PT15M15M` is no duration). `nil` for anything else, and for a
    /// duration longer than ``maxDuration``.
    static func duration(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        var sign = 1
        if rest.hasPrefix("-") { sign = -1; rest = rest.dropFirst() } else if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        // Each unit's place in the order, and its seconds.
        let units: [Character: (place: Int, seconds: Int, inTime: Bool)] = [
            "W": (0, 604_800, false), "D": (1, 86_400, false), "H": (2, 3600, true), "M": (3, 60, true), "S": (4, 1, true),
        ]
        var total = 0, number = "", inTime = false, last = -1, afterT = false
        for character in rest {
            if character.isASCII && character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty, last < 2 else { return nil }
                (inTime, afterT) = (true, true)
                continue
            }
            guard let unit = units[character], unit.inTime == inTime, unit.place > last, last != 0,
                  let n = Int(number) else { return nil }
            let (seconds, overflow) = n.multipliedReportingOverflow(by: unit.seconds)
            guard !overflow, seconds <= maxDuration - total else { return nil }
            total += seconds
            (number, last, afterT) = ("", unit.place, false)
        }
        // Weeks alone; a T with a unit after it; nothing left unfinished.
        guard last >= 0, number.isEmpty, !afterT else { return nil }
        return sign * total
    }

    /// The longest duration read: a century. Alarms further from their event than that
    /// are no reminders (and their seconds must stay far from overflowing).
    static let maxDuration = 100 * 366 * 86_400

    // MARK: Rules

    /// A rule's parts as Nudge reads them: the RRULE value, what a step of its frequency
    /// is, and its days, months and times of day split the way Nudge's schedules say them.
    struct RuleParts {
        let rule: RecurrenceRule
        /// The seconds in one step of a fixed frequency (SECONDLY to WEEKLY); 0 for
        /// months and years.
        let unit: Int
        let interval: Int
        let weekStart: Weekday
        /// BYDAY's weekdays, and their places in the month when it gives places.
        let weekdays: Set<Weekday>?
        let places: [Schedule.Place]
        /// BYMONTHDAY's days that a cron expression says; the others (from the month's end,
        /// or with weekdays, which cron takes either of) narrow the days instead.
        let monthDays: [Int]?
        let filteredDays: [Int]
        let months: [Int]?
        let hours: [Int]?, minutes: [Int]?, seconds: [Int]?

        var frequency: String { rule.frequency.rawValue }
        /// Steps of elapsed time (MINUTELY, HOURLY), which have no days of their own.
        var steps: Bool { (1..<86_400).contains(unit) }
    }

    /// The RRULE text read as RFC 5545 says, then as far as Nudge's schedules can say it.
    static func parts(_ text: String) throws(Refusal) -> RuleParts {
        let rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(parsing: text)
        } catch {
            if error.reason == "not NAME=value" { throw Refusal(reason: "RRULE \u{201C}\(text.quotedPrefix(60))\u{201D} is not NAME=value;…") }
            throw refuse(error.part, error.reason)
        }
        // The month's last weekday, as calendars write "the last working day of the month":
        // FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1, at one time of day.
        let workdays: Set<String> = ["MO", "TU", "WE", "TH", "FR"]
        let lastWeekday = rule.bySetPos == [-1] && rule.frequency == .monthly && rule.byMonthDay == nil
            && rule.byDay.map { days in days.allSatisfy { $0.place == 0 } && Set(days.map(\.day.rawValue)) == workdays } == true
            && (rule.byHour?.count ?? 1) == 1 && (rule.byMinute?.count ?? 1) == 1 && (rule.bySecond?.count ?? 1) == 1
        for (name, given) in [("BYSETPOS", lastWeekday ? nil : rule.bySetPos), ("BYYEARDAY", rule.byYearDay), ("BYWEEKNO", rule.byWeekNo)] where given != nil {
            throw refuse(name, "Nudge's schedules cannot say that")
        }
        if let seconds = rule.bySecond, seconds.contains(60) {
            throw refuse("BYSECOND=\(seconds.map(String.init).joined(separator: ","))", "60 is not in 0…59")
        }
        let units: [RecurrenceRule.Frequency: Int] = [.secondly: 1, .minutely: 60, .hourly: 3600, .daily: 86_400, .weekly: 604_800]
        let sorted = { (values: [Int]?) in values.map { $0.sorted() } }
        // Weekdays, each maybe with its place in the month (1MO, -1FR).
        var weekdays: Set<Weekday>?, places: [Schedule.Place] = []
        if let byDay = rule.byDay {
            let text = byDay.map(\.description).joined(separator: ",")
            var days: Set<Weekday> = []
            for value in byDay {
                guard let found = Schedule.Place(value.place, Weekday(value.day)) else {
                    throw refuse("BYDAY=\(text)", "\(value.description.quotedPrefix(20)): a weekday's place in the month is 1 to 5, or -1 to -5 from its end")
                }
                days.insert(found.weekday)
                places.append(found)
            }
            if byDay.contains(where: { $0.place != 0 }) {
                guard rule.frequency == .monthly || rule.frequency == .yearly && rule.byMonth != nil else {
                    throw refuse("BYDAY=\(text)", "a weekday's place counts in a month: FREQ=MONTHLY, or YEARLY with BYMONTH")
                }
            } else {
                places = []
            }
            weekdays = days
        }
        var monthDays = sorted(rule.byMonthDay), filteredDays: [Int] = []
        if let days = monthDays, days.contains(where: { $0 < 0 }) || weekdays != nil {
            guard rule.frequency != .weekly else { throw noMonthDaysInAWeek }
            (monthDays, filteredDays) = (nil, days)
        }
        if lastWeekday { (monthDays, filteredDays) = (nil, [Schedule.Restriction.lastWeekday]) }
        return RuleParts(rule: rule, unit: units[rule.frequency] ?? 0, interval: rule.interval ?? 1,
                         weekStart: rule.weekStart.map(Weekday.init) ?? .monday, weekdays: weekdays, places: places,
                         monthDays: monthDays, filteredDays: filteredDays, months: sorted(rule.byMonth),
                         hours: sorted(rule.byHour), minutes: sorted(rule.byMinute), seconds: sorted(rule.bySecond))
    }

    static let noMonthDaysInAWeek = refuse("BYMONTHDAY with FREQ=WEEKLY", "RFC 5545 has no days of the month in a weekly rule")

    /// The times of day a rule gives, its alarm `offset` seconds from them: BYHOUR ×
    /// BYMINUTE × BYSECOND, each part not given taken from the start. The alarm moves
    /// every occurrence by the same amount: within the day only (a day earlier would change
    /// which days it falls on), except for steps of elapsed time.
    static func times(_ parts: RuleParts, start: DateTime, offset: Int) throws(Refusal) -> [LocalTime] {
        let second = start.time.secondOfDay + offset
        guard (0..<86_400).contains(second) || parts.steps && parts.hours == nil else {
            throw Refusal(reason: "VALARM TRIGGER: it moves the reminder to another day than the event's")
        }
        let local = LocalTime(secondOfDay: ((second % 86_400) + 86_400) % 86_400)!.secondOfDay
        guard parts.hours != nil || parts.minutes != nil || parts.seconds != nil else { return [LocalTime(secondOfDay: local)!] }
        // The rule's times of day (BYHOUR, BYMINUTE, BYSECOND: the start's where one is not
        // given), each moved by the alarm (-PT10M on BYHOUR=12 rings at 11:50: it rang at
        // 12:00), on its own day.
        let startOfDay = start.time.secondOfDay
        let hs = parts.hours ?? [startOfDay / 3600], ms = parts.minutes ?? [startOfDay / 60 % 60], ss = parts.seconds ?? [startOfDay % 60]
        var result: [LocalTime] = []
        for h in hs { for m in ms { for s in ss {
            let moved = h * 3600 + m * 60 + s + offset
            guard (0..<86_400).contains(moved) else { throw Refusal(reason: "VALARM TRIGGER: it moves the reminder to another day than the event's") }
            result.append(LocalTime(secondOfDay: moved)!)
        } } }
        return Array(Set(result)).sorted()
    }

    /// What RDATE and changed occurrences do to a component's times: the alarm instants
    /// they add and those they leave out, only those ahead.
    struct Changes {
        /// RDATE's alarm instants.
        var added: Set<Date> = []
        /// The changed occurrences' new alarm instants, and their old ones.
        var moved: Set<Date> = [], left: Set<Date> = []
    }

    /// The instants RDATE adds (each with the alarm `offset` seconds from it; a DATE at the
    /// start's time of day, a PERIOD by its start), and the changed occurrences' moves: an
    /// occurrence's old alarm left out, its new one (its own DTSTART, or a task's DUE, and
    /// its own alarm) added; cancelled, done, or without an alarm where the series has one
    /// (`alarmed`: RFC 5545's changed occurrence replaces the occurrence, alarms included),
    /// only left out. A change that keeps the alarm's instant changes nothing here (a new
    /// title of one occurrence: the series' title is shown). `RANGE=THISANDFUTURE` is refused.
    static func changes(_ changed: [Component], of component: Component, start: DateTime, offset: Int, alarmed: Bool,
                        system: TimeZone, now: Date, alarmsOnly: Bool = false) throws(Refusal) -> Changes {
        var changes = Changes()
        let byDays = Self.byDays(component)
        for rdate in component.all("RDATE") {
            let named = try rdate.parameter("TZID").map { tzid throws(Refusal) in try Self.zone(tzid, of: "RDATE") } ?? start.zone
            for item in rdate.list where !item.isEmpty {
                // A PERIOD by its start (`20270404T100000Z/PT1H`), in UTC where it says so.
                let whole = item.prefix { $0 != "/" }
                let utc = whole.hasSuffix("Z")
                let text = String(whole.prefix(15))
                let zone = utc ? TimeZone(identifier: "UTC")! : named
                let parsed: (instant: Date, day: CivilDay, time: LocalTime)
                do { parsed = try DateTime.parse(text, zone: zone) } catch { throw Refusal(reason: "RDATE: " + error.reason) }
                let instant = text.count == 8 ? CivilZone(zone).instant(parsed.day, start.time) : parsed.instant
                let alarm = Self.alarm(ofOccurrenceAt: instant, offset: offset, start: start, byDays: byDays)
                if alarm > now { changes.added.insert(alarm) }
            }
        }
        for occurrence in changed {
            guard let id = occurrence["RECURRENCE-ID"] else { continue }
            if id.parameter("RANGE")?.uppercased() == "THISANDFUTURE" {
                throw Refusal(reason: "RECURRENCE-ID;RANGE=THISANDFUTURE: a change to this and every later occurrence, which Nudge's schedules cannot say")
            }
            // The occurrence's old time, in the series' zone when it names none.
            var holder = Component("VEVENT", properties: [id])
            if id.parameter("TZID") == nil && !id.value.hasSuffix("Z"), let tzid = start.zoneID {
                holder.properties[0].parameters.append(("TZID", [tzid]))
            }
            let original = try dateTime(holder, "RECURRENCE-ID", system: system).instant
            let old = Self.alarm(ofOccurrenceAt: original, offset: offset, start: start, byDays: byDays)
            var new: Date?
            let over = occurrence["STATUS"]?.value.uppercased() == "CANCELLED" || occurrence.name == "VTODO" && isOver(task: occurrence)
            let alarm = ringing(occurrence, alarmsOnly: alarmsOnly).first
            if !over, alarm != nil || !alarmed {
                let startName = occurrence.name == "VTODO" && occurrence["DTSTART"] == nil && occurrence["DUE"] != nil ? "DUE" : "DTSTART"
                let moved = occurrence[startName] != nil ? try dateTime(occurrence, startName, system: system)
                    : DateTime(instant: original, day: start.day, time: start.time, zone: start.zone, zoneID: start.zoneID)
                var alone = occurrence
                alone.properties.removeAll { $0.name == "RRULE" }
                new = moved.instant.addingTimeInterval(Double(try trigger(alarm, component: alone, start: moved, system: system)))
            }
            guard new != old else { continue }
            if old > now { changes.left.insert(old) }
            if let new, new > now { changes.moved.insert(new) }
        }
        for (name, instants) in [("RDATE", changes.added), ("RECURRENCE-ID", changes.moved.union(changes.left))]
        where instants.count > Schedule.Restriction.maxExcept {
            throw Refusal(reason: "\(name): more than \(Schedule.Restriction.maxExcept) times")
        }
        return changes
    }

    /// Whether a component's times are a rule of days (its alarms at a local time of day), not
    /// a one-shot nor steps of elapsed time.
    static func byDays(_ component: Component) -> Bool {
        guard let rrule = component["RRULE"]?.value, let parts = try? parts(rrule) else { return false }
        return !parts.steps || parts.hours != nil || parts.minutes != nil
    }

    /// The alarm of the occurrence that starts at `instant`, `offset` seconds from it, as the
    /// series rings its own: on a rule of days, the occurrence's local time of day (in the
    /// series' zone) plus the offset, on its day (on the day the clock moves, an all-day
    /// event's PT9H is 09:00 as on any other); else `offset` seconds later.
    static func alarm(ofOccurrenceAt instant: Date, offset: Int, start: DateTime, byDays: Bool) -> Date {
        guard byDays else { return instant.addingTimeInterval(Double(offset)) }
        let clock = CivilZone(start.zone)
        let (day, second) = clock.local(instant)
        guard let time = LocalTime(secondOfDay: second + offset), (0..<86_400).contains(second + offset) else {
            return instant.addingTimeInterval(Double(offset))
        }
        return clock.instant(day, time)
    }

    /// The schedule of a component starting at `start`, its alarm `offset` seconds from it,
    /// with the instants `changes` adds and leaves out; `nil` for a one-shot already over.
    static func schedule(_ component: Component, start: DateTime, offset: Int, changes: Changes = Changes(),
                         now: Date) throws(Refusal) -> Schedule? {
        guard let rrule = component["RRULE"]?.value else {
            // One time, and those RDATE and changed occurrences add: the first ahead is the
            // one-shot, the others added to it.
            let at = start.instant.addingTimeInterval(Double(offset))
            let except = try exceptions(component, base: .once(at), restriction: Schedule.Restriction(), start: start, offset: offset, now: now)
            let ahead = changes.added.union([at]).filter { $0 > now }.subtracting(except).subtracting(changes.left).union(changes.moved).sorted()
            guard let first = ahead.first else { return nil }
            return ahead.count == 1 ? .once(first) : .restricted(.once(first), Schedule.Restriction(also: Set(ahead.dropFirst())))
        }
        let parts = try parts(rrule)
        let times = try times(parts, start: start, offset: offset)
        let base = try rule(parts, start: start, offset: offset, times: times, rrule: rrule)
        let first = start.instant.addingTimeInterval(Double(offset))
        var restriction = Schedule.Restriction()
        // Every Nth day, week, month or year, counted from DTSTART's.
        let periods: [RecurrenceRule.Frequency: Schedule.Period.Unit] = [.daily: .day, .weekly: .week, .monthly: .month, .yearly: .year]
        if parts.interval > 1, let periodUnit = periods[parts.rule.frequency] {
            if periodUnit == .week, parts.monthDays != nil { throw noMonthDaysInAWeek }
            guard let period = Schedule.Period(unit: periodUnit, every: parts.interval, anchor: start.day, weekStart: parts.weekStart) else {
                throw refuse("FREQ=\(parts.frequency);INTERVAL=\(parts.interval)", "a period longer than a century")
            }
            restriction.period = period
        }
        restriction.places = parts.places
        restriction.monthDays = parts.filteredDays
        // A start ahead: nothing before it (steps of elapsed time start there anyway).
        if first > now, !base.isInterval { restriction.from = first }
        func restricted() -> Schedule { restriction.isEmpty ? base : .restricted(base, restriction) }
        // An end: UNTIL (inclusive), or the last of COUNT times from DTSTART.
        if let until = parts.rule.until {
            let utc = until.hasSuffix("Z")
            do {
                restriction.until = try DateTime.parse(String(until.prefix(15)), zone: utc ? TimeZone(identifier: "UTC")! : start.zone).instant
                    .addingTimeInterval(Double(offset))
            } catch {
                throw refuse("UNTIL=\(until)", error.reason)
            }
        }
        if let n = parts.rule.count {
            let count = String(n)
            guard n <= 100_000 else { throw refuse("COUNT=\(count)", "more than 100000 times") }
            // Looked for within a bound, as a rule's times may be decades apart.
            var bounded = restriction
            bounded.until = first.addingTimeInterval(Double(Self.maxCountYears) * 31_556_952)
            let times = Schedule.restricted(base, bounded).occurrences(after: first.addingTimeInterval(-1), count: n, in: start.zone)
            guard times.count == n else {
                guard restricted().occurrences(after: first.addingTimeInterval(-1), count: 1, in: start.zone).isEmpty else {
                    // TRANSLATORS: nudge import: %1$s is an RRULE's COUNT, %2$d a number of years.
                    throw Refusal(Phrase("RRULE COUNT=%1$s: its last time is more than %2$d years away", count, Self.maxCountYears))
                }
                throw never(rrule)
            }
            restriction.until = times.last
        }
        restriction.except = try exceptions(component, base: base, restriction: restriction, start: start, offset: offset, now: now)
        // RDATE's times, less EXDATE's (RFC 5545 3.8.5.2); then the changed occurrences.
        // An occurrence moved onto another's old time keeps that time: left out, it would be
        // lost to a calendar that reads the export (EXDATE wins over RDATE).
        restriction.also = changes.added.subtracting(restriction.except).subtracting(changes.left).union(changes.moved)
        restriction.except.formUnion(changes.left.subtracting(changes.moved))
        guard restriction.except.count <= Schedule.Restriction.maxExcept else {
            throw Refusal(reason: "EXDATE: more than \(Schedule.Restriction.maxExcept) times left out")
        }
        let schedule = restricted()
        // Times every day, or steps of time, with no end: something ahead, whatever the day.
        let daysMayRunOut: Bool = switch base {
        case .cron: true
        default: restriction.until != nil || restriction.narrowsDays
        }
        if daysMayRunOut, schedule.occurrences(after: now, count: 1, in: start.zone).isEmpty {
            // Over already (an end gone by, a number of times used up): nothing to import.
            // A rule that has no time at all, in any year, is refused (without an end, the
            // search from now said so already).
            var ever = restriction
            (ever.from, ever.until, ever.except, ever.also) = (nil, nil, [], [])
            guard restriction.until == nil
                || Schedule.restricted(base, ever).occurrences(after: first.addingTimeInterval(-1), count: 1, in: start.zone).isEmpty else { return nil }
            throw never(rrule)
        }
        return schedule
    }

    /// The instants EXDATE leaves out, those ahead: a DATE leaves out the whole day (as
    /// other clients read it), a DATE-TIME its one time.
    static func exceptions(_ component: Component, base: Schedule, restriction: Schedule.Restriction, start: DateTime, offset: Int,
                           now: Date) throws(Refusal) -> Set<Date> {
        var except: Set<Date> = []
        let clock = CivilZone(start.zone)
        // A rule of days rings at a local time of each day: its alarms of a day are that day's.
        let byDays = Self.byDays(component)
        let shift = byDays ? 0.0 : Double(offset)
        for exdate in component.all("EXDATE") {
            let utc = exdate.list.first?.hasSuffix("Z") ?? false
            var zone = utc ? TimeZone(identifier: "UTC")! : start.zone
            if !utc, let tzid = exdate.parameter("TZID") { zone = try Self.zone(tzid, of: "EXDATE") }
            for item in exdate.list where !item.isEmpty {
                let parsed: (instant: Date, day: CivilDay, time: LocalTime)
                do { parsed = try DateTime.parse(String(item.prefix(15)), zone: zone) } catch { throw Refusal(reason: "EXDATE: " + error.reason) }
                if item.count == 8 {
                    let (dayStart, dayEnd) = (clock.instant(parsed.day, LocalTime(secondOfDay: 0)!), clock.instant(parsed.day.advanced(by: 1), LocalTime(secondOfDay: 0)!))
                    guard dayEnd.addingTimeInterval(shift) > now else { continue }
                    // The day's times: a walk that ends with the day.
                    var day = restriction
                    day.until = min(restriction.until ?? .distantFuture, dayEnd.addingTimeInterval(shift))
                    except.formUnion(Schedule.restricted(base, day).occurrences(after: dayStart.addingTimeInterval(shift - 0.001), count: 1441, in: start.zone)
                        .filter { $0.addingTimeInterval(-shift) < dayEnd && $0 > now })
                } else {
                    let instant = Self.alarm(ofOccurrenceAt: parsed.instant, offset: offset, start: start, byDays: byDays)
                    if instant > now { except.insert(instant) }
                }
                guard except.count <= Schedule.Restriction.maxExcept else {
                    throw Refusal(reason: "EXDATE: more than \(Schedule.Restriction.maxExcept) times left out")
                }
            }
        }
        return except
    }

    /// How far ahead the last of a COUNT's times may be: beyond, the walk to it would be
    /// long, and no reminder is meant for then.
    static let maxCountYears = 1000

    /// A rule that fires on no day of any year (February 30, a leap day only in years that
    /// are not leap years).
    static func never(_ rrule: String) -> Refusal {
        // TRANSLATORS: nudge import: %s is an RRULE (cut short) that fires on no day of any year (BYMONTH=2;BYMONTHDAY=30).
        Refusal(Phrase("RRULE %s: it never happens, in any year", rrule.quotedPrefix(60)))
    }

    /// The schedule of a rule's frequency and parts, before what narrows it (see
    /// ``schedule(_:start:offset:now:)``).
    static func rule(_ parts: RuleParts, start: DateTime, offset: Int, times: [LocalTime], rrule: String) throws(Refusal) -> Schedule {
        let (frequency, interval, weekdays, months) = (parts.frequency, parts.interval, parts.weekdays, parts.months)
        let allDays = Set(Weekday.allCases), daysFiltered = !parts.filteredDays.isEmpty
        switch parts.rule.frequency {
        case .secondly, .minutely, .hourly:
            let (step, overflow) = parts.unit.multipliedReportingOverflow(by: interval)
            guard !overflow, step >= 60 else { throw refuse("FREQ=\(frequency);INTERVAL=\(interval)", "more often than once a minute") }
            // The limits of `--every`.
            do { try Limits.check(.every, seconds: step) } catch { throw refuse("FREQ=\(frequency);INTERVAL=\(interval)", error.description) }
            guard parts.monthDays == nil, !daysFiltered, months == nil else { throw refuse("BYMONTHDAY/BYMONTH with FREQ=\(frequency)", "Nudge's schedules cannot say that") }
            if parts.hours != nil || parts.minutes != nil {
                // Steps inside hours of the day: the same times every day when the step
                // divides the day.
                guard 86_400 % step == 0 else { throw refuse("FREQ=\(frequency);INTERVAL=\(interval) with BYHOUR", "the step does not divide a day") }
                let first = ((start.time.secondOfDay + offset) % step + step) % step
                let grid = stride(from: first, to: 86_400, by: step).compactMap(LocalTime.init(secondOfDay:)).filter {
                    (parts.hours?.contains($0.secondOfDay / 3600) ?? true) && (parts.minutes?.contains($0.secondOfDay / 60 % 60) ?? true)
                }
                guard !grid.isEmpty else { throw never(rrule) }
                return .daily(times: grid, days: weekdays ?? allDays)
            }
            // A series started before 1970 (DTSTART 1013…, found by the ical fuzz target: it
            // was stored as a schedule the store could not read back) keeps its showings from
            // its first step since 1970, which the store holds.
            var anchor = start.instant.addingTimeInterval(Double(offset))
            let earliest = Date(timeIntervalSince1970: Limits.storedInstants.lowerBound)
            if anchor < earliest {
                anchor += (earliest.timeIntervalSince(anchor) / Double(step)).rounded(.up) * Double(step)
            }
            return .interval(seconds: step, anchor: anchor, days: weekdays ?? allDays)
        case .daily, .weekly:
            if parts.monthDays != nil || months != nil {
                return try cron(times, monthDays: parts.monthDays, months: months, weekdays: weekdays)
            }
            let days = weekdays ?? (parts.rule.frequency == .weekly ? [start.day.weekday] : allDays)
            return .daily(times: times, days: days)
        case .monthly, .yearly:
            // Weekdays of the month (or of BYMONTH's months): by their place, or all of them;
            // or days the restriction says.
            if weekdays != nil && parts.monthDays == nil || daysFiltered {
                if let months { return try cron(times, monthDays: nil, months: months, weekdays: weekdays) }
                return .daily(times: times, days: weekdays ?? allDays)
            }
            if parts.rule.frequency == .monthly {
                return try cron(times, monthDays: parts.monthDays ?? [start.day.components.day], months: months, weekdays: weekdays)
            }
            return try cron(times, monthDays: parts.monthDays ?? [start.day.components.day], months: months ?? [start.day.components.month], weekdays: weekdays)
        }
    }

    /// Times on some days of the month and months, as cron says them (minute × hour, as
    /// BYMINUTE × BYHOUR).
    static func cron(_ times: [LocalTime], monthDays: [Int]?, months: [Int]?, weekdays: Set<Weekday>?) throws(Refusal) -> Schedule {
        // cron takes a day matching either day field; RRULE one matching both.
        if monthDays != nil && weekdays != nil { throw Refusal(reason: "RRULE BYMONTHDAY with BYDAY: both at once cannot be said by Nudge's schedules") }
        let hours = Set(times.map { $0.secondOfDay / 3600 }), minutes = Set(times.map { $0.secondOfDay / 60 % 60 })
        guard hours.count * minutes.count == times.count, times.allSatisfy({ $0.secondOfDay % 60 == 0 }) else {
            throw Refusal(reason: "RRULE: these times on these days cannot be said by Nudge's schedules")
        }
        func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
        let text = [list(minutes.sorted()), list(hours.sorted()), monthDays.map(list) ?? "*", months.map(list) ?? "*",
                    weekdays.map { list($0.map(\.rawValue).sorted()) } ?? "*"].joined(separator: " ")
        do { return .cron(try CronExpression(text)) } catch { throw Refusal(reason: "RRULE: \(text) is not a schedule") }
    }
}

extension String {
    /// At most `limit` characters, with "…" when cut.
    func quotedPrefix(_ limit: Int) -> String {
        // Most are short: no counting of characters for them.
        utf8.count <= limit || count <= limit ? self : prefix(limit) + "…"
    }
}
