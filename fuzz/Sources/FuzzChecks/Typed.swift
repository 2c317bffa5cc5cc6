import Foundation
import NudgeCore

/// What a person types into the schedule flags: a time, days, a duration, a zone, an
/// instant, or a whole set of flags. The first byte picks the reader, the rest is the
/// text (for flags, fields apart by NUL bytes). Whatever reads is written as Nudge writes
/// it (the echo of `nudge add`, `list`'s times) and reads back the same.
enum TypedFuzz {
    static let target = FuzzTarget("typed", "times, days, durations, zones, instants and schedule flags as typed", grow: TypedFuzz.grow) { bytes throws(FuzzFailure) in
        guard let selector = bytes.first else { return }
        let rest = bytes.dropFirst()
        let text = FuzzTargets.text(rest)
        switch selector % 6 {
        case 0:
            guard let time = try? ScheduleParser.time(text) else { return }
            let again = try? ScheduleParser.time(time.description)
            try expect(again == time, "\(text.shown) read as \(time), written \(time.description), read back as \(again.map(String.init(describing:)) ?? "nothing")")
        case 1:
            guard let days = try? ScheduleParser.days(text) else { return }
            try expect(!days.isEmpty, "\(text.shown) read as no day at all")
            let written = Weekday.allCases.filter(days.contains).map { $0.shortName.lowercased() }.joined(separator: ",")
            let again = try? ScheduleParser.days(written)
            try expect(again == days, "\(text.shown) read as \(written), which reads back as \(again.map { "\($0)" } ?? "nothing")")
        case 2:
            let quantities = Limits.Quantity.allCases
            let quantity = quantities[Int(selector / 6) % quantities.count]
            guard let seconds = try? ScheduleParser.duration(text, for: quantity) else { return }
            try expect(seconds > 0, "\(text.shown) read as \(seconds) s")
            let again = try? ScheduleParser.duration("\(seconds)s", for: quantity)
            try expect(again == seconds, "\(text.shown) read as \(seconds) s, '\(seconds)s' as \(again.map(String.init) ?? "nothing")")
        case 3:
            guard let zone = try? ScheduleParser.zone(text) else { return }
            try expect(abs(zone.secondsFromGMT(for: FuzzTargets.now)) <= 26 * 3600, "\(text.shown) read as \(zone.identifier), off by more than a day")
        case 4:
            guard let instant = try? ScheduleParser.instant(text, zone: FuzzTargets.zone) else { return }
            guard instant.timeIntervalSince1970.rounded(.down) == instant.timeIntervalSince1970 else { return }
            let written = InstantFormat.iso8601(instant, in: FuzzTargets.zone)
            let again = try? ScheduleParser.instant(written, zone: FuzzTargets.zone)
            try expect(again == instant, "\(text.shown) read as \(instant), written \(written), read back as \(again.map { "\($0)" } ?? "nothing")")
        default:
            try flags(Array(rest), selector: selector)
        }
    }

    /// Flags from NUL-separated fields, the selector's bits saying which flags come.
    static func flags(_ bytes: [UInt8], selector: UInt8) throws(FuzzFailure) {
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { FuzzTargets.text($0) }.makeIterator()
        var flags = ScheduleFlags()
        // Six bits for eight flags: the selector's high bits and the first field's length pick.
        let mask = Int(selector / 6) | (bytes.count % 7 == 0 ? 0x80 : 0) | (bytes.count % 5 == 0 ? 0x40 : 0)
        if mask & 1 != 0 { while let at = fields.next(), !at.isEmpty { flags.at.append(at) } }
        if mask & 2 != 0 { flags.days = fields.next() }
        if mask & 4 != 0 { flags.every = fields.next() }
        if mask & 8 != 0 { flags.from = fields.next(); flags.until = fields.next() }
        if mask & 16 != 0 { flags.in = fields.next() }
        if mask & 32 != 0 { flags.on = fields.next() }
        if mask & 64 != 0 { flags.cron = fields.next() }
        if mask & 128 != 0 { flags.afterAnswer = true }
        let (now, zone) = (FuzzTargets.now, FuzzTargets.zone)
        guard let schedule = try? ScheduleParser.schedule(flags, now: now, zone: zone), let written = schedule.flagsText(in: zone) else { return }
        let reread: Schedule?
        do throws(FuzzFailure) { reread = try TypedFuzz.schedule(flags: written) } catch {
            throw FuzzFailure("\(flags) made \(schedule), echoed as \(written.shown): \(error)")
        }
        try expect(reread == schedule, "\(flags) made \(schedule), echoed as \(written.shown), read back as \(reread.map { "\($0)" } ?? "nothing")")
    }

    /// The schedule an echo's flags make (`nil` when they make none), read as `nudge add`
    /// reads them at the fixed now.
    static func schedule(flags written: String) throws(FuzzFailure) -> Schedule? {
        guard let again = ScheduleFlags(echoed: written) else { throw FuzzFailure("the echo \(written.shown) is not flags as the shell reads them") }
        return try? ScheduleParser.schedule(again, now: FuzzTargets.now, zone: FuzzTargets.zone)
    }

    /// The selector kept, the text repeated.
    static let grow: @Sendable ([UInt8], Int) -> [UInt8] = { seed, size in
        guard let first = seed.first else { return FuzzTarget.repeating(seed, size) }
        return [first] + FuzzTarget.repeating(Array(seed.dropFirst()), size - 1)
    }
}
