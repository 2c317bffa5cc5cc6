import Foundation
import GRDB
import NudgeCore

/// One line of the delivery log: what happened to an alert, and when.
public struct LogEntry: Sendable, Hashable {
    /// The alert it is about.
    public var alertID: UUID
    /// `fired`, `caught-up`, `missed`, `snooze-fired`, `acknowledged`, `dismissed`,
    /// `answered-elsewhere`, `snoozed`, `done-for-today`, `drank`, `goal-met`, `held`, `shown-on-return`, `nagged`,
    /// `expired`, `failed`, `redelivered` or `shown-late`.
    public var event: String
    /// When it happened.
    public var at: Date
    /// The pop-up's id, where one was shown.
    public var deliveryID: UInt32?
    /// The count shown or the number missed.
    public var count: Int?
    /// More, in words (a failure's reason, a snooze's end).
    public var detail: String?
    /// For an answer: how long after its pop-up came up, in seconds.
    public var delay: TimeInterval?
    /// The local day it happened on, where it happened: what `nudge stats` counts it
    /// for (kept in the store's day summary, not in the log row; `nil` when read back).
    public var day: CivilDay?

    /// The log line for a scheduler record at an instant, in the zone it happens in.
    public init(_ record: SchedulerRecord, at: Date, zone: TimeZone) {
        self.at = at
        day = CivilZone(zone).local(at).day
        delay = record.answerDelay
        switch record {
        case .fired(let id, _, let shown, let count):
            (alertID, event, deliveryID, self.count) = (id, "fired", shown, Int(count))
        case .caughtUp(let id, let missed, let since, let shown):
            (alertID, event, deliveryID, count, detail) = (id, "caught-up", shown, missed, "since \(Self.utc(since))")
        case .missed(let id, let n, let since):
            (alertID, event, count, detail) = (id, "missed", n, "since \(Self.utc(since))")
        case .snoozeFired(let id, let shown):
            (alertID, event, deliveryID) = (id, "snooze-fired", shown)
        case .acknowledged(let id, _):
            (alertID, event) = (id, "acknowledged")
        case .dismissed(let id, _):
            (alertID, event) = (id, "dismissed")
        case .answeredElsewhere(let id, let at):
            (alertID, event, detail) = (id, "answered-elsewhere", "at \(Self.utc(at))")
        case .snoozed(let id, let until, _):
            (alertID, event, detail) = (id, "snoozed", "until \(Self.utc(until))")
        case .doneForToday(let id, let day, _):
            (alertID, event, detail) = (id, "done-for-today", day.description)
        case .drank(let id, let millilitres, _):
            (alertID, event, count) = (id, "drank", millilitres)
        case .goalMet(let id, let day):
            (alertID, event, detail) = (id, "goal-met", day.description)
        case .held(let id, let n, let since):
            (alertID, event, count, detail) = (id, "held", n, "since \(Self.utc(since))")
        case .nagged(let id, let attempt, let shown):
            (alertID, event, deliveryID, count) = (id, "nagged", shown, attempt)
        case .shownOnReturn(let id, let held, let since, let shown):
            (alertID, event, deliveryID, count, detail) = (id, "shown-on-return", shown, held, "since \(Self.utc(since))")
        case .expired(let id):
            (alertID, event) = (id, "expired")
        case .deliveryFailed(let id, let error):
            (alertID, event, detail) = (id, "failed", error.message)
        case .redelivered(let id, let shown, let count):
            (alertID, event, deliveryID, self.count) = (id, "redelivered", shown, Int(count))
        case .shownLate(let id, let shown):
            (alertID, event, deliveryID) = (id, "shown-late", shown)
        }
    }

    static func utc(_ instant: Date) -> String {
        InstantFormat.iso8601(instant, in: TimeZone(identifier: "UTC")!)
    }

    init(alertID: UUID, event: String, at: Date, deliveryID: UInt32?, count: Int?, detail: String?, delay: TimeInterval?) {
        (self.alertID, self.event, self.at, self.deliveryID, self.count, self.detail) = (alertID, event, at, deliveryID, count, detail)
        self.delay = delay
    }
}

extension AppDatabase {
    /// Appends entries to the delivery log.
    public func append(_ entries: [LogEntry]) throws {
        guard !entries.isEmpty else { return }
        try writer.write { db in _ = try Self.insert(entries, db) }
    }

    /// Inserts entries and returns their row ids.
    static func insert(_ entries: [LogEntry], _ db: Database) throws -> [Int64] {
        var rows: [Int64] = []
        rows.reserveCapacity(entries.count)
        for e in entries {
            try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at, deliveryID, count, detail, delay) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [e.alertID.hex, e.event, e.at.timeIntervalSince1970,
                                       e.deliveryID.map { Int64($0) }, e.count, e.detail, e.delay])
            rows.append(db.lastInsertedRowID)
            if let day = e.day { try countInDay(e, day: day, db) }
        }
        if !entries.isEmpty { try pruneLog(db, now: Date()) }
        return rows
    }

    /// The events logged for one alert, oldest first.
    public func events(for id: UUID) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT event FROM deliveryLog WHERE alertId = ? ORDER BY id", arguments: [id.hex])
        }
    }

    /// How many entries the log holds for each event.
    public func eventCounts() throws -> [String: Int] {
        try writer.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT event, COUNT(*) AS n FROM deliveryLog GROUP BY event").map {
                ($0["event"] as String, $0["n"] as Int)
            })
        }
    }

    /// The log from an instant on, oldest first.
    public func log(since: Date) throws -> [LogEntry] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM deliveryLog WHERE at >= ? ORDER BY at, id", arguments: [since.timeIntervalSince1970])
        }.compactMap { row in
            // A row no Nudge writes (another tool's, a damaged file's) is left out, not read
            // into an instant no date can be written for.
            guard let id = UUID(hex: row["alertId"]), let at = row["at"] as Double?, (0..<253_402_300_800).contains(at) else { return nil }
            return LogEntry(alertID: id, event: row["event"], at: Date(timeIntervalSince1970: at),
                            deliveryID: (row["deliveryID"] as Int64?).map { UInt32(clamping: $0) },
                            count: row["count"], detail: row["detail"], delay: row["delay"])
        }
    }
}
