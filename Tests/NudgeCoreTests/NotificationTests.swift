import MemoryDelivery
import NudgeCore
import Testing

struct NotificationTests {
    @Test(arguments: [(nil, "Drink"), (1, "Drink"), (2, "Drink ×2"), (12, "Drink ×12")] as [(Int32?, String)])
    func theCountShowsFromTwoOn(count: Int32?, shown: String) {
        #expect(Notification(summary: "Drink", count: count).displayedSummary == shown)
    }

    @Test func expiryFollowsNotifySend() {
        #expect(Notification.Expiry(wireValue: -1) == .serverDefault)
        #expect(Notification.Expiry(wireValue: 0) == .never)
        #expect(Notification.Expiry(wireValue: 1500) == .milliseconds(1500))
        #expect(Notification.Expiry.milliseconds(1500).wireValue == 1500)
    }

    @Test func urgencyAndSoundParse() {
        #expect(Urgency(name: "CRITICAL") == .critical)
        #expect(Urgency(name: "urgent") == nil)
        #expect(Sound("bell") == .named("bell"))
        #expect(Sound("/usr/share/sounds/x.oga") == .file("/usr/share/sounds/x.oga"))
        #expect(Notification(summary: "x").desktopEntry == "io.github.nudge.Nudge")
    }

    @Test func inMemoryDeliveryKeepsIDsOnReplaceAndReportsWithdrawals() throws {
        let delivery = InMemoryDelivery()
        var events: [DeliveryEvent] = []
        delivery.onEvent = { events.append($0) }
        let first = try delivery.deliver(Notification(summary: "a"))
        let again = try delivery.deliver(Notification(summary: "a", count: 2, replacesID: first))
        #expect(first == again)
        try delivery.withdraw(first)
        #expect(events == [.closed(id: first, reason: .closedByCall)])
        delivery.failure = DeliveryError(.noServer, "gone")
        #expect(throws: DeliveryError.self) { _ = try delivery.deliver(Notification(summary: "b")) }
    }

    @Test func closeReasonsAreTyped() {
        #expect(CloseReason(rawValue: 1) == .expired)
        #expect(CloseReason(rawValue: 2) == .dismissed)
        #expect(CloseReason(rawValue: 3) == .closedByCall)
        #expect(CloseReason(rawValue: 9).description == "reason 9")
    }
}
