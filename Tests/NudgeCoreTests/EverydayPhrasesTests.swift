import Foundation
import NudgeCore
import TestSupport
import Testing

/// Everyday phrasings (Tests/Fixtures/phrases/everyday-*.tsv), written without looking at
/// Nudge's own tables, each with what a person means by it, read at the tables' fixed now
/// (Tuesday 2026-03-10 14:20 in Seoul). A phrase whose meaning is clear is read or refused;
/// read, its first showings must be the meant ones: a misread fails the test. The figures
/// per family are printed for docs/phrases.md.
@Suite(.onTestThreads)
struct EverydayPhrasesTests {
    static let zone = TimeZone(identifier: "Asia/Seoul")!
    static let now = try! ScheduleParser.instant("2026-03-10 14:20", zone: zone)

    /// Rows Nudge reads otherwise by a rule written down before the table was (issue 44's
    /// text, or a row of our own tables that `list`'s words must read back as), or by issue
    /// 54's rule for a step with only an end (written after it), each with it.
    /// A reason no longer needed fails the test too.
    static let documented: [String: String] = [
        "last friday of the month at 4pm": "PhraseTables: 'the last friday of the month at 5pm' is every month, as list says a monthly place ('… of the month'); once is 'this month's last friday' or the date",
        "third thursday of the month at 7pm": "PhraseTables: '… of the month' is every month, as list says it; once is the date",
        "every hour until 5pm": "issue 54: a step with only an end and no day word is today, counted from now, and stops at the end (the echo says so); this table's writer laid it from 00:00",
        "every 30 min until 4pm": "issue 54: a step with only an end and no day word is today, counted from now, and stops at the end (the echo says so); this table's writer laid it from 00:00",
        "every 2 hours until 10pm": "issue 54: a step with only an end and no day word is today, counted from now, and stops at the end (the echo says so); this table's writer laid it from 00:00",
        "밤 10시까지 2시간마다": "issue 54: a step with only an end and no day word is today, counted from now, and stops at the end (the echo says so); this table's writer laid it from 00:00",
        "저녁 6시까지 30분마다": "issue 54: a step with only an end and no day word is today, counted from now, and stops at the end (the echo says so); this table's writer laid it from 00:00",
        "주말 오전 10시": "PhraseTables: 주말 오전 10시 is every Saturday and Sunday (as list says weekends in Korean); once is 이번 주말",
    ]

    struct Row {
        var phrase: String
        var expected: String
        var family: String
        var note: String
        var isClear: Bool { !["needs-time", "unclear"].contains(expected) }
    }

    static func rows(_ language: String) throws -> [Row] {
        let url = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases/everyday-\(language).tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(phrase: columns[0], expected: columns.count > 1 ? columns[1] : "", family: columns.count > 2 ? columns[2] : "",
                       note: columns.count > 3 ? columns[3] : "")
        }
    }

    static func local(_ instant: Date) -> String {
        let (day, second) = CivilZone(zone).local(instant)
        return "\(day)T" + String(LocalTime(secondOfDay: second)!.description.prefix(5))
    }

    static let dayNames: [String: Weekday] = ["sun": .sunday, "mon": .monday, "tue": .tuesday, "wed": .wednesday, "thu": .thursday, "fri": .friday, "sat": .saturday]

    /// What the schedule does, in the row's words, where it differs from the row; nil when it means the row.
    static func difference(_ schedule: Schedule, _ expected: String) -> String? {
        let parts = expected.split(separator: " ").map(String.init)
        let firings = schedule.occurrences(after: now, count: 4, in: zone).map(local)
        switch parts.first {
        case "once":
            let got = "once " + firings.joined(separator: " ")
            return firings.count == 1 && firings[0] == parts[1] ? nil : got
        case "repeat":
            return firings == Array(parts.dropFirst()) ? nil : "repeat " + firings.joined(separator: " ")
        case "interval":
            let seconds = Int(parts[1])!
            let days = parts.count > 2 ? Set(parts[2].split(separator: ",").map { dayNames[String($0)]! }) : Schedule.everyDay
            switch schedule {
            case .interval(let step, _, let on) where step == seconds && on == days:
                return nil
            case .daily(let times, let on) where on == days && times.count > 1:
                // All day from the day's start: steps of `seconds` from 00:00.
                let expected = DayWindow(start: LocalTime(hour: 0, minute: 0)!, end: LocalTime(hour: 23, minute: 59, second: 59)!)!.times(every: seconds)
                return times == expected ? nil : "daily " + times.map(\.description).joined(separator: ",")
            default:
                return schedule.summary(in: zone)
            }
        default:
            return "bad row"
        }
    }

    struct Figures {
        var clear = 0, read = 0, misread = 0, documented = 0, unclearRows = 0, unclearRefused = 0
    }

    func measure(_ language: String) throws -> (families: [String: Figures], refused: [(Row, String)], misread: [(Row, String)], answered: [(Row, String)],
                                                documented: [(Row, String)]) {
        var families: [String: Figures] = [:]
        var refused: [(Row, String)] = [], misread: [(Row, String)] = [], answered: [(Row, String)] = [], documented: [(Row, String)] = []
        for row in try Self.rows(language) {
            var figures = families[row.family] ?? Figures()
            defer { families[row.family] = figures }
            let result = Result { () throws(ScheduleError) in try SchedulePhrase.read(row.phrase, now: Self.now, zone: Self.zone) }
            guard row.isClear else {
                figures.unclearRows += 1
                switch result {
                case .success(let reading): answered.append((row, reading.schedule.summary(in: Self.zone)))
                case .failure: figures.unclearRefused += 1
                }
                continue
            }
            figures.clear += 1
            switch result {
            case .success(let reading):
                figures.read += 1
                if let got = Self.difference(reading.schedule, row.expected) {
                    if Self.documented[row.phrase] != nil {
                        figures.documented += 1
                        documented.append((row, got))
                    } else {
                        figures.misread += 1
                        misread.append((row, got))
                    }
                }
            case .failure(let error):
                refused.append((row, "\(error.token.isEmpty ? "" : "'\(error.token)' ")\(error.problem)"))
            }
        }
        return (families, refused, misread, answered, documented)
    }

    func report(_ language: String) throws {
        let (families, refused, misread, answered, documented) = try measure(language)
        var total = Figures()
        print("everyday-\(language): | family | clear | read | misread | read by a documented rule | needing a time or unclear: refused |")
        for (family, f) in families.sorted(by: { $0.key < $1.key }) {
            print("everyday-\(language): | \(family) | \(f.clear) | \(f.read) | \(f.misread) | \(f.documented) | \(f.unclearRefused) of \(f.unclearRows) |")
            total.clear += f.clear; total.read += f.read; total.misread += f.misread; total.documented += f.documented
            total.unclearRows += f.unclearRows; total.unclearRefused += f.unclearRefused
        }
        let rate = Double(total.read) / Double(max(total.clear, 1)) * 100
        print("figure: everyday-\(language): \(total.read) of \(total.clear) clear phrases read (\(String(format: "%.1f", rate)) %), \(total.misread) misread, \(total.documented) read by a documented rule that differs; \(total.unclearRefused) of \(total.unclearRows) needing a time or unclear refused")
        for (row, why) in refused { print("refused-\(language): \(row.phrase)\t\(row.expected)\t\(why)") }
        for (row, what) in answered { print("answered-\(language): \(row.phrase)\t\(row.expected)\t\(what)") }
        for (row, got) in documented { print("documented-\(language): \(row.phrase)\t\(row.expected)\t\(got)\t\(Self.documented[row.phrase]!)") }
        let phrases = Set(try Self.rows(language).map(\.phrase))
        for (phrase, _) in Self.documented where phrases.contains(phrase) && !documented.contains(where: { $0.0.phrase == phrase }) {
            Issue.record("a documented difference no longer needed: \(phrase)")
        }
        for (row, got) in misread {
            Issue.record("misread (\(language), \(row.family)): \(row.phrase) → \(got), meant \(row.expected)")
        }
    }

    @Test func englishEverydayPhrasesAreReadAndNeverMisread() throws { try report("en") }

    @Test func koreanEverydayPhrasesAreReadAndNeverMisread() throws { try report("ko") }
}
