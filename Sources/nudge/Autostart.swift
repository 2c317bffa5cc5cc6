import NudgeKit
import DaemonAPI
import ArgumentParser
import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import Platform
import Localization

/// `nudge autostart`: start the daemon with the desktop session, or not.
struct Autostart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autostart",
        abstract: "Start the daemon at login (XDG autostart), stop doing so, or say which entry decides.",
        discussion: """
        enable writes $XDG_CONFIG_HOME/autostart/io.github.nudge.Nudge.desktop (or, when a \
        system-wide entry already starts Nudge, removes the personal one Nudge wrote so \
        that entry counts). disable removes the personal entry Nudge wrote, or, when a \
        system-wide entry exists (the Debian package installs one in /etc/xdg/autostart), \
        writes a personal one with Hidden=true, which hides it. A personal entry you \
        edited is never removed or replaced: enable leaves one that starts Nudge alone, \
        and either command changes only Hidden and X-GNOME-Autostart-enabled in it, \
        keeping your keys. status says what your session will do (Hidden, OnlyShowIn and \
        NotShowIn against XDG_CURRENT_DESKTOP, TryExec, and where gnome-session and \
        systemd's XDG autostart disagree), and whether the daemon runs now. The systemd \
        user unit is the other route: systemctl --user enable --now nudge.service.

        Examples:
          nudge autostart enable
          nudge autostart status
          nudge autostart disable
        """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case enable, disable, status
    }

    @Argument(help: "enable, disable or status.")
    var action: Action

    func run() throws {
        let environment = Environment.current
        let places = AutostartPlaces(environment: environment)
        switch action {
        case .enable:
            let outcome = try places.enable(program: try Self.ownPath())
            print(outcome)
        case .disable:
            print(try places.disable(program: try Self.ownPath()))
        case .status:
            break
        }
        let state = places.state()
        print(state.description)
        let unit = SystemdUnit(environment: environment)
        // TRANSLATORS: nudge autostart status; %s is the unit file's path.
        if unit.enabled, let path = unit.path { print(format(tr("systemd unit: %s is enabled, and starts the daemon with the graphical session"), path)) }
        if let daemon = DaemonStatus.query() {
            // TRANSLATORS: nudge autostart status; %1$d is the daemon's pid, %2$s its version.
            print(format(tr("daemon: running now (pid %1$d, version %2$s)"), Int(daemon.pid), daemon.version))
        } else if state.enabled || unit.enabled {
            print(tr("daemon: not running now (start it with `nudge daemon &`, or log in again)"))
        } else {
            print(tr("daemon: not running now, and nothing starts it at login (start it with `nudge daemon &`)"))
        }
    }

    /// The absolute path of this program, for Exec= and TryExec=.
    static func ownPath() throws(OperationError) -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") else {
            throw OperationError(.ioError, tr("cannot tell where this nudge is installed (/proc/self/exe is unreadable)"))
        }
        return path
    }
}
