import Foundation
import GRDB
import NudgeCore

/// An alert as a row of the `alert` table. The schedule is stored as JSON; the id as 32
/// lowercase hex digits, so a prefix lookup is a range scan of the primary key.
struct AlertRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "alert"

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

    init(_ alert: Alert) {
        id = alert.id.hex
        title = alert.title
        body = alert.body
        schedule = String(decoding: (try? JSONEncoder().encode(alert.schedule)) ?? Data(), as: UTF8.self)
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
    }

    func alert() throws -> Alert {
        guard let uuid = UUID(hex: id) else { throw StoreError(.corrupt, "alert id '\(id)' is not 32 hex digits") }
        let decoded = try JSONDecoder().decode(Schedule.self, from: Data(schedule.utf8))
        return Alert(id: uuid, title: title, body: body, schedule: decoded, enabled: enabled, sound: sound.map(Sound.init),
                     urgency: Urgency(rawValue: UInt8(clamping: urgency)) ?? .normal, icon: icon, timeZone: timeZone,
                     catchUp: graceSeconds.map { .once(graceSeconds: $0) } ?? .skip, snoozeSeconds: snoozeSeconds,
                     created: Date(timeIntervalSince1970: created))
    }
}
