import NudgeKit
import Foundation
import Presentation
import NudgeCore
#if canImport(Glibc)
import Glibc
import Platform
#endif

/// Writing for a person: times in their locale, colour only on a terminal, columns that
/// line up with wide (CJK) characters.
public struct Terminal {
    /// How times are written.
    public let timeStyle: TimeStyle
    /// Whether to use ANSI colour.
    public let colour: Bool

    /// Times in the person's `LC_TIME`; colour when `isTerminal` (stdout, unless told) and
    /// neither `NO_COLOR` is set nor `TERM` is `dumb`.
    public init(environment: Environment = .current, isTerminal: Bool = isatty(1) == 1) {
        timeStyle = TimeStyle.person(environment: environment)
        colour = isTerminal && environment.allowsColour
    }

    /// Text in an ANSI colour (SGR code), or as it is when colour is off.
    public func paint(_ text: String, _ sgr: String) -> String {
        colour ? "\u{1B}[\(sgr)m\(text)\u{1B}[0m" : text
    }

    /// Lines up rows in columns separated by two spaces; the last column is not padded.
    /// `paints` gives a colour per cell (applied after measuring).
    public func table(_ rows: [[String]], paints: [[String?]] = []) -> String {
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
