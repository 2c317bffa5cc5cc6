import Foundation
import NudgeCore
import TestSupport
import Testing

/// Dates written in numbers (Tests/Fixtures/phrases/numeric-dates.tsv), as people in four
/// locales type them, written by a helper who had not seen Nudge's tables, each with what
/// the person means at a fixed instant of the row. Each row is read with its locale's date
/// order (the one ``DateOrder/of(locale:)`` finds, fixed here: no machine's locales are
/// asked) and a default reminder time of 09:00, as the row's writer assumed; a line with a
/// title is read as the desktop's search reads it. A misread fails the test; the figures are
/// printed for docs/phrases.md.
@Suite(.onTestThreads)
struct NumericDatePhrasesTests {
    static let places: [String: (zone: String, order: DateOrder)] = [
        "en_US": ("America/New_York", .monthFirst), "en_GB": ("Europe/Berlin", .dayFirst),
        "de_DE": ("Europe/Berlin", .dayFirst), "ko_KR": ("Asia/Seoul", .monthFirst),
    ]

    /// Rows read otherwise by a rule written down before this set was, each with it.
    static let documented: [String: String] = [
        "3/8 2:30am": "DESIGN.md: a time the clocks skip fires at the end of the gap (03:00), as systemd's timers do; the writer moved it by the hour",
    ]

    struct Row {
        var locale: String, now: String, phrase: String, meaning: String
    }

    static func rows() throws -> [Row] {
        let url = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases/numeric-dates.tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return columns.count == 4 ? Row(locale: columns[0], now: columns[1], phrase: columns[2], meaning: columns[3]) : nil
        }
    }

    /// The first showing of what the row reads as, local and to the minute; the refusal's problem when refused.
    static func read(_ row: Row) -> Result<String, ScheduleError> {
        let place = places[row.locale]!
        let zone = TimeZone(identifier: place.zone)!
        let now = try! ScheduleParser.instant(row.now.replacingOccurrences(of: "T", with: " "), zone: zone)
        let nine = LocalTime(hour: 9, minute: 0)
        let schedule: Schedule
        do {
            schedule = try SchedulePhrase.read(row.phrase, now: now, zone: zone, defaultTime: nine, dateOrder: place.order).schedule
        } catch {
            guard let titled = RemindMe.readings(row.phrase, now: now, zone: zone, defaultTime: nine, dateOrder: place.order).first,
                  !titled.title.isEmpty else { return .failure(error) }
            schedule = titled.phrase.schedule
        }
        guard let first = schedule.occurrences(after: now, count: 1, in: zone).first else { return .success("never") }
        let (day, second) = CivilZone(zone).local(first)
        return .success("\(day)T" + String(LocalTime(secondOfDay: second)!.description.prefix(5)))
    }

    @Test func numericDatesAreReadInTheLocalesOrderAndNeverMisread() throws {
        var read: [String: (clear: Int, right: Int, refusedRight: Int, refusals: Int)] = [:]
        var misread: [String] = []
        for row in try Self.rows() {
            var figures = read[row.locale] ?? (0, 0, 0, 0)
            defer { read[row.locale] = figures }
            let result = Self.read(row)
            if row.meaning.hasPrefix("REFUSE") {
                figures.refusals += 1
                switch result {
                case .failure: figures.refusedRight += 1
                case .success(let got): misread.append("\(row.locale) \(row.now) \(row.phrase) → \(got), meant refused (\(row.meaning))")
                }
                continue
            }
            figures.clear += 1
            switch result {
            case .success(let got) where got == row.meaning:
                figures.right += 1
            case .success(let got):
                if let rule = Self.documented[row.phrase] {
                    print("documented-numeric: \(row.locale) \(row.phrase)\t\(row.meaning)\t\(got)\t\(rule)")
                    figures.right += 1
                } else {
                    misread.append("\(row.locale) \(row.now) \(row.phrase) → \(got), meant \(row.meaning)")
                }
            case .failure(let error):
                print("refused-numeric: \(row.locale) \(row.now) \(row.phrase)\t\(row.meaning)\t'\(error.token)' \(error.problem)")
            }
        }
        for (locale, f) in read.sorted(by: { $0.key < $1.key }) {
            print("figure: numeric-dates-\(locale): \(f.right) of \(f.clear) clear dates read right, \(f.refusedRight) of \(f.refusals) to refuse refused")
        }
        for line in misread { Issue.record("misread: \(line)") }
    }
}
