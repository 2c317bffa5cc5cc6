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
    /// A message under the list, and whether it reports a failure.
    public var message: String?
    public var messageIsError = false
    /// A key and what it does, for the bottom line.
    public struct Key: Sendable, Equatable {
        public var key: String, action: String
        public init(_ key: String, _ action: String) { (self.key, self.action) = (key, action) }
    }

    /// The keys line at the bottom.
    public var footer: [Key] = []
    /// Said when there are no rows.
    public var empty = ""
    public var overlay: Overlay?

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
    public struct Field: Sendable, Equatable {
        public var label: String
        public var value: String
        /// A choice among fixed values (shown with arrows), not free text.
        public var isChoice: Bool
        /// Greyed words after the value: what may be typed.
        public var hint: String

        public init(label: String, value: String, isChoice: Bool = false, hint: String = "") {
            (self.label, self.value, self.isChoice, self.hint) = (label, value, isChoice, hint)
        }
    }

    public var heading: String
    public var fields: [Field]
    /// The field with the cursor, and the cursor's place in its value (in characters).
    public var focus: Int
    public var cursor: Int
    /// What is wrong with the form as it stands, in the CLI's words.
    public var error: String?
    /// The preview's heading and lines: the next occurrences.
    public var previewHeading: String
    public var preview: [String]

    public init(heading: String, fields: [Field], focus: Int, cursor: Int, error: String?, previewHeading: String, preview: [String]) {
        (self.heading, self.fields, self.focus, self.cursor, self.error) = (heading, fields, focus, cursor, error)
        (self.previewHeading, self.preview) = (previewHeading, preview)
    }
}
