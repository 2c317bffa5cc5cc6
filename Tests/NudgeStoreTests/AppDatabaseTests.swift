import Foundation
import GRDB
import NudgeCore
import Platform
@testable import NudgeStore
import Testing
import TestSupport

@Suite(.onTestThreads)
struct AppDatabaseTests {
    let now = Date(timeIntervalSince1970: 1_795_348_800)

    func sampleAlerts() throws -> [Alert] {
        let utc = TimeZone(identifier: "UTC")!
        let schedules = [
            ScheduleFlags(at: ["09:30", "14:00"], days: "mon-fri"),
            ScheduleFlags(days: "weekdays", every: "30m", from: "09:30", until: "21:30"),
            ScheduleFlags(in: "20m"),
            ScheduleFlags(cron: "0 9 1 * mon"),
            ScheduleFlags(every: "45m"),
        ]
        var alerts: [Alert] = []
        for (i, flags) in schedules.enumerated() {
            let schedule = try ScheduleParser.schedule(flags, now: now, zone: utc)
            let sound: Sound = i == 1 ? .file("/tmp/ding.oga") : .reminder
            let urgency: Urgency = i == 2 ? .critical : .normal
            let catchUp: Alert.CatchUp = i == 4 ? .skip : .once(graceSeconds: 3600)
            alerts.append(Alert(title: i == 0 ? nil : "Alert \(i)", schedule: schedule, sound: sound, urgency: urgency,
                                timeZone: i == 3 ? "Europe/Berlin" : nil, catchUp: catchUp, created: now))
        }
        return alerts
    }

    @Test func everyScheduleKindRoundTrips() throws {
        let db = try AppDatabase.inMemory()
        let alerts = try sampleAlerts()
        for alert in alerts { try db.save(alert) }
        let loaded = try db.alerts()
        #expect(Set(loaded) == Set(alerts))
        #expect(try db.alertCount() == alerts.count)
    }

    /// A face reads what changed since its last read: every write to an alert or its state,
    /// by any connection, stamps the alert with the store's change count; a removal is found
    /// by counting, and then every id is read.
    @Test func changesAreReadSinceTheLastCount() throws {
        let queue = try DatabaseQueue()
        let db = try AppDatabase(queue)
        let (a, b) = (Alert(title: "A", schedule: .once(now), created: now), Alert(title: "B", schedule: .once(now), created: now))
        try db.save([a, b])
        var parsed: [String: Schedule]? = [:]
        func read(since: Int?, known: Set<UUID>) throws -> AlertChanges {
            try db.alertChanges(since: since, known: { UUID(hex: $0).map(known.contains) ?? false }, knownCount: known.count, parsed: &parsed)
        }
        let first = try read(since: nil, known: [])
        #expect(first.isWhole && Set(first.alerts) == [a, b] && first.states.isEmpty && first.ids == nil)
        #expect(try read(since: first.count, known: [a.id, b.id]).alerts.isEmpty)

        var edited = a
        edited.title = "A again"
        try db.save(edited)
        let second = try read(since: first.count, known: [a.id, b.id])
        #expect(!second.isWhole && second.alerts == [edited] && second.ids == nil && second.count > first.count)

        // Another connection's write to a state stamps its alert.
        let state = AlertState(checkedUntil: now)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO alertState (alertId, checkedUntil, pendingCount) VALUES (?, ?, 1)", arguments: [b.id.hex, now.timeIntervalSince1970])
        }
        let third = try read(since: second.count, known: [a.id, b.id])
        var pending = state
        pending.pendingCount = 1
        #expect(third.alerts == [b] && third.states == [b.id: pending])

        // Removed (its state goes with it), and one added: the ids are read.
        let c = Alert(title: "C", schedule: .once(now), created: now)
        try db.delete([b.id])
        try db.save(c)
        let fourth = try read(since: third.count, known: [a.id, b.id])
        #expect(fourth.alerts == [c] && fourth.ids == [edited.id.hex, c.id.hex])

        // A count the store has not reached (another file's) reads everything.
        #expect(try read(since: fourth.count + 1, known: [a.id, c.id]).isWhole)
    }

    @Test func prefixesFindOneAlertOrNameTheCandidates() throws {
        let db = try AppDatabase.inMemory()
        let a = Alert(id: UUID(uuidString: "ABCD1234-0000-0000-0000-000000000001")!, schedule: .once(now), created: now)
        let b = Alert(id: UUID(uuidString: "ABCD5678-0000-0000-0000-000000000002")!, schedule: .once(now), created: now)
        try db.save(a)
        try db.save(b)
        #expect(try db.alert(matching: "abcd1").id == a.id)
        #expect(try db.alert(matching: "ABCD5678").id == b.id)
        let ambiguous = #expect(throws: StoreError.self) { try db.alert(matching: "abcd") }
        #expect(ambiguous?.kind == .ambiguous)
        #expect(ambiguous?.message == "id 'abcd' is ambiguous: it matches abcd1234, abcd5678")
        #expect(throws: StoreError.self) { try db.alert(matching: "abc") }
        #expect(throws: StoreError.self) { try db.alert(matching: "zzzz") }
        let missing = #expect(throws: StoreError.self) { try db.alert(matching: "ffff") }
        #expect(missing?.kind == .notFound)
    }

    @Test func stateFollowsItsAlertAndTheLogStays() throws {
        let db = try AppDatabase.inMemory()
        let alert = try sampleAlerts()[0]
        try db.save(alert)
        var state = AlertState(checkedUntil: now)
        state.pendingCount = 3
        state.shownID = 7
        state.doneForDay = CivilDay(year: 2026, month: 11, day: 22)
        state.snoozedUntil = now.addingTimeInterval(600)
        try db.save(states: [alert.id: state, UUID(): state])
        #expect(try db.states() == [alert.id: state], "state for an unknown alert is not stored")
        try db.append([LogEntry(.fired(alert: alert.id, due: now, deliveryID: 7, count: 3), at: now, zone: .gmt),
                       LogEntry(.acknowledged(alert: alert.id), at: now.addingTimeInterval(5), zone: .gmt)])
        try db.delete([alert.id])
        #expect(try db.states().isEmpty)
        let log = try db.log(since: now)
        #expect(log.map(\.event) == ["fired", "acknowledged"])
        #expect(log.first?.deliveryID == 7 && log.first?.count == 3)
    }

    @Test func theFileGetsPrivateModesAndWAL() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("data/nudge/nudge.sqlite").path
        let db = try AppDatabase.open(path: path)
        try db.save(try sampleAlerts()[0])
        let folderMode = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
        // WAL mode, read from the file as any tool would: header bytes 18 and 19 are 2.
        let header = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 20)
        #expect(header.count == 20 && header[18] == 2 && header[19] == 2)
        #expect(AppDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/nudge/nudge.sqlite")
        #expect(AppDatabase.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/nudge/nudge.sqlite")
    }

    /// A process that opens the store a second time (as `nudge ui` does through the CLI's
    /// code) keeps the first connection's locks: another process closing the store then
    /// does not take the WAL from under it, and every write reaches the file.
    @Test func openingTheStoreAgainInTheSameProcessLosesNoWrite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("nudge.sqlite").path
        let first = try AppDatabase.open(path: path)
        let alerts = try sampleAlerts()
        try first.save(alerts[0])
        _ = try AppDatabase.open(path: path)
        // Another process reads and closes: it must not find itself the last one.
        func titles() throws -> [String] {
            let process = Process(), out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [path, "SELECT title FROM alert ORDER BY title"]
            process.standardOutput = out
            try process.run()
            process.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        }
        _ = try titles()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try first.save(alerts[1])
        #expect(try titles() == [alerts[0].title, alerts[1].title].sorted())
    }

    @Test func aDamagedFileIsNamedAndLeftAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-store-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("nudge.sqlite").path
        let junk = Data(repeating: 0x5A, count: 8192)
        try junk.write(to: URL(fileURLWithPath: path))
        do {
            _ = try AppDatabase.open(path: path)
            Issue.record("a damaged file was opened")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains(path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }

    @Test func schedulesKeepEverythingThroughTheirStorageText() throws {
        for alert in try sampleAlerts() {
            let text = alert.schedule.storageText
            #expect(Schedule(storageText: text) == alert.schedule, "\(text)")
        }
        let exact = Schedule.once(Date(timeIntervalSince1970: 1_795_348_800.123456))
        #expect(Schedule(storageText: exact.storageText) == exact)
        for bad in ["", "at", "at 90000 127", "at 3600 0", "at 3600 127 x", "every 0 1 127", "once soon", "cron * *", "weekly 1"] {
            #expect(Schedule(storageText: bad) == nil, "\(bad)")
        }
    }

    /// A store Nudge wrote at version 1 (`Fixtures/v1.sqlite`: the v1 migration's tables in
    /// WAL mode, schedules as v1's JSON, states and a log), brought to today's version:
    /// every row, column by column, is what the migrations wrote for it when they were
    /// made. The file is never regenerated: it stands for stores out there.
    @Test(arguments: ["Asia/Seoul", "UTC"])
    func aVersion1StoreIsMigratedWithEveryRow(zone: String) throws {
        let fixture = try #require(Bundle.module.url(forResource: "v1", withExtension: "sqlite", subdirectory: "Fixtures"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-v1-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("nudge.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") } == ["v1"])
        try AppDatabase.migrator(logDaysIn: TimeZone(identifier: zone)!).migrate(queue)

        func rows(_ sql: String) throws -> [[DatabaseValue]] {
            try queue.read { db in try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
        }
        func values(_ rows: [[DatabaseValueConvertible?]]) -> [[DatabaseValue]] {
            rows.map { $0.map { $0?.databaseValue ?? .null } }
        }
        let water = "0a1b2c3d4e5f60718293a4b5c6d7e8f9", stretch = "1f2e3d4c5b6a79880f1e2d3c4b5a6978"
        let tea = "2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c", standup = "3d4e5f60718293a4b5c6d7e8f90a1b2c"
        let korean = "4e4e4e4e00000000000000000000ffff", gone = "5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f"
        #expect(try rows("SELECT identifier FROM grdb_migrations ORDER BY rowid") == values([
            ["v1"], ["v2: schedules as compact text"], ["v3: settings"], ["v4: drinks"], ["v5: water reminders, answers"],
            ["v6: a summary per alert and day"], ["v7: holding while away"], ["v8: following up ignored pop-ups"],
            ["v9: change stamps"], ["v10: calendar sync"], ["v11: who rings a followed calendar"], ["v12: what Nudge's calendar agreed on"],
        ]))
        // id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, created,
        // kind (v5), whenAway (v7), nagSeconds, nagTimes (v8). v1's JSON dates count from 2001.
        #expect(try rows("SELECT * FROM alert ORDER BY id") == values([
            [water, "Time to drink water 💧", "The WHO recommends 1.5–2 litres of water a day.", "at 34200,36000,37800 62",
             1, "alarm-clock-elapsed", 1, "", nil, 3600, 600, 1_763_800_000.5, "water", nil, nil, nil],
            [stretch, "Stretch", "Stand up and stretch", "every 1800 1763800200.25 127",
             1, "/tmp/ding.oga", 1, "", nil, 3600, 300, 1_763_800_200.25, "reminder", nil, nil, nil],
            [tea, "Tea", "", "once 1764307200.0", 1, "alarm-clock-elapsed", 2, "face-smile", nil, 3600, 600, 1_763_806_000.0,
             "reminder", nil, nil, nil],
            [standup, "Stand-up", "Room 4", "cron */15 9-17 * * mon-fri", 0, nil, 0, "", "Europe/Berlin", nil, 900, 1_763_810_000.0,
             "reminder", nil, nil, nil],
            [korean, "물 마시기 (drink water)", "한 잔\n두 잔", "at 50400,32400 65", 1, "alarm-clock-elapsed", 1, "", "Asia/Seoul",
             120, 600, 1_763_820_000.0, "reminder", nil, nil, nil],
        ]))
        // alertId, checkedUntil, lastFired, pendingCount, shownID, snoozedUntil, doneForDay, lastAnswer, shownAt,
        // goalMetUntil (v5), heldCount, heldSince (v7), nagAt, nagCount (v8).
        #expect(try rows("SELECT * FROM alertState ORDER BY alertId") == values([
            [water, 1_763_890_000.0, 1_763_886_600.0, 2, 17, nil, nil, nil, nil, nil, 0, nil, nil, 0],
            [stretch, 1_763_890_000.0, nil, 0, nil, 1_763_890_300.0, 20_415, nil, nil, nil, 0, nil, nil, 0],
        ]))
        // id, alertId, event, at, deliveryID, count, detail, delay (v5): kept as they were.
        #expect(try rows("SELECT * FROM deliveryLog ORDER BY id") == values([
            [1, water, "fired", 1_763_854_200.0, 15, 1, nil, nil],
            [2, water, "acknowledged", 1_763_854_230.0, nil, nil, nil, nil],
            [3, water, "fired", 1_763_886_600.0, 17, 2, nil, nil],
            [4, water, "snoozed", 1_763_886_700.0, nil, nil, nil, nil],
            [5, stretch, "caught-up", 1_763_870_000.0, 18, 3, nil, nil],
            [6, stretch, "missed", 1_763_871_000.0, nil, nil, nil, nil],
            [7, stretch, "missed", 1_763_872_000.0, nil, 2, nil, nil],
            [8, tea, "failed", 1_763_873_000.0, nil, nil, "org.freedesktop.DBus.Error.ServiceUnknown: no server", nil],
            [9, gone, "fired", 1_763_874_000.0, 19, 1, nil, nil],
            [10, gone, "dismissed", 1_763_874_100.0, nil, nil, nil, nil],
            [11, "not-an-id", "fired", 1_763_875_000.0, nil, 1, nil, nil],
        ]))
        #expect(try rows("SELECT * FROM logDay ORDER BY alertId, day") == values(zone == "UTC" ? Self.logDaysInUTC : Self.logDaysInSeoul))
        // Every alert stamped 0, the count at 0: a face's first read reads them all anyway.
        #expect(try rows("SELECT * FROM alertStamp ORDER BY alertId") == values([water, stretch, tea, standup, korean].sorted().map { [$0, 0] }))
        #expect(try rows("SELECT * FROM storeChange") == values([[1, 0]]))
        #expect(try rows("SELECT * FROM setting").isEmpty)
        #expect(try rows("SELECT * FROM drink").isEmpty)
        // The tables as the migrations made them, limits written out (a drink is 1 to 5000 ml).
        #expect(try rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") == values(Self.schema.map { [$0] }))
        try queue.write { db in
            try db.execute(sql: "INSERT INTO drink (at, ml) VALUES (0, 5000)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO drink (at, ml) VALUES (0, 5001)") }
        }
        // Today's Nudge reads every alert it holds.
        var unreadable: [StoreError] = []
        #expect(try AppDatabase(queue).alerts(unreadable: &unreadable).count == 5 && unreadable.isEmpty)
    }

    /// Rows no Nudge wrote do not stop an upgrade: a v1 cron text that does not parse
    /// becomes a row `list` names as unreadable, and a log row with an instant or an
    /// answer time out of any range counts nowhere (it trapped the summary before); text
    /// where a number belongs reads as 0, as it always did.
    @Test func anOldStoreWithRowsNoNudgeWroteIsUpgraded() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator(logDaysIn: .gmt).migrate(queue, upTo: "v1")
        let id = "6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a"
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO alert (id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, created)
                VALUES (?, 'Odd', '', '{"cron":{"_0":"* * *"}}', 1, NULL, 1, '', NULL, 3600, 600, 0)
                """, arguments: [id])
        }
        try AppDatabase.migrator(logDaysIn: .gmt).migrate(queue, upTo: "v5: water reminders, answers")
        let log: [(at: Double, delay: Double)] = [(.infinity, 1), (-1e300, 1), (259_205, .infinity), (259_206, 1e300), (259_207, 4.4)]
        try queue.write { db in
            for (at, delay) in log {
                try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at, delay) VALUES (?, 'acknowledged', ?, ?)", arguments: [id, at, delay])
            }
            // Text where numbers belong is read as SQLite reads it, as v6 always did: 0.
            try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at) VALUES (?, 'fired', 'soon')", arguments: [id])
            try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at, count, delay) VALUES (?, 'missed', 259208, 'many', 'long')", arguments: [id])
            try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at) VALUES (x'00ff', 'fired', 259209)")
        }
        try AppDatabase.migrator(logDaysIn: .gmt).migrate(queue)
        #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT schedule FROM alert") } == "cron * * *")
        let days = try queue.read { db in try Row.fetchAll(db, sql: "SELECT day, done, missed, delays FROM logDay").map { Array($0.databaseValues) } }
        let expected: [[any DatabaseValueConvertible]] = [[0, 0, 0, ""], [3, 3, 0, "4,0"]]
        #expect(days == expected.map { $0.map(\.databaseValue) })
        var unreadable: [StoreError] = []
        #expect(try AppDatabase(queue).alerts(unreadable: &unreadable).isEmpty)
        #expect(unreadable.map(\.message) == ["alert 6a6a6a6a has a schedule this Nudge cannot read: 'cron * * *' (remove it with `nudge rm 6a6a6a6a`, or give it a new one with `nudge edit 6a6a6a6a --at …`)"])
    }

    /// What the v6 summary makes of the fixture's log, its days taken in Seoul: 23:30 UTC
    /// on 22 November 2025 is 08:30 on the 23rd (day 20415) there. The failure and the row
    /// without an alert id count nowhere.
    static let logDaysInSeoul: [[any DatabaseValueConvertible & Sendable]] = [
        // alertId, day, shown, done, snoozed, doneForToday, dismissed, drank, missed, goalMet, delays
        ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", 20_415, 2, 1, 1, 0, 0, 0, 0, 0, ""],
        ["1f2e3d4c5b6a79880f1e2d3c4b5a6978", 20_415, 1, 0, 0, 0, 0, 0, 6, 0, ""],
        ["5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f", 20_415, 1, 0, 0, 0, 1, 0, 0, 0, ""],
    ]

    /// The same in UTC: the first pop-up and its answer fall on the 22nd.
    static let logDaysInUTC: [[any DatabaseValueConvertible & Sendable]] = [
        ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", 20_414, 1, 1, 0, 0, 0, 0, 0, 0, ""],
        ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", 20_415, 1, 0, 1, 0, 0, 0, 0, 0, ""],
        ["1f2e3d4c5b6a79880f1e2d3c4b5a6978", 20_415, 1, 0, 0, 0, 0, 0, 6, 0, ""],
        ["5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f", 20_415, 1, 0, 0, 0, 1, 0, 0, 0, ""],
    ]

    /// The schema the migrations build, table by table and index by index (by name).
    static let schema: [String] = [
        #"CREATE TABLE "alert" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL, "schedule" TEXT NOT NULL, "enabled" BOOLEAN NOT NULL, "sound" TEXT, "urgency" INTEGER NOT NULL, "icon" TEXT NOT NULL, "timeZone" TEXT, "graceSeconds" INTEGER, "snoozeSeconds" INTEGER NOT NULL, "created" DOUBLE NOT NULL, "kind" TEXT NOT NULL DEFAULT 'reminder', "whenAway" TEXT, "nagSeconds" INTEGER, "nagTimes" INTEGER)"#,
        #"CREATE TABLE alertStamp (alertId TEXT PRIMARY KEY NOT NULL, stamp INTEGER NOT NULL) WITHOUT ROWID"#,
        #"CREATE INDEX alertStamp_on_stamp ON alertStamp (stamp)"#,
        #"CREATE TABLE "alertState" ("alertId" TEXT PRIMARY KEY NOT NULL REFERENCES "alert"("id") ON DELETE CASCADE, "checkedUntil" DOUBLE NOT NULL, "lastFired" DOUBLE, "pendingCount" INTEGER NOT NULL, "shownID" INTEGER, "snoozedUntil" DOUBLE, "doneForDay" INTEGER, "lastAnswer" DOUBLE, "shownAt" DOUBLE, "goalMetUntil" DOUBLE, "heldCount" INTEGER NOT NULL DEFAULT 0, "heldSince" DOUBLE, "nagAt" DOUBLE, "nagCount" INTEGER NOT NULL DEFAULT 0)"#,
        """
        CREATE TRIGGER alertState_stamped_on_delete AFTER DELETE ON alertState BEGIN
          UPDATE storeChange SET count = count + 1;
          UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId = OLD.alertId;
        END
        """,
        """
        CREATE TRIGGER alertState_stamped_on_insert AFTER INSERT ON alertState BEGIN
          UPDATE storeChange SET count = count + 1;
          UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId = NEW.alertId;
        END
        """,
        """
        CREATE TRIGGER alertState_stamped_on_update AFTER UPDATE ON alertState BEGIN
          UPDATE storeChange SET count = count + 1;
          UPDATE alertStamp SET stamp = (SELECT count FROM storeChange) WHERE alertId IN (OLD.alertId, NEW.alertId);
        END
        """,
        """
        CREATE TRIGGER alert_stamped_on_delete AFTER DELETE ON alert BEGIN
          UPDATE storeChange SET count = count + 1;
          DELETE FROM alertStamp WHERE alertId = OLD.id;
        END
        """,
        """
        CREATE TRIGGER alert_stamped_on_insert AFTER INSERT ON alert BEGIN
          UPDATE storeChange SET count = count + 1;
          INSERT OR REPLACE INTO alertStamp (alertId, stamp) VALUES (NEW.id, (SELECT count FROM storeChange));
        END
        """,
        """
        CREATE TRIGGER alert_stamped_on_update AFTER UPDATE ON alert BEGIN
          UPDATE storeChange SET count = count + 1;
          DELETE FROM alertStamp WHERE alertId = OLD.id AND OLD.id IS NOT NEW.id;
          INSERT OR REPLACE INTO alertStamp (alertId, stamp) VALUES (NEW.id, (SELECT count FROM storeChange));
        END
        """,
        #"CREATE TABLE "deliveryLog" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "alertId" TEXT NOT NULL, "event" TEXT NOT NULL, "at" DOUBLE NOT NULL, "deliveryID" INTEGER, "count" INTEGER, "detail" TEXT, "delay" DOUBLE)"#,
        #"CREATE INDEX "deliveryLog_on_alertId" ON "deliveryLog"("alertId")"#,
        #"CREATE INDEX "deliveryLog_on_at" ON "deliveryLog"("at")"#,
        #"CREATE TABLE "drink" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "at" DOUBLE NOT NULL, "ml" INTEGER NOT NULL CHECK (("ml" >= 1) AND ("ml" <= 5000)))"#,
        #"CREATE INDEX "drink_on_at" ON "drink"("at")"#,
        #"CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"#,
        #"CREATE TABLE "logDay" ("alertId" TEXT NOT NULL, "day" INTEGER NOT NULL, "shown" INTEGER NOT NULL DEFAULT 0, "done" INTEGER NOT NULL DEFAULT 0, "snoozed" INTEGER NOT NULL DEFAULT 0, "doneForToday" INTEGER NOT NULL DEFAULT 0, "dismissed" INTEGER NOT NULL DEFAULT 0, "drank" INTEGER NOT NULL DEFAULT 0, "missed" INTEGER NOT NULL DEFAULT 0, "goalMet" INTEGER NOT NULL DEFAULT 0, "delays" TEXT NOT NULL DEFAULT '', PRIMARY KEY ("alertId", "day")) WITHOUT ROWID"#,
        #"CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#,
        #"CREATE TABLE sqlite_sequence(name,seq)"#,
        #"CREATE TABLE storeChange (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL)"#,
        """
        CREATE TABLE syncAccount (
          id TEXT PRIMARY KEY NOT NULL,
          address TEXT NOT NULL,
          user TEXT NOT NULL,
          principal TEXT NOT NULL,
          home TEXT NOT NULL,
          plainHTTP BOOLEAN NOT NULL DEFAULT 0,
          authorityFile TEXT,
          created DOUBLE NOT NULL)
        """,
        """
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
          lastError TEXT, ringer TEXT, agreedAt TEXT)
        """,
        """
        CREATE TABLE syncObject (
          calendarUrl TEXT NOT NULL REFERENCES syncCalendar(url) ON DELETE CASCADE,
          url TEXT NOT NULL,
          uid TEXT NOT NULL,
          etag TEXT,
          agreed TEXT,
          alertId TEXT,
          conflict TEXT,
          error TEXT, sent TEXT,
          PRIMARY KEY (calendarUrl, url)) WITHOUT ROWID
        """,
        #"CREATE INDEX syncObject_on_alertId ON syncObject (alertId)"#,
        #"CREATE TABLE syncStamp (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL)"#,
    ]

    /// An alert row as Nudge wrote it before alerts had a kind (v1 to v4).
    static func insertAsBeforeKinds(_ alert: Alert, _ db: Database) throws {
        let r = AlertRecord(alert)
        try db.execute(sql: """
            INSERT INTO alert (id, title, body, schedule, enabled, sound, urgency, icon, timeZone, graceSeconds, snoozeSeconds, created)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [r.id, r.title, r.body, r.schedule, r.enabled, r.sound, r.urgency, r.icon, r.timeZone,
                             r.graceSeconds, r.snoozeSeconds, r.created])
    }

    /// A store from before water reminders (v4): the drink-water reminder an older Nudge
    /// added becomes a water reminder, every other alert a plain one; states and the log
    /// keep what they had and take the new fields.
    @Test func aVersion4StoreGetsWaterRemindersAndAnswerTimes() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4: drinks")
        // Recent instants: the log keeps 90 days, whatever the date the test runs on.
        let created = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86400).rounded())
        let water = Alert(schedule: .daily(times: [LocalTime(hour: 9, minute: 0)!], days: Schedule.everyDay), created: created)
        let tea = Alert(title: "Tea", schedule: .once(created.addingTimeInterval(600)), created: created)
        try queue.write { db in
            try Self.insertAsBeforeKinds(water, db)
            try Self.insertAsBeforeKinds(tea, db)
            try db.execute(sql: "INSERT INTO alertState (alertId, checkedUntil, pendingCount) VALUES (?, ?, 2)", arguments: [water.id.hex, created.timeIntervalSince1970 + 100])
            try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at) VALUES (?, 'fired', ?)", arguments: [water.id.hex, created.timeIntervalSince1970 + 100])
        }
        let store = try AppDatabase(queue)
        let kinds = Dictionary(uniqueKeysWithValues: try store.alerts().map { ($0.id, $0.kind) })
        #expect(kinds == [water.id: .water, tea.id: .reminder])
        var state = try #require(try store.state(of: water.id))
        #expect(state.pendingCount == 2 && state.lastAnswer == nil && state.shownAt == nil && state.goalMetUntil == nil)
        state.lastAnswer = created.addingTimeInterval(200)
        state.goalMetUntil = created.addingTimeInterval(86400)
        let answer = LogEntry(.acknowledged(alert: water.id, delay: 12.5), at: created.addingTimeInterval(200), zone: .gmt)
        try store.save(states: [water.id: state], log: [answer])
        #expect(try store.state(of: water.id) == state)
        #expect(try store.log(since: created).map(\.delay) == [nil, 12.5])
    }

    /// A store from before drinks (v3) opens with its alerts and settings, and takes drinks.
    @Test func aVersion3StoreGetsDrinks() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v3: settings")
        let alerts = try sampleAlerts()
        try queue.write { db in
            for alert in alerts { try Self.insertAsBeforeKinds(alert, db) }
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('log-days', '30')")
        }
        let store = try AppDatabase(queue)
        #expect(try store.alerts().count == alerts.count)
        #expect(try store.settings()[.logDays] == 30)
        #expect(try store.settings()[.goal] == 2000)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        try store.logDrink(250, at: start)
        try store.logDrink(500, at: start.addingTimeInterval(60))
        #expect(try store.intake(from: start, to: start.addingTimeInterval(120)) == 750)
        #expect(try store.intake(from: start.addingTimeInterval(1), to: start.addingTimeInterval(120)) == 500)
        #expect(try store.undoLastDrink()?.millilitres == 500)
        #expect(try store.undoLastDrink()?.millilitres == 250)
        #expect(try store.undoLastDrink() == nil)
        #expect(throws: StoreError.self) { try store.logDrink(0, at: start) }
        #expect(throws: StoreError.self) { try store.logDrink(5001, at: start) }
    }

    /// Each log entry is counted in its alert's local day as it is written: pop-ups,
    /// answers, missed showings (a catch-up stands for those it sums up), answer times.
    @Test func theLogIsSummedUpPerAlertAndDay() throws {
        let store = try AppDatabase.inMemory()
        let a = UUID(), b = UUID()
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        // Recent instants: the summary keeps as many days as the log.
        let today = CivilZone(seoul).local(Date()).day
        let morning = CivilZone(seoul).instant(today, LocalTime(hour: 9, minute: 0)!)
        let records: [(SchedulerRecord, TimeInterval)] = [
            (.fired(alert: a, due: morning, deliveryID: 1, count: 1), 0), (.acknowledged(alert: a, delay: 30), 30),
            (.fired(alert: a, due: morning, deliveryID: 2, count: 1), 3600), (.snoozed(alert: a, until: morning, delay: 90), 3690),
            (.snoozeFired(alert: a, deliveryID: 3), 4290), (.dismissed(alert: a, delay: 10), 4300),
            (.caughtUp(alert: a, missed: 3, since: morning, deliveryID: 4), 7200), (.drank(alert: a, millilitres: 250, delay: 60), 7260),
            (.missed(alert: b, count: 2, since: morning), 0), (.goalMet(alert: b, day: today), 60),
        ]
        try store.save(states: [:], log: records.map { LogEntry($0.0, at: morning.addingTimeInterval($0.1), zone: seoul) })
        let activity = try store.activity(from: today.advanced(by: -1), through: today)
        let day = try #require(activity.first { $0.total.alertID == a }?.days.first)
        #expect(day.day == today)
        #expect((day.fired, day.done, day.snoozed, day.dismissed, day.drank, day.missed) == (4, 1, 1, 1, 1, 3))
        #expect(day.medianAnswer == 45, "the middle of 10, 30, 60, 90")
        #expect(activity.first { $0.total.alertID == a }?.total.medianAnswer == 45)
        let other = try #require(activity.first { $0.total.alertID == b }?.days.first)
        #expect(other.missed == 2 && other.goalMet && other.medianAnswer == nil)
        #expect(activity.count == 2)
        #expect(try store.activity(from: today.advanced(by: 1), through: today.advanced(by: 2)).isEmpty)
    }

    /// Selection finds the median sorting would, for every length and many orders.
    @Test func theMedianIsTheMiddle() {
        var generator = SystemRandomNumberGenerator()
        #expect({ var none: [Int] = []; return AppDatabase.median(&none) }() == nil)
        for count in 1...40 {
            for _ in 0..<25 {
                var values = (0..<count).map { _ in Int.random(in: 0...9, using: &generator) }
                let sorted = values.sorted()
                let expected = count % 2 == 1 ? Double(sorted[count / 2]) : Double(sorted[count / 2 - 1] + sorted[count / 2]) / 2
                #expect(AppDatabase.median(&values) == expected, "\(sorted)")
            }
        }
    }
}

extension AppDatabaseTests {
    /// A log row no Nudge writes (an instant that is infinite or past year 9999, from another
    /// tool or a damaged file) is left out; `nudge log` trapped on one.
    @Test func logRowsWithInstantsNoDateHoldAreLeftOut() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try AppDatabase.open(path: dir.appendingPathComponent("nudge.sqlite").path)
        let alert = try sampleAlerts()[1]
        try db.save(alert)
        try db.writer.write { db in
            for at in [Double.infinity, 1e300, -1, now.timeIntervalSince1970] {
                try db.execute(sql: "INSERT INTO deliveryLog (alertId, event, at) VALUES (?, 'fired', ?)", arguments: [alert.id.hex, at])
            }
        }
        #expect(try db.log(since: now.addingTimeInterval(-60)).map(\.at) == [now])
    }
}

/// Issue 52: the last good copy put back counts from the restore, whether or not a daemon
/// runs then: its states are as old as the copy.
@Suite(.onTestThreads)
struct RestoreTests {
    @Test func aRestoredCopyOwesNothingBeforeTheRestore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-restore-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/nudge.sqlite"
        let copied = Date(timeIntervalSince1970: 1_795_000_000), restored = copied.addingTimeInterval(600)
        let utc = TimeZone(identifier: "UTC")!
        let schedule = try ScheduleParser.schedule(ScheduleFlags(at: ["09:00"]), now: copied, zone: utc)
        let snoozed = Alert(title: "Snoozed", schedule: schedule, created: copied), later = Alert(title: "Later", schedule: schedule, created: copied)
        let stateless = Alert(title: "No state yet", schedule: schedule, created: copied)
        do {
            let store = try AppDatabase.open(path: path)
            try store.save([snoozed, later, stateless])
            var ended = AlertState(checkedUntil: copied)
            ended.snoozedUntil = copied.addingTimeInterval(300)
            var ahead = AlertState(checkedUntil: copied)
            ahead.snoozedUntil = restored.addingTimeInterval(3600)
            try store.save(states: [snoozed.id: ended, later.id: ahead])
            #expect(store.refreshLastGood(olderThan: 0) == [])
        }
        // The store damaged; the copy put back ten minutes after it was made.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try handle.close()
        _ = try StoreFile(path: path).restoreLastGood(now: restored)
        let states = try AppDatabase.open(path: path).states()
        #expect(states.count == 3)
        #expect(states.values.allSatisfy { $0.checkedUntil == restored })
        // A snooze that ended meanwhile is over; one still ahead stays.
        #expect(states[snoozed.id]?.snoozedUntil == nil)
        #expect(states[later.id]?.snoozedUntil == restored.addingTimeInterval(3600))
        #expect(!FileManager.default.fileExists(atPath: path + ".restoring"))
    }

    /// A restore that keeps what a face showed: the copy read as it is first (nothing
    /// written beside it), then put back holding exactly those reminders, changes included.
    @Test func aRestoreKeepsWhatWasShown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-restore-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/nudge.sqlite"
        let copied = Date(timeIntervalSince1970: 1_795_000_000)
        let schedule = try ScheduleParser.schedule(ScheduleFlags(at: ["09:00"]), now: copied, zone: TimeZone(identifier: "UTC")!)
        var tea = Alert(title: "Tea", schedule: schedule, created: copied)
        let old = Alert(title: "Old", schedule: schedule, created: copied), walk = Alert(title: "Walk", schedule: schedule, created: copied)
        do {
            let store = try AppDatabase.open(path: path)
            try store.save([tea, old])
            #expect(store.refreshLastGood(olderThan: 0) == [])
        }
        let file = StoreFile(path: path)
        #expect(Set(try file.lastGoodAlerts().map(\.title)) == ["Tea", "Old"])
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("nudge.sqlite.last-good") }
        #expect(beside == ["nudge.sqlite.last-good"])
        // Shown since: Old deleted, Walk added, Tea renamed.
        tea.title = "Green tea"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try handle.close()
        _ = try file.restoreLastGood(now: copied.addingTimeInterval(600), keeping: [tea, walk])
        let alerts = try AppDatabase.open(path: path).alerts()
        #expect(Set(alerts.map(\.title)) == ["Green tea", "Walk"])
        #expect(Set(alerts.map(\.id)) == [tea.id, walk.id])
    }
}

/// What found the damage first is kept: a later command meeting it says less (issue 52's
/// hostile pass: `nudge list` replaced "its first bytes are not an SQLite database's" with
/// SQLite's "file is not a database", and its time).
@Suite(.onTestThreads)
struct DamageMarkerTests {
    @Test func theFirstFindingIsKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-marker-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/nudge.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x5A, count: 4096)))
        let file = StoreFile(path: path)
        file.markDamaged("its first bytes are not an SQLite database's: overwritten", at: Date(timeIntervalSince1970: 1_000))
        #expect(throws: StoreError.self) { try AppDatabase.open(path: path, access: .readOnly).alerts() }
        #expect(file.damage() == StoreFile.Damage(found: Date(timeIntervalSince1970: 1_000), detail: "its first bytes are not an SQLite database's: overwritten"))
        // And doctor's problem is that finding, not a sentence that says to run doctor.
        #expect(try StoreFile.quickCheck(path) == ["its first bytes are not an SQLite database's: overwritten"])
    }

    /// Every follower reads the marker the moment it appears (the daemon, each face): it
    /// appears whole, by a rename, never written in place, and a marker a reader cannot
    /// read as one (empty: once, one read between its making and its text) is not removed.
    /// The daemon removed one so, and a face's Done went through to the damaged file.
    @Test func theMarkerAppearsWholeAndOneCutShortIsNotRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-marker-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/nudge.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x5A, count: 4096)))
        let file = StoreFile(path: path)
        let marker = (file.markerPath as NSString).lastPathComponent
        #expect(FileManager.default.createFile(atPath: file.markerPath, contents: Data()))
        #expect(file.damage() == nil)
        #expect(FileManager.default.fileExists(atPath: file.markerPath))
        try FileManager.default.removeItem(atPath: file.markerPath)

        let writes = try FileWatcher(), arrivals = try FileWatcher()
        try writes.watch(folder: folder, events: [marker: [.written, .closedAfterWriting]])
        try arrivals.watch(folder: folder, events: [marker: .replaced])
        file.markDamaged("test: damaged", at: Date(timeIntervalSince1970: 1_000))
        #expect(writes.read().isEmpty)
        #expect(arrivals.read() == [file.markerPath])
        #expect(file.damage()?.detail == "test: damaged")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["nudge.sqlite", marker])
    }

    /// The check made at each opening (every migration ran? a newer Nudge's?) says what
    /// GRDB's migrator says, from the names read once: at each stage of an upgrade, and
    /// with a migration or a user_version this Nudge does not know.
    @Test func theOpeningsSchemaCheckAgreesWithTheMigrator() throws {
        let migrator = AppDatabase.migrator(logDaysIn: .gmt)
        #expect(AppDatabase.knownMigrations == Set(migrator.migrations))
        let queue = try DatabaseQueue()
        func check(_ stage: String) throws {
            let (state, completed) = try queue.read { db in (try AppDatabase.schemaState(db), try migrator.hasCompletedMigrations(db)) }
            #expect(state.settled == completed, "\(stage)")
            #expect(state.newer == nil, "\(stage)")
        }
        try check("empty")
        for name in migrator.migrations {
            try migrator.migrate(queue, upTo: name)
            try check(name)
        }
        #expect(try queue.read { db in try AppDatabase.schemaState(db).settled })
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        var state = try queue.read { db in try AppDatabase.schemaState(db) }
        #expect(state.settled && state.newer == "migration 'v99: from the future'")
        try queue.write { db in try db.execute(sql: "PRAGMA user_version = 7") }
        state = try queue.read { db in try AppDatabase.schemaState(db) }
        #expect(state.newer == "user_version 7")
    }

}
