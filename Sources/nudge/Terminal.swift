import Foundation
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
        wording = Self.wording(locale: environment.locale("LC_TIME"))
        colour = isTerminal && environment.allowsColour
    }

    /// 24-hour ISO for C/POSIX; otherwise the locale's own clock (`오전 9:30`, `9:30 AM`, `09:30`).
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
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], Self.width(cell)) }
        }
        return rows.enumerated().map { r, row in
            row.enumerated().map { i, cell in
                let padded = i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - Self.width(cell))
                let sgr = r < paints.count && i < paints[r].count ? paints[r][i] : nil
                return sgr.map { paint(padded, $0) } ?? padded
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Columns a string takes in a terminal: East Asian wide characters and emoji take
    /// two, combining marks and joiners none.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            let v = scalar.value
            switch v {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x20D0...0x20FF: return sum
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                return sum + 2
            default: return sum + (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1)
            }
        }
    }
}
