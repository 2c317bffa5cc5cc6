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

    /// Adds another day's counts (for a period's total; the median is not added).
    mutating func add(_ other: AlertDay) {
        fired += other.fired
        done += other.done
        snoozed += other.snoozed
        doneForToday += other.doneForToday
        dismissed += other.dismissed
        drank += other.drank
        missed += other.missed
        goalMet = goalMet || other.goalMet
    }

    public init(alertID: UUID, day: CivilDay) {
        (self.alertID, self.day) = (alertID, day)
    }
}

/// One alert's activity over a period: its days, and their total.
public struct AlertActivity: Sendable, Hashable {
    /// The whole period (its `day` is the first), with the median over all its answers.
    public var total: AlertDay
    /// The days with something logged, in order.
    public var days: [AlertDay]
}

extension AppDatabase {
    /// The `logDay` columns an event counts in, and by how much: pop-ups shown, each
    /// kind of answer, showings missed (a catch-up pop-up is shown and stands for the
    /// showings it sums up), a water reminder resting at goal. Empty for what is not counted.
    static func dayCounts(_ event: String, count: Int?) -> [String: Int] {
        switch event {
        case "fired", "snooze-fired", "shown-on-return": ["shown": 1]
        case "caught-up": ["shown": 1, "missed": count ?? 0]
        case "missed": ["missed": count ?? 1]
        case "acknowledged": ["done": 1]
        case "snoozed": ["snoozed": 1]
        case "done-for-today": ["doneForToday": 1]
        case "dismissed": ["dismissed": 1]
        case "drank": ["drank": 1]
        case "goal-met": ["goalMet": 1]
        default: [:]
        }
    }

    /// The summary's counting columns.
    static let dayColumns = ["shown", "done", "snoozed", "doneForToday", "dismissed", "drank", "missed", "goalMet"]

    /// Counts a log entry in its alert's day (the summary `nudge stats` reads instead of
    /// a million log rows): one upsert, in the transaction that writes the entry. Answer
    /// times are whole seconds, comma-separated, for the day's median.
    static func countInDay(_ entry: LogEntry, day: CivilDay, _ db: Database) throws {
        let counts = dayCounts(entry.event, count: entry.count)
        guard !counts.isEmpty || entry.delay != nil else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO logDay (alertId, day, \(dayColumns.joined(separator: ", ")), delays)
            VALUES (?, ?, \(dayColumns.map { _ in "?" }.joined(separator: ", ")), ?)
            ON CONFLICT (alertId, day) DO UPDATE SET \(dayColumns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")),
              delays = CASE WHEN excluded.delays = '' THEN delays WHEN delays = '' THEN excluded.delays
                            ELSE delays || ',' || excluded.delays END
            """)
        let delay = entry.delay.map { String(Int(max(0, $0).rounded())) } ?? ""
        try statement.execute(arguments: StatementArguments([entry.alertID.hex, day.daysSinceEpoch] + dayColumns.map { counts[$0] ?? 0 } + [delay]))
    }

    /// Every alert's activity per day, from `first` through `last` (local days, where it
    /// happened), read from the day summary in its key's order (alert, then day: no
    /// sorting); alerts and days with nothing are left out. Each alert comes with its
    /// whole period (`day` the first one), with the median over all its answers.
    public func activity(from first: CivilDay, through last: CivilDay) throws(StoreError) -> [AlertActivity] {
        do {
            return try writer.read { db in
                guard try db.tableExists("logDay") else { return [] }
                var result: [AlertActivity] = []
                var key = "", delays: [Int] = []
                func finish() {
                    guard !result.isEmpty else { return }
                    result[result.count - 1].total.medianAnswer = Self.median(&delays)
                    delays.removeAll(keepingCapacity: true)
                }
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT alertId, day, shown, done, snoozed, doneForToday, dismissed, drank, missed, goalMet, delays
                    FROM logDay WHERE day >= ? AND day <= ? ORDER BY alertId, day
                    """, arguments: [first.daysSinceEpoch, last.daysSinceEpoch])
                while let row = try rows.next() {
                    let hex: String = row[0]
                    if hex != key {
                        guard let id = UUID(hex: hex) else { continue }
                        finish()
                        key = hex
                        result.append(AlertActivity(total: AlertDay(alertID: id, day: first), days: []))
                    }
                    var day = AlertDay(alertID: result[result.count - 1].total.alertID, day: CivilDay(daysSinceEpoch: row[1]))
                    (day.fired, day.done, day.snoozed, day.doneForToday, day.dismissed, day.drank, day.missed) =
                        (row[2], row[3], row[4], row[5], row[6], row[7], row[8])
                    day.goalMet = (row[9] as Int) > 0
                    var answers = Self.integers(row[10] as String? ?? "")
                    delays.append(contentsOf: answers)
                    day.medianAnswer = Self.median(&answers)
                    result[result.count - 1].total.add(day)
                    result[result.count - 1].days.append(day)
                }
                finish()
                return result
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// `12,40,7` read as integers, byte by byte.
    static func integers(_ text: String) -> [Int] {
        var text = text
        return text.withUTF8 { bytes in
            var result: [Int] = []
            result.reserveCapacity(bytes.count / 3 + 1)
            var value = 0, digits = false
            for byte in bytes {
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits = true
                } else {
                    if digits { result.append(value) }
                    (value, digits) = (0, false)
                }
            }
            if digits { result.append(value) }
            return result
        }
    }

    /// The middle value (the mean of the two middle ones for an even count), found by
    /// selection in linear time; the values are reordered.
    static func median(_ values: inout [Int]) -> Double? {
        guard !values.isEmpty else { return nil }
        let upper = values.count / 2
        let high = Double(select(&values, upper))
        guard values.count % 2 == 0 else { return high }
        // The lower middle is the largest of what selection left below the upper one.
        return (Double(values[..<upper].max()!) + high) / 2
    }

    /// The `k`th smallest value (Hoare's quickselect): afterwards everything before `k`
    /// is at most it.
    private static func select(_ values: inout [Int], _ k: Int) -> Int {
        var low = 0, high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return values[k]
    }
}
