import Foundation
import GRDB
import NudgeCore

/// The person's settings, kept in the store (`setting` table): how long the delivery log
/// is kept, the cup size, the daily water goal, when a day starts and the default
/// reminder time. Each has a default, a range, and one line saying what it is for.
public enum Setting: String, Sendable, CaseIterable {
    /// Log entries older than this many days are removed as new ones are written.
    case logDays = "log-days"
    /// At most this many log entries are kept; the oldest go first.
    case logRows = "log-rows"
    /// The cup size in millilitres: what `nudge drink` logs without an amount.
    case cup
    /// The daily water goal in millilitres.
    case goal
    /// When a day starts for the water total, in minutes after midnight (04:00 for night owls).
    case dayStart = "day-start"
    /// After this many minutes without input the person counts as away.
    case idleMinutes = "idle-minutes"
    /// The time of day a reminder said with a day and no time takes ("tomorrow", "every
    /// monday"), in minutes after midnight; ``none`` (the default): such words are asked
    /// at what time.
    case defaultTime = "default-time"
    /// Whether Done on a reminder from a calendar's task also completes the task there
    /// (1) or only stops its alarm (0, the default): ``Setting/on`` and ``Setting/off``.
    case completeTasks = "complete-tasks"

    /// The value of a setting that may be unset (`default-time none`).
    public static let none = -1
    /// The values of a setting that is on or off.
    public static let on = 1, off = 0

    /// The value when none is set.
    public var defaultValue: Int {
        switch self {
        case .logDays: 90
        case .logRows: 100_000
        case .cup: 250
        case .goal: 2000
        case .dayStart: 0
        case .idleMinutes: 5
        case .defaultTime: Self.none
        case .completeTasks: Self.off
        }
    }

    /// The values allowed.
    public var range: ClosedRange<Int> {
        switch self {
        case .logDays: 1...3650
        case .logRows: 100...10_000_000
        case .cup: 10...Water.maxDrink
        case .goal: 100...20_000
        case .dayStart: 0...1439
        case .idleMinutes: 1...240
        case .defaultTime: Self.none...1439
        case .completeTasks: Self.off...Self.on
        }
    }

    /// What it is for, for `nudge config`.
    public var summary: String {
        switch self {
        case .logDays: "days the delivery log keeps an entry"
        case .logRows: "entries the delivery log keeps at most"
        case .cup: "the cup size that nudge drink logs without an amount"
        case .goal: "the daily water goal"
        case .dayStart: "when a day starts for the water total (HH:MM after midnight)"
        case .idleMinutes: "minutes without input after which reminders that hold wait"
        case .defaultTime: "the time of a reminder said with a day but no time (tomorrow, friday)"
        case .completeTasks: "whether Done on a reminder from a calendar's task completes the task there (on or off)"
        }
    }

    /// A value as a person types it: amounts with their unit (`250ml`, `2l`), the day's
    /// start and the default time as a time in whole minutes (`04:00`, `9am`; `none` for no
    /// default time), counts as whole numbers.
    public func parse(_ text: String) -> Int? {
        switch self {
        case .cup, .goal: try? Water.millilitres(text, limit: Int.max)
        // Kept in whole minutes: a time with seconds is refused, never cut.
        case .dayStart: (try? ScheduleParser.time(text)).flatMap { $0.second == 0 ? $0.secondOfDay / 60 : nil }
        case .defaultTime:
            text.lowercased() == "none" ? Self.none : (try? ScheduleParser.time(text)).flatMap { $0.second == 0 ? $0.secondOfDay / 60 : nil }
        case .logDays, .logRows, .idleMinutes: Int(text)
        case .completeTasks:
            switch text.lowercased() {
            case "on", "yes", "true", "1": Self.on
            case "off", "no", "false", "0": Self.off
            default: nil
            }
        }
    }

    /// A value as `nudge config` shows it, in the form `parse` reads back.
    public func text(_ value: Int) -> String {
        switch self {
        case .cup, .goal: "\(value)ml"
        case .dayStart: LocalTime(hour: value / 60, minute: value % 60).map(\.description) ?? "\(value)"
        case .defaultTime: value == Self.none ? "none" : LocalTime(hour: value / 60, minute: value % 60).map(\.description) ?? "\(value)"
        case .logDays, .logRows, .idleMinutes: "\(value)"
        case .completeTasks: value == Self.on ? "on" : "off"
        }
    }

    /// The values allowed, as `nudge config` says them (`10ml–5000ml`, `00:00–23:59 or none`).
    public var rangeText: String {
        switch self {
        case .defaultTime: "00:00–23:59 or none"
        case .completeTasks: "on or off"
        default: "\(text(range.lowerBound))–\(text(range.upperBound))"
        }
    }

    /// A time setting's value as a time of day; `nil` for ``none``.
    public func time(_ value: Int) -> LocalTime? {
        value == Self.none ? nil : LocalTime(hour: value / 60, minute: value % 60)
    }
}

extension AppDatabase {
    /// The default reminder time (`default-time`), `nil` when none is set: what a schedule
    /// phrase naming a day without a time of day takes.
    public func defaultTime() throws -> LocalTime? {
        Setting.defaultTime.time(try settings()[.defaultTime] ?? Setting.none)
    }

    /// Every setting's value (the default where none is set).
    public func settings() throws -> [Setting: Int] {
        try writer.read { db in try Self.settings(db) }
    }

    static func settings(_ db: Database) throws -> [Setting: Int] {
        var values = Dictionary(uniqueKeysWithValues: Setting.allCases.map { ($0, $0.defaultValue) })
        guard try db.tableExists("setting") else { return values }
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
            if let key = Setting(rawValue: row["key"]), let value = Int(row["value"] as String), key.range.contains(value) {
                values[key] = value
            }
        }
        return values
    }

    /// Sets a value (checked against its range), pruning the log to it at once.
    public func set(_ setting: Setting, to value: Int) throws(StoreError) {
        guard setting.range.contains(value) else {
            // TRANSLATORS: %1$s is a setting's name, %2$s the value given, %3$s and %4$s its range.
            throw StoreError(.badID, Phrase("invalid %1$s %2$s: it must be between %3$s and %4$s", setting.rawValue, setting.text(value),
                                            setting.text(setting.range.lowerBound), setting.text(setting.range.upperBound)))
        }
        do {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [setting.rawValue, String(value)])
                try Self.pruneLog(db, now: Date())
            }
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Keeps the log within its retention: called in the transaction that writes to it.
    static func pruneLog(_ db: Database, now: Date) throws {
        let settings = try settings(db)
        let days = settings[.logDays] ?? Setting.logDays.defaultValue
        let rows = settings[.logRows] ?? Setting.logRows.defaultValue
        try db.execute(sql: "DELETE FROM deliveryLog WHERE at < ?", arguments: [now.timeIntervalSince1970 - Double(days) * 86400])
        // The day summary keeps as many days (give or take the zone's offset).
        if try db.tableExists("logDay") {
            try db.execute(sql: "DELETE FROM logDay WHERE day < ?", arguments: [Int((now.timeIntervalSince1970 / 86400).rounded(.down)) - days - 1])
        }
        try db.execute(sql: "DELETE FROM deliveryLog WHERE id <= (SELECT MAX(id) FROM deliveryLog) - ?", arguments: [rows])
    }
}
