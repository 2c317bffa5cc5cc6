import DBus
import NudgeCore

/// One window per session, kept by a name on the session bus (``NudgeService/windowBusName``,
/// never the daemon's own name, which is public API and the daemon's). The first window
/// owns it and answers `Present(s id)` and `Search(s text)`; a second start calls one and ends. Without a
/// session bus every start opens its own window.
public final class WindowInstance {
    /// The connection the window keeps (its name, the daemon's signals); `nil` without a bus.
    public let bus: Connection?
    private var owned = false

    /// The window's claim in `world`'s session.
    public init(_ world: World) {
        bus = world.connectToBus()
    }

    /// Hands `show` (or `search`, what to search for) to the window already open, if there
    /// is one; `true` when it took it.
    public func forward(show id: String?, search: String? = nil) -> Bool {
        guard let bus else { return false }
        switch try? bus.requestName(NudgeService.windowBusName) {
        case .primaryOwner?, .alreadyOwner?:
            owned = true
            return false
        default:
            // Another window owns the name (or the bus refused it): ask it to come up.
            let (member, argument) = search.map { ("Search", $0) } ?? ("Present", id ?? "")
            return (try? bus.call(destination: NudgeService.windowBusName, path: NudgeService.windowObjectPath,
                                  interface: NudgeService.windowInterface, member: member,
                                  arguments: [.string(argument)], autoStart: false)) != nil
        }
    }

    /// Answers `Present(s id)` with `present`, and `Search(s text)` with `search`, while the
    /// window is open.
    public func serve(_ present: @escaping (String?) -> Void, search: @escaping (String) -> Void = { _ in }) {
        guard owned, let bus else { return }
        let object = ExportedObject(path: NudgeService.windowObjectPath, interfaces: [
            .init(NudgeService.windowInterface, methods: [
                .init("Present", inputs: [.init("id", "s")]) { arguments, _ in
                    let id = arguments.first?.string ?? ""
                    present(id.isEmpty ? nil : id)
                    return []
                },
                .init("Search", inputs: [.init("text", "s")]) { arguments, _ in
                    search(arguments.first?.string ?? "")
                    return []
                },
            ]),
        ])
        try? bus.export(object)
    }
}
