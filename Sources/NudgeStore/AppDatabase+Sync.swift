import Foundation
import GRDB
import NudgeCore

/// A CalDAV account, as stored (its password is in the Secret Service, never here).
public struct SyncAccount: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncAccount"
    /// 8 hex digits, shown to the person (`nudge sync remove ID`).
    public var id: String
    /// The address the person gave.
    public var address: String
    public var user: String
    /// The principal and calendar home discovery found.
    public var principal: String
    public var home: String
    /// Plain http:// to a host other than loopback, allowed by the person.
    public var plainHTTP: Bool
    /// A PEM file of authorities trusted for this account instead of the system's.
    public var authorityFile: String?
    public var created: Date

    public init(id: String, address: String, user: String, principal: String, home: String,
                plainHTTP: Bool = false, authorityFile: String? = nil, created: Date) {
        self.id = id
        self.address = address
        self.user = user
        self.principal = principal
        self.home = home
        self.plainHTTP = plainHTTP
        self.authorityFile = authorityFile
        self.created = created
    }
}

/// A calendar of an account, and what Nudge does with it.
public struct SyncCalendar: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncCalendar"

    /// What Nudge does with a calendar.
    public enum Role: String, Sendable, Codable, CaseIterable {
        /// Nudge's own reminders are written here and read back (one per account).
        case own
        /// Its events and tasks with alarms pop up here.
        case follow
        /// Listed, not synced.
        case none
    }

    public var url: String
    public var accountId: String
    public var name: String
    /// `VEVENT,VTODO`.
    public var components: String
    public var color: String?
    public var writable: Bool
    public var role: Role
    /// RFC 6578's token after the last sync, if the server gives them.
    public var syncToken: String?
    public var lastSynced: Date?
    /// The last sync's failure, in words; `nil` after a sync that worked.
    public var lastError: String?
    /// Who rings a followed calendar's alarms when the desktop rings them too (GNOME's
    /// evolution-data-server): `nil`, the default, leaves them to the desktop; `here`, Nudge
    /// rings them as well.
    public var ringer: Ringer?
    /// For Nudge's own calendar: when it last held every reminder as it is here, with
    /// nothing left to send (`COUNT ZONE VERSION`: the change count the reminders were read
    /// at, the zone and the Nudge they were written in); `nil` when not known.
    public var agreedAt: String?

    /// Who rings a followed calendar that the desktop rings too.
    public enum Ringer: String, Sendable, Codable, CaseIterable {
        /// Nudge rings it as well (the person chose it: the desktop's pop-ups are off, say).
        case here
    }

    public init(url: String, accountId: String, name: String, components: String, color: String? = nil,
                writable: Bool = true, role: Role = .none, syncToken: String? = nil, lastSynced: Date? = nil, lastError: String? = nil,
                ringer: Ringer? = nil, agreedAt: String? = nil) {
        self.url = url
        self.accountId = accountId
        self.name = name
        self.components = components
        self.color = color
        self.writable = writable
        self.role = role
        self.syncToken = syncToken
        self.lastSynced = lastSynced
        self.lastError = lastError
        self.ringer = ringer
        self.agreedAt = agreedAt
    }
}

/// One calendar object both sides know of: where it is, its ETag, the copy both agreed on.
public struct SyncObject: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncObject"
    public var calendarUrl: String
    public var url: String
    public var uid: String
    /// The ETag the server last gave; `nil` until it gave one.
    public var etag: String?
    /// The iCalendar text both sides last agreed on; `nil` for a reminder not yet sent.
    public var agreed: String?
    /// The reminder here (32 hex digits), if it has one.
    public var alertId: String?
    /// What both sides changed differently the last time, kept for the person (our version of
    /// the object's text after a line naming the properties).
    public var conflict: String?
    /// This object's last failure (a 403, a 507), in words.
    public var error: String?
    /// The text last written there whose answer never came (the connection lost, the
    /// process killed): when the server turns out to hold exactly this, it took the write,
    /// and this is what both sides agree on. `nil` once a write's answer came.
    public var sent: String?

    public init(calendarUrl: String, url: String, uid: String, etag: String? = nil, agreed: String? = nil,
                alertId: String? = nil, conflict: String? = nil, error: String? = nil, sent: String? = nil) {
        self.calendarUrl = calendarUrl
        self.url = url
        self.uid = uid
        self.etag = etag
        self.agreed = agreed
        self.alertId = alertId
        self.conflict = conflict
        self.error = error
        self.sent = sent
    }

    /// The columns in the order ``init(row:)`` reads them.
    public static var databaseSelection: [any SQLSelectable] {
        ["calendarUrl", "url", "uid", "etag", "agreed", "alertId", "conflict", "error", "sent"].map { Column($0) }
    }

    /// Read by position, not through Decodable: a sync where nothing changed reads every
    /// object of a calendar, and decoding 1,000 took a tenth of its CPU.
    public init(row: Row) {
        (calendarUrl, url, uid, etag) = (row[0], row[1], row[2], row[3])
        (agreed, alertId, conflict, error, sent) = (row[4], row[5], row[6], row[7], row[8])
    }
}

extension AppDatabase {
    /// Whether any account is there (a store from before v10 has none).
    public func hasSyncAccounts() throws -> Bool {
        try writer.read { db in try db.tableExists("syncAccount") && SyncAccount.fetchCount(db) > 0 }
    }

    /// The store's change count now (v9's `storeChange`, raised by every change to a reminder).
    public func changeCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count FROM storeChange") ?? 0 }
    }

    /// What a sync's ``SyncCalendar/agreedAt`` is checked against: the reminders' change
    /// count, and the newest answer's row in the log (0 without one), read together.
    public func changeAndAnswer() throws -> (count: Int, answer: Int) {
        try writer.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count FROM storeChange),
                       (SELECT MAX(id) FROM deliveryLog WHERE event IN ('acknowledged', 'dismissed', 'done-for-today', 'drank', 'snoozed'))
                """)
            return ((row?[0] as Int?) ?? 0, (row?[1] as Int?) ?? 0)
        }
    }

    /// Notes that a sync read the reminders as they were at change count `count`.
    public func markSynced(at count: Int) throws {
        try writer.write { db in try db.execute(sql: "UPDATE syncStamp SET count = ? WHERE id = 1", arguments: [count]) }
    }

    /// Whether a reminder changed after the last sync read them (always `false` without an
    /// account or before v10).
    public func changedSinceSync() throws -> Bool {
        try writer.read { db in
            guard try db.tableExists("syncStamp") else { return false }
            return try Bool.fetchOne(db, sql: "SELECT (SELECT count FROM storeChange) > (SELECT count FROM syncStamp)") ?? false
        }
    }

    /// Every account, oldest first.
    public func syncAccounts() throws -> [SyncAccount] {
        try writer.read { db in try SyncAccount.order(Column("created")).fetchAll(db) }
    }

    /// An account and its calendars, stored in one transaction (calendars of the account
    /// not in `calendars` are removed with their objects).
    public func save(account: SyncAccount, calendars: [SyncCalendar]) throws {
        try writer.write { db in
            try account.save(db)
            let kept = calendars.map(\.url)
            try SyncCalendar.filter(Column("accountId") == account.id && !kept.contains(Column("url"))).deleteAll(db)
            for calendar in calendars { try calendar.save(db) }
        }
    }

    /// Removes an account, its calendars and what was known of their objects. The reminders
    /// that came from its calendars are removed too; Nudge's own stay.
    public func remove(account id: String) throws {
        try writer.write { db in
            let followed = try SyncCalendar.filter(Column("accountId") == id && Column("role") == SyncCalendar.Role.follow.rawValue)
                .fetchAll(db).map(\.url)
            let alertIds = try String.fetchAll(db, SyncObject.select(Column("alertId")).filter(followed.contains(Column("calendarUrl")))
                .filter(Column("alertId") != nil))
            try AlertRecord.filter(keys: alertIds).deleteAll(db)
            try SyncAccount.deleteOne(db, key: id)
        }
    }

    /// An account's calendars, in the server's order of discovery (by name).
    public func syncCalendars(account id: String? = nil) throws -> [SyncCalendar] {
        try writer.read { db in
            var request = SyncCalendar.order(Column("name"))
            if let id { request = request.filter(Column("accountId") == id) }
            return try request.fetchAll(db)
        }
    }

    /// Stores a calendar's state (its token, when it last synced, its last error).
    public func save(calendar: SyncCalendar) throws {
        try writer.write { db in try calendar.update(db) }
    }

    /// What is known of a calendar's objects; with `nudges`, only those that may be
    /// Nudge's own reminders (a reminder's, with a UID ending in `@nudge`).
    public func syncObjects(calendar url: String, nudges: Bool = false) throws -> [SyncObject] {
        try writer.read { db in
            var request = SyncObject.filter(Column("calendarUrl") == url)
            if nudges { request = request.filter(Column("alertId") != nil).filter(sql: "substr(uid, -6) = '@nudge'") }
            return try request.fetchAll(db)
        }
    }

    /// Sets an object's kept conflicts (`nil`: dismissed), as `nudge sync conflict --dismiss`.
    public func setConflict(calendar: String, url: String, _ conflict: String?) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE syncObject SET conflict = ? WHERE calendarUrl = ? AND url = ?", arguments: [conflict, calendar, url])
        }
    }

    /// Every object of every calendar, by the reminder it is (for `list`'s "from" column).
    public func syncOrigins() throws -> [String: String] {
        try writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT o.alertId AS alertId, c.name AS name FROM syncObject o JOIN syncCalendar c ON c.url = o.calendarUrl
                WHERE c.role = 'follow' AND o.alertId IS NOT NULL
                """)
            var origins: [String: String] = [:]
            for row in rows { origins[row["alertId"]] = row["name"] }
            return origins
        }
    }

    /// One sync step's results, all in one transaction: the objects' new records (and those
    /// forgotten), the reminders made or changed here, the reminders removed. A crash before
    /// it leaves the last state whole; after it, the new one.
    public func apply(calendar: String, objects: [SyncObject], forget: [String], save alerts: [Alert], delete removed: [UUID]) throws {
        try writer.write { db in
            for object in objects { try object.save(db) }
            for url in forget { try SyncObject.deleteOne(db, key: ["calendarUrl": calendar, "url": url]) }
            for alert in alerts { try AlertRecord(alert).save(db) }
            if !removed.isEmpty { try AlertRecord.filter(keys: removed.map(\.hex)).deleteAll(db) }
        }
    }

    /// Notes the texts about to be written to a calendar (``SyncObject/sent``), in one
    /// transaction: each object's record made if there is none yet, and otherwise kept as it is.
    public func noteSending(calendar: String, _ writes: [(url: String, uid: String, alertId: String?, text: String)]) throws {
        guard !writes.isEmpty else { return }
        try writer.write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO syncObject (calendarUrl, url, uid, alertId, sent) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (calendarUrl, url) DO UPDATE SET sent = excluded.sent
                """)
            for write in writes { try statement.execute(arguments: [calendar, write.url, write.uid, write.alertId, write.text]) }
        }
    }

    /// The answers given here, by reminder, for a sync to write into the reminders' objects:
    /// the last answer of any kind after `since` (Done, dismissed, done for today, a drink,
    /// a snooze), the last that was Done, and every snooze in force.
    public func answers(since: Date) throws -> [UUID: AnswerTimes] {
        try writer.read { db in
            var answers: [UUID: AnswerTimes] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT alertId, MAX(at) AS any,
                       MAX(CASE WHEN event IN ('acknowledged', 'done-for-today', 'drank') THEN at END) AS done
                FROM deliveryLog
                WHERE at > ? AND event IN ('acknowledged', 'dismissed', 'done-for-today', 'drank', 'snoozed')
                GROUP BY alertId
                """, arguments: [since.timeIntervalSince1970])
            for row in rows {
                guard let id = UUID(hex: row["alertId"]) else { continue }
                answers[id] = AnswerTimes(any: (row["any"] as Double?).map(Date.init(timeIntervalSince1970:)),
                                          done: (row["done"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
            for row in try Row.fetchAll(db, sql: "SELECT alertId, snoozedUntil FROM alertState WHERE snoozedUntil IS NOT NULL") {
                guard let id = UUID(hex: row["alertId"]) else { continue }
                answers[id, default: AnswerTimes()].snoozedUntil = (row["snoozedUntil"] as Double?).map(Date.init(timeIntervalSince1970:))
            }
            return answers
        }
    }
}

/// One reminder's answers here, for a sync (``AppDatabase/answers(since:)``).
public struct AnswerTimes: Sendable, Equatable {
    /// The last answer of any kind.
    public var any: Date?
    /// The last Done (acknowledged, done for today, a drink).
    public var done: Date?
    /// The snooze in force.
    public var snoozedUntil: Date?
    public init(any: Date? = nil, done: Date? = nil, snoozedUntil: Date? = nil) {
        self.any = any
        self.done = done
        self.snoozedUntil = snoozedUntil
    }
}
