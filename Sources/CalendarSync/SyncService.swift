import Foundation
import NudgeStore
import NudgeSync
import Platform
import SyncTransport

/// Accounts and their syncs, on one ``EventLoop``: discovery of a new account's
/// calendars, and a sync of every calendar an account has Nudge own or follow, one after
/// another. The command line runs it on a loop of its own; nothing in it blocks.
public final class SyncService {
    private let loop: EventLoop
    private let store: AppDatabase
    private let zone: TimeZone
    private let stallSeconds: Int?
    private let leftTo: (SyncCalendar) -> String?

    /// `stallSeconds`: how long a server may send nothing before it counts as stalled
    /// (default 30; the tests' stalled server is given less).
    /// `leftTo`: who rings a followed calendar instead of Nudge (the desktop, which rings it
    /// itself), `nil` for one Nudge rings.
    public init(loop: EventLoop, store: AppDatabase, zone: TimeZone, stallSeconds: Int? = nil,
                leftTo: @escaping (SyncCalendar) -> String? = { _ in nil }) {
        self.loop = loop
        self.store = store
        self.zone = zone
        self.stallSeconds = stallSeconds
        self.leftTo = leftTo
    }

    /// The transport settings an account asks for.
    public func settings(for account: SyncAccount) -> HTTPClient.Settings {
        var settings = HTTPClient.Settings(authorityFile: account.authorityFile, allowsPlainHTTP: account.plainHTTP)
        if let stallSeconds { settings.stallSeconds = stallSeconds }
        return settings
    }

    /// Finds the calendars at `address` (RFC 6764, then the principal and its home).
    public func discover(address: String, credentials: Credentials?, settings: HTTPClient.Settings,
                         done: @escaping (Result<DiscoveredAccount, SyncFailure>) -> Void) {
        let client = HTTPClient(loop: loop, settings: settings)
        var discovery = Discovery(address: address, read: { bytes throws(DAVError) in try XMLReader.read(bytes) })
        func step(_ request: HTTPRequest) {
            client.send(request, credentials: credentials) { result in
                switch discovery.take(result) {
                case .send(let next): step(next)
                case .found(let account): withExtendedLifetime(client) { done(.success(account)) }
                case .failed(let failure): withExtendedLifetime(client) { done(.failure(failure)) }
                }
            }
        }
        step(discovery.first)
    }

    /// Syncs each of the account's calendars that Nudge owns or follows, in turn; `done`
    /// gets one report per calendar.
    public func sync(account: SyncAccount, credentials: Credentials?, now: Date, done: @escaping ([CalendarReport]) -> Void) {
        let calendars: [SyncCalendar], retiring: [(SyncCalendar, [SyncObject])]
        do {
            let all = try store.syncCalendars(account: account.id)
            // Nudge's own calendar last: what the followed ones brought is not sent back as Nudge's.
            calendars = all.filter { $0.role != .none }.sorted { ($0.role == .own ? 1 : 0) < ($1.role == .own ? 1 : 0) }
            // A calendar that held Nudge's reminders and holds them no more: their objects
            // there go first (see ``retire(_:_:client:credentials:done:)``).
            retiring = try all.filter { $0.role != .own }.compactMap { calendar in
                let objects = try store.syncObjects(calendar: calendar.url, nudges: true).filter { Self.isNudges($0) }
                return objects.isEmpty ? nil : (calendar, objects)
            }
        } catch {
            return done([CalendarReport(calendar: account.address, name: account.address, failure: "the store cannot be read: \(error)")])
        }
        let client = HTTPClient(loop: loop, settings: settings(for: account))
        var reports: [CalendarReport] = []
        var runs: [CalendarRun] = []
        func retireNext(_ index: Int) {
            guard index < retiring.count else { return next(0) }
            retire(retiring[index].0, retiring[index].1, client: client, credentials: credentials) { report in
                if let report { reports.append(report) }
                retireNext(index + 1)
            }
        }
        func next(_ index: Int) {
            guard index < calendars.count else {
                // Each run's completion holds this function, which holds the runs: they are
                // let go here, or a process that syncs again and again (the daemon's) keeps
                // every sync's objects.
                let finished = runs
                runs = []
                return withExtendedLifetime((client, finished)) { done(reports) }
            }
            // A server that cannot be reached, or asked to be left alone, is not asked again
            // for each calendar.
            if let down = reports.last(where: { $0.unreachable || ($0.retryAfter != nil && $0.failure != nil) }), let failure = down.failure {
                var calendar = calendars[index]
                // Said as what it is: another calendar's answer, which stopped this one too.
                let failure = "not tried: the server failed another calendar of the account (\(failure))"
                calendar.lastError = failure
                try? store.save(calendar: calendar)
                var report = CalendarReport(calendar: calendar.url, name: calendar.name, failure: failure)
                report.unreachable = true
                report.retryAfter = down.retryAfter
                reports.append(report)
                return next(index + 1)
            }
            // A calendar the desktop rings itself: left to it, and what came from it goes.
            if let desktop = leftTo(calendars[index]) {
                var report = CalendarReport(calendar: calendars[index].url, name: calendars[index].name)
                report.leftTo = desktop
                do {
                    report.removedHere = try leave(calendars[index])
                } catch {
                    report.failure = "the store cannot be written: \(error)"
                }
                reports.append(report)
                return next(index + 1)
            }
            let run = CalendarRun(client: client, credentials: credentials, store: store, calendar: calendars[index], zone: zone, now: now) { report in
                reports.append(report)
                next(index + 1)
            }
            runs.append(run)
            run.start()
        }
        retireNext(0)
    }

    /// Whether an object is one of Nudge's own reminders (its UID ends in `@nudge`), kept
    /// when its calendar stopped holding them.
    /// This Nudge's own: its reminder's id is the one the UID was made from (`ID@nudge`,
    /// `ID-2@nudge`). Another Nudge's objects in a calendar followed here have an id made
    /// from the calendar and the UID: never retired (a hostile pass: a second desktop
    /// following the first's calendar deleted every reminder in it from the server).
    public static func isNudges(_ object: SyncObject) -> Bool {
        guard let id = object.alertId.flatMap(UUID.init(hexString:)), object.uid.hasSuffix("@nudge") else { return false }
        let stem = object.uid.dropLast("@nudge".count)
        return UUID(uuidString: String(stem.prefix(36))) == id
    }

    /// Nudge's own objects left in a calendar that no longer holds Nudge's reminders (another
    /// was chosen, or none): deleted there, each on the condition that it is as Nudge last
    /// wrote it (If-Match), so that a reminder is not there twice once it is written to the
    /// calendar chosen now, nor rings there unsynced. One changed there meanwhile (412) is
    /// left as the server has it, said; one the server cannot be asked about now is kept for
    /// the next sync. `done` gets a report when something happened.
    func retire(_ calendar: SyncCalendar, _ objects: [SyncObject], client: HTTPClient, credentials: Credentials?,
                done: @escaping (CalendarReport?) -> Void) {
        var report = CalendarReport(calendar: calendar.url, name: calendar.name)
        var forget: [String] = []
        func finish() {
            do {
                try store.apply(calendar: calendar.url, objects: [], forget: forget, save: [], delete: [])
            } catch {
                report.failure = "the store cannot be written: \(error)"
            }
            done(report.removedThere > 0 || report.failure != nil || !report.problems.isEmpty ? report : nil)
        }
        func step(_ index: Int) {
            guard index < objects.count else { return finish() }
            let object = objects[index]
            guard let etag = object.etag else {
                forget.append(object.url)
                return step(index + 1)
            }
            report.requests += 1
            client.send(CalDAVRequest.delete(object.url, etag: etag), credentials: credentials) { result in
                switch result {
                case .success(let response) where (200..<300).contains(response.status) || response.status == 404 || response.status == 410:
                    forget.append(object.url)
                    report.removedThere += 1
                case .success(let response) where response.status == 412:
                    forget.append(object.url)
                    report.problems.append("\(object.uid): changed on the server since Nudge wrote it; left there, no longer Nudge's")
                case .success(let response):
                    report.failure = "the server answered \(response.status) for \(object.url); tried again at the next sync"
                    return finish()
                case .failure(let failure):
                    report.failure = failure.description
                    report.unreachable = true
                    return finish()
                }
                step(index + 1)
            }
        }
        step(0)
    }

    /// Forgets a followed calendar's objects and removes the reminders they made (the next
    /// sync after the person asks Nudge to ring it lists it whole). Returns how many went.
    func leave(_ calendar: SyncCalendar) throws -> Int {
        let objects = try store.syncObjects(calendar: calendar.url)
        let gone = objects.compactMap { $0.alertId.flatMap(UUID.init(hexString:)) }
        if !objects.isEmpty || calendar.syncToken != nil {
            try store.apply(calendar: calendar.url, objects: [], forget: objects.map(\.url), save: [], delete: gone)
            var reset = calendar
            reset.syncToken = nil
            reset.lastError = nil
            try store.save(calendar: reset)
        }
        return gone.count
    }

    /// Runs `loop` until `finished` says the work is over (for the command line).
    public static func run(_ loop: EventLoop, until finished: () -> Bool) throws(SystemError) {
        while !finished() { try loop.turn() }
    }
}

extension CalendarReport {
    init(calendar: String, name: String, failure: String) {
        self.init(calendar: calendar, name: name)
        self.failure = failure
    }
}
