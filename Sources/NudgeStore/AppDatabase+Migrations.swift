import Foundation
import GRDB

/// The migrations that bring any store a Nudge wrote up to this version.
///
/// GRDB's rule: a released migration must write the same thing for ever, whatever the code
/// around it becomes, or two people upgrading the same store at different times end up with
/// different stores. So a migration uses only literals and code frozen inside this file:
/// never `Schedule`, `Water`, `Language`, `Alert` or the store's live helpers, which keep
/// changing. A new shape or a new limit is a new migration, never an edit of an old one.
/// `AppDatabaseTests` migrates a version-1 store kept as a file and checks every row.
extension AppDatabase {
    /// The migrations, the v6 summary counting old log entries in the zone this process
    /// runs in (see ``migrator(logDaysIn:)``).
    static var migrator: DatabaseMigrator { migrator(logDaysIn: .current) }

    /// The migrations. `zone` is where v6 takes the days of the log entries written before
    /// the day summary existed: nothing recorded the zone they were shown in, so the zone of
    /// the Nudge doing the upgrade (`TimeZone.current`, as v6 has always done) stands in for
    /// it. Tests pass a fixed one.
    static func migrator(logDaysIn zone: TimeZone) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "alert") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("schedule", .text).notNull()
                t.column("enabled", .boolean).notNull()
                t.column("sound", .text)
                t.column("urgency", .integer).notNull()
                t.column("icon", .text).notNull()
                t.column("timeZone", .text)
                t.column("graceSeconds", .integer)
                t.column("snoozeSeconds", .integer).notNull()
                t.column("created", .double).notNull()
            }
            try db.create(table: "alertState") { t in
                t.primaryKey("alertId", .text).references("alert", onDelete: .cascade)
                t.column("checkedUntil", .double).notNull()
                t.column("lastFired", .double)
                t.column("pendingCount", .integer).notNull()
                t.column("shownID", .integer)
                t.column("snoozedUntil", .double)
                t.column("doneForDay", .integer)
            }
            try db.create(table: "deliveryLog") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("alertId", .text).notNull().indexed()
                t.column("event", .text).notNull()
                t.column("at", .double).notNull().indexed()
                t.column("deliveryID", .integer)
                t.column("count", .integer)
                t.column("detail", .text)
            }
        }
        migrator.registerMigration("v2: schedules as compact text") { db in
            // v1 stored schedules as JSON; decoding 100,000 of those took seconds.
            let rows = try Row.fetchAll(db, sql: "SELECT id, schedule FROM alert")
            for row in rows {
                let json: String = row["schedule"]
                let schedule = try JSONDecoder().decode(V1Schedule.self, from: Data(json.utf8))
                try db.execute(sql: "UPDATE alert SET schedule = ? WHERE id = ?", arguments: [schedule.storageText, row["id"] as String])
            }
        }
        migrator.registerMigration("v3: settings") { db in
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v4: drinks") { db in
            try db.create(table: "drink") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .double).notNull().indexed()
                // The largest drink then (Water.maxDrink), written into the table.
                t.column("ml", .integer).notNull().check { $0 >= 1 && $0 <= 5000 }
            }
        }
        migrator.registerMigration("v5: water reminders, answers") { db in
            // What an alert reminds of; the drink-water reminder an older Nudge added
            // (without a title, so with the English water title) becomes a water reminder.
            try db.alter(table: "alert") { t in t.add(column: "kind", .text).notNull().defaults(to: "reminder") }
            try db.execute(sql: "UPDATE alert SET kind = 'water' WHERE title = ?", arguments: ["Time to drink water 💧"])
            try db.alter(table: "alertState") { t in
                t.add(column: "lastAnswer", .double)
                t.add(column: "shownAt", .double)
                t.add(column: "goalMetUntil", .double)
            }
            // How long after its pop-up came up an answer was given, in seconds.
            try db.alter(table: "deliveryLog") { t in t.add(column: "delay", .double) }
        }
        migrator.registerMigration("v6: a summary per alert and day") { db in
            // What `nudge stats` reads: a year of a busy log is a million rows, its days a
            // few thousand. Kept in the transaction that writes each log entry. Read in
            // the key's order (no index on the day: a table this small is scanned faster
            // than it is looked up row by row).
            try db.create(table: "logDay", options: .withoutRowID) { t in
                t.column("alertId", .text).notNull()
                t.column("day", .integer).notNull()
                for column in ["shown", "done", "snoozed", "doneForToday", "dismissed", "drank", "missed", "goalMet"] {
                    t.column(column, .integer).notNull().defaults(to: 0)
                }
                t.column("delays", .text).notNull().defaults(to: "")
                t.primaryKey(["alertId", "day"])
            }
            try summarizeLogV6(db, zone: zone)
        }
        migrator.registerMigration("v7: holding while away") { db in
            // NULL: the default (hold a repeating reminder, show a one-shot).
            try db.alter(table: "alert") { t in t.add(column: "whenAway", .text) }
            try db.alter(table: "alertState") { t in
                t.add(column: "heldCount", .integer).notNull().defaults(to: 0)
                t.add(column: "heldSince", .double)
            }
        }
        migrator.registerMigration("v8: following up ignored pop-ups") { db in
            try db.alter(table: "alert") { t in
                t.add(column: "nagSeconds", .integer)
                t.add(column: "nagTimes", .integer)
            }
            try db.alter(table: "alertState") { t in
                t.add(column: "nagAt", .double)
                t.add(column: "nagCount", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v9: change stamps") { db in
            // What a face that stays open (the window, `nudge ui`) reads again after a write
            // elsewhere: only the alerts stamped after its last read, not all of them. The
            // count goes up with every change to an alert or its state, whichever process
            // makes it (SQLite's data_version is per connection, and a face may reopen the
            // store between reads); each alert carries the count of its last change. A
            // removed alert takes its stamp with it: a reader finds removals by counting.
            try db.execute(sql: """
                CREATE TABLE storeChange (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
                INSERT INTO storeChange (id, count) VALUES (1, 0);
                CREATE TABLE alertStamp (alertId TEXT PRIMARY KEY NOT NULL, stamp INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX alertStamp_on_stamp ON alertStamp (stamp);
                INSERT INTO alertStamp (alertId, stamp) SELECT id, 0 FROM alert;
                CREATE TRIGGER alert_stamped_on_insert AFTER INSERT ON alert BEGIN
                  UPDATE storeChange SET count = count + 1;
                  INSERT OR REPLACE INTO alertStamp (alertId, stamp) VALUES (NEW.id, (SELECT count FROM storeChange));
                END;
                CREATE TRIGGER alert_stamped_on_update AFTER UPDATE ON alert BEGIN
                  UPDATE storeChange SET count = count + 1;
                  DELETE FROM alertStamp WHERE alertId = OLD.id AND OLD.id IS NOT NEW.id;
                  INSERT OR REPLACE INTO alertStamp (alertId, stamp) VALUES (NEW.id, (SELECT count FROM storeChange));
                END;
                CREATE TRIGGER alert_stamped_on_delete AFTER DELETE ON alert BEGIN
                  UPDATE storeChange SET count = count + 1;
                  DELETE FROM alertStamp WHERE alertId = OLD.id;
                END;
                CREATE TRIGGER alertState_stamped_on_insert AFTER INSERT ON alertState BEGIN
                  UPDATE storeChange SET count = count + 1;
                  UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId = NEW.alertId;
                END;
                CREATE TRIGGER alertState_stamped_on_update AFTER UPDATE ON alertState BEGIN
                  UPDATE storeChange SET count = count + 1;
                  UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId IN (OLD.alertId, NEW.alertId);
                END;
                CREATE TRIGGER alertState_stamped_on_delete AFTER DELETE ON alertState BEGIN
                  UPDATE storeChange SET count = count + 1;
                  UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId = OLD.alertId;
                END;
                """)
        }
        migrator.registerMigration("v10: calendar sync") { db in
            // CalDAV accounts (never their passwords: those are in the Secret Service), the
            // calendars found on each and what Nudge does with each, and per calendar object
            // the copy both sides last agreed on: the base of every three-way merge, and
            // what tells "changed here" from "changed there" after a crash. And the change
            // count (v9's) the last sync read the reminders at: a count past it is a change
            // no sync has seen, which the daemon's background sync follows.
            try db.execute(sql: """
                CREATE TABLE syncAccount (
                  id TEXT PRIMARY KEY NOT NULL,
                  address TEXT NOT NULL,
                  user TEXT NOT NULL,
                  principal TEXT NOT NULL,
                  home TEXT NOT NULL,
                  plainHTTP BOOLEAN NOT NULL DEFAULT 0,
                  authorityFile TEXT,
                  created DOUBLE NOT NULL);
                CREATE TABLE syncCalendar (
                  url TEXT PRIMARY KEY NOT NULL,
                  accountId TEXT NOT NULL REFERENCES syncAccount(id) ON DELETE CASCADE,
                  name TEXT NOT NULL,
                  components TEXT NOT NULL,
                  color TEXT,
                  writable BOOLEAN NOT NULL,
                  role TEXT NOT NULL DEFAULT 'none',
                  syncToken TEXT,
                  lastSynced DOUBLE,
                  lastError TEXT);
                CREATE TABLE syncObject (
                  calendarUrl TEXT NOT NULL REFERENCES syncCalendar(url) ON DELETE CASCADE,
                  url TEXT NOT NULL,
                  uid TEXT NOT NULL,
                  etag TEXT,
                  agreed TEXT,
                  alertId TEXT,
                  conflict TEXT,
                  error TEXT,
                  PRIMARY KEY (calendarUrl, url)) WITHOUT ROWID;
                CREATE INDEX syncObject_on_alertId ON syncObject (alertId);
                CREATE TABLE syncStamp (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
                INSERT INTO syncStamp (id, count) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("v11: who rings a followed calendar") { db in
            // `here`, or NULL: the desktop rings what it already rings, Nudge the rest.
            try db.execute(sql: "ALTER TABLE syncCalendar ADD COLUMN ringer TEXT")
        }
        migrator.registerMigration("v12: what Nudge's calendar agreed on") { db in
            // The reminders' change count (v9's), zone and version at which Nudge's calendar
            // last held every reminder as it is here: a sync that finds nothing changed on
            // either side since then has nothing to compare. And per object the text last
            // written whose answer never came: the server holding it took the write.
            try db.execute(sql: "ALTER TABLE syncCalendar ADD COLUMN agreedAt TEXT")
            try db.execute(sql: "ALTER TABLE syncObject ADD COLUMN sent TEXT")
        }
        return migrator
    }

    /// v6's summary of the log rows already there, frozen: each row is counted in its
    /// alert's day in `zone` as the live log counted entries then (`countInDay`), in id
    /// order. Rows whose alert id is not 32 hex digits count nowhere.
    private static func summarizeLogV6(_ db: Database, zone: TimeZone) throws {
        let upsert = try db.makeStatement(sql: """
            INSERT INTO logDay (alertId, day, shown, done, snoozed, doneForToday, dismissed, drank, missed, goalMet, delays)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (alertId, day) DO UPDATE SET shown = shown + excluded.shown, done = done + excluded.done,
              snoozed = snoozed + excluded.snoozed, doneForToday = doneForToday + excluded.doneForToday,
              dismissed = dismissed + excluded.dismissed, drank = drank + excluded.drank, missed = missed + excluded.missed,
              goalMet = goalMet + excluded.goalMet,
              delays = CASE WHEN excluded.delays = '' THEN delays WHEN delays = '' THEN excluded.delays
                            ELSE delays || ',' || excluded.delays END
            """)
        let rows = try Row.fetchCursor(db, sql: "SELECT alertId, event, at, count, delay FROM deliveryLog ORDER BY id")
        while let row = try rows.next() {
            let hex: String = row[0]
            guard hex.utf8.count == 32, hex.utf8.allSatisfy(Self.isHexDigit) else { continue }
            // An instant or answer time no clock gives (infinite, or beyond the year 3 million)
            // is no Nudge's: it counts nowhere, rather than stopping every command at the upgrade.
            let event: String = row[1], at: Double = row[2], count: Int? = row[3]
            let delay = (row[4] as Double?).flatMap { $0 < Self.sensibleSeconds ? $0 : nil }
            guard abs(at) < Self.sensibleSeconds else { continue }
            // shown, done, snoozed, doneForToday, dismissed, drank, missed, goalMet; nil for an
            // event not counted.
            let counts: [Int]? = switch event {
            case "fired", "snooze-fired", "shown-on-return": [1, 0, 0, 0, 0, 0, 0, 0]
            case "caught-up": [1, 0, 0, 0, 0, 0, count ?? 0, 0]
            case "missed": [0, 0, 0, 0, 0, 0, count ?? 1, 0]
            case "acknowledged": [0, 1, 0, 0, 0, 0, 0, 0]
            case "snoozed": [0, 0, 1, 0, 0, 0, 0, 0]
            case "done-for-today": [0, 0, 0, 1, 0, 0, 0, 0]
            case "dismissed": [0, 0, 0, 0, 1, 0, 0, 0]
            case "drank": [0, 0, 0, 0, 0, 1, 0, 0]
            case "goal-met": [0, 0, 0, 0, 0, 0, 0, 1]
            default: nil
            }
            guard counts != nil || delay != nil else { continue }
            // The local day: the whole second's offset from UTC in the zone, days counted
            // from 1970-01-01 (floor division).
            let t = Int(at.rounded(.down))
            let local = t + zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
            let day = local >= 0 ? local / 86400 : (local - 86399) / 86400
            // Answer times in whole seconds, never negative.
            let delays = delay.map { String(Int(max(0, $0).rounded())) } ?? ""
            try upsert.execute(arguments: StatementArguments([hex.lowercased(), day] + (counts ?? Array(repeating: 0, count: 8)) + [delays]))
        }
    }

    /// 10^14 seconds, three million years: beyond any instant or wait Nudge records.
    private static let sensibleSeconds = 1e14

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}

/// A schedule as version 1 stored it, for the v2 migration: the JSON Swift's synthesized
/// Codable made of `Schedule` when it had these four cases (instants as seconds since
/// 2001-01-01, days as cron's numbers, a cron expression as its text). Frozen: it reads
/// what v1 wrote and writes the v2 text, whatever `Schedule` becomes.
private enum V1Schedule: Decodable {
    case daily(times: [Time], days: [Day])
    case interval(seconds: Int, anchor: Date, days: [Day])
    case once(Date)
    case cron(String)

    /// A wall-clock time, as seconds of the day.
    struct Time: Decodable { var secondOfDay: Int }
    /// A weekday, Sunday 0.
    enum Day: Int, Decodable { case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday }

    /// The v2 text: `at 34200,36000 62`, `every 1800 1763800000.25 127`, `once 1764576000.0`,
    /// `cron */15 9-17 * * mon-fri` (times in the order stored, days as a bit mask with bit 0
    /// Sunday, instants as seconds since 1970 as Swift prints a Double).
    var storageText: String {
        func mask(_ days: [Day]) -> Int { days.reduce(0) { $0 | 1 << $1.rawValue } }
        return switch self {
        case .daily(let times, let days): "at \(times.map { String($0.secondOfDay) }.joined(separator: ",")) \(mask(days))"
        case .interval(let seconds, let anchor, let days): "every \(seconds) \(anchor.timeIntervalSince1970) \(mask(days))"
        case .once(let instant): "once \(instant.timeIntervalSince1970)"
        case .cron(let text): "cron \(text)"
        }
    }
}
