import Foundation
import Localization
import NudgeCore
import NudgeKit

/// What a schedule phrase was read as, said back before anything is stored:
/// `매일 오전 9시 → --at 09:00 (매일 오전 9:00) · 다음: 11월 26일 (목) 오전 9:00, …`, then
/// what was chosen on the person's behalf, a line each (the default reminder time among
/// them, read as the schedule was: `defaultTime`).
enum PhraseEcho {
    static func lines(_ phrase: String, schedule: Schedule, zone: TimeZone, now: Date, showings: Bool = true, defaultTime: DefaultReminderTime) -> [String] {
        let language = Catalog.shared.language, style = TimeStyle.person()
        let said = phrase.count > 60 ? String(phrase.prefix(60)).escapingControls + "…" : phrase.escapingControls
        let summary = schedule.summary(in: zone, timeStyle: style, language: language)
        let reading = try? defaultTime.read(phrase, now: now, zone: zone)
        var line = (reading?.flags ?? schedule.flagsText(in: zone)).map {
            // TRANSLATORS: a schedule phrase echoed: %1$s as typed, %2$s the flags that mean the same, %3$s the schedule in words.
            format(tr("%1$s → %2$s (%3$s)"), said, $0, summary)
        }
            // TRANSLATORS: a schedule phrase no flags can say, echoed: %1$s as typed, %2$s the schedule in words.
            ?? format(tr("%1$s → %2$s"), said, summary)
        if showings {
            let next = schedule.occurrences(after: now, count: 3, in: zone).map { style.instant($0, zone) }
            let list = next.isEmpty ? Labels.placeNext(schedule) ?? tr("never") : next.joined(separator: ", ") + (next.count == 3 ? ", …" : "")
            line += " · " + format(tr("next: %s"), list)
        }
        let notes = reading?.notes ?? []
        return [line] + notes.map { "  " + $0.text(language) }
    }
}
