import Foundation
import GRDB
import NudgeCore

/// What happened to one alert's pop-ups on one day, from the delivery log.
public struct AlertDay: Sendable, Hashable {
    /// The alert (it may have been removed since).
    public var alertID: UUID
    /// The day.
    public var day: CivilDay
    /// Pop-ups shown: on time, as a catch-up, or back from a snooze.
    public var fired = 0
    /// Answers: Done (or a click), Snooze, Done for today, closed without a choice, and
    /// "Drank" on a water reminder.
    public var done = 0, snoozed = 0, doneForToday = 0, dismissed = 0, drank = 0
    /// Showings that passed while nothing could show them (the daemon off, the machine
    /// asleep), whether later summed up in a catch-up pop-up or only logged.
    public var missed = 0
    /// A water reminder that rested because the day's goal was met.
    public var goalMet = false
    /// The median time from a pop-up coming up to its answer, in seconds; `nil` without
    /// an answer to a pop-up.
    public var medianAnswer: Double?

    /// All the answers.
    public var answered: Int { done + snoozed + doneForToday + dismissed + drank }

    public init(alertID: UUID, day: CivilDay) {
        (self.alertID, self.day) = (alertID, day)
    }
}

extension AppDatabase {
    /// Every alert's activity per day, for the days given (consecutive, each with its
    /// bounds: drink days, or local days, DST included); alerts and days with nothing
    /// logged are left out. The log is summed up by SQLite, grouped by day through a
    /// CASE over the runs of days of equal length, so a million rows never reach Swift;
    /// only the answer times do, for their medians.
    ///
    /// Returns the days, by day then alert, and each alert's whole period (its `day`
    /// the first one) with the median over all its answers.
    public func activity(days: [(day: CivilDay, start: Date, end: Date)]) throws(StoreError) -> (days: [AlertDay], totals: [AlertDay]) {
        guard let first = days.first, let last = days.last else { return ([], []) }
        let (bucket, bucketArguments) = Self.dayBucket(days)
        let range: StatementArguments = [first.start.timeIntervalSince1970, last.end.timeIntervalSince1970]
        do {
            return try writer.read { db in
                var byKey: [String: AlertDay] = [:]
                func entry(_ id: String, _ index: Int) -> AlertDay? {
                    let key = "\(id) \(index)"
                    if let known = byKey[key] { return known }
                    guard let uuid = UUID(hex: id), days.indices.contains(index) else { return nil }
                    return AlertDay(alertID: uuid, day: days[index].day)
                }
                let counts = try Row.fetchCursor(db, sql: """
                    SELECT alertId, \(bucket) AS d, event, COUNT(*), TOTAL(count) FROM deliveryLog
                    WHERE at >= ? AND at < ? GROUP BY alertId, d, event
                    """, arguments: bucketArguments + range)
                while let row = try counts.next() {
                    let id: String = row[0], index: Int = row[1], event: String = row[2], n: Int = row[3], sum: Double = row[4]
                    guard var day = entry(id, index) else { continue }
                    switch event {
                    case "fired", "snooze-fired": day.fired += n
                    case "caught-up": day.fired += n; day.missed += Int(sum)
                    case "missed": day.missed += Int(sum)
                    case "acknowledged": day.done += n
                    case "snoozed": day.snoozed += n
                    case "done-for-today": day.doneForToday += n
                    case "dismissed": day.dismissed += n
                    case "drank": day.drank += n
                    case "goal-met": day.goalMet = true
                    default: continue
                    }
                    byKey["\(id) \(index)"] = day
                }
                var delays: [String: [Double]] = [:], alertDelays: [String: [Double]] = [:]
                let answers = try Row.fetchCursor(db, sql: """
                    SELECT alertId, \(bucket) AS d, delay FROM deliveryLog WHERE at >= ? AND at < ? AND delay IS NOT NULL
                    """, arguments: bucketArguments + range)
                while let row = try answers.next() {
                    let id: String = row[0], index: Int = row[1]
                    let delay: Double = row[2]
                    delays["\(id) \(index)", default: []].append(delay)
                    alertDelays[id, default: []].append(delay)
                }
                for (key, values) in delays {
                    byKey[key]?.medianAnswer = Self.median(values)
                }
                var totals: [UUID: AlertDay] = [:]
                for day in byKey.values {
                    var total = totals[day.alertID] ?? AlertDay(alertID: day.alertID, day: first.day)
                    total.fired += day.fired
                    total.done += day.done
                    total.snoozed += day.snoozed
                    total.doneForToday += day.doneForToday
                    total.dismissed += day.dismissed
                    total.drank += day.drank
                    total.missed += day.missed
                    total.goalMet = total.goalMet || day.goalMet
                    totals[day.alertID] = total
                }
                for (id, values) in alertDelays {
                    if let uuid = UUID(hex: id) { totals[uuid]?.medianAnswer = Self.median(values) }
                }
                return (byKey.values.sorted { ($0.day, $0.alertID.hex) < ($1.day, $1.alertID.hex) },
                        totals.values.sorted { $0.alertID.hex < $1.alertID.hex })
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A SQL expression giving the index of the day an `at` falls in, and its arguments:
    /// days of 24 hours in a row are one arithmetic run; a DST day (23 or 25 hours) is a
    /// run of its own.
    static func dayBucket(_ days: [(day: CivilDay, start: Date, end: Date)]) -> (String, StatementArguments) {
        var runs: [(start: Double, firstIndex: Int, length: Double)] = []
        for (index, day) in days.enumerated() {
            let length = day.end.timeIntervalSince(day.start)
            if let run = runs.last, run.length == length, length == 86400 { continue }
            runs.append((day.start.timeIntervalSince1970, index, length))
        }
        var sql = "CASE"
        var arguments: [DatabaseValueConvertible] = []
        for (i, run) in runs.enumerated() {
            let index = "(? + CAST((at - ?) / ? AS INTEGER))"
            if i + 1 < runs.count {
                sql += " WHEN at < ? THEN \(index)"
                arguments += [runs[i + 1].start, run.firstIndex, run.start, run.length]
            } else {
                sql += " ELSE \(index)"
                arguments += [run.firstIndex, run.start, run.length]
            }
        }
        // One run needs no CASE (SQLite wants a WHEN before the ELSE).
        if runs.count == 1 { return ("(? + CAST((at - ?) / ? AS INTEGER))", StatementArguments(arguments)) }
        return (sql + " END", StatementArguments(arguments))
    }
}
