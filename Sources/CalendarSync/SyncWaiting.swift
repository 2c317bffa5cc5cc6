import Foundation
import NudgeCore
import NudgeStore
import NudgeSync

/// What waits to be sent to Nudge's own calendar: the plan of a sync in which the server
/// changed nothing, counted (`nudge sync status`).
public enum SyncWaiting {
    /// The writes and removals the next sync would send.
    public static func count(objects: [SyncObject], alerts: [Alert], origins: [String: String], zone: TimeZone) -> Int {
        let mine = alerts.filter { origins[$0.id.hexString] == nil }
        let known = objects.map { object in
            CollectionPlan.Known(url: object.url, uid: object.uid, etag: object.etag, agreed: object.agreed.flatMap(CalendarObject.read),
                                 alertID: object.alertId.flatMap(UUID.init(hexString:)))
        }
        let plan = CollectionPlan.plan(calendar: objects.first?.calendarUrl ?? "", known: known, changed: [], removed: [],
                                       local: CalendarRun.objects(of: mine, zone: zone, uids: CalendarRun.foreignUIDs(objects), known: objects))
        return plan.steps.filter { ($0.decision.send != nil || $0.decision.deleteThere) && !($0.decision.deleteThere && $0.etag == nil) }.count
    }
}
