import ArgumentParser
import DBus
import FreedesktopDelivery
import NudgeCore

/// `nudge doctor`: can pop-ups be shown here, and if not, what to do about it.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that reminders can be shown, and say how to fix what is missing.",
        discussion: """
        Checks the session bus, the notification server (name, vendor, version, spec \
        version), its capabilities, and who will play sounds.

        Exit status: 0 when pop-ups can be shown, 69 otherwise.

        Examples:
          nudge doctor
          nudge doctor --json
        """
    )

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    /// One check's outcome.
    struct Check {
        var name: String
        var ok: Bool
        var detail: String
        var fix: String?
    }

    func run() throws {
        var checks: [Check] = []
        var fields: [(String, JSON)] = []
        var canShow = false
        do {
            let delivery = try FreedesktopDelivery.session()
            let address = ProcessEnvironment.current["DBUS_SESSION_BUS_ADDRESS"] ?? "(default)"
            checks.append(Check(name: "session bus", ok: true, detail: address))
            fields.append(("sessionBus", .object([("ok", .bool(true)), ("address", .string(address))])))
            do {
                let info = try delivery.serverInformation()
                let caps = try delivery.capabilities().map(\.rawValue).sorted()
                let sound = try delivery.soundPlayback()
                canShow = true
                checks.append(Check(name: "notification server", ok: true,
                                    detail: "\(info.name) \(info.version) by \(info.vendor), spec \(info.specVersion)"))
                checks.append(Check(name: "capabilities", ok: true, detail: caps.joined(separator: ", ")))
                let soundOK = sound != .none
                checks.append(Check(name: "sound", ok: soundOK, detail: "played by \(sound)",
                                    fix: soundOK ? nil : "install canberra-gtk-play (gnome-session-canberra) or pipewire-bin, or set NUDGE_SOUND_PLAYER"))
                var soundJSON: [(String, JSON)] = [("player", .string(sound.description))]
                if case .local(let player) = sound { soundJSON.append(("program", .string(player.program))) }
                fields.append(("notificationServer", .object([
                    ("ok", .bool(true)), ("name", .string(info.name)), ("vendor", .string(info.vendor)),
                    ("version", .string(info.version)), ("specVersion", .string(info.specVersion)),
                    ("capabilities", .array(caps.map(JSON.string))),
                ])))
                fields.append(("sound", .object([("ok", .bool(soundOK))] + soundJSON)))
            } catch {
                checks.append(Check(name: "notification server", ok: false, detail: error.message,
                                    fix: "start one: dunst, or log into a desktop (GNOME, KDE, Xfce) that has one"))
                fields.append(("notificationServer", .object([("ok", .bool(false)), ("error", .string(error.message))])))
            }
        } catch {
            checks.append(Check(name: "session bus", ok: false, detail: error.message,
                                fix: "run inside a desktop session, or set DBUS_SESSION_BUS_ADDRESS (dbus-run-session)"))
            fields.append(("sessionBus", .object([("ok", .bool(false)), ("error", .string(error.message))])))
        }
        if json {
            print(JSON.object([("ok", .bool(canShow))] + fields).text)
        } else {
            for check in checks {
                print("\(check.ok ? "ok  " : "FAIL") \(check.name): \(check.detail)")
                if let fix = check.fix { print("     fix: \(fix)") }
            }
        }
        if !canShow { throw ExitCode(69) }
    }
}
