import Foundation
import ICalendar
import NudgeSync
import SyncTransport

/// A CalDAV server's answer (a WebDAV multistatus, `nudge sync`): read through libxml2
/// with no DTD and no entity, its hrefs resolved to absolute http(s) URLs, the same answer
/// read twice alike; each calendar object in it (`calendar-data`) put under Nudge's own
/// copy of itself is itself, and needs nothing sent.
enum MultistatusFuzz {
    static let target = FuzzTarget("multistatus", "CalDAV servers' multistatus answers (nudge sync)") { bytes throws(FuzzFailure) in
        guard let root = try? XMLReader.read(bytes) else { return }
        guard let status = try? Multistatus.read(root, base: "https://dav.example/cal/ann/") else { return }
        try expect((try? Multistatus.read(try XMLReader.read(bytes), base: "https://dav.example/cal/ann/")) == status,
                   "the same answer read twice reads otherwise")
        for response in status.responses {
            try expect(response.url.hasPrefix("https://") || response.url.hasPrefix("http://") || !response.url.contains("://"),
                       "an href resolved to \(response.url.shown)")
            guard let data = response.property(Namespace.caldav, "calendar-data")?.text, let object = CalendarObject.read(data) else { continue }
            try expect(CalendarObject.overlay(object, on: object) == object, "an object put under itself changes: \(data.shown)")
            let decision = ObjectDecision.decide(base: object, ours: object, theirs: object)
            try expect(decision.send == nil && decision.take == nil && !decision.deleteHere && !decision.deleteThere,
                       "an object alike on both sides needs something done: \(data.shown)")
        }
    }
}
