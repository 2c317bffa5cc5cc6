import DBus
import Foundation
import Testing
import TestSupport

/// What `list` says is next is what the daemon will do: after every answer, through the
/// pop-up and the command line, with the daemon running and without it.
@Suite(.onTestThreads, .enabled(if: Bench.isAvailable, "needs the test bench: run `make test`"))
struct NextAgreesTests {
    /// `list --json`'s next instant for each alert (whole seconds since the epoch), `nil` for never.
    static func listed(_ desktop: Desktop) throws -> [String: Int?] {
        let out = try desktop.nudge("list", "--all", "--json").stdout
        let alerts = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        let parser = ISO8601DateFormatter()
        var result: [String: Int?] = [:]
        for alert in alerts {
            let id = (alert["id"] as? String ?? "").replacingOccurrences(of: "-", with: "")
            // updateValue: assigning nil through the subscript would drop the key.
            result.updateValue((alert["next"] as? String).flatMap(parser.date(from:)).map { Int($0.timeIntervalSince1970) }, forKey: id)
        }
        return result
    }

    /// The daemon's own next fire for an alert (whole seconds), `nil` for never.
    static func daemonNext(_ desktop: Desktop, _ id: String) throws -> Int? {
        guard case .int64(let usec)? = try desktop.daemon("Next", [.string(id)]).first else { return -2 }
        return usec < 0 ? nil : Int((Double(usec) / 1e6).rounded(.down))
    }

    static func agree(_ desktop: Desktop, _ ids: [String], after step: String) throws {
        // The daemon has taken the change in: the CLI's Reload (or the server's answer)
        // reached it before this call, and it handles its messages in order.
        _ = try desktop.daemon("Status")
        let listed = try listed(desktop)
        var earliest: Int?
        for id in ids {
            let ours = try daemonNext(desktop, id)
            #expect(listed[id] == .some(ours), "after \(step): \(id.prefix(8)) list says \(String(describing: listed[id])), the daemon \(String(describing: ours))")
            if let ours { earliest = min(earliest ?? ours, ours) }
        }
        let status = try desktop.daemon("Status").first?.vardict ?? [:]
        if case .uint64(let usec)? = status["next-due-usec"] {
            #expect(Int((Double(usec) / 1e6).rounded(.down)) == earliest, "after \(step): Status next-due")
        } else {
            #expect(earliest == nil, "after \(step): Status has no next-due")
        }
    }

    @Test func afterEveryAnswerListAndTheDaemonAgree() throws {
        let desktop = try Desktop()
        var daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        let ids = [try desktop.add("A", "--every", "1m"), try desktop.add("B", "--at", "09:00", "--at", "21:00"),
                   try desktop.add("C", "--every", "15m", "--from", "08:00", "--until", "20:00")]
        try Self.agree(desktop, ids, after: "adding")
        // A fixed sequence drawn once at random: every answer, both ways, on every alert.
        let steps: [(String, Int)] = [
            ("popup-done", 0), ("cli-snooze", 1), ("popup-skip", 2), ("off", 0), ("popup-snooze", 1), ("cli-done", 2),
            ("on", 0), ("popup-dismiss", 2), ("edit", 1), ("cli-ack", 1), ("popup-done", 1), ("cli-snooze", 0),
        ]
        for (step, which) in steps {
            let id = ids[which], short = String(id.prefix(8))
            switch step {
            case "popup-done", "popup-snooze", "popup-skip", "popup-dismiss":
                // Bring its pop-up up now: a 1 s snooze from the command line.
                #expect(try desktop.nudge("snooze", short, "1s").status == 0)
                #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 }, "\(step)")
                switch step {
                case "popup-done": try desktop.chooseFromMenu(",done]")
                case "popup-snooze": try desktop.chooseFromMenu("Snooze")
                case "popup-skip": try desktop.chooseFromMenu("Done for today")
                default: try desktop.dunstctl("close")
                }
                #expect(Bench.eventually(3) { (try? desktop.displayed()) == 0 }, "\(step)")
            case "cli-snooze": #expect(try desktop.nudge("snooze", short, "30m").status == 0)
            case "cli-done": #expect(try desktop.nudge("done", short).status == 0)
            case "cli-ack": #expect(try desktop.nudge("ack", short).status == 0)
            case "off": #expect(try desktop.nudge("off", short).status == 0)
            case "on": #expect(try desktop.nudge("on", short).status == 0)
            default: #expect(try desktop.nudge("edit", short, "--at", "07:30").status == 0)
            }
            try Self.agree(desktop, ids, after: "\(step) on \(short)")
        }
        // Without a daemon: the answers go to the store alone, and a daemon started after
        // reads the same next from it.
        #expect(daemon.stop().status == 0)
        #expect(try desktop.nudge("snooze", String(ids[0].prefix(8)), "45m").status == 0)
        #expect(try desktop.nudge("done", String(ids[1].prefix(8))).status == 0)
        #expect(try desktop.nudge("off", String(ids[2].prefix(8))).status == 0)
        let before = try Self.listed(desktop)
        daemon = try desktop.startDaemon()
        try Self.agree(desktop, ids, after: "answers without a daemon")
        #expect(try Self.listed(desktop) == before)
        // And it fires when it said: a 2 s snooze, listed, then seen in the log.
        // Waited for as a new entry: the pop-up snoozed earlier logged one before (a make
        // test matched that one, 51 s earlier).
        let firedBefore = try desktop.events(ids[0]).filter { $0 == "snooze-fired" }.count
        #expect(try desktop.nudge("snooze", String(ids[0].prefix(8)), "2s").status == 0)
        let said = try #require(try Self.listed(desktop)[ids[0]] ?? nil)
        #expect(Bench.eventually(5) { (try? desktop.events(ids[0]).filter { $0 == "snooze-fired" }.count) == firedBefore + 1 })
        let fired = try #require(try desktop.log().last { ($0["event"] as? String) == "snooze-fired" }?["at"] as? String)
        let at = try #require(ISO8601DateFormatter().date(from: fired))
        #expect(abs(at.timeIntervalSince1970 - Double(said)) < 1.5)
    }

    @Test func listAndShowSayWhy() throws {
        let home = try Desktop(server: false)
        // Six hours ahead: the 30-minute snooze ends before the next time, whatever the hour.
        let id = try home.add("Tea", "--at", String(home.clock(in: 6 * 3600).text.prefix(5)))
        let short = String(id.prefix(8))
        #expect(try home.nudge("snooze", short, "30m").status == 0)
        #expect(try home.nudge("list").stdout.contains("snoozed"))
        #expect(try home.nudge("show", short).stdout.contains("(snoozed until "))
        let json = try home.nudge("show", short, "--json").stdout
        #expect(json.contains("\"nextReason\":\"snoozed\""))
        #expect(try home.nudge("done", short).status == 0)
        #expect(try home.nudge("list").stdout.contains("done today"))
        #expect(try home.nudge("show", short).stdout.contains("(done for today"))
        #expect(try home.nudge("show", short, "--json").stdout.contains("\"nextReason\":\"done-for-today\""))
        let bare = try home.nudge("next", short, "--schedule-preview", "--count", "1").stdout
        let real = try home.nudge("next", short, "--count", "1").stdout
        // The schedule alone still has today's time when it is still today; the alert,
        // done for today, does not. Six hours on may be tomorrow already: then both agree.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: home.zone))
        let now = Date()
        if calendar.isDate(now.addingTimeInterval(6 * 3600), inSameDayAs: now) { #expect(bare != real) } else { #expect(bare == real) }
    }
}
