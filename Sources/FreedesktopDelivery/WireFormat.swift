import DBus
import NudgeCore

/// Turns a ``Notification`` into the arguments of `Notify` (`susssasa{sv}i`): the one
/// place where hints get their wire types.
enum WireFormat {
    static func notifyArguments(_ n: Notification, markup: Bool) -> [Value] {
        let actions = n.actions.flatMap { [$0.key.rawValue, $0.label] }
        return [
            .string(n.appName),
            .uint32(n.replacesID ?? 0),
            .string(n.icon),
            .string(n.displayedSummary),
            .string(markup && n.bodyIsPlainText ? escapeMarkup(n.body) : n.body),
            .strings(actions),
            hints(n),
            .int32(n.expiry.wireValue),
        ]
    }

    static func hints(_ n: Notification) -> Value {
        var entries: [(String, Value)] = [("urgency", .byte(n.urgency.rawValue))]
        if let category = n.category { entries.append(("category", .string(category))) }
        if let entry = n.desktopEntry { entries.append(("desktop-entry", .string(entry))) }
        switch n.sound {
        case .named(let name): entries.append(("sound-name", .string(name)))
        case .file(let path): entries.append(("sound-file", .string(path)))
        case nil: break
        }
        if n.suppressSound { entries.append(("suppress-sound", .bool(true))) }
        if n.transient { entries.append(("transient", .bool(true))) }
        if n.resident { entries.append(("resident", .bool(true))) }
        if let count = n.count { entries.append(("x-nudge-count", .int32(count))) }
        // A hint given by name wins over the typed field that sets the same one, as in
        // notify-send (`-u critical -h byte:urgency:0` sends 0).
        for (name, hint) in n.hints.sorted(by: { $0.key < $1.key }) {
            if let i = entries.firstIndex(where: { $0.0 == name }) {
                entries[i].1 = value(hint)
            } else {
                entries.append((name, value(hint)))
            }
        }
        return .vardict(entries)
    }

    static func value(_ hint: Notification.Hint) -> Value {
        switch hint {
        case .bool(let b): .bool(b)
        case .int32(let i): .int32(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .byte(let y): .byte(y)
        }
    }

    /// Escapes `&`, `<` and `>` so a markup-parsing server shows the text as typed.
    static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }
    }

    static func escapeMarkup(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }
}
