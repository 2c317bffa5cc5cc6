import Presentation
import NudgeCore

/// How a piece of text is drawn; the terminal layer maps each to colours or, without
/// colour, to bold, reverse and underline.
public enum Style: Sendable, Equatable {
    /// `bar`: the top line and boxes; `header`: headings and the focused label; `selected`:
    /// the selected row; `on`, `off`: a row's switch; `dim`: what is secondary; `key`: a
    /// key's name and the countdown; `error`: a failure; `field`, `focusedField`: a form's
    /// values.
    case normal, bar, header, selected, on, off, dim, key, error, field, focusedField
}

/// A run of text in one style.
public struct Span: Sendable, Equatable {
    /// The text; what passes the screen's edge is cut.
    public var text: String
    /// How the text is drawn.
    public var style: Style
    /// A run of `text`, in the normal style unless told.
    public init(_ text: String, _ style: Style = .normal) { (self.text, self.style) = (text, style) }
}

/// One screen: exactly `height` lines, each exactly `width` columns wide, and where the
/// cursor goes (a field being typed in), if anywhere.
public struct Frame: Sendable, Equatable {
    /// The lines, top to bottom, each as its spans in order.
    public var lines: [[Span]]
    /// Where the terminal's cursor stands (line and column, from 0); `nil` hides it.
    public var cursor: (line: Int, column: Int)?

    /// The same lines and the same cursor (written out: a tuple is not `Equatable`).
    public static func == (a: Frame, b: Frame) -> Bool {
        a.lines == b.lines && a.cursor?.line == b.cursor?.line && a.cursor?.column == b.cursor?.column
    }

    /// The lines as plain text (what `tmux capture-pane` shows).
    public var text: [String] { lines.map { $0.map(\.text).joined() } }
}

/// What is on screen for a model and a size: a pure function, so tests check it without a
/// terminal. The list fills the lines between the bar and headings at the top and the
/// message and keys lines at the bottom.
public enum Layout {
    /// The first line of rows, and the lines taken by everything else.
    public static let firstRow = 2, chrome = 4
    /// The switch column, "[off]", is this wide: a click left of it toggles.
    public static let switchWidth = 5

    /// How many rows fit at this height.
    public static func listHeight(_ height: Int) -> Int { max(height - chrome, 1) }

    /// The screen for `model` at `width` × `height` (each at least 1): the bar, the list or
    /// the form, the message, filter or countdown line, and the keys.
    public static func render(_ model: ScreenModel, width: Int, height: Int) -> Frame {
        let width = max(width, 1), height = max(height, 1)
        var lines: [[Span]] = []
        var cursor: (Int, Int)?
        lines.append(bar(model, width))
        if case .form(let form)? = model.overlay {
            let body = Self.form(form, width: width, height: max(height - 3, 0))
            lines += body.lines
            cursor = body.cursor.map { ($0.line + 1, $0.column) }
        } else {
            lines += list(model, width: width, height: max(height - 3, 0))
            if let overlay = model.overlay { box(overlay, over: &lines, width: width, height: height) }
        }
        // A message (what a key just did, or why typed text was cut) over the filter, which
        // shows again with the next key.
        if model.message == nil && (model.filterEditing || model.filter != nil) {
            let prompt = "/" + (model.filter ?? "")
            lines.append([Span(TextWidth.fit(prompt, width), model.filterEditing ? .focusedField : .dim)])
            if model.filterEditing { cursor = (lines.count - 1, min(TextWidth.of(prompt), width - 1)) }
        } else if let message = model.message {
            lines.append([Span(TextWidth.fit(message, width), model.messageIsError ? .error : .normal)])
        } else {
            // The status line, as calcurse's: what comes next and when, counting down.
            lines.append([Span(TextWidth.fit(model.countdown.map { " " + $0 } ?? "", width), .key)])
        }
        lines.append(footer(model.footer, width))
        // Exactly `height` lines: a terminal too short keeps the top (the bar and the list).
        if lines.count > height { lines = Array(lines.prefix(height)) }
        while lines.count < height { lines.append([Span(String(repeating: " ", count: width))]) }
        return Frame(lines: lines, cursor: cursor.flatMap { $0.0 < height && $0.1 < width ? (line: $0.0, column: $0.1) : nil })
    }

    private static func bar(_ model: ScreenModel, _ width: Int) -> [Span] {
        let right = model.status, left = " " + model.heading
        let gap = width - TextWidth.of(left) - TextWidth.of(right) - 1
        if gap >= 1 { return [Span(left + String(repeating: " ", count: gap) + right + " ", .bar)] }
        return [Span(TextWidth.fit(left + "  " + right, width), .bar)]
    }

    /// The keys that fit, in order, with the last two (help and quit) always kept: the
    /// ones before them give way from the end.
    private static func footer(_ keys: [ScreenModel.Key], _ width: Int) -> [Span] {
        func columns(_ key: ScreenModel.Key) -> Int { 2 + TextWidth.of(key.key) + 1 + TextWidth.of(key.action) }
        let pinned = keys.suffix(2)
        var room = width + 1 - pinned.map(columns).reduce(0, +)
        var shown: [ScreenModel.Key] = []
        for key in keys.dropLast(2) {
            guard columns(key) <= room else { break }
            shown.append(key)
            room -= columns(key)
        }
        shown += pinned
        var spans: [Span] = []
        var used = 0
        for key in shown {
            let piece = (used == 0 ? " " : "  ") + key.key, action = " " + key.action
            let w = TextWidth.of(piece) + TextWidth.of(action)
            guard used + w <= width else { break }
            spans += [Span(piece, .key), Span(action, .dim)]
            used += w
        }
        spans.append(Span(String(repeating: " ", count: width - used)))
        return spans
    }

    /// The column widths for the rows shown: switch, state, next, title, schedule.
    static func columns(_ model: ScreenModel, rows: ArraySlice<AlertRow>, width: Int) -> [Int] {
        let state = min(rows.map { TextWidth.of($0.state) }.max() ?? 0, 16)
        let next = min(max(rows.map { TextWidth.of($0.next) }.max() ?? 0, TextWidth.of(model.columns[1])), 26)
        // One space before the first column, two between columns; an empty column takes none.
        let fixed = [switchWidth, state, next].filter { $0 > 0 }
        let rest = max(width - fixed.reduce(0, +) - 1 - 2 * (fixed.count - 1) - 2 * 2, 2)
        // Title and schedule at their widths when both fit; else the schedule gives way
        // first, down to three fifths of the room.
        let title = rows.map { TextWidth.of($0.title) }.max() ?? 0
        let schedule = rows.map { TextWidth.of($0.schedule) }.max() ?? 0
        let titleWidth = title + schedule <= rest ? title : min(title, max(rest - schedule, rest * 2 / 5))
        return [switchWidth, state, next, titleWidth, max(rest - titleWidth, 0)]
    }

    private static func list(_ model: ScreenModel, width: Int, height: Int) -> [[Span]] {
        var lines: [[Span]] = []
        let rowsHeight = max(height - 1, 0)
        let shown = model.rows.dropFirst(model.top).prefix(rowsHeight)
        let widths = columns(model, rows: shown, width: width)
        func cells(_ values: [String], _ styles: [Style], fill: Style) -> [Span] {
            var spans: [Span] = []
            var used = 0
            for (i, value) in values.enumerated() where widths[i] > 0 {
                let separator = used == 0 ? " " : "  "
                let cell = TextWidth.fit(value, min(widths[i], max(width - used - separator.count, 0)))
                guard !cell.isEmpty else { break }
                spans += [Span(separator, fill), Span(cell, styles[i])]
                used += separator.count + TextWidth.of(cell)
            }
            if used < width { spans.append(Span(String(repeating: " ", count: width - used), fill)) }
            return spans
        }
        lines.append(cells(["", model.columns[0], model.columns[1], model.columns[2], model.columns[3]],
                           Array(repeating: .header, count: 5), fill: .header))
        if model.rows.isEmpty {
            lines.append([Span(TextWidth.fit(" " + model.empty, width), .dim)])
        }
        for (offset, row) in shown.enumerated() {
            let index = model.top + offset
            let selected = index == model.selected && model.overlay == nil
            let values = [row.on ? "[on]" : "[off]", row.state, row.next, row.title, row.schedule]
            let styles: [Style] = selected ? Array(repeating: .selected, count: 5)
                : [row.on ? .on : .off, .dim, row.on ? .normal : .dim, row.on ? .normal : .dim, .dim]
            lines.append(cells(values, styles, fill: selected ? .selected : .normal))
        }
        while lines.count < height { lines.append([Span(String(repeating: " ", count: width))]) }
        return lines
    }

    /// A framed box in the middle of the list, over what is there.
    private static func box(_ overlay: ScreenModel.Overlay, over lines: inout [[Span]], width: Int, height: Int) {
        let content: [String]
        switch overlay {
        case .help(let keys): content = keys
        case .confirm(let question): content = [question]
        case .occurrences(let title, let items): content = [title, ""] + items
        case .form: return
        }
        // A box needs its frame and a column inside: narrower, the list shows alone.
        guard width >= 5 else { return }
        let inner = min(max(content.map(TextWidth.of).max() ?? 0, 20), max(width - 6, 1))
        let boxHeight = min(content.count + 2, max(height - 4, 3))
        let top = max(1, (height - boxHeight) / 2)
        let left = max(0, (width - inner - 4) / 2)
        for i in 0..<boxHeight where top + i < lines.count {
            let text: String
            if i == 0 || i == boxHeight - 1 {
                text = (i == 0 ? "┌" : "└") + String(repeating: "─", count: inner + 2) + (i == 0 ? "┐" : "┘")
            } else {
                text = "│ " + TextWidth.fit(content.count > i - 1 ? content[i - 1] : "", inner) + " │"
            }
            lines[top + i] = [Span(String(repeating: " ", count: left)), Span(text, .bar),
                              Span(String(repeating: " ", count: max(width - left - TextWidth.of(text), 0)))]
        }
    }

    /// The form: a heading, a line per field, what is wrong, and the next occurrences.
    private static func form(_ form: FormView, width: Int, height: Int) -> (lines: [[Span]], cursor: (line: Int, column: Int)?) {
        var lines: [[Span]] = [[Span(TextWidth.fit(" " + form.heading, width), .header)]]
        var cursor: (line: Int, column: Int)?
        let labelWidth = min(max(form.fields.map { TextWidth.of($0.label) }.max() ?? 0, 8), 16)
        let boxWidth = max(min(width - labelWidth - 4, 48), 4)
        for (i, field) in form.fields.enumerated() {
            let focused = i == form.focus
            // Shown as the list shows it: a control or a bidirectional control is an escape
            // (`\u{202E}`) the cursor steps over as the one character it is.
            let shown = field.value.escapingControls
            var value = field.isChoice ? "‹ \(shown) ›" : shown
            var cursorColumn = 0
            if !field.isChoice {
                // The end of a long value, so the cursor stays in the box.
                // One pass: the characters dropped from the front until the rest fits.
                let beforeCursor = String(field.value.prefix(form.cursor)).escapingControls
                var over = TextWidth.of(beforeCursor) - (boxWidth - 1), shift = 0
                for character in beforeCursor where over > 0 {
                    over -= TextWidth.of(String(character))
                    shift += 1
                }
                value = String(shown.dropFirst(shift))
                cursorColumn = TextWidth.of(String(beforeCursor.dropFirst(shift)))
            }
            let label = " " + TextWidth.fit(field.label, labelWidth) + "  "
            var spans = [Span(label, focused ? .header : .normal), Span(TextWidth.fit(value, boxWidth), focused ? .focusedField : .field)]
            let used = TextWidth.of(label) + boxWidth
            let hint = focused && !field.hint.isEmpty ? TextWidth.fit("  " + field.hint, max(width - used, 0)) : ""
            spans.append(Span(hint, .dim))
            spans.append(Span(String(repeating: " ", count: max(width - used - TextWidth.of(hint), 0))))
            if focused && !field.isChoice { cursor = (lines.count, TextWidth.of(label) + cursorColumn) }
            lines.append(spans)
        }
        lines.append([Span(TextWidth.fit(form.error.map { " " + $0 } ?? "", width), .error)])
        lines.append([Span(TextWidth.fit(" " + form.previewHeading, width), .header)])
        for item in form.preview { lines.append([Span(TextWidth.fit("   " + item, width), .dim)]) }
        if lines.count > height { lines = Array(lines.prefix(height)) }
        while lines.count < height { lines.append([Span(String(repeating: " ", count: width))]) }
        return (lines, cursor)
    }
}
