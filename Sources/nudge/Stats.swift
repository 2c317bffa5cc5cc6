import TerminalFace
import NudgeKit
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeStore
import Platform

/// `nudge stats`: water drunk per day against the goal, as a chart, with the streaks of
/// days at goal; and what became of every reminder's pop-ups, per day.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show water drunk per day against the goal, and what became of every reminder's pop-ups.",
        discussion: """
        The chart covers the last DAYS drink days (today included), each against the \
        goal set now (nudge config goal). The current streak ends today, or yesterday while \
        today's goal is not met yet; the longest is over every drink logged.

        Then, for every reminder that came up in the last DAYS days (kept as long as the \
        delivery log, nudge config log-days): pop-ups shown; the answers (Done, Snooze, \
        Done for today, closed without a choice, Drank); showings missed while nothing \
        could show them; and the median time from a pop-up to its answer. A reminder's day \
        is the calendar day where it happened. Per day for up to 31 days, else per \
        reminder (--json always has the days).

        Examples:
          nudge stats
          nudge stats --days 30
          nudge stats --days 365 --json
          nudge stats --svg water.svg
        """
    )

    @Option(help: ArgumentHelp("How many days, today included (1 to 3660).", valueName: "DAYS"))
    var days = 7

    @Flag(help: "Print one JSON document instead of the charts.")
    var json = false

    @Option(help: ArgumentHelp("Also write the charts as one SVG image to FILE (replaced whole, its permissions kept; a new FILE is made 0600), as export -o writes.", valueName: "FILE"))
    var svg: String?

    func run() throws {

        let world = World.live
        let (chart, reminders) = try Statistics.days(days, world, now: world.now)
        // TRANSLATORS: nudge stats --svg with an empty path.
        if svg == "" { throw OperationError(.usage, tr("invalid --svg '': give a file's path")) }
        if let svg {
            let image = Array(Self.svg(chart, reminders).utf8)
            do {
                try writeFile(svg) { fd throws(SystemError) in try writeAll(fd, image) }
            } catch {
                throw OperationError(writing: svg, error)
            }
        }
        if json {
            var out: [UInt8] = []
            Self.json(chart, reminders).write(to: &out)
            writeOut(out + [UInt8(ascii: "\n")])
        } else {
            let terminal = Terminal()
            print(Self.text(chart, terminal: terminal) + "\n\n" + Self.text(reminders, terminal: terminal))
        }
    }

    /// One row per day: the day, a bar (eighths of a cell; the goal is 20 cells, more
    /// runs on to 30), the amount, a mark at goal; then the streaks.
    static func text(_ water: WaterChart, terminal: Terminal) -> String {
        let language = Catalog.shared.language
        let width = 20
        var rows: [[String]] = []
        var paints: [[String?]] = []
        for total in water.totals {
            let eighths = min(30 * 8, Int((Double(total.millilitres) / Double(water.goal) * Double(width * 8)).rounded()))
            let bar = String(repeating: "█", count: eighths / 8) + (eighths % 8 == 0 ? "" : String(Array(" ▏▎▍▌▋▊▉")[eighths % 8]))
            let met = total.millilitres >= water.goal
            rows.append(["\(total.day.weekday.shortName(language)) \(total.day)", bar.isEmpty ? "·" : bar,
                         Water.text(total.millilitres) + (met ? " ✓" : "")])
            paints.append([nil, met ? "32" : "36", met ? "32" : nil])
        }
        return water.heading + "\n" + terminal.table(rows, paints: paints) + "\n" + water.streaks
    }

    static func json(_ water: WaterChart, _ reminders: ReminderActivity) -> JSON {
        JSON.object([
            ("goal", .integer(Int64(water.goal))),
            ("dayStart", .string(Setting.dayStart.text(water.dayStart / 60))),
            ("days", .array(water.totals.map { total in
                .object([("day", .string(total.day.description)), ("millilitres", .integer(Int64(total.millilitres))),
                         ("atGoal", .bool(total.millilitres >= water.goal))])
            })),
            ("streak", .object([("current", .integer(Int64(water.current))), ("longest", .integer(Int64(water.longest)))])),
            ("reminders", reminders.json),
        ])
    }

    /// The charts as one SVG: water as a bar per day against a dashed goal line (the
    /// days and amounts under and over the bars), then a bar per reminder, split by what
    /// became of its pop-ups.
    static func svg(_ water: WaterChart, _ reminders: ReminderActivity) -> String {
        let language = Catalog.shared.language
        let count = water.totals.count
        let bar = count <= 31 ? 28.0 : max(2, 900.0 / Double(count) - 1), gap = count <= 31 ? 8.0 : 1
        let chartHeight = 220.0, top = 50.0, left = 60.0
        let width = max(680, left + Double(count) * (bar + gap) + 20)
        let waterHeight = top + chartHeight + 60
        let height = waterHeight + reminders.svgHeight
        let peak = Double(max(water.goal, water.totals.map(\.millilitres).max() ?? 0)) * 1.1
        func y(_ millilitres: Int) -> Double { top + chartHeight - Double(millilitres) / peak * chartHeight }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="DejaVu Sans, NanumGothic, sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="#ffffff"/>
        <text x="\(Int(left))" y="24" font-size="15" font-weight="bold" fill="#1e293b">\(svgEscaped(water.heading))</text>

        """
        for (index, total) in water.totals.enumerated() {
            let x = left + Double(index) * (bar + gap)
            let met = total.millilitres >= water.goal
            let barTop = y(total.millilitres)
            svg += "<rect x=\"\(x)\" y=\"\(barTop)\" width=\"\(bar)\" height=\"\(top + chartHeight - barTop)\" fill=\"\(met ? "#16a34a" : "#38bdf8")\"><title>\(total.day): \(Water.text(total.millilitres))</title></rect>\n"
            if count <= 31 {
                svg += "<text x=\"\(x + bar / 2)\" y=\"\(barTop - 4)\" text-anchor=\"middle\" fill=\"#334155\">\(total.millilitres)</text>\n"
                svg += "<text x=\"\(x + bar / 2)\" y=\"\(top + chartHeight + 16)\" text-anchor=\"middle\" fill=\"#334155\">\(svgEscaped(total.day.weekday.shortName(language)))</text>\n"
                svg += "<text x=\"\(x + bar / 2)\" y=\"\(top + chartHeight + 30)\" text-anchor=\"middle\" fill=\"#64748b\">\(String(total.day.description.suffix(5)))</text>\n"
            }
        }
        let goalY = y(water.goal)
        let right = left + Double(count) * (bar + gap) + 10
        svg += "<line x1=\"\(left - 6)\" y1=\"\(goalY)\" x2=\"\(right)\" y2=\"\(goalY)\" stroke=\"#dc2626\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
        svg += "<text x=\"\(left - 8)\" y=\"\(goalY + 4)\" text-anchor=\"end\" fill=\"#dc2626\">\(water.goal)</text>\n"
        svg += "<line x1=\"\(left - 2)\" y1=\"\(top + chartHeight)\" x2=\"\(right)\" y2=\"\(top + chartHeight)\" stroke=\"#94a3b8\"/>\n"
        svg += "<text x=\"\(Int(left))\" y=\"\(Int(waterHeight - 10))\" fill=\"#1e293b\">\(svgEscaped(water.streaks))</text>\n"
        return svg + reminders.svg(top: waterHeight, left: left, width: width) + "</svg>\n"
    }
}

/// Text for SVG: `&`, `<` and `>` escaped.
func svgEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
}
