import CLinux
import DBus
import Foundation
import Localization
import NudgeCore
import NudgeKit
import NudgeStore

/// The desktop's own search as a place to say "remind me": what GNOME Shell's overview
/// (`org.gnome.Shell.SearchProvider2`) and KRunner (`org.kde.krunner1`) ask, answered by
/// the daemon, which is on the bus already and is started by the bus when it is not.
///
/// A line that reads as a title and when (``RemindMe``) gives one result per reading:
/// "Remind me: Call mum — Fri 2026-11-27 18:00", described in the echo's words. Reminders
/// whose title holds every word typed follow, with their next showing. Nothing is stored
/// until a result is chosen: then the reminder is added (read again at that moment: "in
/// 30 minutes" counts from the choice) and one pop-up says so, with Undo.
///
/// A result's id says what it stands for, so a choice made long after the query needs
/// nothing kept: `remind␟TITLE␟WHEN` or `alert␟ID` (␟ is U+001F, which no title holds).
final class DesktopSearch {
    private unowned let daemon: Daemon
    /// Every reminder's title folded for comparison (UTF-8), built at the first search after
    /// the store changed: folding is the costly part, and comparing bytes the cheap one.
    private var titles: [(id: UUID, folded: [UInt8])]?
    /// The default reminder time, read from the store once after each change to it.
    private var defaultTime: LocalTime??
    /// The readings of the last lines asked, by result id, for the metas asked next.
    private var known: [String: RemindMe.Reading] = [:]
    /// The confirmations on screen: the pop-up's id and the reminder it added, as added
    /// (Undo takes back only what is still that).
    private var confirmations: [UInt32: Alert] = [:]
    /// The results chosen in the last seconds, by id: a second choice of the same (a double
    /// click, KRunner and the overview both) adds nothing more.
    private var chosen: [String: Date] = [:]

    static let separator: Character = "\u{1F}"
    static let undo = ActionKey(rawValue: "undo")
    /// The most reminders listed for one query: the shell shows a few per provider.
    static let listed = 5
    /// The most words a query is compared by: a title holds at most 500 characters, and a
    /// pasted page must not hold the daemon (and the reminders it fires) for seconds.
    static let maxTerms = 64
    /// How long a second choice of the same result is taken as the first.
    static let repeatedChoice: TimeInterval = 5
    /// How far a reading may move between the query and the choice (in 30 minutes moves
    /// with the clock; a time that passed moves a day).
    static let drift: TimeInterval = 12 * 3600

    init(daemon: Daemon) {
        self.daemon = daemon
    }

    /// The store changed: the default time may have.
    func storeChanged() {
        defaultTime = nil
        titles = nil
    }

    // MARK: Results

    /// A result: what it stands for, and its words.
    enum Item: Equatable {
        case remind(RemindMe.Reading)
        case alert(UUID)

        var id: String {
            switch self {
            case .remind(let reading): ["remind", reading.title, reading.when].joined(separator: String(DesktopSearch.separator))
            case .alert(let id): "alert" + String(DesktopSearch.separator) + id.hex
            }
        }
    }

    /// The order the session's locale writes numeric dates in, found when first asked.
    private lazy var dateOrder: DateOrder? = DateOrder.person(environment: daemon.options.environment)

    /// What the words typed give, "Remind me" readings first, then reminders that match.
    func items(_ terms: [String], now: Date = Date()) -> [Item] {
        let line = terms.joined(separator: " ")
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, terms.count <= Self.maxTerms, line.count <= RemindMe.maxLength else { return [] }
        let zone = daemon.core.systemZone
        let readings = RemindMe.readings(line, now: now, zone: zone, defaultTime: storedDefaultTime(), dateOrder: dateOrder)
        if known.count > 64 { known = [:] }
        for reading in readings { known[Item.remind(reading).id] = reading }
        return readings.map(Item.remind) + matching(terms).map(Item.alert)
    }

    /// The reminders whose title holds every term, at most ``listed``: titles that start
    /// with the first term, then the shortest (the closest matches), those shown soonest
    /// first. Only the few listed are asked their next showing: a word in every title of
    /// 10,000 stays cheap.
    func matching(_ terms: [String]) -> [UUID] {
        let wanted = terms.map { Array(RemindMe.folded($0).utf8) }.filter { !$0.isEmpty }
        guard !wanted.isEmpty else { return [] }
        let core = daemon.core
        if titles == nil {
            var all: [(id: UUID, folded: [UInt8])] = []
            all.reserveCapacity(core.alertCount)
            core.forEachAlert { all.append(($0.id, Array(RemindMe.folded($0.title).utf8))) }
            titles = all
        }
        var found: [(starts: Bool, length: Int, order: Int, id: UUID)] = []
        for (order, title) in (titles ?? []).enumerated() where wanted.allSatisfy({ Self.holds(title.folded, $0) }) {
            found.append((title.folded.starts(with: wanted[0]), title.folded.count, order, title.id))
        }
        found.sort { a, b in
            if a.starts != b.starts { return a.starts }
            if a.length != b.length { return a.length < b.length }
            return a.order < b.order
        }
        let listed = found.prefix(Self.listed).map { ($0.id, core.nextShowing($0.id)?.instant) }
        return listed.enumerated().sorted { a, b in
            switch (a.element.1, b.element.1) {
            case (let x?, let y?) where x != y: x < y
            case (_?, nil): true
            case (nil, _?): false
            default: a.offset < b.offset
            }
        }.map(\.element.0)
    }

    /// Whether `text` holds `part`, byte for byte (both folded alike).
    static func holds(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        text.withUnsafeBytes { t in part.withUnsafeBytes { p in memmem(t.baseAddress, t.count, p.baseAddress, p.count) != nil } }
    }

    /// The item an id stands for; `nil` for an id that names nothing (any more).
    func item(_ id: String, now: Date = Date()) -> Item? {
        let parts = id.split(separator: Self.separator, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("remind", 3):
            if let reading = known[id] { return .remind(reading) }
            // An id made by hand gets the checks `nudge add` makes: a title, within its limit,
            // without control characters.
            guard !parts[1].allSatisfy(\.isWhitespace), (try? Limits.check(.title, parts[1])) != nil,
                  let phrase = try? SchedulePhrase.read(parts[2], now: now, zone: daemon.core.systemZone, defaultTime: storedDefaultTime(), dateOrder: dateOrder) else { return nil }
            return .remind(RemindMe.Reading(title: parts[1], when: parts[2], phrase: phrase))
        case ("alert", 2):
            guard let id = UUID(hex: parts[1]), daemon.core.alert(id) != nil else { return nil }
            return .alert(id)
        default:
            return nil
        }
    }

    /// A result's words: its name (one line) and its description.
    func words(_ item: Item, now: Date = Date()) -> (name: String, description: String) {
        let zone = daemon.core.systemZone, style = TimeStyle.person(environment: daemon.options.environment)
        let language = Catalog.shared.language
        switch item {
        case .remind(let reading):
            // TRANSLATORS: a search result that adds a reminder: %1$s its title, %2$s when (Fri 2026-11-27 18:00, every weekday at 09:30).
            let name = format(tr("Remind me: %1$s — %2$s"), Self.shown(reading.title), when(reading.phrase.schedule, zone: zone, style: style, language: language))
            var parts = [format(tr("%1$s → %2$s"), reading.when, reading.phrase.schedule.summary(in: zone, timeStyle: style, language: language))]
            if case .once = reading.phrase.schedule {} else if let next = reading.phrase.schedule.occurrences(after: now, count: 1, in: zone).first {
                parts.append(format(tr("next: %s"), style.instant(next, zone)))
            }
            parts += reading.phrase.notes.map { $0.text(language) }
            return (name, parts.joined(separator: " · "))
        case .alert(let id):
            guard let alert = daemon.core.alert(id) else { return ("", "") }
            let next = daemon.core.nextShowing(id)?.instant
            let description = !alert.enabled ? tr("off")
                : next.map { format(tr("next: %s"), style.instant($0, zone)) } ?? tr("no next showing")
            return (Self.shown(alert.title), description)
        }
    }

    /// A title as a line shows it: isolated from the words around it where it holds a
    /// direction override (U+202E would turn "— Thu 18:00" around).
    static func shown(_ title: String) -> String {
        let controls: ClosedRange<Unicode.Scalar> = "\u{202A}"..."\u{202E}", isolates: ClosedRange<Unicode.Scalar> = "\u{2066}"..."\u{2069}"
        guard title.unicodeScalars.contains(where: { controls.contains($0) || isolates.contains($0) }) else { return title }
        return "\u{2068}" + title + "\u{2069}"
    }

    /// When, shortly: the day and time of a one-shot, the schedule's words else.
    private func when(_ schedule: Schedule, zone: TimeZone, style: TimeStyle, language: Language) -> String {
        if case .once(let instant) = schedule { return style.instant(instant, zone) }
        return schedule.summary(in: zone, timeStyle: style, language: language)
    }

    private func storedDefaultTime() -> LocalTime? {
        if let defaultTime { return defaultTime }
        let time = (try? daemon.storage.store?.defaultTime()) ?? nil
        defaultTime = .some(time)
        return time
    }

    // MARK: Choosing

    /// A result chosen: a reminder added (and said, with Undo), or the window opened at one.
    func activate(_ id: String, terms: [String], activationToken: String? = nil, now: Date = Date()) {
        switch item(id, now: now) {
        case .remind(let reading)?:
            chosen = chosen.filter { now.timeIntervalSince($0.value) < Self.repeatedChoice }
            guard chosen[id] == nil else {
                daemon.log.info("search: \(reading.title.escapingControls) chosen again; added once")
                return
            }
            chosen[id] = now
            add(reading, now: now)
        case .alert(let alert)?:
            daemon.openWindow(at: alert, activationToken: activationToken)
        case nil:
            daemon.log.warning("search: a result that is no longer there was chosen")
        }
    }

    /// The window, its search holding what was typed.
    func launch(_ terms: [String], activationToken: String? = nil) {
        daemon.openWindow(searching: terms.joined(separator: " "), activationToken: activationToken)
    }

    /// Adds the reminder a reading makes, read again now, and says so with Undo. A reading
    /// that no longer holds (its time passed) or a store that cannot take it is said instead.
    func add(_ reading: RemindMe.Reading, now: Date) {
        let zone = daemon.core.systemZone
        let phrase: PhraseReading
        do {
            phrase = try SchedulePhrase.read(reading.when, now: now, zone: zone, defaultTime: storedDefaultTime(), dateOrder: dateOrder)
        } catch {
            return notAdded(reading.title, error.phrase.text(Catalog.shared.language))
        }
        // Read again now, it must still mean what the result said: a time passed meanwhile
        // would move a day or a year on ("at 12:51", chosen at 12:51:02).
        if let shown = reading.phrase.schedule.occurrences(after: now.addingTimeInterval(-Self.drift), count: 1, in: zone).first,
           let fresh = phrase.schedule.occurrences(after: now, count: 1, in: zone).first, fresh.timeIntervalSince(shown) > Self.drift {
            // TRANSLATORS: a result chosen in the desktop's search after its time passed.
            return notAdded(reading.title, tr("that time has passed; search again"))
        }
        let alert = Alert(title: reading.title, schedule: phrase.schedule, created: now, language: daemon.options.language)
        guard let store = daemon.storage.store else {
            return notAdded(reading.title, tr("the store cannot be written (nudge doctor says why)"))
        }
        do {
            try store.save(alert)
        } catch {
            daemon.storage.failed(error, doing: "write")
            return notAdded(reading.title, StoreError(error, path: daemon.storage.path).message)
        }
        daemon.storage.wrote()
        daemon.core.upsert(alert, now: now)
        titles = nil
        daemon.log.info("search: added \(alert.id.shortHex) \(reading.title.escapingControls) — \(reading.when.escapingControls)")
        let style = TimeStyle.person(environment: daemon.options.environment)
        // TRANSLATORS: the pop-up after a reminder was added from the desktop's search: %1$s its title, %2$s when.
        let summary = format(tr("Added: %1$s — %2$s"), Self.shown(reading.title), when(phrase.schedule, zone: zone, style: style, language: Catalog.shared.language))
        let notification = Notification(summary: summary, body: words(.remind(RemindMe.Reading(title: reading.title, when: reading.when, phrase: phrase)), now: now).description,
                                        icon: Notification.appID,
                                        actions: [.init(key: .default, label: ""), .init(key: Self.undo, label: tr("Undo"))],
                                        category: "x-nudge.added")
        do {
            confirmations[try daemon.delivery.deliver(notification)] = alert
        } catch {
            daemon.log.warning("search: cannot say the reminder was added: \(error)")
        }
    }

    /// Says a chosen result added nothing, and why.
    private func notAdded(_ title: String, _ reason: String) {
        daemon.log.warning("search: not added: \(reason)")
        // TRANSLATORS: the pop-up when a reminder chosen in the desktop's search could not be added (its body says why): %1$s its title.
        _ = try? daemon.delivery.deliver(Notification(summary: format(tr("Not added: %1$s"), title), body: reason, icon: Notification.appID,
                                                      category: "x-nudge.added"))
    }

    /// An answer to a confirmation: Undo removes the reminder; a click opens the window at
    /// it. Returns whether the event was one (the scheduler's otherwise).
    func handle(_ event: DeliveryEvent, activationToken: () -> String?) -> Bool {
        guard let added = confirmations[event.id] else { return false }
        let alert = added.id
        switch event {
        case .action(_, Self.undo):
            confirmations[event.id] = nil
            // Changed since (`nudge edit`, the window): the person's newer words stay.
            if let current = daemon.core.alert(alert), !Self.same(current, added) {
                daemon.log.info("search: \(alert.shortHex) was changed since it was added; Undo leaves it")
            } else {
                undo(alert)
            }
            try? daemon.delivery.withdraw(event.id)
            daemon.delivery.release(event.id)
        case .action(_, .default):
            if daemon.core.alert(alert) != nil { daemon.openWindow(at: alert, activationToken: activationToken()) }
        case .closed, .failed:
            confirmations[event.id] = nil
            daemon.delivery.release(event.id)
        case .action, .appeared:
            break
        }
        return true
    }

    /// Whether a reminder is still as it was added: its words, its switch and its schedule (a
    /// one-shot's instant to the millisecond the store keeps).
    static func same(_ current: Alert, _ added: Alert) -> Bool {
        guard (current.title, current.body, current.enabled) == (added.title, added.body, added.enabled) else { return false }
        if case .once(let a) = current.schedule, case .once(let b) = added.schedule { return abs(a.timeIntervalSince(b)) < 0.001 }
        return current.schedule == added.schedule
    }

    /// Takes back a reminder added from the search.
    func undo(_ id: UUID) {
        guard let store = daemon.storage.store else { return }
        do {
            try store.delete([id])
        } catch {
            daemon.storage.failed(error, doing: "write")
            return
        }
        daemon.storage.wrote()
        daemon.core.remove(id)
        titles = nil
        daemon.log.info("search: undone \(id.shortHex)")
    }
}
