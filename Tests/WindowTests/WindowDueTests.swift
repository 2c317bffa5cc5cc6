import Foundation
import Testing
import TestSupport

/// What is due now comes first: the reminders whose pop-ups wait for an answer are a
/// section at the top of the list with their answers, above the fold whatever the list holds.
extension WindowTests {
    @Test func whatWaitsIsASectionAtTheTopWithItsAnswers() throws {
        let desktop = try Desktop()
        let daemon = try desktop.startDaemon()
        defer { _ = daemon.stop() }
        // Thirty that show within minutes: listed before a reminder whose next showing is tomorrow.
        for index in 1...30 { _ = try desktop.add("Soon \(index)", "--every", "\(index + 5)m") }
        let water = try desktop.dueSoon(lead: 1) { try desktop.add("Drink water", "--water", "--at", desktop.clockText($0)) }.id
        #expect(Bench.eventually(5) { (try? desktop.displayed()) == 1 })
        let window = try WindowSession(desktop: desktop)
        try window.open()
        #expect(try window.reaches("push button", "Done: Drink water"))
        // In the tree's order (the list's): the heading, then the one waiting, then the rest.
        let names = try window.nodes().filter { $0.role == "check box" || $0.name == "Waiting for an Answer" || $0.name == "Reminders" }
            .map(\.name)
        let heading = try #require(names.firstIndex(of: "Waiting for an Answer"), "\(names)")
        let due = try #require(names.firstIndex(of: "Drink water"), "\(names)")
        #expect(heading < due && due < (names.firstIndex(of: "Soon 1") ?? -1), "\(names)")
        // A drink-water reminder's answers include the drink, as its pop-up's do.
        try #require(try window.drive("do", "push button", "Drank 250 ml: Drink water", "click").status == 0)
        #expect(Bench.eventually(5) { (try? desktop.events(water)) == ["fired", "drank"] || (try? desktop.events(water)) == ["fired", "acknowledged"] },
                "\((try? desktop.events(water)) ?? [])")
        #expect(try window.reaches("label", "250 of 2,000 ml today"), "\((try? window.nodes())?.filter { $0.name.contains("ml") || $0.name.contains("Drink") }.map { "\($0.role)|\($0.name)" } ?? []) \(window.windowProcess?.stderrSoFar ?? "")")
        #expect(try window.reaches("label", "Waiting for an Answer", "gone"))
        _ = window.close()
    }
}
