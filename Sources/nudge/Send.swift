import NudgeKit
import ArgumentParser
import DBus
import FreedesktopDelivery
import NudgeCore
#if canImport(Glibc)
import Glibc
import Localization
#endif

/// `nudge send`: notify-send's job, with notify-send's options, plus sound and a count.
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Show a pop-up now (a drop-in for notify-send).",
        discussion: """
        Takes notify-send's options with the same meaning, so scripts can switch by \
        changing the command name.

        Examples:
          nudge send "Tea is ready"
          nudge send -u critical -i dialog-warning "Backup failed" "Disk full on /srv"
          nudge send --sound alarm-clock-elapsed --count 3 "Drink water"
          nudge send -A snooze="Snooze 10 min" -A done=Done "Stand up"   # prints the key chosen
          id=$(nudge send -p "Building..."); nudge send -r "$id" "Build finished"

        It returns as soon as the server has taken the pop-up, as notify-send does. \
        With --check-shown it also waits up to a second to see the pop-up stay up, and \
        fails if the server took it down at once or went away with it.

        Exit status: 0 shown, 64 bad option, 69 no session bus or no notification server \
        (or, with --check-shown, a pop-up that did not stay).
        """,
        // -h is notify-send's --hint; help is --help or -?, as in notify-send.
        helpNames: [.long, .customShort("?")]
    )

    @Argument(help: "The summary (title) of the pop-up.")
    var summary: String

    @Argument(help: "The body text: C escapes (\\n, \\t, \\\\) are decoded and markup is left to the server, as notify-send does.")
    var body: String?

    @Option(name: [.customShort("u"), .long], help: "Urgency: low, normal or critical.", completion: .list(["low", "normal", "critical"]))
    var urgency: String = "normal"

    // Unconditional, so `-t -1` is a value, as notify-send reads it.
    @Option(name: [.customShort("t"), .customLong("expire-time")], parsing: .unconditional,
            help: "Milliseconds until the pop-up expires; 0 never, -1 the server's default.")
    var expireTime: Int32 = -1

    @Option(name: [.customShort("a"), .customLong("app-name")], help: "The application name shown.")
    var appName: String = "Nudge"

    @Option(name: [.customShort("i"), .long], help: "An icon name or a file.")
    var icon: String = ""

    @Option(name: [.customShort("c"), .long], help: "A category, e.g. x-nudge.reminder.")
    var category: String?

    @Option(name: [.customShort("h"), .customLong("hint")], parsing: .singleValue,
            help: ArgumentHelp("A hint TYPE:NAME:VALUE; TYPE is boolean, int, double, string or byte.",
                               valueName: "TYPE:NAME:VALUE"))
    var hints: [String] = []

    @Option(name: [.customShort("A"), .customLong("action")], parsing: .singleValue,
            help: ArgumentHelp("A button [NAME=]TEXT (repeatable); waits and prints the NAME chosen.",
                               valueName: "[NAME=]TEXT"))
    var actions: [String] = []

    @Flag(name: [.customShort("w"), .long], help: "Wait until the pop-up closes or an action is chosen.")
    var wait = false

    // Unconditional: `-r -1` is a wrong id, said so, not a missing one.
    @Option(name: [.customShort("r"), .customLong("replace-id")], parsing: .unconditional, help: "Replace the pop-up with this id.")
    var replaceID: UInt32?

    @Flag(name: [.customShort("p"), .customLong("print-id")], help: "Print the pop-up's id.")
    var printID = false

    @Flag(name: [.customShort("e"), .long], help: "Ask the server not to keep it in its history.")
    var transient = false

    @Option(help: ArgumentHelp("A sound-theme name or a sound file to play.", valueName: "NAME|PATH"))
    var sound: String?

    @Option(parsing: .unconditional, help: "Show the pop-up as repeated N times (xN after the title) and send x-nudge-count.")
    var count: Int32?

    @Flag(help: "Show the body exactly as typed: no escapes decoded, markup shown as text.")
    var literal = false

    @Flag(help: "Wait up to 1 s to see the pop-up stay up; exit 69 if the server took it down or went away.")
    var checkShown = false

    /// What was asked, as the reading without ArgumentParser gives it too.
    var request: SendRequest {
        SendRequest(summary: summary, body: body, urgency: urgency, expireTime: expireTime, appName: appName, icon: icon,
                    category: category, hints: hints, actions: actions, wait: wait, replaceID: replaceID, printID: printID,
                    transient: transient, sound: sound, count: count, literal: literal, checkShown: checkShown)
    }

    func run() throws { try request.run() }
}

/// What `nudge send` was asked, however it was read: by ``SendRequest/read(_:)`` for the
/// common invocations, by ArgumentParser (``Send``) for the rest.
struct SendRequest: Equatable {
    var summary = ""
    var body: String?
    var urgency = "normal"
    var expireTime: Int32 = -1
    var appName = "Nudge"
    var icon = ""
    var category: String?
    var hints: [String] = []
    var actions: [String] = []
    var wait = false
    var replaceID: UInt32?
    var printID = false
    var transient = false
    var sound: String?
    var count: Int32?
    var literal = false
    var checkShown = false

    func notification() throws(OperationError) -> Notification {
        // As notify-send ("No summary specified"): a pop-up with nothing to say is a mistake.
        if summary.isEmpty { throw OperationError(.usage, tr("invalid summary '': give the pop-up a title")) }
        // Bytes that are not UTF-8 arrive as U+FFFD: the pop-up would show something else.
        for (field, text) in [(Limits.Field.title, summary), (.body, body ?? "")] where text.unicodeScalars.contains("\u{FFFD}") {
            throw OperationError(.usage, format(tr("invalid %s: it is not valid UTF-8 text"), field.label.text(Catalog.shared.language)))
        }
        let options: [(String, String)] = [("--app-name", appName), ("--icon", icon), ("--category", category ?? ""), ("--sound", sound ?? "")]
            + hints.map { ("--hint", $0) } + actions.map { ("--action", $0) }
        for (option, text) in options where text.unicodeScalars.contains("\u{FFFD}") {
            // TRANSLATORS: %s is an option of nudge send (--icon, --hint…).
            throw OperationError(.usage, format(tr("invalid %s: it is not valid UTF-8 text"), option))
        }
        guard let urgency = Urgency(name: urgency) else {
            throw OperationError(.usage, format(tr("invalid urgency %s: use low, normal or critical"), self.urgency.quotedForMessage()))
        }
        if let count, count < 0 { throw OperationError(.usage, format(tr("invalid count %s: must be 0 or more"), "\(count)".quotedForMessage())) }
        if let sound, sound.isEmpty { throw OperationError(.usage, tr("invalid sound '': give a name or a path")) }
        var parsedHints: [String: Notification.Hint] = [:]
        for text in hints {
            let (name, hint) = try HintParser.parse(text)
            parsedHints[name] = hint
        }
        var parsedActions: [Notification.Action] = []
        for (index, text) in actions.enumerated() { parsedActions.append(try Self.action(text, index: index)) }
        // No desktop-entry unless a --hint names one, as notify-send: GNOME 48 and later take
        // down every pop-up of an app when the connection that first sent one for it goes,
        // and this one goes at once (the daemon's pop-ups would go with it, too).
        var notification = Notification(
            summary: summary, body: literal ? body ?? "" : CEscapes.decode(body ?? ""), appName: appName, icon: icon,
            urgency: urgency, actions: parsedActions,
            // An empty category or replace id is none, as notify-send sends it.
            category: category?.isEmpty == false ? category : nil, desktopEntry: nil, sound: sound.map(Sound.init), transient: transient, count: count,
            expiry: .init(wireValue: expireTime), replacesID: replaceID == 0 ? nil : replaceID, hints: parsedHints)
        notification.bodyIsPlainText = literal
        return notification
    }

    /// `NAME=TEXT`, or just `TEXT` with the index as the name, as notify-send does.
    static func action(_ text: String, index: Int) throws(OperationError) -> Notification.Action {
        guard !text.isEmpty else { throw OperationError(.usage, tr("invalid action '': give [NAME=]TEXT")) }
        guard let eq = text.firstIndex(of: "=") else { return .init(key: ActionKey(rawValue: String(index)), label: text) }
        let key = String(text[..<eq])
        guard !key.isEmpty else { throw OperationError(.usage, format(tr("invalid action %s: the NAME before '=' is empty"), text.quotedForMessage())) }
        return .init(key: ActionKey(rawValue: key), label: String(text[text.index(after: eq)...]))
    }

    func run() throws {
        let notification = try notification()
        // Signals are listened for only where an answer is waited for.
        let listening = wait || !actions.isEmpty || checkShown
        let delivery: FreedesktopDelivery
        do {
            delivery = try FreedesktopDelivery.session(listening: listening)
        } catch {
            throw OperationError(error)
        }
        // A busy server is waited for as notify-send waits (libdbus' 25 s), not the
        // daemon's 2 s: the pop-up shows late, but it shows.
        delivery.timeout = .seconds(25)
        var answer: DeliveryEvent?
        delivery.onEvent = { answer = $0 }
        // The server ending while send waits for an answer (-w, -A, --check-shown) took the
        // pop-up with it: said at once, not waited for forever.
        var serverGone = false
        if listening {
            try? delivery.connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                         member: "NameOwnerChanged", arg0: FreedesktopDelivery.busName),
                                               confirmed: false) { message in
                if let args = try? message.arguments(), args.count == 3, args[1].string?.isEmpty == false { serverGone = true }
            }
        }
        let id: UInt32
        do {
            id = try delivery.deliver(notification)
        } catch {
            throw OperationError(error)
        }
        if printID {
            print(id)
            fflush(nil)
        }
        guard wait || !actions.isEmpty else {
            // Not an inout of `answer`: the event handler writes it while this waits.
            if checkShown { try staysUp(id, delivery: delivery, gone: { serverGone }) { answer } }
            return
        }
        while answer == nil {
            guard delivery.process(timeout: nil) else {
                throw OperationError(.unavailable, format(tr("lost the session bus while waiting for pop-up %d"), Int(id)))
            }
            if serverGone && answer == nil {
                // TRANSLATORS: %1$s is the notification service's bus name, %2$d the pop-up's id.
                throw OperationError(.unavailable, format(tr("the notification server (%1$s) went away with pop-up %2$d"),
                                                          FreedesktopDelivery.busName, Int(id)))
            }
        }
        if case .action(_, let key) = answer {
            print(key.rawValue)
            // An answered pop-up has done its job; dunst would otherwise keep showing it.
            try? delivery.withdraw(id)
        }
    }
}

extension SendRequest {
    /// Reads `nudge send`'s arguments as ArgumentParser would, without it: its reading
    /// reflects over `Send`'s properties, and each conformance it asks for is looked up
    /// among all of this large program's, a third of send's whole run (notify-send's pace
    /// is the goal). Nil for anything this does not know — help, completion, an unknown
    /// option, a value that does not read or looks like an option, a missing summary —
    /// which ArgumentParser then reads, and refuses where it must, with its own words.
    /// SendReaderTests hold the two readings equal on the invocations this accepts.
    static func read(_ arguments: ArraySlice<String>) -> SendRequest? {
        var request = SendRequest()
        var positionals: [String] = []
        var rest = arguments
        var optionsEnded = false
        while let word = rest.popFirst() {
            if optionsEnded || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            // --name=value for the long names; short ones take the next word; -pe is -p -e.
            var name = Substring(word)
            var attached: String?
            if !word.hasPrefix("--"), word.count > 2 {
                let letters = word.dropFirst()
                // Anything else in one word (-ulow: notify-send reads -u -l -o -w) is left to ArgumentParser.
                guard letters.allSatisfy({ "wpe".contains($0) }) else { return nil }
                for letter in letters {
                    switch letter {
                    case "w": request.wait = true
                    case "p": request.printID = true
                    default: request.transient = true
                    }
                }
                continue
            }
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = word[..<equals]
                attached = String(word[word.index(after: equals)...])
                // ArgumentParser reads --name= as --name alone (the next word its value).
                if attached?.isEmpty == true { return nil }
            }
            /// The option's value; one that looks like an option is left to ArgumentParser,
            /// except for -t, whose -1 is a value (as notify-send reads it).
            func value(unconditional: Bool = false) -> String? {
                if let attached { return attached }
                guard let next = rest.first, unconditional || !next.hasPrefix("-") else { return nil }
                rest.removeFirst()
                return next
            }
            func flag() -> Bool? { attached == nil ? true : nil }
            switch name {
            case "-u", "--urgency": guard let text = value() else { return nil }; request.urgency = text
            case "-t", "--expire-time": guard let milliseconds = value(unconditional: true).flatMap({ Int32($0) }) else { return nil }
                request.expireTime = milliseconds
            case "-a", "--app-name": guard let text = value() else { return nil }; request.appName = text
            case "-i", "--icon": guard let text = value() else { return nil }; request.icon = text
            case "-c", "--category": guard let text = value() else { return nil }; request.category = text
            case "-h", "--hint": guard let text = value() else { return nil }; request.hints.append(text)
            case "-A", "--action": guard let text = value() else { return nil }; request.actions.append(text)
            case "-r", "--replace-id": guard let id = value(unconditional: true).flatMap({ UInt32($0) }) else { return nil }; request.replaceID = id
            case "--sound": guard let text = value() else { return nil }; request.sound = text
            case "--count": guard let count = value(unconditional: true).flatMap({ Int32($0) }) else { return nil }; request.count = count
            case "-w", "--wait": guard let on = flag() else { return nil }; request.wait = on
            case "-p", "--print-id": guard let on = flag() else { return nil }; request.printID = on
            case "-e", "--transient": guard let on = flag() else { return nil }; request.transient = on
            case "--literal": guard let on = flag() else { return nil }; request.literal = on
            case "--check-shown": guard let on = flag() else { return nil }; request.checkShown = on
            default: return nil
            }
        }
        guard let summary = positionals.first, positionals.count <= 2 else { return nil }
        request.summary = summary
        request.body = positionals.dropFirst().first
        return request
    }
}

extension SendRequest {
    /// How long a pop-up must stay for `send --check-shown`: one the server takes down
    /// sooner was never seen, and that is an error, not a success.
    static let staysAtLeast = Duration.seconds(1)

    /// Waits up to ``staysAtLeast`` for the server to take the pop-up down, unless it was
    /// asked to expire sooner; throws if it did.
    func staysUp(_ id: UInt32, delivery: FreedesktopDelivery, gone: () -> Bool, answer: () -> DeliveryEvent?) throws(OperationError) {
        if expireTime > 0, Duration.milliseconds(expireTime) < Self.staysAtLeast { return }
        let clock = ContinuousClock()
        let shown = clock.now
        let server = delivery.serverConnection
        let deadline = shown + Self.staysAtLeast
        while answer() == nil, !gone(), clock.now < deadline {
            guard delivery.process(timeout: deadline - clock.now) else { break }
        }
        let elapsed = clock.now - shown
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        if case .closed(_, let reason) = answer() {
            // TRANSLATORS: %1$d is the pop-up's id, %2$d milliseconds, %3$s why (expired, dismissed…).
            throw OperationError(.unavailable, format(tr("the notification server took pop-up %1$d down %2$d ms after showing it (%3$s)"),
                                                      Int(id), ms, "\(reason)"))
        }
        // A server that ended (or was replaced) took its pop-ups with it, without a word.
        let now = (try? delivery.connection.nameOwner(FreedesktopDelivery.busName)).flatMap { $0 }
        if gone() || server == nil || now != server {
            // TRANSLATORS: %1$s is the notification service's bus name, %2$d the pop-up's id.
            throw OperationError(.unavailable, format(tr("the notification server (%1$s) went away with pop-up %2$d"),
                                                      FreedesktopDelivery.busName, Int(id)))
        }
    }
}

/// Parses notify-send's `TYPE:NAME:VALUE` hints.
enum HintParser {
    static func parse(_ text: String) throws(OperationError) -> (String, Notification.Hint) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[1].isEmpty else {
            throw OperationError(.usage, format(tr("invalid hint %s: use TYPE:NAME:VALUE"), text.quotedForMessage()))
        }
        let (type, name, value) = (parts[0].lowercased(), parts[1], parts[2])
        let hint: Notification.Hint?
        switch type {
        case "boolean", "bool":
            hint = ["true": true, "1": true, "false": false, "0": false][value.lowercased()].map { .bool($0) }
        case "int", "int32": hint = Int32(value).map { .int32($0) }
        case "double": hint = Double(value).map { .double($0) }
        case "string": hint = .string(value)
        case "byte": hint = UInt8(value).map { .byte($0) }
        default:
            throw OperationError(.usage, format(tr("invalid hint type %1$s in %2$s: use boolean, int, double, string or byte"),
                                          String(parts[0]).quotedForMessage(), text.quotedForMessage()))
        }
        // TRANSLATORS: %1$s is a hint's type (int, double…), %2$s the value given, %3$s the whole hint.
        guard let hint else { throw OperationError(.usage, format(tr("invalid %1$s value %2$s in hint %3$s"), "\(type)", String(value).quotedForMessage(), text.quotedForMessage())) }
        return (name, hint)
    }
}
