import Foundation
import NudgeCore

/// A schedule said in words, in English or Korean: whatever reads as a schedule is said
/// back as `list` says it (English on a 24-hour clock), and that reads as the same
/// schedule.
enum PhraseFuzz {
    static let target = FuzzTarget("phrase", "schedules said in words (nudge add TITLE WHEN)", grow: PhraseFuzz.grow) { bytes throws(FuzzFailure) in
        let text = FuzzTargets.text(bytes)
        let (now, zone) = (FuzzTargets.now, FuzzTargets.zone)
        guard let reading = try? SchedulePhrase.read(text, now: now, zone: zone) else { return }
        let words = reading.schedule.summary(in: zone, timeStyle: .iso, language: .english)
        let again: Schedule
        do { again = try SchedulePhrase.read(words, now: now, zone: zone).schedule } catch {
            throw FuzzFailure("\(text.shown) read as \(reading.schedule), said \(words.shown), which does not read: \(error)")
        }
        try expect(again == reading.schedule, "\(text.shown) read as \(reading.schedule), said \(words.shown), read back as \(again)")
        // The flags echoed beside the reading make the same schedule.
        if let flags = reading.flags {
            let made = try TypedFuzz.schedule(flags: flags)
            try expect(made == reading.schedule, "\(text.shown) read as \(reading.schedule), echoed as \(flags.shown), which make \(made.map { "\($0)" } ?? "nothing")")
        }
    }

    /// A phrase's words again and again, spaced: the reader refuses past its limit, and
    /// must do so at once.
    static let grow: @Sendable ([UInt8], Int) -> [UInt8] = { seed, size in FuzzTarget.repeating(seed + [0x20], size) }
}
