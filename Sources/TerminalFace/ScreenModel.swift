import Presentation

/// Everything `nudge ui` shows, as plain values: the alerts as rows of words already in
/// the person's language and locale, what is selected, and what is open over the list.
/// ``Layout/render(_:width:height:)`` turns it into the screen's lines; nothing here
/// touches a terminal.
public struct ScreenModel: Sendable, Equatable {
    /// What is open over the list.
    public enum Overlay: Sendable, Equatable {
        /// The keys, one line each.
        case help([String])
        /// "Delete …? y/n".
        case confirm(String)
        /// A heading and the next occurrences.
        case occurrences(title: String, lines: [String])
        /// The add/edit form.
        case form(FormView)
    }

    /// The rows, soonest first (already filtered).
    public var rows: [AlertRow] = []
    /// The selected row's index.
    public var selected = 0
    /// The first row shown.
    public var top = 0
    /// What shows next and the countdown to it ("Next: Stretch, in 12 min"), on the status
    /// line when no message is there; `nil` when nothing is due.
    public var countdown: String?
    /// The bar's left part (the program) and right part (daemon, unanswered, water).
    public var heading = "", status = ""
    /// The column headings: state, next, title, schedule.
    public var columns = ["", "", "", ""]
    /// The filter as typed, while it is being typed or applied; `nil` for none.
    public var filter: String?
    /// The filter is being typed.
    public var filterEditing = false
    /// A message under the list: what a key just did, or why it failed; `nil` for none.
    public var message: String?
    /// Whether ``message`` reports a failure (drawn in the error style).
    public var messageIsError = false
    /// A key and what it does, for the bottom line.
    public struct Key: Sendable, Equatable {
        /// The key as shown (`q`, `↑↓`, `Enter`) and what it does ("quit"), for the bottom
        /// line and the help.
        public var key: String, action: String
        /// A key and what it does, in that order.
        public init(_ key: String, _ action: String) { (self.key, self.action) = (key, action) }
    }

    /// The keys line at the bottom.
    public var footer: [Key] = []
    /// Said when there are no rows.
    public var empty = ""
    /// What is open over the list; `nil` for the list alone.
    public var overlay: Overlay?

    /// An empty screen: no rows, nothing open; the controller fills it in.
    public init() {}

    /// Keeps the selection on a row and in view for a list `height` rows tall.
    public mutating func keepSelectionVisible(height: Int) {
        selected = rows.isEmpty ? 0 : min(max(selected, 0), rows.count - 1)
        let height = max(height, 1)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = max(0, min(top, max(rows.count - height, 0)))
    }
}

/// The add/edit form as shown: its fields, which has the cursor, and what the schedule
/// would do.
public struct FormView: Sendable, Equatable {
    /// One line of the form: a label, a value and a hint.
    public struct Field: Sendable, Equatable {
        /// The field's name ("Title"), in the person's language.
        public var label: String
        /// What is in it: the text as typed, or the choice in words.
        public var value: String
        /// A choice among fixed values (shown with arrows), not free text.
        public var isChoice: Bool
        /// Greyed words after the value: what may be typed.
        public var hint: String

        /// Free text unless `isChoice`; no hint unless one is given.
        public init(label: String, value: String, isChoice: Bool = false, hint: String = "") {
            (self.label, self.value, self.isChoice, self.hint) = (label, value, isChoice, hint)
        }
    }

    /// "Add a reminder" or "Edit the reminder".
    public var heading: String
    /// The fields shown, in order.
    public var fields: [Field]
    /// The index of the field with the cursor.
    public var focus: Int
    /// The cursor's place in that field's value, in characters.
    public var cursor: Int
    /// What is wrong with the form as it stands, in the CLI's words.
    public var error: String?
    /// The preview's heading: "Next:", or for words what they were read as.
    public var previewHeading: String
    /// The preview's lines: the next showings (for words, after what was chosen on the
    /// person's behalf); empty while the form has an error.
    public var preview: [String]

    /// A form from words already made (the other initializer makes them from an
    /// ``AlertForm``).
    public init(heading: String, fields: [Field], focus: Int, cursor: Int, error: String?, previewHeading: String, preview: [String]) {
        (self.heading, self.fields, self.focus, self.cursor, self.error) = (heading, fields, focus, cursor, error)
        (self.previewHeading, self.preview) = (previewHeading, preview)
    }
}
