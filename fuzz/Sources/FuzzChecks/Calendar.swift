import Foundation
import ICalendar
import NudgeCalendar
import NudgeCore

/// An iCalendar file from any calendar. Whatever reads as components is written and read
/// back as the same components; whatever imports as reminders is exported (as
/// `nudge export` writes) and imported again as the same reminders.
enum CalendarFuzz {
    static let target = FuzzTarget("ical", "iCalendar files (nudge import)", grow: CalendarFuzz.grow) { bytes throws(FuzzFailure) in
        guard let components = try? Component.read(bytes: bytes) else { return }
        var written: [UInt8] = []
        for component in components { component.write(to: &written) }
        let reread: [Component]
        do throws(SyntaxError) { reread = try Component.read(bytes: written) } catch {
            throw FuzzFailure("the components read are written as text that does not read: line \(error.line): \(error.reason)")
        }
        try expect(reread == components, "the components read are written and read back otherwise:\n\(FuzzTargets.text(written))")

        let (now, system) = (FuzzTargets.now, FuzzTargets.zone)
        let alerts = CalendarImport.alerts(in: components, system: system, now: now).compactMap { outcome -> Alert? in
            if case .alert(let alert, _, _) = outcome { return alert }
            return nil
        }
        guard !alerts.isEmpty else { return }
        var exported: [UInt8] = []
        CalendarExport.write(alerts, system: system) { (piece: [UInt8]) throws(Never) in exported.append(contentsOf: piece) }
        let again: [Alert]
        do throws(SyntaxError) {
            again = CalendarImport.alerts(in: try Component.read(bytes: exported), system: system, now: now).compactMap { outcome -> Alert? in
                if case .alert(let alert, _, _) = outcome { return alert }
                return nil
            }
        } catch {
            throw FuzzFailure("the export does not read: line \(error.line): \(error.reason)")
        }
        try expect(again.count == alerts.count, "\(alerts.count) reminders exported, \(again.count) imported back")
        for (alert, back) in zip(alerts, again) where alert != back {
            throw FuzzFailure("imported \(alert.title.shown), exported and imported back otherwise: \(differences(alert, back))")
        }
    }

    /// The fields two values differ in, each as both have it (instants to the nanosecond).
    static func differences<T>(_ a: T, _ b: T) -> String {
        func shown(_ value: Any) -> String {
            if let date = value as? Date { return String(format: "%.9f", date.timeIntervalSince1970) }
            return String(reflecting: value)
        }
        // Whole, nested values: a field that prints the same at the top (a schedule's
        // case) can differ inside.
        func dumped(_ value: Any) -> String {
            var text = ""
            dump(value, to: &text)
            return text
        }
        let (left, right) = (Mirror(reflecting: a).children, Mirror(reflecting: b).children)
        return zip(left, right).compactMap { l, r in
            var (x, y) = (shown(l.value), shown(r.value))
            if x == y { (x, y) = (dumped(l.value), dumped(r.value)) }
            return x == y ? nil : "\(l.label ?? "?"): \(x) against \(y)"
        }.joined(separator: "; ")
    }

    /// A calendar of the seed's events many times over: the seed's lines between its
    /// first BEGIN:VEVENT and the matching END repeated inside one VCALENDAR.
    static let grow: @Sendable ([UInt8], Int) -> [UInt8] = { seed, size in
        let text = FuzzTargets.text(seed)
        guard let begin = text.range(of: "BEGIN:VEVENT"), let end = text.range(of: "END:VEVENT", range: begin.upperBound..<text.endIndex) else {
            return FuzzTarget.repeating(seed, size)
        }
        let event = Array(text[begin.lowerBound..<end.upperBound].utf8) + [13, 10]
        let head = Array(text[..<begin.lowerBound].utf8), tail = Array("END:VCALENDAR\r\n".utf8)
        return head + FuzzTarget.repeating(event, max(0, size - head.count - tail.count)) + tail
    }
}
