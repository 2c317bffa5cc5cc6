import TerminalFace
import ArgumentParser
import Foundation
import Localization
import NudgeCore
import NudgeKit
import Platform

/// `nudge places`: the networks this machine knows, by the names `--arrive` and `--leave`
/// take, and whether areas (GeoClue) can work here.
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "List the networks a place reminder can name, and whether areas can work here.",
        discussion: """
        Lists NetworkManager's saved connections (the ones up first): a place reminder \
        names one by its connection name or its Wi-Fi network's name (SSID), and comes \
        up on connecting to it (--arrive) or once it has been gone for two minutes \
        (--leave). Then says whether GeoClue is there for areas (--arrive \
        LATITUDE,LONGITUDE,RADIUS), which need the desktop's location services on.

        Exit status: 0; 69 when NetworkManager cannot be asked (no system bus, or it \
        does not run).

        Examples:
          nudge places
          nudge places --json
          nudge add "Timesheet" --arrive office --from 08:00 --until 11:00 --days weekdays --once-per 4h
          nudge add "Lock the door" "when I leave home-wifi"
        """
    )

    @Flag(help: "Print one JSON document: {\"networks\": [{\"name\", \"kind\", \"ssid\", \"connected\"}], \"geoclue\": ...}.")
    var json = false

    func run() throws {
        let geo = PlaceSources.geoClue(tryStart: false)
        let networks: [PlaceSources.Network]
        do {
            networks = try PlaceSources.networks()
        } catch {
            // TRANSLATORS: nudge places without NetworkManager; %s says why.
            throw OperationError(.unavailable, format(tr("cannot list networks: %s"), error.phrase.text(Catalog.shared.language)))
        }
        if json {
            let items = networks.map { network in
                JSON.object([("name", .string(network.name)), ("kind", .string(network.kind)),
                             ("ssid", network.ssid.map(JSON.string) ?? .null), ("connected", .bool(network.connected))])
            }
            let geoclue: JSON = switch geo {
            case .absent: .string("absent")
            case .present(let level), .allowed(let level): .object([("level", .integer(Int64(level)))])
            case .refused(let why): .object([("refused", .string(why))])
            }
            print(JSON.object([("networks", .array(items)), ("geoclue", geoclue)]).text)
            return
        }
        let terminal = Terminal()
        if networks.isEmpty {
            // TRANSLATORS: nudge places when NetworkManager has no saved connection.
            print(tr("NetworkManager has no saved connection yet: connect to a network once, then name it here."))
        } else {
            // TRANSLATORS: nudge places' column headers: a connection's name, its kind (wifi, wired), its Wi-Fi network's name, and whether it is up.
            var cells = [[tr("NAME"), tr("KIND"), tr("WI-FI NETWORK"), tr("NOW")]]
            for network in networks {
                // TRANSLATORS: nudge places: the connection is up now.
                cells.append([network.name.escapingControls, network.kind, network.ssid?.escapingControls ?? "", network.connected ? tr("connected") : ""])
            }
            print(terminal.table(cells, paints: [Array(repeating: "1", count: 4)]))
            // TRANSLATORS: nudge places: how to use a name it lists; keep the command as it is.
            print(tr("A place reminder takes either name: nudge add \"Timesheet\" --arrive office"))
        }
        switch geo {
        // TRANSLATORS: nudge places: no GeoClue, so no areas.
        case .absent: print(tr("Areas: GeoClue is not on this machine; a reminder for an area never comes up here."))
        case .present(let level), .allowed(let level):
            // TRANSLATORS: nudge places: GeoClue is there; %s is the best accuracy it offers (city, street…).
            print(format(tr("Areas: GeoClue is there (best accuracy: %s); the desktop's location services must be on."), PlaceSources.accuracy(level)))
        // TRANSLATORS: nudge places: GeoClue refused Nudge; %s is its reason.
        case .refused(let why): print(format(tr("Areas: GeoClue refused Nudge (%s)."), why.escapingControls))
        }
    }
}
