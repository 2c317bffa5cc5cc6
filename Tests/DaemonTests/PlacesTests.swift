import DBus
import Foundation
import Testing
import TestSupport

/// Place reminders against stand-ins for NetworkManager and GeoClue on a bus standing for
/// the system bus (neither service can run here; each stand-in names the published
/// interface definitions it follows), with the real `nmcli` reading and driving the
/// NetworkManager stand-in. Nothing waits on the clock: each test waits for what the
/// daemon says it saw (`Status`'s `places`) and for what a later event proves (a second
/// reminder fires only after the first change was handled, in order).
@Suite(.onTestThreadsAhead, .serialized) struct PlacesTests {
    typealias Profile = NetworkManagerStandIn.Profile
    static let profiles = [Profile(id: "office", ssid: "ACME-Office"), Profile(id: "home-wifi", ssid: "Kim's Home"),
                           Profile(id: "Wired connection 1")]

    /// What the daemon says of places: where the person is, and its sources.
    func places(_ desktop: Desktop) -> (here: [String], sources: [String]) {
        guard let status = (try? desktop.daemon("Status"))?.first?.vardict else { return ([], []) }
        return (status["places"]?.strings ?? [], status["place-sources"]?.strings ?? [])
    }

    /// Waits until the daemon holds `count` alerts (it saw the store change).
    func knows(_ desktop: Desktop, _ count: UInt32) -> Bool {
        Bench.eventually(10) { (try? desktop.daemon("Status"))?.first?.vardict?["alerts"]?.uint32 == count }
    }

    func fired(_ desktop: Desktop, _ id: String, _ count: Int = 1, within seconds: Double = 10) -> Bool {
        Bench.eventually(seconds) { (try? desktop.events(id))?.filter { $0 == "fired" }.count == count }
    }

    static var nmcli: String { Bench.packageRoot.appendingPathComponent(".build/tools/usr/bin/nmcli").path }

    /// Arriving fires at once; connect, disconnect, connect within --leave-after is one
    /// arrival (and no departure). A minute to settle: however busy the machine, the
    /// reconnection is seen well within it.
    @Test func arrivingAndFlapping() throws {
        let desktop = try Desktop()
        let nm = try NetworkManagerStandIn(address: try desktop.startSystemBus(), profiles: Self.profiles)
        defer { nm.stop() }
        let arrive = try desktop.add("Timesheet", "--arrive", "office")
        let left = try desktop.add("Bye", "--leave", "office")
        let sentinel = try desktop.add("Plugged in", "--arrive", "Wired connection 1")
        let daemon = try desktop.startDaemon("--leave-after", "1m")
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager"] }, "\(places(desktop))")
        nm.connect("office")
        #expect(fired(desktop, arrive), "\((try? desktop.events(arrive)) ?? [])")
        // Connect, disconnect, connect: one arrival. The wired connection coming after
        // shows the flap was handled.
        nm.disconnect("office")
        nm.connect("office")
        nm.connect("Wired connection 1")
        #expect(fired(desktop, sentinel))
        #expect(try desktop.events(arrive) == ["fired"])
        #expect(try desktop.events(left).isEmpty)
        #expect(places(desktop).here == ["network ACME-Office", "network Wired connection 1", "network office"])
    }

    /// Leaving fires once the place stayed gone for --leave-after; arriving at a place no
    /// reminder names fires nothing.
    @Test func leaving() throws {
        let desktop = try Desktop()
        let nm = try NetworkManagerStandIn(address: try desktop.startSystemBus(), profiles: Self.profiles)
        defer { nm.stop() }
        let leave = try desktop.add("Lock the door", "--leave", "Kim's Home")
        let daemon = try desktop.startDaemon("--leave-after", "1s")
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager"] }, "\(places(desktop))")
        nm.connect("home-wifi")
        #expect(Bench.eventually(10) { places(desktop).here.contains("network Kim's Home") })
        #expect(try desktop.events(leave).isEmpty)
        nm.disconnect("home-wifi")
        #expect(fired(desktop, leave), "\((try? desktop.events(leave)) ?? [])")
        #expect(places(desktop).here.isEmpty)
    }

    /// Started while at the place: that is where the person is, not an arrival. The
    /// departure and the next arrival count.
    @Test func startedAtThePlaceIsNoArrival() throws {
        let desktop = try Desktop()
        let nm = try NetworkManagerStandIn(address: try desktop.startSystemBus(), profiles: Self.profiles)
        defer { nm.stop() }
        nm.connect("office")
        let arrive = try desktop.add("Timesheet", "--arrive", "ACME-Office")
        let daemon = try desktop.startDaemon("--leave-after", "1s")
        defer { _ = daemon.stop() }
        // The first answer is where the daemon starts (read before its loop runs, or, on a
        // machine too busy to answer in a second, when it comes).
        #expect(Bench.eventually(10) { places(desktop).here == ["network ACME-Office", "network office"] }, "\(places(desktop))")
        nm.disconnect("office")
        // Gone for the second --leave-after asks: left.
        #expect(Bench.eventually(10) { places(desktop).here.isEmpty })
        #expect(try desktop.events(arrive).isEmpty)
        nm.connect("office")
        #expect(fired(desktop, arrive))
    }

    /// NetworkManager going away says nothing; back with the same connections, nothing
    /// happened; what changes after is followed again.
    @Test func networkManagerVanishingAndReturning() throws {
        let desktop = try Desktop()
        let address = try desktop.startSystemBus()
        var nm = try NetworkManagerStandIn(address: address, profiles: Self.profiles)
        nm.connect("office")
        let arrive = try desktop.add("Timesheet", "--arrive", "office")
        let left = try desktop.add("Bye", "--leave", "office")
        let home = try desktop.add("Home", "--arrive", "home-wifi")
        let daemon = try desktop.startDaemon("--leave-after", "1s")
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).here.contains("network office") })
        nm.stop()
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager: not on the system bus"] }, "\(places(desktop))")
        #expect(places(desktop).here.contains("network office"))
        nm = try NetworkManagerStandIn(address: address, profiles: Self.profiles)
        defer { nm.stop() }
        nm.connect("office")
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager"] })
        nm.connect("home-wifi")
        #expect(fired(desktop, home))
        #expect(try desktop.events(arrive).isEmpty)
        #expect(try desktop.events(left).isEmpty)
    }

    /// A NetworkManager too slow to answer for its connections: the places it said stay
    /// (no departure invented), and a real departure during the hiccup is seen when it
    /// answers again, without another signal (the daemon asks again after 1, 2, 4 … s).
    @Test func aSlowNetworkManagerInventsNoDepartureAndMissesNone() throws {
        let desktop = try Desktop()
        let nm = try NetworkManagerStandIn(address: try desktop.startSystemBus(), profiles: Self.profiles)
        defer { nm.stop() }
        nm.connect("office")
        nm.connect("Wired connection 1")
        let stays = try desktop.add("Still at the office", "--leave", "office")
        let unplugged = try desktop.add("Unplugged", "--leave", "Wired connection 1")
        let daemon = try desktop.startDaemon("--leave-after", "1s")
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).here.contains("network Wired connection 1") })
        // Each connection's properties now take 1.5 s, past the daemon's second.
        nm.getAllDelay = 1.5
        nm.disconnect("Wired connection 1")
        #expect(Bench.eventually(20) { daemon.stderrSoFar.contains("its places are kept; asking again in 1 s") }, "\(daemon.stderrSoFar)")
        #expect(places(desktop).here.contains("network office"))
        nm.getAllDelay = 0
        #expect(fired(desktop, unplugged, 1, within: 40), "\(daemon.stderrSoFar)")
        #expect(try desktop.events(stays).isEmpty, "\(daemon.stderrSoFar)")
        #expect(places(desktop).here == ["network ACME-Office", "network office"])
    }

    /// Hours: an arrival outside them fires nothing; inside, it fires. Once per N: a
    /// second arrival within N fires nothing.
    @Test func hoursAndOncePer() throws {
        let desktop = try Desktop()
        let nm = try NetworkManagerStandIn(address: try desktop.startSystemBus(), profiles: Self.profiles)
        defer { nm.stop() }
        // Twelve hours away from now, in the session's zone, whatever the time of day.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: desktop.zone)!
        let hour = calendar.component(.hour, from: Date())
        let outside = hour < 12 ? ("13:00", "23:00") : ("01:00", "11:00")
        let closed = try desktop.add("Outside hours", "--arrive", "office", "--from", outside.0, "--until", outside.1)
        let once = try desktop.add("Once", "--arrive", "office", "--once-per", "4h")
        let sentinel = try desktop.add("Sentinel", "--arrive", "Wired connection 1")
        let daemon = try desktop.startDaemon("--leave-after", "1s")
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager"] })
        nm.connect("office")
        #expect(fired(desktop, once))
        nm.disconnect("office")
        #expect(Bench.eventually(10) { places(desktop).here.isEmpty })
        nm.connect("office")
        nm.connect("Wired connection 1")
        #expect(fired(desktop, sentinel))
        #expect(try desktop.events(once) == ["fired"])
        #expect(try desktop.events(closed).isEmpty)
    }

    /// The real nmcli lists the stand-in's connections and brings one up: the daemon sees
    /// the arrival as it would NetworkManager's own.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: PlacesTests.nmcli)))
    func nmcliDrivesTheArrival() throws {
        let desktop = try Desktop()
        let address = try desktop.startSystemBus()
        let nm = try NetworkManagerStandIn(address: address, profiles: Self.profiles)
        defer { nm.stop() }
        let environment: [String: String?] = ["DBUS_SYSTEM_BUS_ADDRESS": address, "LANG": "C"]
        let list = try Bench.run(Self.nmcli, ["-t", "-f", "NAME,TYPE", "connection", "show"], environment: environment, timeout: 20)
        #expect(Set(list.stdout.split(separator: "\n")) == ["office:802-11-wireless", "home-wifi:802-11-wireless", "Wired connection 1:802-3-ethernet"],
                "\(list.stdout) \(list.stderr)")
        let arrive = try desktop.add("Timesheet", "--arrive", "office")
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager"] })
        let up = try Bench.run(Self.nmcli, ["connection", "up", "office"], environment: environment, timeout: 20)
        #expect(up.status == 0, "\(up.stderr)")
        #expect(fired(desktop, arrive))
        let active = try Bench.run(Self.nmcli, ["-t", "-f", "NAME,DEVICE", "connection", "show", "--active"], environment: environment, timeout: 20)
        #expect(active.stdout == "office:wlan0\n")
        // `nudge places` lists them as NetworkManager has them.
        let listed = try desktop.nudge("places")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("office") && listed.stdout.contains("Kim's Home"), "\(listed.stdout)")
        let doctor = try desktop.nudge("doctor")
        #expect(doctor.stdout.contains("ok   networks: NetworkManager is there: connected to office (ACME-Office)"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("ok   location: GeoClue is not on this machine; only reminders on areas need it"), "\(doctor.stdout)")
    }

    /// GeoClue: started only while a reminder names an area, at the coarsest accuracy the
    /// radius allows; arriving inside fires; the agent's refusal is said; no area, no GeoClue.
    @Test func geoClueFollowsAreasOnlyWhileNeeded() throws {
        let desktop = try Desktop()
        let address = try desktop.startSystemBus()
        let geo = try GeoClueStandIn(address: address)
        defer { geo.stop() }
        geo.move(latitude: 37.5000, longitude: 127.0000)
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        #expect(Bench.eventually(10) { places(desktop).sources == ["NetworkManager: not on the system bus"] }, "\(places(desktop))")
        #expect(geo.requests.isEmpty)
        // A 2 km circle: neighbourhood accuracy (5), told of moves of 500 m.
        let area = try desktop.add("Near the station", "--arrive", "37.5665,126.978,2km")
        #expect(knows(desktop, 1))
        #expect(Bench.eventually(10) { geo.requests == ["start 5 500"] }, "\(geo.requests)")
        #expect(Bench.eventually(10) { places(desktop).sources.contains("GeoClue (accuracy level 5)") }, "\(places(desktop))")
        geo.move(latitude: 37.5660, longitude: 126.9790)
        #expect(fired(desktop, area))
        #expect(places(desktop).here == ["area 37.5665,126.978,2km"])
        // No reminder needs a position: GeoClue is let go.
        #expect(try desktop.nudge("rm", area).status == 0)
        #expect(Bench.eventually(10) { geo.requests.last == "stop" && !geo.inUse }, "\(geo.requests)")
        // The agent says no: said plainly.
        geo.allowed = false
        _ = try desktop.add("Leaving", "--leave", "37.5665,126.978,300m")
        #expect(Bench.eventually(10) { places(desktop).sources.contains { $0.hasPrefix("GeoClue: refused") } }, "\(places(desktop))")
        // doctor says so, with what to do.
        let doctor = try desktop.nudge("doctor")
        #expect(doctor.stdout.contains("warn location: the daemon asked GeoClue and was refused: GeoClue: refused ('io.github.nudge.Nudge' disallowed, no agent for UID \(getuid()))\n     fix: turn Location Services on"), "\(doctor.stdout)")
    }
}
