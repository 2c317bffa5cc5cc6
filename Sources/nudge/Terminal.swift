import NudgeKit
import Foundation
import AlertScreen
import NudgeCore
#if canImport(Glibc)
import Glibc
import Platform
#endif

/// Writing for a person: times in their locale, colour only on a terminal, columns that
/// line up with wide (CJK) characters.
struct Terminal {
    /// How times are written.
    let wording: TimeWording
    /// Whether to use ANSI colour.
    let colour: Bool

    init(environment: Environment = .current, isTerminal: Bool = isatty(1) == 1) {
        // A locale the C library lacks is C's, as for every other program on the machine
        // (and as gettext leaves the messages English).
        wording = Self.wording(locale: environment.installedLocale("LC_TIME"))
        colour = isTerminal && environment.allowsColour
    }

    /// 24-hour ISO for C/POSIX (and for a locale that is not installed); otherwise the
    /// locale's own clock (`오전 9:30`, `9:30 AM`, `09:30`).
    static func wording(locale name: String?) -> TimeWording {
        guard let name else {
            return TimeWording(time: \.description) { instant, zone in
                let (day, second) = ZoneClock(zone).local(instant)
                return "\(day.weekday.shortName) \(day) \(LocalTime(hour: second / 3600, minute: second / 60 % 60)!)"
            }
        }
        let locale = Locale(identifier: name)
        let utc = TimeZone(identifier: "UTC")!
        let clock = formatter(locale, template: "jmm", zone: utc)
        let instant = formatter(locale, template: "EEEMMMdjmm", zone: utc)
        return TimeWording(time: { time in
            clock.lock.withLock { clock.formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time.secondOfDay))) }
        }, instant: { date, zone in
            instant.lock.withLock {
                instant.formatter.timeZone = zone
                return instant.formatter.string(from: date)
            }
        })
    }

    /// A DateFormatter shared by the wording's closures (it is not thread-safe).
    private final class Shared: @unchecked Sendable {
        let formatter: DateFormatter
        let lock = NSLock()
        init(_ formatter: DateFormatter) { self.formatter = formatter }
    }

    private static func formatter(_ locale: Locale, template: String, zone: TimeZone) -> Shared {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = zone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return Shared(formatter)
    }

    /// Text in an ANSI colour (SGR code), or as it is when colour is off.
    func paint(_ text: String, _ sgr: String) -> String {
        colour ? "\u{1B}[\(sgr)m\(text)\u{1B}[0m" : text
    }

    /// Lines up rows in columns separated by two spaces; the last column is not padded.
    /// `paints` gives a colour per cell (applied after measuring).
    func table(_ rows: [[String]], paints: [[String?]] = []) -> String {
        // Text from the store never reaches the terminal raw: no escape moves the cursor,
        // and no line break splits a row.
        let rows = rows.map { $0.map(\.escapingControls) }
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], TextWidth.of(cell)) }
        }
        return rows.enumerated().map { r, row in
            row.enumerated().map { i, cell in
                let padded = i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - TextWidth.of(cell))
                let sgr = r < paints.count && i < paints[r].count ? paints[r][i] : nil
                return sgr.map { paint(padded, $0) } ?? padded
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
