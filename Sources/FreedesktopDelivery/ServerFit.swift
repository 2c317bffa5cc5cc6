import NudgeCore

/// What a notification server does differently from the spec's letter, and how a pop-up
/// is sent there so the person still sees, hears and can answer it. Chosen by the name
/// the server gives in `GetServerInformation`; every server not named here gets the
/// spec's behaviour.
///
/// Each rule was seen live (the suites in `LiveDesktopTests` show it):
/// - GNOME Shell draws at most 3 buttons, and one more is simply not there. A pop-up
///   replaced while it is on screen loses all its buttons, one replaced twice answers a
///   click three times, and a replacement with the same sound plays nothing (43–45). So
///   there a pop-up is never replaced: a new one is shown and the old one closed.
/// - swaync drops an action whose label is empty, `default` included (0.7), so a click
///   on the body would only dismiss. There `default` carries Done's label (swaync draws
///   `default` as the body click, never as a button).
/// - Plasma, GNOME Shell and swaync close a pop-up themselves once one of its actions ran;
///   a CloseNotification after that makes Plasma report a second close. There Nudge leaves
///   an answered pop-up to the server, closing it only if it is still up a second later.
///   dunst keeps it up (its menu), so there it is closed at once.
public struct ServerFit: Sendable, Hashable {
    /// The most buttons the server draws (`default`, the body click, not counted).
    public var maxButtons: Int?
    /// Whether a replacement (`replaces_id`) keeps the pop-up whole.
    public var replacesInPlace: Bool
    /// Whether `default` needs a label to be kept.
    public var labelsDefault: Bool
    /// Whether the server closes a pop-up by itself once an action ran.
    public var closesAnswered: Bool

    /// The spec's behaviour.
    public static let standard = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: false, closesAnswered: false)

    /// The rules for the server with this `GetServerInformation` name.
    public init(serverName: String) {
        switch serverName {
        case "gnome-shell": self = ServerFit(maxButtons: 3, replacesInPlace: false, labelsDefault: false, closesAnswered: true)
        case "SwayNotificationCenter": self = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: true, closesAnswered: true)
        case "Plasma": self = ServerFit(maxButtons: nil, replacesInPlace: true, labelsDefault: false, closesAnswered: true)
        default: self = .standard
        }
    }

    /// Rules given one by one.
    public init(maxButtons: Int?, replacesInPlace: Bool, labelsDefault: Bool, closesAnswered: Bool) {
        self.maxButtons = maxButtons
        self.replacesInPlace = replacesInPlace
        self.labelsDefault = labelsDefault
        self.closesAnswered = closesAnswered
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
