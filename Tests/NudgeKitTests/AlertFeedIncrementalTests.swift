import Foundation
import NudgeCore
import NudgeKit
import NudgeStore
import Platform
import Testing
import TestSupport

/// The feed reads only what changed since its last read (issue 43: a change elsewhere costs
/// its rows, not 10,000). What it hands out must be what a whole read gives: after random
/// changes made through another connection — adds, edits, switches, removals, answers,
/// pop-ups shown, drinks — and time passing the next showings, its snapshot is compared
/// with a new feed's first read of the same store at the same instant.
@Suite(.onTestThreads)
struct AlertFeedIncrementalTests {
    /// 2026-03-10 14:20 in Seoul.
    static let start = Date(timeIntervalSince1970: 1_773_120_000)

    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var instant: Date
        init(_ instant: Date) { self.instant = instant }
        var now: Date {
            get { lock.withLock { instant } }
            set { lock.withLock { instant = newValue } }
        }
    }

    /// Deterministic random numbers (SplitMix64): a failure replays from its seed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What a face sees of a snapshot, whatever order the alerts came off the store in.
    struct Seen: Equatable {
        var alerts: [UUID: Alert]
        var showings: [UUID: NextShowing]
        var order: [UUID]
        var water: WaterProgress?
        var week: WaterChart?
        init(_ snapshot: AlertFeed.Snapshot) {
            alerts = Dictionary(uniqueKeysWithValues: snapshot.alerts.map { ($0.id, $0) })
            showings = Dictionary(uniqueKeysWithValues: zip(snapshot.alerts.map(\.id), snapshot.showings))
            order = snapshot.order.map { snapshot.alerts[$0].id }
            (water, week) = (snapshot.water, snapshot.week)
        }

        /// What differs from `other`, shortly; empty when nothing does.
        func difference(from other: Seen) -> String {
            var lines: [String] = []
            for id in Set(alerts.keys).union(other.alerts.keys) {
                if alerts[id] != other.alerts[id] { lines.append("alert \(id): \(alerts[id].map { "\($0.title) \($0.enabled)" } ?? "none") ≠ \(other.alerts[id].map { "\($0.title) \($0.enabled)" } ?? "none")") }
                if showings[id] != other.showings[id] { lines.append("showing \(id) (\(alerts[id]?.schedule.storageText ?? "")): \(showings[id].map { "\($0)" } ?? "none") ≠ \(other.showings[id].map { "\($0)" } ?? "none")") }
            }
            if order != other.order {
                let at = zip(order, other.order).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(order.count, other.order.count)
                lines.append("order: \(order.count) ≠ \(other.order.count) listed, first apart at \(at): \(order.dropFirst(at).prefix(3)) ≠ \(other.order.dropFirst(at).prefix(3))")
            }
            if water != other.water { lines.append("water: \(String(describing: water)) ≠ \(String(describing: other.water))") }
            if week != other.week { lines.append("week differs") }
            return lines.prefix(6).joined(separator: "\n")
        }
    }

    @Test(arguments: [(UInt64(1), false), (2, true), (3, false), (4, true)])
    func theFeedReadingOnlyChangesEqualsAWholeRead(seed: UInt64, letsStoreGo: Bool) throws {
        let zone = TimeZone(identifier: "Asia/Seoul")!
        let clock = Clock(Self.start)
        let base = try World.withOwnStore(zone: zone, now: Self.start)
        let world = World(storePath: base.storePath, zone: zone, language: .english, busAddress: nil, clock: { clock.now })
        defer { try? FileManager.default.removeItem(atPath: (world.storePath as NSString).deletingLastPathComponent) }
        // Another connection, as another process's: the feed never writes.
        let other = try AppDatabase.open(path: world.storePath)
        var random = Random(state: seed)
        var ids: [UUID] = []

        func add(count: Int) throws {
            var alerts: [Alert] = []
            for _ in 0..<count {
                var settings = AlertSettings()
                if Int.random(in: 0..<12, using: &random) == 0 { settings.kind = .water }
                let alert = try Operations.make(title: "R\(Int.random(in: 0..<1000, using: &random))", schedule: flags(), settings: settings,
                                                world, now: clock.now)
                alerts.append(alert)
                ids.append(alert.id)
            }
            try other.save(alerts)
        }
        func flags() -> ScheduleFlags {
            let minute = { String(format: "%02d:%02d", Int.random(in: 0..<24, using: &random), Int.random(in: 0..<60, using: &random)) }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return ScheduleFlags(at: [minute()])
            case 1: return ScheduleFlags(at: [minute(), minute()], days: "mon-fri")
            case 2: return ScheduleFlags(every: "\(Int.random(in: 1...90, using: &random))m")
            case 3: return ScheduleFlags(every: "30m", from: "09:00", until: "18:00")
            // One-shots soon: the clock passes them, and they leave the list.
            case 4: return ScheduleFlags(in: "\(Int.random(in: 1...120, using: &random))m")
            default: return ScheduleFlags(at: [minute()], days: "sat,sun")
            }
        }

        try add(count: 60)
        let loop = EventLoop()
        let feed = AlertFeed(world: world, loop: loop, bus: nil, weekChart: true, letsStoreGo: letsStoreGo)
        var changes: [AlertFeed.Change] = []
        feed.onChange = { _, change in changes.append(change) }
        feed.start()
        var last = feed.snapshot

        for step in 0..<150 {
            // One to three changes, as a loop of commands makes them between two reads.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                guard !ids.isEmpty else { try add(count: 3); continue }
                let id = ids.randomElement(using: &random)!
                switch Int.random(in: 0..<10, using: &random) {
                case 0: try add(count: Int.random(in: 1...4, using: &random))
                case 1:
                    // Edited: a new title or a new schedule.
                    _ = try Operations.change(id.hex, in: other, title: "E\(step)", schedule: Bool.random(using: &random) ? flags() : ScheduleFlags(),
                                              settings: AlertSettings(), world, now: clock.now)
                case 2:
                    var alert = try other.alert(matching: id.hex)
                    alert.enabled.toggle()
                    try other.save(alert)
                case 3:
                    try other.delete([id])
                    ids.removeAll { $0 == id }
                case 4:
                    // A pop-up shown, as the daemon records it.
                    var state = try other.state(of: id) ?? AlertState(checkedUntil: clock.now)
                    (state.pendingCount, state.lastFired, state.checkedUntil) = (state.pendingCount + 1, clock.now, clock.now)
                    try other.save(states: [id: state])
                case 5:
                    let answers: [Answer] = [.acknowledge, .doneForToday, .snooze(seconds: 60 * Int.random(in: 1...30, using: &random))]
                    do {
                        try answers.randomElement(using: &random)!.apply(to: [id.hex], world, now: clock.now) { _ in }
                    } catch {
                        // Snoozing an alert that is off is refused, as it should be.
                    }
                case 6: _ = try Drinking.drink("250", at: nil, world, now: clock.now)
                case 7:
                    // Time passes: often past the next showing.
                    let next = feed.snapshot.next?.instant ?? clock.now
                    clock.now = max(clock.now, next).addingTimeInterval(Double(Int.random(in: 0...900, using: &random)))
                case 8:
                    // Many at once (an import), then a few removed at once.
                    try add(count: Int.random(in: 20...80, using: &random))
                    let gone = Array(ids.shuffled(using: &random).prefix(Int.random(in: 2...10, using: &random)))
                    try other.delete(gone)
                    ids.removeAll { gone.contains($0) }
                default:
                    clock.now = clock.now.addingTimeInterval(Double(Int.random(in: 1...7200, using: &random)))
                }
            }
            changes.removeAll()
            feed.reload()
            let whole = AlertFeed(world: world, loop: EventLoop(), bus: nil, weekChart: true, letsStoreGo: letsStoreGo)
            whole.start()
            #expect(Seen(feed.snapshot).difference(from: Seen(whole.snapshot)) == "", "seed \(seed), step \(step)")
            // What changed is said exactly: each alert changed in itself or in its showing,
            // each one gone, and whether the order moved.
            let told = try #require(changes.last)
            let seenBefore = Seen(last), seenNow = Seen(feed.snapshot)
            let changed = Set(seenNow.alerts.keys.filter { seenBefore.alerts[$0] != seenNow.alerts[$0] || seenBefore.showings[$0] != seenNow.showings[$0] })
            #expect(told.changed == changed, "seed \(seed), step \(step)")
            #expect(told.removed == Set(seenBefore.alerts.keys).subtracting(seenNow.alerts.keys), "seed \(seed), step \(step)")
            #expect(told.order == (seenBefore.order != seenNow.order), "seed \(seed), step \(step)")
            last = feed.snapshot
        }
        #expect(feed.snapshot.alerts.count == ids.count)
    }
}
