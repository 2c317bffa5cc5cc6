import Foundation
import GRDB
import NudgeCore

/// An alert as a row of the `alert` table. The schedule is stored in its compact text form
/// (``Schedule/storageText``); the id as 32 lowercase hex digits, so a prefix lookup is a
/// range scan of the primary key. Rows are read column by column, by position: no
/// Decodable on the hot path of `nudge list` over a big store; writes use Encodable.
struct AlertRecord: Encodable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "alert"
    /// The columns in the order ``init(row:)`` reads them.
    static var databaseSelection: [any SQLSelectable] { ["id", "title", "body", "schedule", "enabled", "sound", "urgency",
                                                         "icon", "timeZone", "graceSeconds", "snoozeSeconds", "created", "kind",
                                                         "whenAway", "nagSeconds", "nagTimes"].map { Column($0) } }

    var id: String
    var title: String
    var body: String
    var schedule: String
    var enabled: Bool
    var sound: String?
    var urgency: Int
    var icon: String
    var timeZone: String?
    /// `nil` for the `skip` policy, else the grace period of `once`.
    var graceSeconds: Int?
    var snoozeSeconds: Int
    var created: Double
    var kind: String
    var whenAway: String?
    var nagSeconds: Int?
    var nagTimes: Int?

    init(_ alert: Alert) {
        id = alert.id.hex
        title = alert.title
        body = alert.body
        schedule = alert.schedule.storageText
        enabled = alert.enabled
        sound = alert.sound?.description
        urgency = Int(alert.urgency.rawValue)
        icon = alert.icon
        timeZone = alert.timeZone
        switch alert.catchUp {
        case .once(let grace): graceSeconds = grace
        case .skip: graceSeconds = nil
        }
        snoozeSeconds = alert.snoozeSeconds
        created = alert.created.timeIntervalSince1970
        kind = alert.kind.rawValue
        whenAway = alert.whenAway?.rawValue
        nagSeconds = alert.nag?.seconds
        nagTimes = alert.nag?.times
    }

    /// Reads the columns of ``databaseSelection`` by position, the fastest way GRDB has.
    init(row: Row) {
        id = row[0]
        title = row[1]
        body = row[2]
        schedule = row[3]
        enabled = row[4]
        sound = row[5]
        urgency = row[6]
        icon = row[7]
        timeZone = row[8]
        graceSeconds = row[9]
        snoozeSeconds = row[10]
        created = row[11]
        kind = row[12]
        whenAway = row[13]
        nagSeconds = row[14]
        nagTimes = row[15]
    }

    /// The alert; `parsed` is this row's schedule when the caller has it already.
    func alert(parsed: Schedule? = nil) throws -> Alert {
        guard let uuid = UUID(hex: id) else { throw StoreError(.badRow, Phrase("alert id %s is not 32 hex digits", id.quotedForMessage())) }
        guard let decoded = parsed ?? Schedule(storageText: schedule) else {
            // TRANSLATORS: %1$s is the alert's id, %2$s its stored schedule, quoted.
            throw StoreError(.badRow, Phrase("alert %1$s has a schedule this Nudge cannot read: %2$s (remove it with `nudge rm %1$s`, or give it a new one with `nudge edit %1$s --at …`)",
                                             String(id.prefix(8)), schedule.quotedForMessage()))
        }
        return Alert(id: uuid, title: title, body: body, schedule: decoded, enabled: enabled, sound: sound.map(Sound.init),
                     urgency: Urgency(rawValue: UInt8(clamping: urgency)) ?? .normal, icon: icon, timeZone: timeZone,
                     catchUp: graceSeconds.map { .once(graceSeconds: $0) } ?? .skip, snoozeSeconds: snoozeSeconds,
                     created: Date(timeIntervalSince1970: created), kind: Alert.Kind(rawValue: kind) ?? .reminder,
                     whenAway: whenAway.flatMap(Alert.WhenAway.init(rawValue:)),
                     nag: nagSeconds.map { Alert.Nag(seconds: $0, times: nagTimes ?? 1) })
    }
}

/// Turns rows into alerts within one read, each schedule's text parsed once: reminders made
/// alike share it (at 100,000 the daemon's start and `nudge list` parsed each row's). Holds
/// at most 4,096 texts, for the read only.
struct RowReader {
    /// Schedules already parsed by an earlier read, by their stored text.
    let known: [String: Schedule]
    private var seen: [String: Schedule] = [:]

    init(known: [String: Schedule]?) { self.known = known ?? [:] }

    mutating func alert(_ record: AlertRecord) throws -> Alert {
        if let schedule = known[record.schedule] ?? seen[record.schedule] { return try record.alert(parsed: schedule) }
        let alert = try record.alert()
        if seen.count < 4_096 { seen[record.schedule] = alert.schedule }
        return alert
    }
}
