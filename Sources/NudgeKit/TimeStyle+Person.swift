import Foundation
import NudgeCore
import Platform

/// Times as a person reads them, in every face.
extension TimeStyle {
    /// How the person's `LC_TIME` writes times: the locale's own clock (`오전 9:30`,
    /// `9:30 AM`, `09:30`); 24-hour ISO for C/POSIX and for a locale the C library lacks,
    /// as for every other program on the machine (and as gettext leaves the messages
    /// English).
    public static func person(environment: Environment = .current) -> TimeStyle {
        style(locale: environment.installedLocale("LC_TIME"))
    }

    /// The wording of locale `name` (`nil` for C).
    public static func style(locale name: String?) -> TimeStyle {
        guard let name else {
            return TimeStyle(time: \.description) { instant, zone in
                let (day, second) = CivilZone(zone).local(instant)
                return "\(day.weekday.shortName) \(day) \(LocalTime(secondOfDay: second)!)"
            }
        }
        // Seconds are written only where there are some (a time is rarely set to one).
        let locale = Locale(identifier: name)
        let utc = TimeZone(identifier: "UTC")!
        let clock = formatter(locale, template: "jmm", zone: utc), clockSeconds = formatter(locale, template: "jmmss", zone: utc)
        let instant = formatter(locale, template: "EEEMMMdjmm", zone: utc), instantSeconds = formatter(locale, template: "EEEMMMdjmmss", zone: utc)
        let dated = formatter(locale, template: "yEEEMMMdjmm", zone: utc), datedSeconds = formatter(locale, template: "yEEEMMMdjmmss", zone: utc)
        @Sendable func write(_ date: Date, _ zone: TimeZone, _ minutes: Shared, _ seconds: Shared) -> String {
            let shared = CivilZone(zone).local(date).second % 60 == 0 ? minutes : seconds
            return shared.lock.withLock {
                shared.formatter.timeZone = zone
                return shared.formatter.string(from: date)
            }
        }
        return TimeStyle(time: { time in
            let shared = time.second == 0 ? clock : clockSeconds
            return shared.lock.withLock { shared.formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time.secondOfDay))) }
        }, instant: { write($0, $1, instant, instantSeconds) }, dated: { write($0, $1, dated, datedSeconds) })
    }

    /// A DateFormatter shared by the wording's closures (it is not thread-safe).
    private final class Shared: @unchecked Sendable {
        let formatter: DateFormatter
        let lock = NSLock()
        init(_ formatter: DateFormatter) { self.formatter = formatter }
    }

    private static func formatter(_ locale: Locale, template: String, zone: TimeZone) -> Shared {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = zone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return Shared(formatter)
    }
}

/// How the person picks a time of day: on a 12-hour clock with the locale's words for
/// morning and afternoon (오전/오후, AM/PM), or on a 24-hour one (C, and locales that count
/// so).
public struct ClockStyle: Sendable, Equatable {
    /// Times are picked on a 12-hour clock, with ``am`` and ``pm``.
    public var twelveHour: Bool
    /// The locale's words for morning and afternoon; unused on a 24-hour clock.
    public var am: String, pm: String
    /// The morning or afternoon word comes before the time (오전 9:00), not after (9:00 AM).
    public var halfFirst: Bool

    public init(twelveHour: Bool, am: String, pm: String, halfFirst: Bool = false) {
        (self.twelveHour, self.am, self.pm, self.halfFirst) = (twelveHour, am, pm, halfFirst)
    }

    /// A 24-hour clock (C and POSIX, and a locale the C library lacks).
    public static let twentyFourHour = ClockStyle(twelveHour: false, am: "AM", pm: "PM")

    /// How the person's `LC_TIME` picks times; a 24-hour clock for C or a locale the C
    /// library lacks.
    public static func person(environment: Environment = .current) -> ClockStyle {
        guard let name = environment.installedLocale("LC_TIME") else { return .twentyFourHour }
        let locale = Locale(identifier: name)
        let pattern = DateFormatter.dateFormat(fromTemplate: "j", options: 0, locale: locale) ?? "HH"
        let formatter = DateFormatter()
        formatter.locale = locale
        // Where the locale writes its "a" against its hour: "a h시" in Korean, "h a" in English.
        let clock = DateFormatter.dateFormat(fromTemplate: "jmm", options: 0, locale: locale) ?? ""
        let half = clock.firstIndex(of: "a"), hour = clock.firstIndex { "hKHk".contains($0) }
        return ClockStyle(twelveHour: pattern.contains("h") || pattern.contains("K"), am: formatter.amSymbol, pm: formatter.pmSymbol,
                          halfFirst: half != nil && hour != nil && half! < hour!)
    }
}

extension DateOrder {
    /// The order the person's `LC_TIME` writes a numeric date in (the locale's short date:
    /// M/d/y in en_US, dd/MM/y in en_GB, y. M. d. in Korean); `nil` for C and a locale the C
    /// library lacks, where a date both orders allow is refused.
    public static func person(environment: Environment = .current) -> DateOrder? {
        guard let name = environment.installedLocale("LC_TIME") else { return nil }
        return of(locale: name)
    }

    /// The order locale `name` writes a numeric date in, by where its short date puts the
    /// month against the day.
    public static func of(locale name: String) -> DateOrder? {
        let pattern = DateFormatter.dateFormat(fromTemplate: "yMd", options: 0, locale: Locale(identifier: name)) ?? ""
        guard let month = pattern.firstIndex(of: "M"), let day = pattern.firstIndex(of: "d") else { return nil }
        return month < day ? .monthFirst : .dayFirst
    }
}
