import Foundation

/// The Korean lunisolar calendar's two great holidays, 설날 (the first day of the first
/// month) and 추석 (the fifteenth of the eighth), found from the sky as the calendar itself
/// is: a month starts on the day (in Korea's time) of a new moon; the month holding the
/// winter solstice is the eleventh; the months after it are numbered in turn, and in a year
/// of thirteen months from one eleventh to the next, the first month that holds no principal
/// term (the sun at a multiple of 30°) is a leap month and repeats its number. Korea keeps
/// these rules on its own meridian (UTC+9), so 설날 is a day after China's Spring Festival
/// when a new moon falls in the hour after Beijing's midnight (2027-02-07, 2028-01-27).
///
/// New moons by Meeus, *Astronomical Algorithms* (2nd ed.), ch. 49 (within a minute or so in
/// these centuries), the sun's longitude by ch. 25's low-accuracy series (about 0.01°, a
/// quarter of an hour), ΔT by Espenak and Meeus's polynomials. `LunarCalendarTests` checks the
/// method with China's meridian against the Chinese calendar the system's ICU keeps, for every
/// year from 1950 to 2150.
enum LunarCalendar {
    /// 설날 in `year` on the meridian `offset` seconds east of Greenwich (Korea's: 9 hours).
    static func newYear(_ year: Int, offset: Int = 9 * 3600) -> CivilDay {
        day(month: 1, of: year, offset: offset)
    }

    /// 추석 in `year`: the fifteenth day of the eighth month.
    static func midAutumn(_ year: Int, offset: Int = 9 * 3600) -> CivilDay {
        day(month: 8, of: year, offset: offset).advanced(by: 14)
    }

    /// The first day of month `number` (1–10, not a leap month) of the lunar year that starts
    /// in `year`.
    static func day(month number: Int, of year: Int, offset: Int) -> CivilDay {
        // The eleventh months around it: those holding the winter solstices before and in it.
        let first = lunation(holding: termInstant(longitude: 270, near: julianDay(year - 1, 12, 21)), offset: offset)
        let next = lunation(holding: termInstant(longitude: 270, near: julianDay(year, 12, 21)), offset: offset)
        let months = Int(next - first)
        // In a year of thirteen months, the first that holds no principal term is a leap month.
        var leap: Int?
        if months == 13 {
            leap = (1..<13).first { !holdsPrincipalTerm(first + Double($0), offset: offset) }
        }
        var numberOf = 11
        for i in 1..<months {
            if i != leap { numberOf = numberOf % 12 + 1 }
            if i != leap, numberOf == number { return localDay(newMoon(first + Double(i)), offset: offset) }
        }
        return localDay(newMoon(first + Double(number + 1)), offset: offset)
    }

    /// Whether the month of lunation `k` holds a principal term: the sun's longitude passes a
    /// multiple of 30° between its first day's start and the next month's, in local time.
    static func holdsPrincipalTerm(_ k: Double, offset: Int) -> Bool {
        func longitudeAt(_ day: CivilDay) -> Double {
            let jd = julianDay(day) - Double(offset) / 86_400
            return sunLongitude(jd + deltaT(jd))
        }
        let start = longitudeAt(localDay(newMoon(k), offset: offset)), end = longitudeAt(localDay(newMoon(k + 1), offset: offset))
        return Int(start / 30) != Int(end / 30)
    }

    // MARK: The month holding an instant

    /// The lunation (its number `k`: 0 is 2000-01-06's new moon) whose month, from its local
    /// day to the next one's, holds `jd` (an instant, in Julian days of Universal Time).
    static func lunation(holding jd: Double, offset: Int) -> Double {
        let day = localDay(jd, offset: offset)
        var k = ((jd - 2_451_550.097_66) / 29.530_588_861).rounded(.down) + 1
        // The last new moon whose local day is on or before the term's day.
        while localDay(newMoon(k), offset: offset) > day { k -= 1 }
        while localDay(newMoon(k + 1), offset: offset) <= day { k += 1 }
        return k
    }

    /// The civil day at `offset` of an instant in Julian days (UT).
    static func localDay(_ jd: Double, offset: Int) -> CivilDay {
        let days = Int((jd - 2_440_587.5 + Double(offset) / 86_400).rounded(.down))
        return CivilDay(year: 1970, month: 1, day: 1)!.advanced(by: days)
    }

    /// The Julian day (UT) of a Gregorian date's midnight at Greenwich.
    static func julianDay(_ year: Int, _ month: Int, _ day: Int) -> Double {
        julianDay(CivilDay(year: year, month: month, day: day)!)
    }

    static func julianDay(_ day: CivilDay) -> Double {
        Double(CivilDay(year: 1970, month: 1, day: 1)!.distance(to: day)) + 2_440_587.5
    }

    // MARK: Astronomy

    static func sin(degrees: Double) -> Double { Foundation.sin(degrees * .pi / 180) }

    /// ΔT (TT − UT) in days, for a Julian day.
    static func deltaT(_ jd: Double) -> Double {
        let y = 2000 + (jd - 2_451_545) / 365.25
        let seconds: Double
        switch y {
        case ..<1986:
            let t = y - 1975
            seconds = 45.45 + 1.067 * t - t * t / 260 - t * t * t / 718
        case ..<2005:
            let t = y - 2000
            seconds = 63.86 + 0.3345 * t - 0.060374 * t * t + 0.0017275 * t * t * t + 0.000651814 * t * t * t * t + 0.00002373599 * t * t * t * t * t
        case ..<2050:
            let t = y - 2000
            seconds = 62.92 + 0.32217 * t + 0.005589 * t * t
        case ..<2150:
            let u = (y - 1820) / 100
            seconds = -20 + 32 * u * u - 0.5628 * (2150 - y)
        default:
            let u = (y - 1820) / 100
            seconds = -20 + 32 * u * u
        }
        return seconds / 86_400
    }

    /// The instant (Julian day, UT) of the new moon of lunation `k` (0: 2000-01-06).
    static func newMoon(_ k: Double) -> Double {
        let t = k / 1236.85, t2 = t * t, t3 = t2 * t, t4 = t3 * t
        var jde = 2_451_550.097_66 + 29.530_588_861 * k + 0.000_154_37 * t2 - 0.000_000_150 * t3 + 0.000_000_000_73 * t4
        let e = 1 - 0.002_516 * t - 0.000_007_4 * t2
        let m = 2.5534 + 29.105_356_70 * k - 0.000_001_4 * t2 - 0.000_000_11 * t3
        let mp = 201.5643 + 385.816_935_28 * k + 0.010_758_2 * t2 + 0.000_012_38 * t3 - 0.000_000_058 * t4
        let f = 160.7108 + 390.670_502_84 * k - 0.001_611_8 * t2 - 0.000_002_27 * t3 + 0.000_000_011 * t4
        let omega = 124.7746 - 1.563_755_88 * k + 0.002_067_2 * t2 + 0.000_002_15 * t3
        let terms: [(Double, Double)] = [
            (-0.40720, mp), (0.17241 * e, m), (0.01608, 2 * mp), (0.01039, 2 * f), (0.00739 * e, mp - m), (-0.00514 * e, mp + m),
            (0.00208 * e * e, 2 * m), (-0.00111, mp - 2 * f), (-0.00057, mp + 2 * f), (0.00056 * e, 2 * mp + m), (-0.00042, 3 * mp),
            (0.00042 * e, m + 2 * f), (0.00038 * e, m - 2 * f), (-0.00024 * e, 2 * mp - m), (-0.00017, omega), (-0.00007, mp + 2 * m),
            (0.00004, 2 * mp - 2 * f), (0.00004, 3 * m), (0.00003, mp + m - 2 * f), (0.00003, 2 * mp + 2 * f), (-0.00003, mp + m + 2 * f),
            (0.00003, mp - m + 2 * f), (-0.00002, mp - m - 2 * f), (-0.00002, 3 * mp + m), (0.00002, 4 * mp),
        ]
        for (amplitude, angle) in terms { jde += amplitude * sin(degrees: angle) }
        let planetary: [(Double, Double)] = [
            (0.000325, 299.77 + 0.107408 * k - 0.009173 * t2), (0.000165, 251.88 + 0.016321 * k), (0.000164, 251.83 + 26.651886 * k),
            (0.000126, 349.42 + 36.412478 * k), (0.000110, 84.66 + 18.206239 * k), (0.000062, 141.74 + 53.303771 * k),
            (0.000060, 207.14 + 2.453732 * k), (0.000056, 154.84 + 7.306860 * k), (0.000047, 34.52 + 27.261239 * k),
            (0.000042, 207.19 + 0.121824 * k), (0.000040, 291.34 + 1.844379 * k), (0.000037, 161.72 + 24.198154 * k),
            (0.000035, 239.56 + 25.513099 * k), (0.000023, 331.55 + 3.592518 * k),
        ]
        for (amplitude, angle) in planetary { jde += amplitude * sin(degrees: angle) }
        return jde - deltaT(jde)
    }

    /// The sun's apparent longitude, in degrees 0..<360, at a Julian day (TT).
    static func sunLongitude(_ jde: Double) -> Double {
        let t = (jde - 2_451_545) / 36_525
        let l0 = 280.46646 + 36_000.76983 * t + 0.000_303_2 * t * t
        let m = 357.52911 + 35_999.05029 * t - 0.000_153_7 * t * t
        let c = (1.914602 - 0.004817 * t - 0.000014 * t * t) * sin(degrees: m) + (0.019993 - 0.000101 * t) * sin(degrees: 2 * m)
            + 0.000289 * sin(degrees: 3 * m)
        let apparent = l0 + c - 0.00569 - 0.00478 * sin(degrees: 125.04 - 1934.136 * t)
        return (apparent.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The instant (Julian day, UT) the sun reaches `longitude`, near `jd`.
    static func termInstant(longitude: Double, near jd: Double) -> Double {
        var jde = jd
        // Newton's steps: the sun moves about 360/365.2422 degrees a day.
        for _ in 0..<8 {
            var gap = longitude - sunLongitude(jde)
            gap = (gap + 540).truncatingRemainder(dividingBy: 360) - 180
            jde += gap * 365.2422 / 360
            if abs(gap) < 0.000_01 { break }
        }
        return jde - deltaT(jde)
    }
}
