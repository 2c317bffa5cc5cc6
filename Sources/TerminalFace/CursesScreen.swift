import NudgeKit
import Presentation
import CNcurses
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// The terminal under `nudge ui`, through ncursesw: raw keys (Ctrl-C and Ctrl-Z arrive as
/// keys), the mouse where the terminal reports clicks, colours unless `NO_COLOR`, and the
/// terminal given back as it was on every way out: ``stop()``, and from a crash a signal
/// handler that puts back the saved terminal modes before the program dies.
final class CursesScreen {
    /// A key or a click, as the UI reads it.
    enum Input: Equatable {
        case character(Character)
        case up, down, left, right, home, end, pageUp, pageDown
        case enter, escape, backspace, delete, tab, backTab
        /// Ctrl with a letter (`c` for Ctrl-C).
        case control(Character)
        /// A click (`double` for a double click) or the wheel (`wheel` -1 up, 1 down) at a cell.
        case click(line: Int, column: Int, double: Bool)
        case wheel(Int)
        case resize
        /// Text the terminal marked as pasted (bracketed paste, `ESC [ 200 ~` … `ESC [ 201 ~`):
        /// one input, never keys. Line breaks are "\n"; at most ``pasteLimit`` bytes kept.
        case paste(String)
        /// The marks themselves, which ``read()`` consumes.
        case pasteBegins, pasteEnds
    }

    /// The most of one paste kept: more than any field holds, so a field still says so.
    static let pasteLimit = 1 << 16
    /// A paste under way: what has arrived of it (it may come over several reads).
    private var pasting: String?

    private let colour: Bool
    /// The whole screen (ncurses' `window`).
    private let window: UnsafeMutablePointer<WINDOW>
    private(set) var height = 24, width = 80

    /// Takes over the terminal (stdin and stdout must both be one).
    init(colour: Bool) {
        self.colour = colour
        // Wide characters need a UTF-8 character type; C.UTF-8 when the person's is not.
        setlocale(LC_CTYPE, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        window = initscr()!
        raw()
        noecho()
        nonl()
        keypad(window, true)
        nodelay(window, true)
        set_escdelay(25)
        bracketedPaste(true)
        // Clicks, double clicks and the wheel; no drag tracking (no motion events).
        _ = mousemask(nudge_button1_clicked | nudge_button1_double_clicked | nudge_button1_pressed | nudge_button1_released
                      | nudge_button4_pressed | nudge_button5_pressed, nil)
        mouseinterval(200)
        if colour && has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_GREEN), -1)
            init_pair(2, Int16(COLOR_RED), -1)
            init_pair(3, Int16(COLOR_CYAN), -1)
            init_pair(4, Int16(COLOR_BLACK), Int16(COLOR_CYAN))
        }
        measure()
    }

    /// Gives the terminal back: normal modes, the main screen, the cursor.
    func stop() {
        bracketedPaste(false)
        curs_set(1)
        endwin()
    }

    /// Ctrl-Z or SIGTSTP: the terminal back, the process stopped; on `fg` the screen
    /// comes back on the next draw.
    func suspend() {
        bracketedPaste(false)
        endwin()
        stopSelf()
        resumed()
    }

    /// After SIGCONT or a resize: the terminal's size read again and the screen redrawn whole.
    func resumed() {
        bracketedPaste(true)
        measure()
        clearok(window, true)
    }

    /// Asks the terminal to mark pasted text (xterm's mode 2004; a terminal without it
    /// ignores the request), so that a paste into the list is not taken as keys.
    private func bracketedPaste(_ on: Bool) {
        let request: StaticString = on ? "\u{1B}[?2004h" : "\u{1B}[?2004l"
        _ = write(1, request.utf8Start, request.utf8CodeUnitCount)
    }

    private func measure() {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
            resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        (height, width) = (Int(getmaxy(window)), Int(getmaxx(window)))
    }

    /// Draws a frame; ncurses sends only the cells that changed.
    func draw(_ frame: Frame) {
        for (y, line) in frame.lines.enumerated() where y < height {
            wmove(window, Int32(y), 0)
            var x = 0
            for span in line {
                let attributes = attributes(span.style)
                wattrset(window, attributes)
                // The bottom-right cell cannot be written without scrolling: stop short.
                let room = y == height - 1 ? width - 1 - x : width - x
                guard room > 0 else { break }
                // The layout fitted the line: only the last cell is cut, and without "…".
                let text = TextWidth.of(span.text) > room ? Self.cut(span.text, room) : span.text
                _ = waddstr(window, text)
                x += TextWidth.of(text)
            }
        }
        wattrset(window, 0)
        if let cursor = frame.cursor {
            curs_set(1)
            wmove(window, Int32(cursor.line), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(window)
    }

    /// The text's first `columns` columns.
    private static func cut(_ text: String, _ columns: Int) -> String {
        var used = 0
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix { scalar in
            used += TextWidth.of(scalar)
            return used <= columns
        }))
    }

    private func attributes(_ style: Style) -> Int32 {
        let attr: attr_t
        switch style {
        case .normal: attr = 0
        case .bar: attr = colour ? nudge_color_pair(4) : nudge_a_reverse
        case .header: attr = nudge_a_bold
        case .selected: attr = nudge_a_reverse
        case .on: attr = colour ? nudge_color_pair(1) | nudge_a_bold : nudge_a_bold
        case .off: attr = colour ? nudge_color_pair(2) : nudge_a_dim
        case .dim: attr = nudge_a_dim
        case .key: attr = colour ? nudge_color_pair(3) | nudge_a_bold : nudge_a_bold
        case .error: attr = colour ? nudge_color_pair(2) | nudge_a_bold : nudge_a_bold
        case .field: attr = nudge_a_underline
        case .focusedField: attr = nudge_a_reverse
        }
        return Int32(bitPattern: UInt32(truncatingIfNeeded: attr))
    }

    /// Every key and click waiting now.
    func read() -> [Input] {
        var inputs: [Input] = []
        var key: wint_t = 0
        // An end mark read: the paste ends with this read, and what follows the mark in it
        // is the paste's too (pasted text may hold an end mark of its own: its tail must
        // not run as keys).
        var ended = false
        while true {
            var kind = wget_wch(window, &key)
            if kind == ERR, let text = pasting {
                if !ended {
                    // The rest of a paste is on its way (a slow link), or it never comes (a
                    // mark typed by hand, a terminal cut off): a second of nothing ends it.
                    wtimeout(window, 1000)
                    kind = wget_wch(window, &key)
                    nodelay(window, true)
                }
                if kind == ERR {
                    inputs.append(.paste(text))
                    pasting = nil
                }
            }
            if kind == ERR { break }
            if pasting != nil, kind != KEY_CODE_YES, key != 27 {
                // Inside a paste every character is text, Enter and Tab too.
                let scalar = key == 13 ? "\n" : Unicode.Scalar(UInt32(key)).map(Character.init)
                if let scalar, pasting!.utf8.count < Self.pasteLimit { pasting!.append(scalar) }
                continue
            }
            if kind == KEY_CODE_YES {
                if pasting != nil { continue }
                if let input = special(Int32(key)) { inputs.append(input) }
                continue
            }
            switch key {
            case 27:
                // ncurses hands over a sequence its terminal description lacks (End sends
                // `ESC [ 99 ~` under tmux with TERM=xterm-256color) byte by byte, all at
                // once: such a key is read whole and known or dropped, never taken for Esc.
                switch escapeSequence() {
                case .some(.pasteBegins?):
                    // A begin mark inside a paste is part of its text.
                    if pasting == nil { pasting = "" }
                case .some(.pasteEnds?):
                    if pasting == nil {
                        // An end with no paste open: the tail of one that paused longer
                        // than the wait. What this read took as keys before it was text.
                        let start = (inputs.lastIndex { if case .paste = $0 { true } else { false } }).map { $0 + 1 } ?? 0
                        pasting = inputs[start...].map(Self.text).joined()
                        inputs.removeSubrange(start...)
                    }
                    ended = true
                case .some(let input?) where pasting == nil: inputs.append(input)
                case nil where pasting == nil: inputs.append(.escape)
                default: break
                }
            case 13, 10: inputs.append(.enter)
            case 9: inputs.append(.tab)
            case 127, 8: inputs.append(.backspace)
            case 1...26: inputs.append(.control(Character(Unicode.Scalar(UInt8(key) + 96))))
            default:
                if let scalar = Unicode.Scalar(UInt32(key)), scalar.value >= 32 { inputs.append(.character(Character(scalar))) }
            }
        }
        return inputs
    }

    /// What a key read as one stands for as pasted text ("" for a key that types none).
    private static func text(_ input: Input) -> String {
        switch input {
        case .character(let c): String(c)
        case .enter: "\n"
        case .tab: "\t"
        default: ""
        }
    }

    /// After an ESC: `nil` when nothing follows it at once (the Esc key); else the rest of
    /// a CSI or SS3 sequence read and turned into the key it names, `.some(nil)` when it
    /// names none Nudge uses. ESC with another character is Esc, and the character is
    /// read next.
    private func escapeSequence() -> Input?? {
        var key: wint_t = 0
        // A sequence cut between two reads (a long one, or a slow link) waits a moment for
        // its rest instead of leaking it as typed text.
        wtimeout(window, 25)
        defer { nodelay(window, true) }
        guard wget_wch(window, &key) != ERR else { return nil }
        // `ESC [` (CSI) or `ESC O` (SS3, which xterm also sends with modifiers: `ESC O 5 Q`):
        // parameter and intermediate bytes, then one final byte (ECMA-48 § 5.4). A
        // sequence cut short or absurdly long ends where it ends.
        // A string sequence — OSC (`ESC ]`, a terminal's reply to a colour query), DCS
        // (`ESC P`), APC, PM, SOS — runs to BEL or ST (`ESC \\`): read whole, never keys.
        if [0x5D, 0x50, 0x5F, 0x5E, 0x58].contains(key) {
            var escaped = false, read = 0
            while wget_wch(window, &key) != ERR, read < 1 << 20 {
                read += 1
                if key == 0x07 || key == 0x9C || (escaped && key == 0x5C) { break }
                escaped = key == 0x1B
            }
            return .some(nil)
        }
        guard key == 0x5B || key == 0x4F else {
            // Esc, then another key typed at once (a script, or a fast hand): both count.
            unget_wch(wchar_t(bitPattern: UInt32(key)))
            return nil
        }
        var parameters = ""
        while wget_wch(window, &key) != ERR {
            guard let scalar = Unicode.Scalar(UInt32(key)), (0x20...0x7E).contains(scalar.value) else {
                // A sequence cut short by the next one's ESC: that one is read whole next.
                if key == 27 { unget_wch(27) }
                return .some(nil)
            }
            if (0x40...0x7E).contains(scalar.value) {
                // An X10 mouse report (`ESC [ M` and three bytes), from a terminal that
                // ignored the request for SGR reports: its bytes are not keys either.
                if scalar == "M" && parameters.isEmpty {
                    for _ in 0..<3 where wget_wch(window, &key) != ERR {}
                    return .some(nil)
                }
                return .some(parameters.count <= 32 ? Self.csi(parameters, final: Character(scalar)) : nil)
            }
            // Read to its end however long, kept only as long as a real key's.
            if parameters.count <= 32 { parameters.unicodeScalars.append(scalar) }
        }
        return .some(nil)
    }

    /// The key a CSI or SS3 sequence names (xterm's and the VT220's), ignoring modifiers.
    private static func csi(_ parameters: String, final: Character) -> Input? {
        let first = parameters.split(separator: ";").first.flatMap { Int($0) }
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "~":
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case 200: return .pasteBegins
            case 201: return .pasteEnds
            default: return nil
            }
        default: return nil
        }
    }

    private func special(_ key: Int32) -> Input? {
        switch key {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .backTab
        case KEY_RESIZE: .resize
        case KEY_MOUSE: mouse()
        default: nil
        }
    }

    private func mouse() -> Input? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        if event.bstate & nudge_button4_pressed != 0 { return .wheel(-1) }
        if event.bstate & nudge_button5_pressed != 0 { return .wheel(1) }
        if event.bstate & (nudge_button1_clicked | nudge_button1_released | nudge_button1_double_clicked) != 0 {
            return .click(line: Int(event.y), column: Int(event.x), double: event.bstate & nudge_button1_double_clicked != 0)
        }
        return nil
    }
}

// MARK: Crashes

/// The terminal's modes before ncurses changed them, the stderr to give back, and the
/// handlers that were there (the Swift runtime's backtracer), for the crash handler, which
/// may use only async-signal-safe calls (write, tcsetattr, dup2, sigaction, raise).
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var savedStderrForCrashes: Int32 = -1
nonisolated(unsafe) private var previousHandlers = [Glibc.sigaction](repeating: Glibc.sigaction(), count: 32)

/// From now on a crash first gives the terminal back (and stderr, which `nudge ui` reads
/// itself), then dies as it would have.
func restoreTerminalOnCrash(stderr: Int32) {
    savedStderrForCrashes = stderr
    guard tcgetattr(0, &savedModes) == 0 else { return }
    for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
        var action = Glibc.sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            // Mouse reports off, cursor on, the main screen back, the saved modes.
            let reset: StaticString = "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l\u{1B}[0m\r\n"
            _ = write(1, reset.utf8Start, reset.utf8CodeUnitCount)
            _ = tcsetattr(0, TCSANOW, &savedModes)
            if savedStderrForCrashes >= 0 { _ = dup2(savedStderrForCrashes, 2) }
            // The runtime's handler prints the backtrace; it returns for a signal sent
            // by another process, so then the default action ends the program.
            _ = sigaction(signal, &previousHandlers[Int(signal)], nil)
            raise(signal)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        // Delivered again inside the handler (the raises above), not after it.
        action.sa_flags = Int32(SA_NODEFER)
        sigaction(signal, &action, &previousHandlers[Int(signal)])
    }
}
