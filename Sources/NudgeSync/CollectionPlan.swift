import Foundation
import ICalendar

/// What one sync of one calendar does, object by object, from what is known (the store's
/// records), what the server says changed, and (for Nudge's own calendar) what the
/// reminders here are now. Pure: the transport carries it out.
public enum CollectionPlan {
    /// An object as the store knows it.
    public struct Known: Sendable, Equatable {
        public var url: String
        public var uid: String
        public var etag: String?
        public var agreed: Component?
        public var alertID: UUID?
        public init(url: String, uid: String, etag: String?, agreed: Component?, alertID: UUID?) {
            self.url = url
            self.uid = uid
            self.etag = etag
            self.agreed = agreed
            self.alertID = alertID
        }
    }

    /// An object as the server holds it now.
    public struct Remote: Sendable, Equatable {
        public var url: String
        public var etag: String?
        public var calendar: Component
        public init(url: String, etag: String?, calendar: Component) {
            self.url = url
            self.etag = etag
            self.calendar = calendar
        }
    }

    /// One of Nudge's reminders, as the object(s) `nudge export` makes of it.
    public struct Local: Sendable, Equatable {
        public var alertID: UUID
        public var uid: String
        public var calendar: Component
        public init(alertID: UUID, uid: String, calendar: Component) {
            self.alertID = alertID
            self.uid = uid
            self.calendar = calendar
        }
    }

    /// One object's step.
    public struct Step: Sendable, Equatable {
        public var url: String
        public var uid: String
        /// The ETag a write is conditional on (`nil`: the object is new there).
        public var etag: String?
        /// The server's ETag for `theirs`, when it changed.
        public var remoteETag: String?
        public var decision: ObjectDecision
        public var alertID: UUID?
        /// What the object is here (Nudge's side), kept with a conflict so nothing of it is lost.
        public var ours: Component? = nil
        /// The copy both sides last agreed on, and the server's now (for `--verbose`'s looks).
        public var base: Component? = nil
        public var theirs: Component? = nil
        /// Where the store knew the object before it moved there (another client deleted it
        /// and wrote it again under another name, as DAVx5 may): that record is forgotten.
        public var formerURL: String? = nil
    }

    /// An object the server sent that cannot be taken: why.
    public struct Refused: Sendable, Equatable {
        public var url: String
        public var reason: String
    }

    /// The steps for a calendar. `changed`: the objects the server says are new or changed
    /// (fetched); `removed`: the URLs it says are gone. `local`: Nudge's reminders as objects
    /// for its own calendar, `nil` for a calendar only followed (nothing is sent there but
    /// answers). `marks`: the answers given here, by reminder (``AlarmAnswers``), written
    /// into its objects in either kind of calendar.
    public static func plan(calendar: String, known: [Known], changed: [Remote], removed: Set<String>,
                            local: [Local]?, marks: [UUID: AlarmAnswers.Marks] = [:]) -> (steps: [Step], refused: [Refused]) {
        // One record a UID; of two (a move a store did not follow before), the one not gone.
        var knownByUID: [String: Known] = [:]
        for object in known where knownByUID[object.uid] == nil || removed.contains(knownByUID[object.uid]!.url) { knownByUID[object.uid] = object }
        var theirs: [String: Remote] = [:]
        var refused: [Refused] = []
        for remote in changed {
            guard let uid = CalendarObject.uid(remote.calendar) else {
                refused.append(Refused(url: remote.url, reason: "it holds no event or task with a UID"))
                continue
            }
            // The same UID at two addresses: the one known (else the first) is the object.
            if let other = theirs[uid], other.url != remote.url {
                let keep = knownByUID[uid]?.url == remote.url ? remote : other
                let drop = keep == remote ? other : remote
                refused.append(Refused(url: drop.url, reason: "it has the same UID as \(keep.url)"))
                theirs[uid] = keep
                continue
            }
            theirs[uid] = remote
        }
        var order: [String] = []
        var seen = Set<String>()
        func note(_ uid: String) { if seen.insert(uid).inserted { order.append(uid) } }
        known.forEach { note($0.uid) }
        changed.compactMap { CalendarObject.uid($0.calendar) }.forEach(note)
        local?.forEach { note($0.uid) }
        let localByUID = Dictionary((local ?? []).map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let alive = Set((local ?? []).map(\.alertID))

        var steps: [Step] = []
        for uid in order {
            let record = knownByUID[uid]
            if let record, refused.contains(where: { $0.url == record.url }) { continue }
            let base = record?.agreed
            let remote = theirs[uid]
            let gone = record.map { removed.contains($0.url) } ?? false
            let there: Component? = remote?.calendar ?? (gone ? nil : base)
            var here: Component?
            var alertID = record?.alertID
            if local != nil {
                if let mine = localByUID[uid] {
                    here = (base ?? remote?.calendar).map { CalendarObject.overlay(mine.calendar, on: $0) } ?? mine.calendar
                    alertID = mine.alertID
                } else if let id = record?.alertID, !alive.contains(id) {
                    // Its reminder was removed here (or no longer makes this part).
                    here = nil
                } else if let id = record?.alertID, uid.hasSuffix("@nudge"), UUID(uuidString: String(uid.prefix(36))) == id {
                    // A part of one of Nudge's reminders that it no longer makes (edited here to
                    // fewer times: a hostile pass found the old parts left ringing on the phone).
                    here = nil
                } else {
                    // Another program's object in Nudge's calendar: read, as a followed one.
                    here = base
                }
            } else {
                here = base
            }
            // An answer is no edit: it never brings back an object deleted there (one edited
            // here comes back, and with it the answers).
            if let id = alertID, let answers = marks[id], let object = here, there != nil || record == nil || here != base {
                here = AlarmAnswers.mark(object, answers)
            }
            // An object never agreed on and gone from the server stays unknown.
            if record == nil, remote == nil, here == nil { continue }
            let decision = ObjectDecision.decide(base: base, ours: here, theirs: there)
            let url = remote?.url ?? record?.url ?? CalDAVRequest.canonical(calendar + CalendarObject.resourceName(uid: uid))
            steps.append(Step(url: url, uid: uid, etag: remote?.etag ?? record?.etag, remoteETag: remote?.etag,
                              decision: decision, alertID: alertID, ours: here, base: base, theirs: there,
                              formerURL: record.flatMap { $0.url != url ? $0.url : nil }))
        }
        // A removal the store never knew of needs nothing.
        return (steps, refused)
    }
}
