import TerminalFace
import NudgeKit
import Foundation
import Localization
import NudgeCore
import NudgeStore

extension Stats {
    /// A median answer time as people read it: seconds below a minute and a half, else
    /// whole minutes; "—" for none.
    static func answerTime(_ seconds: Double?) -> String {
        guard let seconds else { return "—" }
        let whole = Int(seconds.rounded())
        let language = Catalog.shared.language
        return whole < 90 ? Schedule.duration(whole, language: language) : Schedule.duration(Int((seconds / 60).rounded()) * 60, language: language)
    }

    /// Per reminder: its id and title, then a table of days (up to 31 of them) and its
    /// total; the Drank column only for water reminders.
    static func text(_ reminders: ReminderActivity, terminal: Terminal) -> String {
        var out = reminders.heading
        guard !reminders.entries.isEmpty else {
            // TRANSLATORS: nudge stats when no reminder came up in the days shown.
            return out + "\n" + tr("No reminder came up in these days.")
        }
        let language = Catalog.shared.language
        // TRANSLATORS: nudge stats' column headers: the day, pop-ups shown, the answers (Done, Snooze, Done for today, closed without a choice, Drank), showings missed, the median time to answer.
        let headers = [tr("DAY"), tr("SHOWN"), tr("DONE"), tr("SNOOZED"), tr("DONE TODAY"), tr("CLOSED"), tr("DRANK"), tr("MISSED"), tr("MEDIAN ANSWER")]
        for entry in reminders.entries {
            // TRANSLATORS: nudge stats: a reminder removed since (its title is gone with it).
            let title = entry.title?.escapingControls ?? tr("(removed)")
            out += "\n\n\(entry.id.shortHex)  \(title)\n"
            let water = entry.kind == .water
            func row(_ label: String, _ day: AlertDay, total: Bool = false) -> [String] {
                var cells = [label, "\(day.fired)", "\(day.done)", "\(day.snoozed)", "\(day.doneForToday)", "\(day.dismissed)"]
                if water { cells.append("\(day.drank)") }
                cells += ["\(day.missed)", answerTime(day.medianAnswer)]
                // TRANSLATORS: nudge stats: marks a day when the water goal was met and the water reminder rested.
                if day.goalMet && !total { cells[cells.count - 1] += "  " + tr("(goal met)") }
                return cells
            }
            var rows = [water ? headers : headers.enumerated().filter { $0.offset != 6 }.map(\.element)]
            if reminders.dayCount <= 31 {
                rows += entry.days.map { row("\($0.day.weekday.shortName(language)) \($0.day)", $0) }
            }
            // TRANSLATORS: nudge stats: the row of a reminder's totals over the days shown.
            rows.append(row(tr("all days"), entry.total, total: true))
            let paints: [[String?]] = rows.indices.map { $0 == 0 ? Array(repeating: "1", count: rows[0].count) : [] }
            out += terminal.table(rows.map { ["  " + $0[0]] + $0.dropFirst() }, paints: paints)
        }
        return out
    }
}

extension ReminderActivity {
    /// The reminders for `stats --json`, each with its totals and its days, streamed
    /// straight into bytes (a year of fifty reminders is eighteen thousand days).
    var json: JSON {
        func write(_ day: AlertDay, date: Bool, to out: inout [UInt8]) {
            var object = JSON.ObjectWriter()
            if date { object.field("day", .string(day.day.description), to: &out) }
            for (key, value) in [("shown", day.fired), ("done", day.done), ("snoozed", day.snoozed), ("doneForToday", day.doneForToday),
                                 ("dismissed", day.dismissed), ("drank", day.drank), ("missed", day.missed)] {
                object.field(key, .integer(Int64(value)), to: &out)
            }
            object.field("goalMet", .bool(day.goalMet), to: &out)
            object.field("medianAnswerSeconds", day.medianAnswer.map { .integer(Int64($0.rounded())) } ?? .null, to: &out)
            object.end(to: &out)
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            var object = JSON.ObjectWriter()
            object.field("id", .string(entry.id.lowercased), to: &out)
            object.field("shortId", .string(entry.id.shortHex), to: &out)
            object.field("title", entry.title.map(JSON.string) ?? .null, to: &out)
            object.field("kind", entry.kind.map { .string($0.rawValue) } ?? .null, to: &out)
            var total: [UInt8] = []
            write(entry.total, date: false, to: &total)
            object.field("total", .written(total), to: &out)
            var days: [UInt8] = [UInt8(ascii: "[")]
            for (i, day) in entry.days.enumerated() {
                if i > 0 { days.append(UInt8(ascii: ",")) }
                write(day, date: true, to: &days)
            }
            days.append(UInt8(ascii: "]"))
            object.field("days", .written(days), to: &out)
            object.end(to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return .written(out)
    }

    /// The height the reminders' chart takes in the SVG.
    var svgHeight: Double { entries.isEmpty ? 0 : 70 + Double(entries.count) * 34 }

    /// A bar per reminder, its pop-ups split by their answers (Done in any form, Snooze,
    /// closed, none yet) with the missed ones after, and the median time to answer.
    func svg(top: Double, left: Double, width: Double) -> String {
        guard !entries.isEmpty else { return "" }
        let label = 200.0, barWidth = max(120, width - left - label - 40)
        let most = Double(entries.map { $0.total.fired + $0.total.missed }.max() ?? 1)
        var svg = "<text x=\"\(Int(left))\" y=\"\(top + 24)\" font-size=\"15\" font-weight=\"bold\" fill=\"#1e293b\">\(svgEscaped(heading))</text>\n"
        // TRANSLATORS: nudge stats' SVG legend: the parts of a reminder's bar.
        let legend: [(String, String)] = [(tr("done"), "#16a34a"), (tr("snoozed"), "#f59e0b"), (tr("closed"), "#94a3b8"),
                                          (tr("unanswered"), "#e2e8f0"), (tr("missed"), "#dc2626")]
        for (index, item) in legend.enumerated() {
            let x = left + Double(index) * 110
            svg += "<rect x=\"\(x)\" y=\"\(top + 34)\" width=\"10\" height=\"10\" fill=\"\(item.1)\"/><text x=\"\(x + 14)\" y=\"\(top + 43)\" fill=\"#334155\">\(svgEscaped(item.0))</text>\n"
        }
        for (index, entry) in entries.enumerated() {
            let y = top + 60 + Double(index) * 34
            let t = entry.total
            // TRANSLATORS: nudge stats: a reminder removed since (its title is gone with it).
            let title = entry.title ?? tr("(removed)")
            let shortTitle = title.count > 28 ? String(title.prefix(27)) + "…" : title
            svg += "<text x=\"\(Int(left))\" y=\"\(y + 14)\" fill=\"#1e293b\">\(svgEscaped(shortTitle))</text>\n"
            let unanswered = max(0, t.fired - t.answered)
            var x = left + label
            for (value, colour) in [(t.done + t.doneForToday + t.drank, "#16a34a"), (t.snoozed, "#f59e0b"), (t.dismissed, "#94a3b8"),
                                    (unanswered, "#e2e8f0"), (t.missed, "#dc2626")] where value > 0 {
                let w = Double(value) / most * barWidth
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"18\" fill=\"\(colour)\"><title>\(value)</title></rect>\n"
                x += w
            }
            // TRANSLATORS: nudge stats' SVG: a reminder's figures; %1$d pop-ups shown, %2$d answered, %3$s the median time to answer.
            let figures = format(tr("%1$d shown, %2$d answered, median %3$s"), t.fired, t.answered, Stats.answerTime(t.medianAnswer))
            svg += "<text x=\"\(left + label)\" y=\"\(y + 30)\" fill=\"#64748b\" font-size=\"10\">\(svgEscaped(figures))</text>\n"
        }
        return svg
    }
}
