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
        let calendars: [SyncCalendar]
        do {
            // Nudge's own calendar last: what the followed ones brought is not sent back as Nudge's.
            calendars = try store.syncCalendars(account: account.id).filter { $0.role != .none }
                .sorted { ($0.role == .own ? 1 : 0) < ($1.role == .own ? 1 : 0) }
        } catch {
            return done([CalendarReport(calendar: account.address, name: account.address, failure: "the store cannot be read: \(error)")])
        }
        let client = HTTPClient(loop: loop, settings: settings(for: account))
        var reports: [CalendarReport] = []
        var runs: [CalendarRun] = []
        func next(_ index: Int) {
            guard index < calendars.count else {
                return withExtendedLifetime((client, runs)) { done(reports) }
            }
            // A server that cannot be reached, or asked to be left alone, is not asked again
            // for each calendar.
            if let down = reports.last(where: { $0.unreachable || ($0.retryAfter != nil && $0.failure != nil) }), let failure = down.failure {
                var calendar = calendars[index]
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
        next(0)
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
