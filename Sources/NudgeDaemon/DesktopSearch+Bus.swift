import DBus
import Foundation
import Localization
import NudgeCore

/// The desktop search's two interfaces, as the desktops define them: GNOME Shell's
/// `org.gnome.Shell.SearchProvider2` (registered by
/// `gnome-shell/search-providers/io.github.nudge.Nudge.search-provider.ini`) and KRunner's
/// `org.kde.krunner1` (registered by `krunner/dbusplugins/io.github.nudge.Nudge.desktop`).
extension DesktopSearch {
    static let shellPath = NudgeService.objectPath + "/SearchProvider"
    static let shellInterface = "org.gnome.Shell.SearchProvider2"
    static let runnerPath = NudgeService.objectPath + "/Runner"
    static let runnerInterface = "org.kde.krunner1"
    /// The icon every result carries: Nudge's, by its theme name.
    static let icon = Notification.appID

    /// KRunner's actions on a match.
    static let addAction = "add", openAction = "open"

    func shellObject() -> ExportedObject {
        typealias A = ExportedObject.Argument
        let methods: [ExportedObject.Method] = [
            .init("GetInitialResultSet", inputs: [A("terms", "as")], outputs: [A("results", "as")]) { [unowned self] args, _ in
                [.strings(items(args[0].strings ?? []).map(\.id))]
            },
            .init("GetSubsearchResultSet", inputs: [A("previous_results", "as"), A("terms", "as")], outputs: [A("results", "as")]) { [unowned self] args, _ in
                // Read anew: more words may make a reading where fewer made none.
                [.strings(items(args[1].strings ?? []).map(\.id))]
            },
            .init("GetResultMetas", inputs: [A("identifiers", "as")], outputs: [A("metas", "aa{sv}")]) { [unowned self] args, _ in
                let now = Date()
                let metas: [Value] = (args[0].strings ?? []).compactMap { id in
                    guard let item = item(id, now: now) else { return nil }
                    let (name, description) = words(item, now: now)
                    return .vardict([("id", .string(id)), ("name", .string(name)), ("description", .string(description)),
                                     ("gicon", .string(Self.icon))])
                }
                return [.array(element: "a{sv}", metas)]
            },
            .init("ActivateResult", inputs: [A("identifier", "s"), A("terms", "as"), A("timestamp", "u")]) { [unowned self] args, _ in
                activate(args[0].string ?? "", terms: args[1].strings ?? [])
                return []
            },
            .init("LaunchSearch", inputs: [A("terms", "as"), A("timestamp", "u")]) { [unowned self] args, _ in
                launch(args[0].strings ?? [])
                return []
            },
        ]
        return ExportedObject(path: Self.shellPath, interfaces: [.init(Self.shellInterface, methods: methods)])
    }

    func runnerObject() -> ExportedObject {
        typealias A = ExportedObject.Argument
        let methods: [ExportedObject.Method] = [
            .init("Actions", outputs: [A("matches", "a(sss)")]) { _, _ in
                // TRANSLATORS: KRunner's button on a "Remind me" result: add the reminder.
                let add = Value.structure([.string(Self.addAction), .string(tr("Add")), .string("list-add")])
                // TRANSLATORS: KRunner's button on a result: open Nudge's window at it.
                let open = Value.structure([.string(Self.openAction), .string(tr("Open in Nudge")), .string(Self.icon)])
                return [.array(element: "(sss)", [add, open])]
            },
            .init("Match", inputs: [A("query", "s")], outputs: [A("matches", "a(sssida{sv})")]) { [unowned self] args, _ in
                let now = Date()
                let query = args[0].string ?? ""
                let terms = query.split(whereSeparator: \.isWhitespace).map(String.init)
                let matches: [Value] = items(terms, now: now).enumerated().map { rank, item in
                    let (name, description) = words(item, now: now)
                    let isRemind = if case .remind = item { true } else { false }
                    let actions = isRemind ? [Self.addAction, Self.openAction] : [Self.openAction]
                    // KF5 reads the number as the match's type (100 exact, 30 possible: never
                    // 50, informational, which KRunner does not run), KF6 as its category's
                    // relevance; the relevance keeps the order given (the waking day's first).
                    return .structure([.string(item.id), .string(name), .string(Self.icon), .int32(isRemind ? 100 : 30),
                                       .double(max(0.1, (isRemind ? 1 : 0.7) - Double(rank) * 0.01)),
                                       .vardict([("subtext", .string(description)), ("actions", .strings(actions))])])
                }
                return [.array(element: "(sssida{sv})", matches)]
            },
            .init("Run", inputs: [A("matchId", "s"), A("actionId", "s")]) { [unowned self] args, _ throws(BusError) in
                let id = args[0].string ?? "", action = args[1].string ?? ""
                switch (action, item(id)) {
                case (Self.openAction, .remind(let reading)?):
                    launch([reading.title])
                case ("", _), (Self.addAction, _), (Self.openAction, _):
                    activate(id, terms: [])
                default:
                    // An action KRunner was never offered.
                    throw BusError(.invalidArgs, "\(action.quotedForMessage()) is not an action of Nudge's matches (add, open)")
                }
                return []
            },
            .init("Config", outputs: [A("config", "a{sv}")]) { _, _ in
                [.vardict([])]
            },
            .init("Teardown") { _, _ in [] },
        ]
        return ExportedObject(path: Self.runnerPath, interfaces: [.init(Self.runnerInterface, methods: methods)])
    }
}
