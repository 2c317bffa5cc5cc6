import NudgeCore

/// What a notification server does differently from the spec's letter, and how a pop-up
/// is sent there so the person still sees, hears and can answer it. Chosen by the name
/// *and* version the server gives in `GetServerInformation`; every server not named here
/// gets the spec's behaviour.
///
/// Each rule was seen live (the suites in `LiveDesktopTests` show it), on the versions named:
/// - GNOME Shell draws at most 3 buttons, and one more is simply not there (43.9, 48.7, 51.0).
/// - GNOME Shell before 48.6: a pop-up replaced while it is on screen loses all its buttons,
///   one replaced twice answers a click three times, and a replacement with the same sound
///   plays nothing (43.9; 44 and 45 alike). So there a pop-up is never replaced: a new one is
///   shown and the old one closed. From 48.6 a replacement keeps its buttons, one click
///   answers once and the sound plays again (48.7, 51.0): replaced in place, as the spec says.
/// - GNOME Shell leaves a pop-up queued behind an answered one without a banner until another
///   pop-up arrives (`_updateState` re-entered while the answered banner goes; 43.9, 48.7,
///   51.0). There a pop-up sent after one whose button (or body) is clicked is sent again,
///   silently.
/// - swaync drops an action whose label is empty, `default` included (0.7), so a click
///   on the body would only dismiss. There `default` carries Done's label (swaync draws
///   `default` as the body click, never as a button).
/// - Plasma (5.27, 6.3, 6.7), GNOME Shell and swaync close a pop-up themselves once one of
///   its actions ran; a CloseNotification after that makes Plasma 5.27 report a second close.
///   There Nudge leaves an answered pop-up to the server, closing it only if it is still up
///   a second later. dunst keeps it up (its menu), so there it is closed at once.
public struct ServerFit: Sendable, Hashable {
    /// The most buttons the server draws (`default`, the body click, not counted).
    public var maxButtons: Int?
    /// Whether a replacement (`replaces_id`) keeps the pop-up whole.
    public var replacesInPlace: Bool
    /// Whether `default` needs a label to be kept.
    public var labelsDefault: Bool
    /// Whether the server closes a pop-up by itself once an action ran.
    public var closesAnswered: Bool
    /// Whether a pop-up that came after an answered one must be sent again to be shown.
    public var stallsAfterAnswer: Bool

    /// The spec's behaviour.
    public static let standard = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: false, closesAnswered: false)

    /// The first GNOME Shell that keeps a replaced pop-up whole.
    public static let gnomeReplacesInPlaceSince = ServerVersion(48, 6)

    /// The rules for the server with this `GetServerInformation` name and version.
    public init(serverName: String, version: String = "") {
        switch serverName {
        case "gnome-shell":
            let inPlace = ServerVersion(version) >= Self.gnomeReplacesInPlaceSince
            self = ServerFit(maxButtons: 3, replacesInPlace: inPlace, labelsDefault: false, closesAnswered: true,
                             stallsAfterAnswer: true)
        case "SwayNotificationCenter": self = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: true, closesAnswered: true)
        case "Plasma": self = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: false, closesAnswered: true)
        default: self = .standard
        }
    }

    /// The rules for the server that gave this information.
    public init(_ server: ServerInformation) {
        self.init(serverName: server.name, version: server.version)
    }

    /// Rules given one by one.
    public init(maxButtons: Int?, replacesInPlace: Bool, labelsDefault: Bool, closesAnswered: Bool,
                stallsAfterAnswer: Bool = false) {
        self.maxButtons = maxButtons
        self.replacesInPlace = replacesInPlace
        self.labelsDefault = labelsDefault
        self.closesAnswered = closesAnswered
        self.stallsAfterAnswer = stallsAfterAnswer
    }

    /// The actions as this server gets them. `actions` come in the order they matter most
    /// (the scheduler's); where the server draws fewer buttons, the first ones are kept, and
    /// the rest stay reachable elsewhere (the command line, the terminal UI).
    public func fit(_ actions: [Notification.Action]) -> [Notification.Action] {
        var buttons = actions.filter { $0.key != .default }
        if let maxButtons, buttons.count > maxButtons { buttons.removeLast(buttons.count - maxButtons) }
        guard var click = actions.first(where: { $0.key == .default }) else { return buttons }
        if labelsDefault, click.label.isEmpty, let done = actions.first(where: { $0.key == .done }) {
            click.label = done.label
        }
        return [click] + buttons
    }
}

/// A server's version as `GetServerInformation` gives it ("48.7", "5.27.5", "51.rc"),
/// compared by its leading numbers: what is not a number counts as 0, so "51.rc" is 51.0.
public struct ServerVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, most significant first.
    public var parts: [Int]

    /// The version with these numbers.
    public init(_ parts: Int...) { self.parts = parts }

    /// Reads the dotted numbers at the start of each part of `text`.
    public init(_ text: String) {
        parts = text.split(separator: ".", omittingEmptySubsequences: false).map { part in
            Int(part.prefix { $0.isASCII && $0.isNumber }) ?? 0
        }
    }

    /// The numbers joined by dots.
    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (a: ServerVersion, b: ServerVersion) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let (x, y) = (i < a.parts.count ? a.parts[i] : 0, i < b.parts.count ? b.parts[i] : 0)
            if x != y { return x < y }
        }
        return false
    }

    public static func == (a: ServerVersion, b: ServerVersion) -> Bool { !(a < b) && !(b < a) }

    public func hash(into hasher: inout Hasher) {
        var trimmed = parts
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}
