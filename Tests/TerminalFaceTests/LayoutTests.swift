import Presentation
import TerminalFace
import NudgeCore
import Testing

/// What `nudge ui` shows for a state and a size, checked without a terminal.
struct LayoutTests {
    static let rows = [
        AlertRow(id: "a1", on: true, state: "", title: "Drink water", schedule: "every 30 min, 09:30–21:30, Mon–Fri",
                        next: "Mon 23 Nov 09:30"),
        AlertRow(id: "b2", on: true, state: "snoozed", title: "물 마시기", schedule: "daily at 13:00", next: "Mon 23 Nov 13:00"),
        AlertRow(id: "c3", on: false, state: "", title: "스트레칭 🧘 break", schedule: "Sat, Sun at 10:00", next: "—"),
    ]

    static func model(rows: [AlertRow] = rows) -> ScreenModel {
        var model = ScreenModel()
        model.rows = rows
        model.heading = "Nudge — \(rows.count) reminders"
        model.status = "daemon running · 2 unanswered"
        model.columns = ["STATE", "NEXT", "TITLE", "SCHEDULE"]
        model.countdown = "Next: Drink water, in 12 min"
        model.footer = [.init("↑↓", "move"), .init("space", "on/off"), .init("a", "add"), .init("q", "quit")]
        model.empty = "No reminders yet: press a to add one."
        return model
    }

    /// A form as the screen shows one, with a long value and the cursor in it.
    static let form = FormView(heading: "Add a reminder",
                               fields: [.init(label: "Title", value: String(repeating: "물 마시기 ", count: 40)),
                                        .init(label: "Schedule", value: "daily at", isChoice: true, hint: "←/→ to change"),
                                        .init(label: "At", value: "09:30", hint: "09:30, 13:00")],
                               focus: 0, cursor: 200, error: "invalid time 25:00", previewHeading: "Next:",
                               preview: ["Mon 09:30", "Tue 09:30"])

    /// Every size down to one cell, every overlay (the form too: a terminal made one or
    /// two lines high with a form open trapped on a negative count).
    @Test(arguments: [(80, 24), (20, 5), (200, 60), (81, 25), (1, 1), (40, 3), (80, 1), (80, 2), (3, 2), (300, 1), (2, 4)])
    func everyLineFillsTheWidthAndTheFrameTheHeight(width: Int, height: Int) {
        for overlay: ScreenModel.Overlay? in [nil, .help(["q quit", "a add"]), .confirm("Delete “물 마시기”?"),
                                              .occurrences(title: "Next", lines: ["Mon 09:30", "Tue 09:30"]), .form(Self.form)] {
            var model = Self.model()
            model.overlay = overlay
            let frame = Layout.render(model, width: width, height: height)
            #expect(frame.lines.count == height)
            for line in frame.text { #expect(TextWidth.of(line) == width, "\(line)") }
            if let cursor = frame.cursor { #expect(cursor.line < height && cursor.column < width, "\(cursor)") }
        }
    }

    @Test func theTableAtEightyByTwentyFour() {
        let text = Layout.render(Self.model(), width: 80, height: 24).text
        #expect(text[0].hasPrefix(" Nudge — 3 reminders"))
        #expect(text[0].hasSuffix("daemon running · 2 unanswered "))
        #expect(text[1].contains("NEXT") && text[1].contains("TITLE") && text[1].contains("SCHEDULE"))
        #expect(text[2].hasPrefix(" [on]"))
        #expect(text[2].contains("Drink water") && !text[2].contains("in 12 min"))
        #expect(text[3].contains("snoozed"))
        // The status line counts down to what is next, unless a message is there.
        #expect(text[22].hasPrefix(" Next: Drink water, in 12 min"))
        #expect(text[4].hasPrefix(" [off]"))
        #expect(text[23].hasPrefix(" ↑↓ move  space on/off  a add  q quit"))
    }

    /// Korean (two columns a character) and emoji line up with ASCII: every row's title and
    /// schedule start in the same column.
    @Test func wideCharactersAlign() {
        let text = Layout.render(Self.model(), width: 100, height: 10).text
        func column(of needle: String, in line: String) -> Int? {
            guard let range = line.range(of: needle) else { return nil }
            return TextWidth.of(String(line[..<range.lowerBound]))
        }
        let titles = [column(of: "Drink water", in: text[2]), column(of: "물 마시기", in: text[3]), column(of: "스트레칭", in: text[4])]
        #expect(Set(titles).count == 1 && titles[0] != nil)
        let schedules = [column(of: "every 30", in: text[2]), column(of: "daily at", in: text[3]), column(of: "Sat, Sun", in: text[4])]
        #expect(Set(schedules).count == 1 && schedules[0] != nil)
    }

    @Test func theSelectedRowAndTheSwitchesHaveTheirStyles() {
        var model = Self.model()
        model.selected = 1
        let frame = Layout.render(model, width: 80, height: 24)
        #expect(frame.lines[3].allSatisfy { $0.style == .selected })
        #expect(frame.lines[2].contains { $0.text.hasPrefix("[on]") && $0.style == .on })
        #expect(frame.lines[4].contains { $0.text.hasPrefix("[off]") && $0.style == .off })
        #expect(frame.lines[0].allSatisfy { $0.style == .bar })
        #expect(frame.cursor == nil)
    }

    @Test func theKeysThatDoNotFitGiveWayButHelpAndQuitStay() {
        var model = Self.model()
        model.footer = [.init("↑↓", "move"), .init("space", "on/off"), .init("a", "add"), .init("e", "edit"), .init("d", "delete"),
                        .init("?", "help"), .init("q", "quit")]
        #expect(Layout.render(model, width: 80, height: 24).text[23].hasPrefix(" ↑↓ move  space on/off  a add  e edit  d delete  ? help  q quit"))
        #expect(Layout.render(model, width: 40, height: 24).text[23] == " ↑↓ move  space on/off  ? help  q quit  ")
        #expect(Layout.render(model, width: 10, height: 24).text[23] == " ? help   ")
    }

    @Test func anEmptyListSaysWhatToDo() {
        var model = Self.model(rows: [])
        model.countdown = nil
        let text = Layout.render(model, width: 80, height: 24).text
        #expect(text[2].hasPrefix(" No reminders yet: press a to add one."))
    }

    @Test func aLongTitleIsCutWithAnEllipsisNeverThroughAWideCharacter() {
        let long = String(repeating: "물", count: 60)
        let model = Self.model(rows: [AlertRow(id: "x", on: true, state: "", title: long, schedule: "daily at 09:00", next: "Mon 09:00")])
        let line = Layout.render(model, width: 80, height: 24).text[2]
        #expect(line.contains("…"))
        #expect(line.contains("daily at 09:00"))
        #expect(TextWidth.of(line) == 80)
    }

    @Test func theListScrollsToKeepTheSelectionInView() {
        var model = Self.model(rows: (0..<100).map { AlertRow(id: "\($0)", on: true, state: "", title: "alert \($0)", schedule: "daily",
                                                                     next: "—") })
        model.selected = 50
        model.keepSelectionVisible(height: Layout.listHeight(24) - 1)
        let text = Layout.render(model, width: 80, height: 24).text
        #expect(text.contains { $0.contains("alert 50 ") })
        #expect(!text.contains { $0.contains("alert 0 ") })
        model.selected = 1_000
        model.keepSelectionVisible(height: 19)
        #expect(model.selected == 99 && model.top == 81)
        model.selected = -5
        model.keepSelectionVisible(height: 19)
        #expect(model.selected == 0 && model.top == 0)
    }

    @Test func theFilterIsTypedOnTheMessageLineWithTheCursorAtItsEnd() {
        var model = Self.model()
        model.filter = "물"
        model.filterEditing = true
        let frame = Layout.render(model, width: 80, height: 24)
        #expect(frame.text[22].hasPrefix("/물 "))
        #expect(frame.cursor?.line == 22 && frame.cursor?.column == 3)
    }

    @Test func aMessageAndAnErrorShowAboveTheKeys() {
        var model = Self.model()
        model.message = "nudge: --at: “25:00” is not a time"
        model.messageIsError = true
        let frame = Layout.render(model, width: 80, height: 24)
        #expect(frame.text[22].hasPrefix("nudge: --at"))
        #expect(frame.lines[22].first?.style == .error)
    }

    @Test func aBoxStaysInsideTheScreen() {
        var model = Self.model()
        model.overlay = .help((0..<40).map { "key \($0)   what it does" })
        let text = Layout.render(model, width: 80, height: 24).text
        #expect(text.contains { $0.contains("┌") })
        #expect(text.contains { $0.contains("└") })
        #expect(text[23].hasPrefix(" ↑↓ move"))
    }

    @Test func theFormPutsTheCursorInTheFocusedFieldAndShowsTheError() {
        let form = FormView(heading: "Add a reminder",
                            fields: [.init(label: "Title", value: "물 마시기"), .init(label: "Schedule", value: "daily at", isChoice: true),
                                     .init(label: "At", value: "25:00", hint: "09:30, 13:00")],
                            focus: 2, cursor: 2, error: "nudge: “25:00” is not a time", previewHeading: "Next:", preview: [])
        var model = Self.model()
        model.overlay = .form(form)
        let frame = Layout.render(model, width: 80, height: 24)
        let text = frame.text
        #expect(text[1].hasPrefix(" Add a reminder"))
        #expect(text[2].contains("물 마시기"))
        #expect(text[3].contains("‹ daily at ›"))
        #expect(text[4].contains("25:00") && text[4].contains("09:30, 13:00"))
        #expect(text[5].contains("is not a time"))
        // The label column is 8 wide: " " + label + "  ", then the value; the cursor after "25".
        #expect(frame.cursor?.line == 4 && frame.cursor?.column == 1 + 8 + 2 + 2)
        for line in text { #expect(TextWidth.of(line) == 80) }
    }

    @Test func aBidirectionalControlInAFieldIsShownEscapedAndTheCursorStepsOverIt() {
        // "ab", RIGHT-TO-LEFT OVERRIDE, "cd": raw, the terminal would draw "ab" then "dc".
        let form = FormView(heading: "Edit", fields: [.init(label: "Title", value: "ab\u{202E}cd")], focus: 0, cursor: 3, error: nil,
                            previewHeading: "Next:", preview: [])
        var model = Self.model()
        model.overlay = .form(form)
        let frame = Layout.render(model, width: 80, height: 24)
        let line = frame.text[2]
        #expect(line.contains("ab\\u{202E}cd"), "\(line)")
        #expect(!line.unicodeScalars.contains { $0.isEscapedForDisplay })
        // Three characters in: after the whole escape, before "c".
        #expect(frame.cursor?.line == 2 && frame.cursor?.column == 1 + 8 + 2 + "ab\\u{202E}".count)
        for line in frame.text { #expect(TextWidth.of(line) == 80) }
    }

    @Test func aLongFieldScrollsSoTheCursorStaysInTheBox() {
        let value = String(repeating: "가", count: 100)
        let form = FormView(heading: "Edit", fields: [.init(label: "Title", value: value)], focus: 0, cursor: 100, error: nil,
                            previewHeading: "Next:", preview: ["Mon 09:30"])
        var model = Self.model()
        model.overlay = .form(form)
        let frame = Layout.render(model, width: 80, height: 24)
        let cursor = try! #require(frame.cursor)
        #expect(cursor.column < 80)
        #expect(TextWidth.of(frame.text[cursor.line]) == 80)
    }
}

struct TextWidthTests {
    @Test(arguments: [("abc", 3), ("물", 2), ("물 마시기", 9), ("e\u{301}", 1), ("🧘", 2), ("", 0), ("✓", 1), ("\u{202E}ab", 2), ("a\u{FEFF}", 1)])
    func columns(text: String, width: Int) {
        #expect(TextWidth.of(text) == width)
    }

    @Test func fitPadsAndCuts() {
        #expect(TextWidth.fit("ab", 4) == "ab  ")
        #expect(TextWidth.fit("abcdef", 4) == "abc…")
        // "물물" is 4 columns: cut to 3 it is "물…", and to 4 it is itself.
        #expect(TextWidth.fit("물물물", 4) == "물… ")
        #expect(TextWidth.fit("물물", 4) == "물물")
        #expect(TextWidth.fit("anything", 0) == "")
        for width in 1...12 { #expect(TextWidth.of(TextWidth.fit("물 마시기 🧘 water", width)) == width) }
    }
}
