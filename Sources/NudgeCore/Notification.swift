/// What one pop-up says and how it behaves: the content a ``Delivery`` shows.
///
/// Plain values only; the freedesktop backend turns them into the wire format in one place.
public struct Notification: Sendable, Hashable {
    /// The application name shown by the server.
    public var appName: String
    /// An earlier pop-up to replace in place, or `nil` for a new one.
    public var replacesID: UInt32?
    /// An icon-theme name or a `file://` URI; empty for none.
    public var icon: String
    /// The one-line summary (the pop-up's title).
    public var summary: String
    /// The body text, shown literally.
    public var body: String
    /// Buttons, in order; the key `default` is the click on the pop-up itself.
    public var actions: [Action]
    /// How urgent it is.
    public var urgency: Urgency
    /// A category such as `x-nudge.reminder`.
    public var category: String?
    /// The desktop file id the pop-up belongs to.
    public var desktopEntry: String?
    /// A sound to play with it.
    public var sound: Sound?
    /// Asks the server to play no sound.
    public var suppressSound: Bool
    /// Asks the server not to keep it in its history.
    public var transient: Bool
    /// Asks the server to keep it shown after an action was invoked.
    public var resident: Bool
    /// How many times this reminder has come up unanswered; shown as "×N" when above 1.
    public var count: Int32?
    /// How long the pop-up stays.
    public var expiry: Expiry
    /// Further hints, by name, as `nudge send --hint` gives them.
    public var hints: [String: Hint]
    /// Whether the body is plain text, escaped for servers that parse markup (reminders),
    /// or passed as given, markup and all (`nudge send`, as notify-send does).
    public var bodyIsPlainText = true

    /// A notification with Nudge's defaults for everything but the summary.
    public init(summary: String, body: String = "", appName: String = "Nudge", icon: String = "",
                urgency: Urgency = .normal, actions: [Action] = [], category: String? = nil,
                desktopEntry: String? = Notification.appID, sound: Sound? = nil,
                suppressSound: Bool = false, transient: Bool = false, resident: Bool = false,
                count: Int32? = nil, expiry: Expiry = .serverDefault, replacesID: UInt32? = nil,
                hints: [String: Hint] = [:]) {
        self.summary = summary
        self.body = body
        self.appName = appName
        self.icon = icon
        self.urgency = urgency
        self.actions = actions
        self.category = category
        self.desktopEntry = desktopEntry
        self.sound = sound
        self.suppressSound = suppressSound
        self.transient = transient
        self.resident = resident
        self.count = count
        self.expiry = expiry
        self.replacesID = replacesID
        self.hints = hints
    }

    /// Nudge's application id: desktop file name, `desktop-entry` hint and bus name.
    public static let appID = "io.github.nudge.Nudge"

    /// The summary as the person sees it: with "×N" when the reminder came up N > 1 times.
    public var displayedSummary: String {
        guard let count, count > 1 else { return summary }
        return "\(summary) ×\(count)"
    }

    /// A button on the pop-up.
    public struct Action: Sendable, Hashable {
        /// The key the server reports back when the button is chosen.
        public var key: ActionKey
        /// The button's label.
        public var label: String
        /// Makes a button.
        public init(key: ActionKey, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// How long the pop-up stays on screen.
    public enum Expiry: Sendable, Hashable {
        /// The server decides (`-1` on the wire).
        case serverDefault
        /// Until the person closes it (`0`).
        case never
        /// This many milliseconds.
        case milliseconds(Int32)

        /// The wire value of `expire_timeout`.
        public var wireValue: Int32 {
            switch self {
            case .serverDefault: -1
            case .never: 0
            case .milliseconds(let ms): ms
            }
        }

        /// notify-send's meaning of `-t`: -1 server default, 0 never, otherwise milliseconds.
        public init(wireValue: Int32) {
            switch wireValue {
            case ..<0: self = .serverDefault
            case 0: self = .never
            default: self = .milliseconds(wireValue)
            }
        }
    }

    /// A typed hint value, the kinds `notify-send -h TYPE:NAME:VALUE` accepts.
    public enum Hint: Sendable, Hashable {
        /// `boolean`
        case bool(Bool)
        /// `int`
        case int32(Int32)
        /// `double`
        case double(Double)
        /// `string`
        case string(String)
        /// `byte`
        case byte(UInt8)
    }
}

/// How urgent a pop-up is: the freedesktop urgency levels.
public enum Urgency: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0
    case low = 0
    /// 1
    case normal = 1
    /// 2: servers should not let it expire.
    case critical = 2

    /// `low`, `normal` or `critical`.
    public var description: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .critical: "critical"
        }
    }

    /// Parses `low`, `normal` or `critical` (any case).
    public init?(name: String) {
        guard let match = Urgency.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = match
    }
}

/// A sound to play with a pop-up: a freedesktop sound-theme name, or a file.
public enum Sound: Sendable, Hashable, CustomStringConvertible {
    /// A name from the sound naming spec, e.g. `alarm-clock-elapsed`.
    case named(String)
    /// An absolute path to a sound file.
    case file(String)

    /// The sound reminders use when none is chosen.
    public static let reminder = Sound.named("alarm-clock-elapsed")

    /// A path when the text has a slash, a theme name otherwise.
    public init(_ text: String) {
        self = text.utf8.contains(UInt8(ascii: "/")) ? .file(text) : .named(text)
    }

    /// The name or the path.
    public var description: String {
        switch self {
        case .named(let name): name
        case .file(let path): path
        }
    }
}
