import Foundation
import ICalendar
import NudgeCalendar
import NudgeCore
import NudgeStore
import NudgeSync
import SyncTransport

/// What one calendar's sync did, for `nudge sync now` and `sync status`.
public struct CalendarReport: Sendable, Equatable {
    public var calendar: String
    public var name: String
    /// Objects fetched from the server (new or changed there).
    public var fetched = 0
    /// Reminders made, changed or removed here.
    public var changedHere = 0
    public var removedHere = 0
    /// Objects written or removed there.
    public var sent = 0
    public var removedThere = 0
    /// Objects both sides changed (the server's kept, ours saved as a conflict).
    public var conflicts = 0
    /// Objects that could not be taken or written, each with why.
    public var problems: [String] = []
    /// The failure that stopped the calendar's sync, if one did.
    public var failure: String?
    /// A write could not be made (refused, or its answer never came): it waits for the
    /// next sync, and the sync did not do all it had to.
    public var unsent = false
    /// HTTP requests made.
    public var requests = 0
    /// For Nudge's own calendar: the store's change count when its reminders were read
    /// (what a change after it is new to), `nil` when they were not read.
    public var readAt: Int?
    /// Whether the server could not be reached at all (refused, stalled, untrusted): the
    /// account's other calendars are not tried in this sync.
    public var unreachable = false
    /// Each object that needed something, and why (`nudge sync now --verbose`).
    public var details: [String] = []
    /// Who rings this followed calendar instead of Nudge (`GNOME (evolution-data-server)`):
    /// it was not synced, and its reminders are not here.
    public var leftTo: String?
    /// How long the server asked to be left alone (`Retry-After` on a 503 or 429), in seconds.
    public var retryAfter: TimeInterval?
    /// Reminders whose alarm was answered on another device, and when (the calendar's
    /// `ACKNOWLEDGED` or `X-MOZ-LASTACK`, later than any answer here): the pop-up here closes.
    public var answeredElsewhere: [UUID: Date] = [:]
    /// Reminders whose alarm was snoozed on another device, and until when (a snooze alarm
    /// or `X-MOZ-SNOOZE-TIME` later than any here, still ahead): it rings here then too.
    public var snoozedElsewhere: [UUID: Date] = [:]
}

/// One sync of one calendar, carried out on the loop: the listing of what changed
/// (sync-collection with the last token; PROPFIND of ETags where the server has no
/// tokens or lost ours), the changed objects fetched (calendar-multiget), the plan
/// (``CollectionPlan``), what changes here stored in one transaction, then each write
/// there, conditional, its result stored as soon as it comes. A 412 fetches the object
/// and decides again, at most three times.
final class CalendarRun {
    typealias Done = (CalendarReport) -> Void

    private let client: HTTPClient
    private let credentials: Credentials?
    private let store: AppDatabase
    private var calendar: SyncCalendar
    private let zone: TimeZone
    private let now: Date
    private let done: Done
    private var report: CalendarReport
    private var known: [SyncObject] = []
    private var knownRead = false
    /// What ``agreement(count:answer:)`` is made of, as read before the objects were.
    private var readState: (count: Int, answer: Int)?
    /// A write could not be made: something here still waits to be sent.
    private var unsent = false
    /// What the store notes as being sent, by URL (``noteSending(_:)``).
    private var noted: [String: String] = [:]
    /// The listing: what changed there (URL → ETag), what is gone, and the new token.
    private var changedURLs: [(url: String, etag: String?)] = []
    private var removed = Set<String>()
    private var newToken: String?
    private var fetched: [CollectionPlan.Remote] = []
    private var local: [CollectionPlan.Local]?
    private var stored: [UUID: Alert] = [:]
    private var writes: [CollectionPlan.Step] = []
    private var writesInFlight = 0
    private var attempts: [String: Int] = [:]
    /// What this sync wrote: URL → the ETag the server gave (`nil`: removed, or none given).
    private var ourWrites: [String: String?] = [:]
    /// The answers given here to the reminders, to write into their objects.
    private var marks: [UUID: AlarmAnswers.Marks] = [:]
    /// How many writes go at once.
    static let parallelWrites = 4
    /// Objects asked for in one calendar-multiget.
    static let multigetBatch = 100

    init(client: HTTPClient, credentials: Credentials?, store: AppDatabase, calendar: SyncCalendar, zone: TimeZone, now: Date,
         done: @escaping Done) {
        self.client = client
        self.credentials = credentials
        self.store = store
        self.calendar = calendar
        self.zone = zone
        self.now = now
        self.done = done
        report = CalendarReport(calendar: calendar.url, name: calendar.name)
    }

    func start() {
        list(token: calendar.syncToken)
    }

    /// What the store knows of the calendar's objects, and the answers here to write into
    /// them: read once, when the listing says they are needed. `false`: the store cannot
    /// be read, and the sync has finished saying so.
    private func readKnown() -> Bool {
        guard !knownRead else { return true }
        do {
            readState = try store.changeAndAnswer()
            known = try store.syncObjects(calendar: calendar.url)
            marks = try Self.marks(store: store, known: known, calendar: calendar, now: now)
        } catch {
            finish(failure: "the store cannot be read: \(error)")
            return false
        }
        knownRead = true
        return true
    }

    /// The calendar's ``SyncCalendar/agreedAt`` when its objects hold everything here:
    /// for Nudge's own calendar, the reminders' change count, the zone and Nudge's version
    /// (what its objects are written from) and the newest answer; for a followed one, the
    /// newest answer only (nothing else here is written to it).
    private func agreement(count: Int, answer: Int) -> String {
        calendar.role == .own ? "\(count) \(zone.identifier) \(NudgeService.version) \(answer)" : "answer \(answer)"
    }

    /// Whether nothing here waits to be written there, known without reading the objects:
    /// the calendar agreed at the store's state now. Reads the change count for the
    /// report (as ``decide()`` does).
    private func nothingToSend() -> Bool {
        guard let agreed = calendar.agreedAt, let now = try? store.changeAndAnswer(),
              agreed == agreement(count: now.count, answer: now.answer) else { return false }
        if calendar.role == .own { report.readAt = now.count }
        return true
    }

    /// The answers given here since a day before the calendar's last sync (a write that
    /// failed is tried again at the next), for the reminders its objects are (every reminder
    /// of Nudge's own calendar may be a new object there).
    static func marks(store: AppDatabase, known: [SyncObject], calendar: SyncCalendar, now: Date) throws -> [UUID: AlarmAnswers.Marks] {
        let since = (calendar.lastSynced ?? .distantPast).addingTimeInterval(-86400)
        let answers = try store.answers(since: since)
        guard !answers.isEmpty else { return [:] }
        let completes = (try store.settings()[.completeTasks] ?? Setting.completeTasks.defaultValue) == Setting.on
        let here = Set(known.compactMap { $0.alertId.flatMap(UUID.init(hexString:)) })
        var marks: [UUID: AlarmAnswers.Marks] = [:]
        let synced = calendar.lastSynced ?? .distantPast
        for (id, answer) in answers where calendar.role == .own || here.contains(id) {
            // A completion is written once, for a Done after the last sync: a task the phone
            // opened again since stays open (an acknowledgement only ever moves forward, so
            // writing it again changes nothing).
            marks[id] = AlarmAnswers.Marks(acknowledged: answer.any, snoozedUntil: answer.snoozedUntil.flatMap { $0 > now ? $0 : nil },
                                           complete: completes ? answer.done.flatMap { $0 > synced ? $0 : nil } : nil)
        }
        return marks
    }

    /// The copy both sides agree on for `object`, given what the server holds now: the one
    /// last agreed, or the server's own when it holds what was last sent (the write went
    /// through, its answer was lost; the server may have put the properties in its order).
    static func base(of object: SyncObject, there: Component?) -> Component? {
        if let sent = object.sent, let there, let copy = CalendarObject.read(sent), ObjectMerge.alike(copy, there) { return there }
        return object.agreed.flatMap(CalendarObject.read)
    }

    /// Whether an answer here changes an object of a followed calendar (it is then written
    /// even when nothing changed there).
    private var answersToSend: Bool {
        known.contains { object in
            guard let id = object.alertId.flatMap(UUID.init(hexString:)), let answers = marks[id],
                  let agreed = object.agreed.flatMap(CalendarObject.read) else { return false }
            return AlarmAnswers.mark(agreed, answers) != agreed
        }
    }

    /// Notes an answer given elsewhere: the object's acknowledgement, later than the copy
    /// last agreed on and than any answer here.
    /// And a snooze given elsewhere: later than the agreed copy's and than one here, and
    /// still ahead.
    private func noteAnswer(of id: UUID?, in object: Component?, base: Component?) {
        guard let id, let object else { return }
        if let until = AlarmAnswers.snoozedUntil(in: object), until > now,
           [base.flatMap(AlarmAnswers.snoozedUntil), marks[id]?.snoozedUntil, report.snoozedElsewhere[id]].compactMap({ $0 }).allSatisfy({ until > $0 }) {
            report.snoozedElsewhere[id] = until
        }
        guard let there = AlarmAnswers.acknowledged(in: object) else { return }
        let before = [base.flatMap(AlarmAnswers.acknowledged), marks[id]?.acknowledged].compactMap { $0 }.max()
        if before.map({ there > $0 }) ?? true, report.answeredElsewhere[id].map({ there > $0 }) ?? true {
            report.answeredElsewhere[id] = there
        }
    }

    private func send(_ request: HTTPRequest, _ handle: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void) {
        report.requests += 1
        client.send(request, credentials: credentials) { [self] result in
            if case .success(let response) = result, [429, 503].contains(response.status), let seconds = response.retryAfter(now: Date()) {
                report.retryAfter = max(report.retryAfter ?? 0, seconds)
            }
            handle(result)
        }
    }

    // MARK: Listing

    private func list(token: String?) {
        send(CalDAVRequest.syncCollection(calendar.url, token: token)) { [self] result in
            guard case .success(let response) = result else { return finish(result) }
            if response.status == 207, let status = multistatus(response) {
                for entry in status.responses where !sameCollection(entry.url) {
                    if entry.status == 404 {
                        removed.insert(entry.url)
                    } else {
                        changedURLs.append((entry.url, entry.property(Namespace.dav, "getetag")?.trimmed))
                    }
                }
                newToken = status.syncToken
                // Nothing changed there since the token, nor here since the objects last held
                // everything: nothing to read, compare or send.
                if token != nil, changedURLs.isEmpty, removed.isEmpty, nothingToSend() { return finish(failure: nil) }
                guard readKnown() else { return }
                if token == nil { removeUnlisted() }
                return fetchChanged()
            }
            if response.status == 207 { return finish(failure: notMultistatus(response)) }
            let condition = DAVError.condition(in: try? XMLReader.read(response.body))
            if token != nil, condition == "valid-sync-token" || [403, 409, 410].contains(response.status) {
                // The server forgot our token: everything again, compared with what is known.
                return list(token: nil)
            }
            if response.status == 401 { return finish(failure: SyncFailure.unauthorized(url: response.url).description) }
            if [400, 403, 404, 405, 415, 501].contains(response.status) { return listETags() }
            finish(failure: DAVError.status(response.status, url: response.url, condition: condition).description)
        }
    }

    /// Every member's ETag, for a server without sync-collection.
    private func listETags() {
        send(CalDAVRequest.etags(calendar.url)) { [self] result in
            guard case .success(let response) = result else { return finish(result) }
            guard readKnown() else { return }
            guard response.status == 207, let status = multistatus(response) else { return finish(failure: notMultistatus(response)) }
            let etags = Dictionary(known.map { ($0.url, $0.etag) }, uniquingKeysWith: { a, _ in a })
            for entry in status.responses where !sameCollection(entry.url) {
                let etag = entry.property(Namespace.dav, "getetag")?.trimmed
                if etag == nil || etags[entry.url] != etag { changedURLs.append((entry.url, etag)) }
            }
            newToken = nil
            removeUnlisted(listed: Set(status.responses.map(\.url)))
            fetchChanged()
        }
    }

    /// After a whole listing: what the store knows and the server did not list is gone.
    private func removeUnlisted(listed: Set<String>? = nil) {
        let all = listed ?? Set(changedURLs.map(\.url))
        for object in known where !all.contains(object.url) && object.etag != nil { removed.insert(object.url) }
    }

    private func sameCollection(_ url: String) -> Bool {
        url == calendar.url || url + "/" == calendar.url || CalDAVRequest.path(of: url) == CalDAVRequest.path(of: calendar.url)
    }

    // MARK: Fetching

    private func fetchChanged() {
        // Our own writes come back in the listing with the ETag we stored: nothing to fetch.
        let etags = Dictionary(known.map { ($0.url, $0.etag) }, uniquingKeysWith: { a, _ in a })
        let wanted = changedURLs.filter { $0.etag == nil || etags[$0.url] != $0.etag }.map(\.url)
        // A followed calendar where nothing changed: nothing here can change either.
        if calendar.role != .own, wanted.isEmpty, removed.isEmpty, !answersToSend { return finish(failure: nil) }
        fetch(Array(wanted), from: 0)
    }

    private func fetch(_ urls: [String], from start: Int) {
        guard start < urls.count else { return decide() }
        let batch = Array(urls[start..<min(start + Self.multigetBatch, urls.count)])
        send(CalDAVRequest.multiget(calendar.url, urls: batch)) { [self] result in
            guard case .success(let response) = result else { return finish(result) }
            guard response.status == 207, let status = multistatus(response) else { return finish(failure: notMultistatus(response)) }
            for entry in status.responses {
                if entry.status == 404 {
                    removed.insert(entry.url)
                    continue
                }
                guard let data = entry.property(Namespace.caldav, "calendar-data")?.text else { continue }
                guard let object = CalendarObject.read(data) else {
                    report.problems.append("\(entry.url): not an iCalendar object")
                    continue
                }
                fetched.append(.init(url: entry.url, etag: entry.property(Namespace.dav, "getetag")?.trimmed, calendar: object))
            }
            report.fetched = fetched.count
            fetch(urls, from: start + Self.multigetBatch)
        }
    }

    // MARK: Deciding

    private func decide() {
        let origins: [String: String]
        do {
            // Counted before the read: a change between the two is seen again, never missed.
            if calendar.role == .own { report.readAt = try store.changeCount() }
            let alerts = try store.alerts()
            stored = Dictionary(alerts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            origins = try store.syncOrigins()
            if calendar.role == .own {
                // Nudge's own reminders: every one that did not come from a followed calendar.
                let mine = alerts.filter { origins[$0.id.hexString] == nil }
                local = Self.objects(of: mine, zone: zone, uids: Self.foreignUIDs(known), foreign: foreignCopies(stored), known: known)
            }
        } catch {
            return finish(failure: "the store cannot be read: \(error)")
        }
        let fetchedByURL = Dictionary(fetched.map { ($0.url, $0.calendar) }, uniquingKeysWith: { a, _ in a })
        let knownPlan = known.map { object in
            CollectionPlan.Known(url: object.url, uid: object.uid, etag: object.etag, agreed: Self.base(of: object, there: fetchedByURL[object.url]),
                                 alertID: object.alertId.flatMap(UUID.init(hexString:)))
        }
        let (steps, refused) = CollectionPlan.plan(calendar: calendar.url, known: knownPlan, changed: fetched, removed: removed, local: local,
                                                   marks: marks)
        for refusal in refused { report.problems.append("\(refusal.url): \(refusal.reason)") }
        applyHere(steps)
    }

    /// Nudge's reminders as calendar objects, as `nudge export` writes them. A reminder made
    /// from another program's object in Nudge's calendar keeps that object's UID (`uids`),
    /// for its first part: it is that object, not a new one beside it. Such an object is
    /// never rewritten in Nudge's form (its start, its end, its rule stay as the other program
    /// wrote them): with its copy last agreed on in `foreign`, that copy is what it is here.
    static func objects(of alerts: [Alert], zone: TimeZone, uids: [UUID: String] = [:],
                        foreign: [UUID: Component] = [:], known: [SyncObject] = []) -> [CollectionPlan.Local] {
        var kept: [CollectionPlan.Local] = []
        var alerts = alerts
        if !foreign.isEmpty {
            alerts.removeAll { alert in
                guard let uid = uids[alert.id], let copy = foreign[alert.id] else { return false }
                kept.append(.init(alertID: alert.id, uid: uid, calendar: copy))
                return true
            }
        }
        return kept + keepingParts(exported(alerts, zone: zone, uids: uids), known: known)
    }

    /// Nudge's objects with the UIDs of the parts already there that say the same times (the
    /// same RRULE): a reminder of several objects whose first part was deleted elsewhere is
    /// written to the part that is left, not as a new object beside it (a hostile pass: the
    /// phone then held two alike events and rang twice).
    static func keepingParts(_ objects: [CollectionPlan.Local], known: [SyncObject]) -> [CollectionPlan.Local] {
        guard !known.isEmpty else { return objects }
        var parts: [String: [(uid: String, rule: String?)]] = [:]
        for object in known where SyncService.isNudges(object) {
            guard let id = object.alertId, let agreed = object.agreed.flatMap(CalendarObject.read),
                  let event = agreed.components.first(where: { $0["UID"]?.value == object.uid }) else { continue }
            parts[id, default: []].append((object.uid, event["RRULE"]?.value))
        }
        func rule(_ object: CollectionPlan.Local) -> String? { object.calendar.components.first { $0["UID"]?.value == object.uid }?["RRULE"]?.value }
        var result = objects
        for (id, there) in parts {
            let mine = objects.indices.filter { objects[$0].alertID.hexString == id }
            guard !mine.isEmpty else { continue }
            // Each part to the one there that says the same times; the rest to its own UID
            // while free, else to a part there left over, else to a new one.
            var assigned: [Int: String] = [:], used = Set<String>()
            for k in mine {
                if let match = there.first(where: { $0.rule == rule(objects[k]) && !used.contains($0.uid) }) {
                    assigned[k] = match.uid
                    used.insert(match.uid)
                }
            }
            for k in mine where assigned[k] == nil {
                let own = objects[k].uid
                var uid = !used.contains(own) ? own : there.first(where: { !used.contains($0.uid) })?.uid
                if uid == nil {
                    let stem = String(own.dropLast("@nudge".count).prefix(36))
                    uid = (2...99).lazy.map { "\(stem)-\($0)@nudge" }.first { candidate in
                        !used.contains(candidate) && !objects.contains { $0.uid == candidate }
                    }
                }
                assigned[k] = uid ?? own
                used.insert(assigned[k]!)
            }
            for (k, uid) in assigned where uid != objects[k].uid {
                var renamed = objects[k].calendar
                renamed.components = renamed.components.map { component in
                    var component = component
                    if component["UID"]?.value == objects[k].uid { component.properties = component.properties.map { $0.name == "UID" ? Property("UID", uid) : $0 } }
                    return component
                }
                result[k] = .init(alertID: objects[k].alertID, uid: uid, calendar: renamed)
            }
        }
        return result
    }

    private static func exported(_ alerts: [Alert], zone: TimeZone, uids: [UUID: String]) -> [CollectionPlan.Local] {
        var bytes: [UInt8] = []
        CalendarExport.write(alerts, system: zone) { (chunk: [UInt8]) in bytes += chunk }
        guard let whole = try? Component.read(bytes: bytes).first else { return [] }
        return CalendarObject.split(whole).compactMap { object in
            guard let uid = CalendarObject.uid(object),
                  let id = object.components.first(where: { $0["UID"]?.value == uid })?["X-NUDGE-ID"]?.value,
                  let alertID = UUID(uuidString: id) else { return nil }
            guard let foreign = uids[alertID], uid == CalendarExport.uid(alertID) else {
                return .init(alertID: alertID, uid: uid, calendar: object)
            }
            var renamed = object
            renamed.components = object.components.map { component in
                var component = component
                if component["UID"]?.value == uid { component.properties = component.properties.map { $0.name == "UID" ? Property("UID", foreign) : $0 } }
                return component
            }
            return .init(alertID: alertID, uid: foreign, calendar: renamed)
        }
    }

    /// Other programs' objects in Nudge's calendar as they are here, by the reminder each
    /// became: the copy last agreed on, with the reminder's title and body where they were
    /// changed here. One whose reminder changed here in when it rings (or was switched off)
    /// is left out: it is written in Nudge's form, as then it must be.
    func foreignCopies(_ alerts: [UUID: Alert]) -> [UUID: Component] {
        var copies: [UUID: Component] = [:]
        for object in known {
            guard let id = object.alertId.flatMap(UUID.init(hexString:)), !object.uid.hasSuffix("@nudge"),
                  let alert = alerts[id], var copy = object.agreed.flatMap(CalendarObject.read) else { continue }
            let outcomes = CalendarImport.alerts(in: [copy], system: zone, now: now)
            guard let read = outcomes.lazy.compactMap({ if case .alert(let read, _, _) = $0 { read } else { nil } }).first,
                  read.schedule == alert.schedule, read.enabled == alert.enabled, read.timeZone == alert.timeZone else { continue }
            guard let index = copy.components.firstIndex(where: { ($0.name == "VEVENT" || $0.name == "VTODO") && $0["RECURRENCE-ID"] == nil })
            else { continue }
            for (name, text, before) in [("SUMMARY", alert.title, read.title), ("DESCRIPTION", alert.body, read.body)] where text != before {
                var item = copy.components[index]
                item.properties.removeAll { $0.name == name }
                if !text.isEmpty { item.properties.append(Property.text(name, text)) }
                copy.components[index] = item
            }
            copies[id] = copy
        }
        return copies
    }

    /// The UIDs of other programs' objects in Nudge's calendar, by the reminder each became.
    static func foreignUIDs(_ known: [SyncObject]) -> [UUID: String] {
        var uids: [UUID: String] = [:]
        for object in known {
            guard let id = object.alertId.flatMap(UUID.init(hexString:)), !object.uid.hasSuffix("@nudge") else { continue }
            uids[id] = object.uid
        }
        return uids
    }

    /// What changes here, and the records of what needs no write, in one transaction.
    private func applyHere(_ steps: [CollectionPlan.Step]) {
        var records: [SyncObject] = [], forget: [String] = [], save: [Alert] = [], delete: [UUID] = []
        // The objects each reminder is made of, once decided (Nudge's own may be several).
        var parts: [UUID: [Component]] = [:]
        var touched = Set<UUID>()
        var foreign = Self.foreignUIDs(known)
        let debug = ProcessInfo.processInfo.environment["NUDGE_SYNC_DEBUG_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        for step in steps where step.decision.state != .synced {
            if let debug {
                let name = debug + "/" + CalendarObject.resourceName(uid: step.uid) + ".\(Int(now.timeIntervalSince1970 * 1000))"
                try? ((step.base?.text ?? "(none)") + "\n=====OURS\n" + (step.ours?.text ?? "(none)") + "\n=====THEIRS\n" + (step.theirs?.text ?? "(none)"))
                    .write(toFile: name, atomically: true, encoding: .utf8)
            }
            report.details.append("\(step.uid): \(step.decision.state)" + (step.decision.conflicts.isEmpty ? "" : " (\(step.decision.conflicts.joined(separator: ", ")))"))
        }
        for step in steps {
            var decision = step.decision
            var alertID = step.alertID
            // Moved there to another address: the old one's record goes (writes to it were
            // refused for ever: 409, the UID being at the new one).
            if let former = step.formerURL { forget.append(former) }
            // A followed reminder removed here stays removed when the change there is only an
            // answer (acknowledged, snoozed on the phone): the object's record follows it.
            if calendar.role != .own, let id = alertID, stored[id] == nil, let take = decision.take, let base = step.base,
               AlarmAnswers.withoutAnswers(base) == AlarmAnswers.withoutAnswers(take) {
                decision.take = nil
                alertID = nil
            }
            if decision.take != nil || decision.deleteHere {
                if let id = alertID { touched.insert(id) }
            }
            if let take = decision.take, alertID == nil {
                alertID = self.alertID(of: take)
                if let id = alertID { touched.insert(id) }
            }
            if step.base != nil { noteAnswer(of: alertID, in: decision.take, base: step.base) }
            // A task completed by an answer here is over here too.
            if let id = alertID, let sent = decision.send, decision.take == nil, Self.completes(sent, over: step.base) { touched.insert(id) }
            // Another program's object in Nudge's calendar keeps its UID as the reminder's.
            if let id = alertID, !step.uid.hasSuffix("@nudge") { foreign[id] = step.uid }
            if let agreed = decision.send ?? decision.agreed, let id = alertID { parts[id, default: []].append(decision.take ?? agreed) }
            if !decision.conflicts.isEmpty { report.conflicts += 1 }
            if decision.send != nil || decision.deleteThere {
                var write = step
                write.alertID = alertID
                writes.append(write)
                continue
            }
            if let agreed = decision.agreed {
                // Nudge's alarms moved on another device stay Nudge's in the copy agreed on.
                let kept = calendar.role == .own ? CalendarObject.markingMovedAlarms(agreed, base: step.base) : agreed
                records.append(SyncObject(calendarUrl: calendar.url, url: step.url, uid: step.uid, etag: step.remoteETag ?? step.etag,
                                          agreed: kept.text, alertId: alertID?.hexString,
                                          conflict: conflictText(step), error: nil))
            } else {
                forget.append(step.url)
            }
        }
        // The reminders here made again from their objects. One that cannot be read here is
        // left as it is, and its objects' records too: a change elsewhere that cannot be read
        // is never a deletion, and is met again (and named) at the next sync.
        var unreadable = Set<UUID>()
        for id in touched {
            let objects = parts[id] ?? []
            switch objects.isEmpty ? .none : importAlert(id: id, from: objects) {
            case .alert(let alert):
                save.append(alert)
                report.changedHere += 1
            case .none:
                if stored[id] != nil {
                    delete.append(id)
                    report.removedHere += 1
                }
            case .refused:
                unreadable.insert(id)
            }
        }
        if !unreadable.isEmpty {
            records.removeAll { record in record.alertId.flatMap(UUID.init(hexString:)).map(unreadable.contains) ?? false }
            writes.removeAll { step in step.alertID.map(unreadable.contains) ?? false }
        }
        // A record names the reminder only if there is one.
        let kept = Set(save.map(\.id)).union(stored.keys).subtracting(delete)
        records = records.map { record in
            var record = record
            if let id = record.alertId.flatMap(UUID.init(hexString:)), !kept.contains(id) { record.alertId = nil }
            return record
        }
        do {
            try store.apply(calendar: calendar.url, objects: records, forget: forget, save: save, delete: delete)
        } catch {
            return finish(failure: "the store cannot be written: \(error)")
        }
        // Nudge's own reminders, made again from what the server had: written back at once
        // where Nudge writes them otherwise (an alarm's text after a new title, Nudge's
        // schedule after a new rule), so both sides agree after this one sync. Made from the
        // reminders as the store gave them back (an instant kept to the microsecond there
        // is written as the next sync will write it), each record's write stored when it is done.
        if calendar.role == .own, !save.isEmpty {
            let ids = Set(save.map(\.id))
            let back = ((try? store.alerts()) ?? save).filter { ids.contains($0.id) }
            // Another program's object is never rewritten in Nudge's form (see objects(of:)).
            let again = Dictionary(Self.objects(of: back.filter { foreign[$0.id] == nil }, zone: zone, known: known).map { ($0.uid, $0) },
                                   uniquingKeysWith: { a, _ in a })
            for record in records {
                guard let mine = again[record.uid], let agreed = record.agreed.flatMap(CalendarObject.read) else { continue }
                let put = marked(CalendarObject.overlay(mine.calendar, on: agreed), mine.alertID)
                guard put != agreed, var write = steps.first(where: { $0.uid == record.uid }) else { continue }
                write.decision.send = put
                write.decision.agreed = put
                write.etag = record.etag
                write.alertID = record.alertId.flatMap(UUID.init(hexString:))
                writes.append(write)
            }
            // Another program's object taken here (its reminder made again from it, as after a
            // deletion here met an edit there): only the answers given here are written into
            // it, in this same sync too (found by the soak: the next sync sent them).
            for record in records {
                guard let id = record.alertId.flatMap(UUID.init(hexString:)), ids.contains(id), foreign[id] != nil, again[record.uid] == nil,
                      !writes.contains(where: { $0.uid == record.uid }), let agreed = record.agreed.flatMap(CalendarObject.read) else { continue }
                let put = marked(agreed, id)
                guard put != agreed, var write = steps.first(where: { $0.uid == record.uid }) else { continue }
                write.decision.send = put
                write.decision.agreed = put
                write.etag = record.etag
                write.alertID = id
                writes.append(write)
            }
            writes = writes.map { step in
                guard step.decision.take != nil, let sent = step.decision.send else { return step }
                var write = step
                if let mine = again[step.uid] {
                    write.decision.send = marked(CalendarObject.overlay(mine.calendar, on: sent), mine.alertID)
                } else if let id = step.alertID, foreign[id] != nil {
                    // Another program's object merged: the answers given here go with it now,
                    // not at the next sync (found by the soak, seed 7360).
                    write.decision.send = marked(sent, id)
                } else {
                    return step
                }
                write.decision.agreed = write.decision.send
                return write
            }
        }
        noteSending(writes)
        startWrites()
    }

    /// Notes in the store what each write is about to send (``SyncObject/sent``): when its
    /// answer never comes and the server turns out to hold exactly that, the next sync
    /// knows the server took it (and a change here since is this side's alone, not a
    /// conflict). One transaction for a sync's writes; `false` when the store cannot be written.
    @discardableResult
    private func noteSending(_ steps: [CollectionPlan.Step]) -> Bool {
        let sending = steps.compactMap { step in step.decision.send.map { (url: step.url, uid: step.uid, alertId: step.alertID?.hexString, text: $0.text) } }
            .filter { noted[$0.url] != $0.text }
        do {
            try store.noteSending(calendar: calendar.url, sending)
        } catch {
            return false
        }
        for write in sending { noted[write.url] = write.text }
        return true
    }

    /// Whether `sent` completes a task `base` had open (an answer here, with the setting on).
    static func completes(_ sent: Component, over base: Component?) -> Bool {
        let task = { (object: Component?) in object?.components.first { $0.name == "VTODO" && $0["RECURRENCE-ID"] == nil } }
        guard let after = task(sent), AlarmAnswers.isOver(after) else { return false }
        return task(base).map { !AlarmAnswers.isOver($0) } ?? false
    }

    /// An object with the answers given here to its reminder written in.
    private func marked(_ object: Component, _ id: UUID) -> Component {
        marks[id].map { AlarmAnswers.mark(object, $0) } ?? object
    }

    /// A conflict as kept: what both sides changed on its first line, then Nudge's version
    /// of the object (nothing of it is lost; `nudge sync status` shows the first line, `nudge
    /// sync conflict` the whole). Kept until the person dismisses it, whatever happens to the
    /// object after (a hostile pass: a later edit on the phone dropped the version saved);
    /// a later one is kept after it (``SyncConflicts``).
    private func conflictText(_ step: CollectionPlan.Step) -> String? {
        let kept = known.first { $0.url == step.url }?.conflict
        guard !step.decision.conflicts.isEmpty else { return kept }
        return SyncConflicts.adding(step.decision.conflicts.joined(separator: ", ") + "\n" + (step.ours?.text ?? ""), to: kept)
    }

    /// The reminder an object is: Nudge's id where it has one (own calendar), else one made
    /// from its UID, as `nudge import` makes it.
    ///
    /// In a followed calendar the id is made from the calendar's address and the UID alone,
    /// whatever `X-NUDGE-ID` the object carries: an object there can never stand for one of
    /// Nudge's own reminders (a phone's "move to calendar" keeps the X- properties).
    func alertID(of object: Component) -> UUID? {
        guard let main = object.components.first(where: { $0.name == "VEVENT" || $0.name == "VTODO" }) else { return nil }
        guard calendar.role == .own else {
            // Another Nudge's reminder of several objects is one reminder here: its parts
            // share its X-NUDGE-ID (each part was a reminder of its own, and rang again what
            // the first part's schedule already rang).
            let uid = main["UID"]?.value ?? ""
            let key = uid.hasSuffix("@nudge") ? main["X-NUDGE-ID"]?.value ?? uid : uid
            return CalendarImport.alertID(of: Component(main.name, properties: [Property("UID", calendar.url + " " + key)]))
        }
        return CalendarImport.alertID(of: main)
    }

    /// Two parts' times together: times of day on the same days (and the same limits but
    /// where they start, the earlier kept); `nil` for what one schedule cannot say.
    static func union(_ a: Schedule, _ b: Schedule) -> Schedule? {
        switch (a, b) {
        case (.daily(let t1, let d1), .daily(let t2, let d2)) where d1 == d2:
            return .daily(times: Array(Set(t1 + t2)).sorted(), days: d1)
        case (.restricted(let x, var r1), .restricted(let y, var r2)):
            let from = [r1.from, r2.from].compactMap { $0 }.min()
            let bothFrom = r1.from != nil && r2.from != nil
            (r1.from, r2.from) = (nil, nil)
            guard r1 == r2, let inner = union(x, y) else { return nil }
            r1.from = bothFrom ? from : nil
            return r1.isEmpty ? inner : .restricted(inner, r1)
        case (.restricted(let x, var r), .daily), (.daily, .restricted(let x, var r)):
            // One part's start ahead: both run from the other's, so no start.
            let other = if case .daily = a { a } else { b }
            guard r.from != nil else { return nil }
            r.from = nil
            guard r.isEmpty, let inner = union(x, other) else { return nil }
            return inner
        default:
            return nil
        }
    }

    /// What a reminder's objects make.
    enum Imported {
        case alert(Alert)
        /// No reminder: no alarm, or all over.
        case none
        /// Cannot be read here: why (named in the report).
        case refused
    }

    /// A reminder read from its objects. Nudge's own reminder of several objects is read from
    /// its first part (the one with `X-NUDGE-SCHEDULE`), with the title or body another part
    /// was given elsewhere; a followed object gets its followed id, whatever it says.
    private func importAlert(id: UUID, from objects: [Component]) -> Imported {
        var whole = Component("VCALENDAR", properties: [Property("VERSION", "2.0"), Property("PRODID", CalendarExport.product)])
        var zones = Set<String>()
        var members: [Component] = [], edited: [String: Property] = [:], partMoved = false
        for object in objects {
            let uid = CalendarObject.uid(object)
            let base = known.first { $0.alertId == id.hexString && uid == $0.uid }?.agreed.flatMap(CalendarObject.read)
            for var component in CalendarObject.forImport(object, base: base).components {
                if component.name == "VTIMEZONE" {
                    guard zones.insert(component["TZID"]?.value ?? "").inserted else { continue }
                    whole.components.append(component)
                    continue
                }
                if calendar.role != .own { component.properties.removeAll { $0.name == "X-NUDGE-ID" } }
                let before = base?.components.first { $0["UID"]?.value == component["UID"]?.value && $0.name == component.name }
                for name in ["SUMMARY", "DESCRIPTION"] where before != nil && component[name] != before?[name] {
                    if let changed = component[name] { edited[name] = changed }
                }
                // Another part than the first changed in when it rings (its times, its alarm
                // moved or removed): the parts say the reminder's times, not the first's
                // X-NUDGE-SCHEDULE (a hostile pass: the phone's edit was written back over).
                if let before, component["X-NUDGE-SCHEDULE"] == nil, component["UID"]?.value.hasSuffix("@nudge") == true,
                   ["DTSTART", "RRULE", "RDATE", "EXDATE", "DTEND", "DUE"].contains(where: { component.all($0) != before.all($0) })
                    || CalendarObject.movedNudgeAlarms(component, before: before) {
                    partMoved = true
                }
                members.append(component)
            }
        }
        // A part of Nudge's reminder of several objects deleted elsewhere: the parts left say
        // its times (X-NUDGE-SCHEDULE said them all, and the deleted part came back at the
        // next sync: a hostile pass).
        let knownParts = Set(known.filter { $0.alertId == id.hexString && $0.uid.hasSuffix("@nudge") }.map(\.uid))
        if calendar.role == .own, knownParts.count > 1, Set(members.compactMap { $0["UID"]?.value }).count < knownParts.count || partMoved {
            members = members.map { member in
                var member = member
                member.properties.removeAll { ["X-NUDGE-SCHEDULE", "X-NUDGE-PART"].contains($0.name) }
                return member
            }
        }
        // The part Nudge's settings are on first: the import reads one component per X-NUDGE-ID.
        members.sort { ($0["X-NUDGE-SCHEDULE"] != nil ? 0 : 1) < ($1["X-NUDGE-SCHEDULE"] != nil ? 0 : 1) }
        if members.count > 1, var main = members.first, main["X-NUDGE-SCHEDULE"] != nil {
            for (name, property) in edited where main[name] != property {
                main.properties = main.properties.map { $0.name == name ? property : $0 }
            }
            members[0] = main
        }
        // Nudge's reminder of several objects whose times were changed elsewhere (none says
        // X-NUDGE-SCHEDULE any more): each part read, and their times together (a hostile
        // pass: a part's DTSTART moved on the phone, and the reminder kept that part's times
        // alone, the other's written over).
        if calendar.role == .own, members.count > 1, !members.contains(where: { $0["X-NUDGE-SCHEDULE"] != nil }),
           Set(members.compactMap { $0["X-NUDGE-ID"]?.value }).count == 1 {
            var parts: [Alert] = []
            for member in members {
                var one = whole
                one.components.append(member)
                for outcome in CalendarImport.alerts(in: [one], system: zone, now: now) {
                    if case .alert(let alert, _, _) = outcome { parts.append(alert) }
                }
            }
            if parts.count == members.count, var joined = parts.first,
               let schedule = parts.dropFirst().reduce(Optional(joined.schedule), { sum, part in sum.flatMap { Self.union($0, part.schedule) } }) {
                joined.schedule = schedule
                if let old = stored[joined.id] ?? stored[id] { joined = CalendarImport.replacing(old, with: joined, complete: false) }
                return .alert(joined)
            }
            report.problems.append("\(members.first?["UID"]?.value ?? ""): its objects were changed elsewhere into times that are not one reminder's; it stays as it was here")
            return .refused
        }
        whole.components += members
        var over = false
        let outcomes = CalendarImport.alerts(in: [whole], system: zone, now: now, alarmsOnly: calendar.role != .own)
        let series = outcomes.contains { if case .alert = $0 { true } else { false } }
        for outcome in outcomes {
            switch outcome {
            case .alert(var alert, _, let complete):
                if calendar.role != .own { alert.id = id }
                if let old = stored[alert.id] ?? stored[id] { alert = CalendarImport.replacing(old, with: alert, complete: complete) }
                // A part that cannot be read beside a series that can (a changed occurrence):
                // the series is followed, the part named.
                for case .refused(let component, let reason) in outcomes { report.problems.append("\(component): \(reason.description)") }
                return .alert(alert)
            case .refused(let component, let reason):
                if series { continue }
                report.problems.append("\(component): \(reason.description)")
                return .refused
            case .over:
                over = true
            case .skipped:
                continue
            }
        }
        // An event whose times have all passed stays as it was, as Nudge's own reminders that
        // happened once do (its pop-up, if one is up, waits for its answer, here or elsewhere);
        // a task completed or cancelled elsewhere is over here too.
        if over, let old = stored[id], !members.contains(where: { $0.name == "VTODO" && AlarmAnswers.isOver($0) }) { return .alert(old) }
        return .none
    }

    // MARK: Writing

    private func startWrites() {
        while writesInFlight < Self.parallelWrites, !writes.isEmpty {
            let step = writes.removeFirst()
            writesInFlight += 1
            write(step)
        }
        if writesInFlight == 0 && writes.isEmpty { afterWrites() }
    }

    /// The token to keep after writing. The one listed before our writes does not cover
    /// them, and a server whose tokens name the collection's contents (Xandikos) would say
    /// "nothing changed" once another device undid them (a new object deleted on the phone
    /// gives back the old contents and the old token). So the collection is listed once more:
    /// its new token is kept when everything it lists is our own writes; else the old one,
    /// and the next sync lists from there (ours come back with their ETags, not fetched).
    private func afterWrites() {
        guard !ourWrites.isEmpty, let token = newToken else { return finish(failure: nil) }
        send(CalDAVRequest.syncCollection(calendar.url, token: token)) { [self] result in
            if case .success(let response) = result, response.status == 207, let status = multistatus(response), let next = status.syncToken {
                let onlyOurs = status.responses.allSatisfy { entry in
                    sameCollection(entry.url) || ourWrites[entry.url].map { $0 == (entry.status == 404 ? nil : entry.property(Namespace.dav, "getetag")?.trimmed) } == true
                }
                if onlyOurs { newToken = next }
            }
            finish(failure: nil)
        }
    }

    private func write(_ step: CollectionPlan.Step) {
        let request: HTTPRequest
        if let body = step.decision.send {
            // A write decided again (after a 412) is noted on its own.
            guard noted[step.url] == body.text || noteSending([step]) else {
                report.problems.append("\(step.url): the store cannot be written")
                unsent = true
                return written(step, record: nil, keep: true)
            }
            request = CalDAVRequest.put(step.url, text: Array(body.text.utf8), etag: step.etag)
        } else if let etag = step.etag {
            request = CalDAVRequest.delete(step.url, etag: etag)
        } else {
            // Never seen there with an ETag: nothing to delete.
            return written(step, record: nil)
        }
        send(request) { [self] result in
            guard case .success(let response) = result else {
                report.problems.append("\(step.url): \(failureText(result))")
                unsent = true
                return written(step, record: nil, keep: true)
            }
            switch response.status {
            case 200..<300:
                if let body = step.decision.send {
                    report.sent += 1
                    written(step, record: SyncObject(calendarUrl: calendar.url, url: step.url, uid: step.uid, etag: response.etag,
                                                     agreed: body.text, alertId: step.alertID?.hexString, conflict: conflictText(step)))
                } else {
                    report.removedThere += 1
                    written(step, record: nil)
                }
            case 404 where step.decision.deleteThere:
                written(step, record: nil)
            case 412, 404:
                // Someone else wrote first (or removed it): fetch it and decide again.
                refetch(step)
            default:
                report.problems.append("\(step.url): " + DAVError.status(response.status, url: step.url, condition: nil).description)
                unsent = true
                written(step, record: nil, keep: true)
            }
        }
    }

    /// The object as the server has it now, and the step decided again from it.
    private func refetch(_ step: CollectionPlan.Step) {
        let count = attempts[step.uid, default: 0] + 1
        attempts[step.uid] = count
        guard count < 3 else {
            report.problems.append("\(step.url): changed on the server at each of 3 tries; left for the next sync")
            unsent = true
            return written(step, record: nil, keep: true)
        }
        send(CalDAVRequest.get(step.url)) { [self] result in
            guard case .success(let response) = result, response.status == 200 || response.status == 404 else {
                report.problems.append("\(step.url): \(failureText(result))")
                unsent = true
                return written(step, record: nil, keep: true)
            }
            let theirs = response.status == 200 ? CalendarObject.read(String(decoding: response.body, as: UTF8.self)) : nil
            let record = known.first { $0.uid == step.uid }
            let base = record.flatMap { Self.base(of: $0, there: theirs) }
            if base != nil { noteAnswer(of: step.alertID, in: theirs, base: base) }
            let ours = step.decision.send ?? nil
            var again = step
            again.decision = ObjectDecision.decide(base: base, ours: step.decision.deleteThere ? nil : ours, theirs: theirs)
            again.etag = response.status == 200 ? response.etag : nil
            again.remoteETag = again.etag
            if again.decision.send != nil || again.decision.deleteThere {
                write(again)
            } else {
                // What the server has now is what is kept: it becomes the reminder here.
                if let take = again.decision.take, let id = step.alertID ?? alertID(of: take),
                   case .alert(let alert) = importAlert(id: id, from: [take]) {
                    try? store.apply(calendar: calendar.url, objects: [], forget: [], save: [alert], delete: [])
                    report.changedHere += 1
                }
                let agreed = again.decision.agreed
                written(again, record: agreed.map {
                    SyncObject(calendarUrl: calendar.url, url: again.url, uid: again.uid, etag: again.etag, agreed: $0.text,
                               alertId: again.alertID?.hexString, conflict: conflictText(again))
                })
            }
        }
    }

    /// A write is over: its record stored (or forgotten), the next write started.
    private func written(_ step: CollectionPlan.Step, record: SyncObject?, keep: Bool = false) {
        if !keep { ourWrites[step.url] = .some(record?.etag) }
        if !keep {
            do {
                try store.apply(calendar: calendar.url, objects: record.map { [$0] } ?? [], forget: record == nil ? [step.url] : [],
                                save: [], delete: [])
            } catch {
                report.problems.append("\(step.url): the store cannot be written: \(error)")
                unsent = true
            }
        }
        writesInFlight -= 1
        startWrites()
    }

    // MARK: Ending

    private func multistatus(_ response: HTTPResponse) -> Multistatus? {
        do {
            return try Multistatus.read(try XMLReader.read(response.body), base: response.url)
        } catch {
            unreadable = "\(error.description) (\(response.url))"
            return nil
        }
    }

    /// Why the sync stopped at an answer that was not a multistatus to read: its status, or
    /// (a 207 that could not be read: an entity, too deep, too many entries) why not.
    private func notMultistatus(_ response: HTTPResponse) -> String {
        if response.status == 207, let unreadable { return unreadable }
        return DAVError.status(response.status, url: response.url, condition: nil).description
    }

    /// Why the last multistatus could not be read.
    private var unreadable: String?

    private func failureText(_ result: Result<HTTPResponse, HTTPFailure>) -> String {
        switch result {
        case .failure(let failure): failure.description
        case .success(let response): DAVError.status(response.status, url: response.url, condition: nil).description
        }
    }

    private func finish(_ result: Result<HTTPResponse, HTTPFailure>) {
        switch result {
        case .failure(.unreachable), .failure(.stalled), .failure(.certificate): report.unreachable = true
        default: break
        }
        finish(failure: failureText(result))
    }

    private func finish(failure: String?) {
        report.failure = failure
        report.unsent = unsent
        calendar.lastError = failure ?? (report.problems.isEmpty ? nil : report.problems.first)
        if failure == nil {
            calendar.lastSynced = now
            calendar.syncToken = newToken
            // Everything here as read is there now, unless a write failed.
            if let readState { calendar.agreedAt = unsent ? nil : agreement(count: readState.count, answer: readState.answer) }
        } else {
            calendar.agreedAt = nil
        }
        try? store.save(calendar: calendar)
        done(report)
    }
}

extension UUID {
    /// 32 lowercase hex digits, as the store keeps ids.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
        }
    }

    /// An id from 32 hex digits, as the store keeps them. Read digit by digit: through
    /// `UUID(uuidString:)` (sscanf) it was a twentieth of a sync where nothing changed.
    public init?(hexString: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for c in hexString.utf8 {
            let value: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high {
                guard bytes.count < 16 else { return nil }
                bytes.append(h << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard bytes.count == 16, high == nil else { return nil }
        let b = bytes
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
