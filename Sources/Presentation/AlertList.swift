import Foundation
import NudgeCore
import NudgeKit

/// The alerts as the list shows them: in the order given (soonest first), narrowed by a
/// filter on their titles and schedules, each a row of words in the person's language and locale. A
/// row is kept while its alert and showing stay the same, so a reload that changes one
/// alert words only that one, and clearing a filter costs no more than a change.
public struct AlertList {
    /// The alerts as last set, unfiltered; ``order`` and ``shown`` index into them.
    public private(set) var alerts: [Alert] = []
    /// Each alert's next showing, at its index in ``alerts``.
    public private(set) var showings: [NextShowing] = []
    /// Indices into `alerts`, in the list's order.
    public private(set) var order: [Int] = []
    /// The indices shown, in order: those whose title or schedule holds the filter.
    public private(set) var shown: [Int] = []
    private var words: [UUID: (alert: Alert, showing: NextShowing, row: AlertRow)] = [:]
    /// The calendar each followed reminder comes from, by its id (hex): said after its schedule.
    public private(set) var origins: [String: String] = [:]
    private let timeStyle: TimeStyle, language: Language
    /// When the list was read: a next showing in another year says its year.
    private var now: Date?

    /// A list whose rows are worded with `timeStyle` and `language`.
    public init(timeStyle: TimeStyle, language: Language) {
        (self.timeStyle, self.language) = (timeStyle, language)
    }

    /// The alerts read anew, each with its next showing, and their order.
    public mutating func set(_ alerts: [Alert], showings: [NextShowing], order: [Int], now: Date? = nil, origins: [String: String] = [:]) {
        (self.alerts, self.showings, self.order, self.now) = (alerts, showings, order, now)
        // A calendar renamed: its reminders worded again.
        if origins != self.origins {
            let changed = Set(origins.keys).union(self.origins.keys).filter { origins[$0] != self.origins[$0] }
            words = words.filter { !changed.contains($0.key.hex) }
            self.origins = origins
        }
    }

    /// The rows for a filter (`nil` or empty: every alert), the system's zone for alerts
    /// that follow it.
    public mutating func rows(filter: String?, system zone: TimeZone) -> [AlertRow] {
        let needle = Self.searchable((filter ?? "").trimmingCharacters(in: .whitespaces))
        if needle.isEmpty {
            shown = order
        } else {
            // Worded to be searched (kept, so showing them words nothing again).
            var found: [Int] = []
            for index in order where Self.row(row(at: index, system: zone), holds: needle) { found.append(index) }
            shown = found
        }
        var worded: [UUID: (alert: Alert, showing: NextShowing, row: AlertRow)] = [:]
        worded.reserveCapacity(shown.count)
        let rows = shown.map { index in
            let alert = alerts[index], showing = showings[index]
            if let kept = words[alert.id], kept.alert == alert, kept.showing == showing {
                worded[alert.id] = kept
                return kept.row
            }
            let row = Self.row(alert, showing, zone: alert.zone(system: zone), timeStyle: timeStyle, language: language, now: now,
                               calendar: origins.isEmpty ? nil : origins[alert.id.hex])
            worded[alert.id] = (alert, showing, row)
            return row
        }
        // Kept while the filter hides them.
        if shown.count == order.count { words = worded } else { words.merge(worded) { $1 } }
        return rows
    }

    /// Text as a search compares it: lowercased, the narrow and no-break spaces a locale
    /// writes in times ("9:00\u{202F}PM") as the space a person types.
    public static func searchable(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{00A0}", with: " ")
    }

    /// Whether a row is found by a search for `needle` (``searchable(_:)`` already): its
    /// title or its schedule in words holds it. The one rule of both faces' searches.
    public static func row(_ row: AlertRow, holds needle: String) -> Bool {
        needle.isEmpty || searchable(row.title).contains(needle) || searchable(row.schedule).contains(needle)
    }

    /// One alert's row: its switch, what waits or why it is not plain on, its title,
    /// schedule and next showing.
    /// A next showing in another year than `now`'s says its year ("Tue, Jan 5, 2027, 9:00").
    /// A followed reminder's `calendar` is said after its schedule ("once, Mon 09:00 · Phone"),
    /// and a search finds it by it too.
    public static func row(_ alert: Alert, _ showing: NextShowing, zone: TimeZone, timeStyle: TimeStyle, language: Language,
                           now: Date? = nil, calendar: String? = nil) -> AlertRow {
        let civil = CivilZone(zone)
        let otherYear = { (instant: Date) in now.map { civil.local($0).0.components.year != civil.local(instant).0.components.year } ?? false }
        let state: String
        switch showing.reason {
        case nil, .off?: state = showing.pending > 0 ? "×\(showing.pending)" : ""
        default: state = AlertView.stateWord(alert, showing)
        }
        return AlertRow(id: alert.id.hex, on: alert.enabled, state: state, title: alert.title.escapingControls,
                               schedule: alert.schedule.summary(in: zone, timeStyle: timeStyle, language: language).escapingControls
                                   + (calendar.map { " · " + $0.escapingControls } ?? ""),
                               next: showing.instant.map { otherYear($0) ? timeStyle.dated($0, zone) : timeStyle.instant($0, zone) } ?? (alert.enabled ? Labels.placeNext(alert.schedule) : nil) ?? "—",
                               water: alert.kind == .water)
    }

    /// One alert's row (an index into `alerts`), worded once while its alert and showing
    /// stay the same: the window words only the rows on screen.
    public mutating func row(at index: Int, system zone: TimeZone) -> AlertRow {
        let alert = alerts[index], showing = showings[index]
        if let kept = words[alert.id], kept.alert == alert, kept.showing == showing { return kept.row }
        let row = Self.row(alert, showing, zone: alert.zone(system: zone), timeStyle: timeStyle, language: language, now: now,
                           calendar: origins.isEmpty ? nil : origins[alert.id.hex])
        if words.count > 2 * alerts.count + 64 {
            // Rows of alerts long gone are let go now and then.
            let present = Set(alerts.map(\.id))
            words = words.filter { present.contains($0.key) }
        }
        words[alert.id] = (alert, showing, row)
        return row
    }

    /// The alert on a row shown.
    public func alert(atRow row: Int) -> Alert? {
        shown.indices.contains(row) ? alerts[shown[row]] : nil
    }

    /// The row an alert is shown on (its full hex id); `nil` when the filter hides it or
    /// it is gone.
    public func row(of id: String) -> Int? {
        shown.firstIndex { alerts[$0].id.hex == id }
    }

    /// Whether a filter hides some alerts.
    public var isFiltered: Bool { shown.count != order.count }

    /// The next alert to show and when, whatever the filter.
    public var next: (alert: Alert, instant: Date)? {
        guard let first = order.first, let instant = showings[first].instant else { return nil }
        return (alerts[first], instant)
    }

    /// The reminders waiting for an answer (one shown four times unanswered is one).
    public var unanswered: Int { showings.reduce(0) { $0 + ($1.pending > 0 ? 1 : 0) } }
}
