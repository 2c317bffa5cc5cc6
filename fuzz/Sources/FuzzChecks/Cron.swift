import Foundation
import NudgeCore

/// A cron expression as a person or a crontab wrote it: read, its times sorted and of the
/// day, and the schedule it makes finds its next time after now (or says there is none).
enum CronFuzz {
    static let target = FuzzTarget("cron", "cron expressions (--cron, the store)") { bytes throws(FuzzFailure) in
        let text = FuzzTargets.text(bytes)
        guard let cron = try? CronExpression(text) else { return }
        try expect(cron.times == cron.times.sorted() && Set(cron.times).count == cron.times.count, "\(text.shown): times not sorted once each")
        let schedule = Schedule.cron(cron)
        guard let again = Schedule(storageText: schedule.storageText) else { throw FuzzFailure("\(text.shown) is stored as \(schedule.storageText.shown), which does not read") }
        try expect(again == schedule, "\(text.shown) stored and read back as \(again)")
        let coming = schedule.occurrences(after: FuzzTargets.now, count: 3, in: FuzzTargets.zone)
        try expect(coming.first.map { $0 > FuzzTargets.now } ?? true && coming == coming.sorted() && Set(coming).count == coming.count,
                   "\(text.shown): the next times \(coming) are not after now, in order, once each")
    }
}
