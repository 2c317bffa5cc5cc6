import Foundation

/// A reminder that comes up on arriving at a place or on leaving it, instead of at a time
/// (the seed apps' `UNLocationNotificationTrigger`). A place is a network NetworkManager is
/// connected to, by its connection's name or its Wi-Fi network's (SSID), or a circle on the
/// map that GeoClue's position falls in. It may be kept to certain hours and days, and rest
/// for a while after it came up (arriving twice at the office in a morning is one reminder).
public struct PlaceTrigger: Sendable, Hashable, Codable {
    /// Arriving or leaving.
    public enum Edge: String, Sendable, Hashable, Codable, CaseIterable {
        case arrive, leave
    }

    /// Where.
    public enum Spot: Sendable, Hashable, Codable {
        /// A network, by NetworkManager's connection name (`id`) or Wi-Fi network name
        /// (SSID): either matches.
        case network(String)
        /// A circle on the map (GeoClue's position).
        case area(Area)
    }

    /// A circle: its centre in degrees (WGS 84, as GeoClue gives positions) and its radius
    /// in metres.
    public struct Area: Sendable, Hashable, Codable {
        public var latitude: Double
        public var longitude: Double
        public var radius: Double

        /// The radii allowed: GeoClue's Wi-Fi and GPS positions are rarely better than tens
        /// of metres; a circle wider than a country is not a place.
        public static let radii: ClosedRange<Double> = 50...1_000_000

        /// An area; `nil` when a coordinate or the radius is out of range.
        public init?(latitude: Double, longitude: Double, radius: Double) {
            guard (-90...90).contains(latitude), (-180...180).contains(longitude), Self.radii.contains(radius) else { return nil }
            // Kept to what its words say: degrees to 6 decimals (0.1 m), metres to 0.1.
            let (latitude, longitude, radius) = ((latitude * 1e6).rounded() / 1e6, (longitude * 1e6).rounded() / 1e6, (radius * 10).rounded() / 10)
            (self.latitude, self.longitude, self.radius) = (latitude + 0, longitude + 0, radius)
        }

        /// The distance in metres from its centre to a point (haversine, mean Earth radius):
        /// exact to well under a metre at the sizes an area has.
        public func distance(latitude: Double, longitude: Double) -> Double {
            let rad = Double.pi / 180
            let dLat = (latitude - self.latitude) * rad, dLon = (longitude - self.longitude) * rad
            let a = sin(dLat / 2) * sin(dLat / 2) + cos(self.latitude * rad) * cos(latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
        }

        /// Whether a position lies inside.
        public func contains(latitude: Double, longitude: Double) -> Bool {
            distance(latitude: latitude, longitude: longitude) <= radius
        }

        /// The coarsest of GeoClue's accuracy levels that can tell inside from outside: a
        /// level's typical error at most half the radius. (GeoClue's levels: 1 country,
        /// hundreds of km; 4 city, about 15 km; 5 neighbourhood, about 1 km; 6 street, about
        /// 100 m; 8 exact, GPS.)
        public var accuracyLevel: UInt32 {
            switch radius {
            case 300_000...: 1
            case 30_000...: 4
            case 2_000...: 5
            case 200...: 6
            default: 8
            }
        }

        /// `37.56650,126.97800,300m`: as `--arrive` reads it.
        public var text: String {
            let r = radius >= 1000 && radius.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(radius / 1000))km" : "\(Self.number(radius))m"
            return "\(Self.number(latitude)),\(Self.number(longitude)),\(r)"
        }

        /// A coordinate or radius without trailing zeros, at most 6 decimals (0.1 m).
        static func number(_ value: Double) -> String {
            var text = String(format: "%.6f", locale: nil, value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        }
    }

    /// Arriving or leaving.
    public var edge: Edge
    /// Where.
    public var spot: Spot
    /// Only between these times of day (`--from`, `--until`); any time when `nil`.
    public var window: DayWindow?
    /// Only on these days.
    public var days: Set<Weekday>
    /// At most once in this many seconds (`--once-per`); `nil` for every time.
    public var oncePer: Int?

    /// A trigger.
    public init(edge: Edge, spot: Spot, window: DayWindow? = nil, days: Set<Weekday> = Schedule.everyDay, oncePer: Int? = nil) {
        (self.edge, self.spot, self.window, self.days, self.oncePer) = (edge, spot, window, days, oncePer)
    }

    /// The longest network name kept: NetworkManager's connection names are free text,
    /// SSIDs at most 32 bytes.
    public static let nameLimit = 255

    /// Whether a place event comes up as this reminder at `now` in `zone`, its last showing
    /// having come up at `last`: the edge and the place match, `now` is in its hours and
    /// days, and its rest after `last` is over.
    public func matches(_ event: PlaceEvent, now: Date, zone: TimeZone, last: Date?) -> Bool {
        guard event.edge == edge, event.spot == spot else { return false }
        let local = CivilZone(zone).local(now)
        guard days.contains(local.day.weekday), window?.contains(local.second) ?? true else { return false }
        if let oncePer, let last, now.timeIntervalSince(last) < TimeInterval(oncePer), now >= last { return false }
        return true
    }

    // MARK: Words

    /// "on arriving at office-wifi", "on leaving within 300 m of 37.5665, 126.978", with
    /// its hours, days and rest.
    public func summary(timeStyle: TimeStyle = .iso, language: Language = .english) -> String {
        switch (edge, spot) {
        case (.arrive, .network(let name)):
            // TRANSLATORS: a place reminder's schedule: %s is a network's name (office-wifi).
            return said(name) { format(language.tr("on arriving at %s"), $0) + extrasText(timeStyle, language) }
        case (.leave, .network(let name)):
            // TRANSLATORS: a place reminder's schedule: %s is a network's name (home-wifi).
            return said(name) { format(language.tr("on leaving %s"), $0) + extrasText(timeStyle, language) }
        case (.arrive, .area(let area)):
            // TRANSLATORS: a place reminder's schedule: %1$s is a distance (300 m), %2$s a position (37.5665, 126.978).
            return format(language.tr("on arriving within %1$s of %2$s"), Self.distance(area.radius), Self.position(area)) + extrasText(timeStyle, language)
        case (.leave, .area(let area)):
            // TRANSLATORS: a place reminder's schedule: %1$s is a distance (300 m), %2$s a position (37.5665, 126.978).
            return format(language.tr("on leaving the %1$s around %2$s"), Self.distance(area.radius), Self.position(area)) + extrasText(timeStyle, language)
        }
    }

    /// ", 08:00–11:00, Mon–Fri, at most once every 4 h": what keeps it to its hours, days
    /// and rest.
    private func extrasText(_ timeStyle: TimeStyle, _ language: Language) -> String {
        var text = ""
        if let window { text += ", \(timeStyle.time(window.start))–\(timeStyle.time(window.end))" }
        let dayText = Schedule.describe(days, language: language)
        if !dayText.isEmpty { text += ", " + dayText }
        if let oncePer {
            // TRANSLATORS: a place reminder comes up at most once in this time: %s is a duration (4 h).
            text += ", " + format(language.tr("at most once every %s"), Schedule.duration(oncePer, language: language))
        }
        return text
    }

    /// The words with a network's name, which read back as this reminder: a name that
    /// would read as something else (`1,2,3m`, a circle; one ending in ", Mon" or in the
    /// Korean words for leaving) is written “NAME”.
    private func said(_ name: String, _ words: (String) -> String) -> String {
        let plain = words(name)
        return (try? Self.phrase(plain)) == self ? plain : words("\u{201C}" + name + "\u{201D}")
    }

    static func distance(_ metres: Double) -> String {
        metres >= 1000 ? "\(Area.number(metres / 1000)) km" : "\(Area.number(metres)) m"
    }

    static func position(_ area: Area) -> String {
        "\(Area.number(area.latitude)), \(Area.number(area.longitude))"
    }

    /// The flags that make it: `--arrive office-wifi --from 09:00 --until 12:00 --once-per 4h`.
    public var flagsText: String {
        let place: String = switch spot {
        case .network(let name): Self.looksLikeArea(name) || name.hasPrefix("network:") ? "network:" + name : name
        case .area(let area): area.text
        }
        // A place that starts with a minus, quoted or not, is joined with '=' (the option
        // parser would take it for an option; a quoted one was missed: the phrase fuzz target).
        return "--\(edge.rawValue)\(place.hasPrefix("-") ? "=" : " ")\(Self.shellQuoted(place))" + (window.map { " --from \($0.start) --until \($0.end)" } ?? "")
            + Schedule.daysFlag(days) + (oncePer.map { " --once-per \(Schedule.flagDuration($0))" } ?? "")
    }

    /// A word as a POSIX shell reads it back: bare when it holds nothing the shell treats
    /// specially, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.value > 127 ? !CharacterSet.whitespacesAndNewlines.contains(scalar) && scalar.properties.generalCategory != .control
                : CharacterSet.alphanumerics.contains(scalar) || "-_.,:/@%+=".unicodeScalars.contains(scalar)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Reading `--arrive` and `--leave`

    // TRANSLATORS: the forms a place may take (keep the examples as they are).
    static let placeForms = Phrase("use a network's name as nudge places lists it, or LATITUDE,LONGITUDE,RADIUS like 37.5665,126.978,300m")

    /// A place as typed: `office-wifi`, `"Home Wi-Fi"`, `network:1,2,3m` (a network whose
    /// name reads like a circle), or `37.5665,126.978,300m` (radius in m or km).
    public static func spot(_ text: String) throws(ScheduleError) -> Spot {
        if text.hasPrefix("network:") { return .network(try networkName(String(text.dropFirst("network:".count)), typed: text)) }
        guard looksLikeArea(text) else { return .network(try networkName(text, typed: text)) }
        // Written as a circle: a circle, or refused (never a network by that name).
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.count == 3 else {
            throw ScheduleError(text, Phrase("invalid place"),
                                detail: Phrase("a circle is two decimal degrees and a radius in m or km; a network named so is network:NAME"),
                                accepted: placeForms)
        }
        let radius = parts[2].replacingOccurrences(of: " ", with: "")
        let unit: Double? = radius.hasSuffix("km") ? 1000 : radius.hasSuffix("m") && !radius.hasSuffix("mm") ? 1 : nil
        let number = radius.dropLast(unit == 1000 ? 2 : unit == 1 ? 1 : 0)
        let decimal = { (s: Substring) -> Double? in
            var body = s
            if body.first == "-" || body.first == "+" { body = body.dropFirst() }
            let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), !pieces[0].isEmpty || pieces.count == 2, pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                  pieces.contains(where: { !$0.isEmpty }) else { return nil }
            return Double(s)
        }
        guard let unit, let lat = decimal(Substring(parts[0])), let lon = decimal(Substring(parts[1])), let r = decimal(number) else {
            throw ScheduleError(text, Phrase("invalid place"),
                                // TRANSLATORS: a place typed like a circle with a part that is not a number or has no unit.
                                detail: Phrase("a circle is two decimal degrees and a radius in m or km; a network named so is network:NAME"),
                                accepted: placeForms)
        }
        guard let area = Area(latitude: lat, longitude: lon, radius: r * unit) else {
            throw ScheduleError(text, Phrase("invalid place"),
                                // TRANSLATORS: the ranges of a circle's numbers; keep them as they are.
                                detail: Phrase("the latitude must be -90 to 90, the longitude -180 to 180, the radius 50m to 1000km"),
                                accepted: placeForms)
        }
        return .area(area)
    }

    private static func networkName(_ given: String, typed: String) throws(ScheduleError) -> String {
        // Spaces around a name are the typing's, not the name's.
        let name = given.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            throw ScheduleError(typed, Phrase("invalid place"), detail: Phrase("the name is empty"), accepted: placeForms)
        }
        guard name.utf8.count <= nameLimit else {
            // TRANSLATORS: %d is the most bytes a network's name may have.
            throw ScheduleError(String(typed.prefix(40)) + "…", Phrase("invalid place"), detail: Phrase("the name is longer than %d bytes", nameLimit), accepted: placeForms)
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScheduleError(typed, Phrase("invalid place"), detail: Phrase("the name holds a control character"), accepted: placeForms)
        }
        // A mark first joins whatever is written before the name (the opening quote list
        // puts around it, which then no longer read as one: found by the phrase fuzz target).
        if let first = name.unicodeScalars.first, [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) {
            throw ScheduleError(typed.escapingControls, Phrase("invalid place"), detail: Phrase("the name begins with a combining mark"), accepted: placeForms)
        }
        // Zero-width and direction marks, fillers and line separators would make two names
        // look alike, a list read backwards, or a line break in the middle of one; the
        // joiner and variation selector inside an emoji are the emoji's.
        let scalars = Array(name.unicodeScalars)
        let hidden = scalars.indices.contains { i in
            let scalar = scalars[i], properties = scalar.properties
            if [.lineSeparator, .paragraphSeparator].contains(properties.generalCategory) { return true }
            guard properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format else { return false }
            let inEmoji = (scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)) && i > 0 && scalars[i - 1].properties.isEmoji
            return !inEmoji
        }
        guard !hidden else {
            throw ScheduleError(typed.escapingControls, Phrase("invalid place"), detail: Phrase("the name holds an invisible character"), accepted: placeForms)
        }
        return name
    }

    /// Three comma-separated parts, two numbers and a number with m or km: a circle.
    static func looksLikeArea(_ text: String) -> Bool {
        // Three parts, the first two with a digit and nothing a name would hold besides
        // what numbers are written with: typed as a circle, typos and all.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.count >= 3 else { return false }
        let numberish = { (s: String) in
            s.contains { $0.isNumber } && s.allSatisfy { $0.isNumber || "+-.ex\u{FF0E}\u{FF0B}\u{FF0D}".contains($0) }
                || ["nan", "inf", "-inf", "+inf", "infinity"].contains(s)
        }
        return numberish(parts[0]) && numberish(parts[1])
    }

    // MARK: Storage

    /// `place arrive 32400-43200 62 14400 network office-wifi`,
    /// `place leave - 127 - area 37.5665 126.978 300`: the name last, as it is (it may hold
    /// spaces and semicolons).
    var storageText: String {
        let head = "place \(edge.rawValue) \(window.map { "\($0.start.secondOfDay)-\($0.end.secondOfDay)" } ?? "-") \(Schedule.mask(days)) \(oncePer.map(String.init) ?? "-")"
        switch spot {
        case .network(let name): return head + " network " + name
        case .area(let area): return head + " area \(area.latitude) \(area.longitude) \(area.radius)"
        }
    }

    /// Reads ``storageText``.
    init?(storageText text: String) {
        var rest = Substring(text)
        func word() -> Substring? {
            guard let space = rest.firstIndex(of: " ") else { return nil }
            defer { rest = rest[rest.index(after: space)...] }
            return rest[..<space]
        }
        guard word() == "place", let edgeWord = word(), let edge = Edge(rawValue: String(edgeWord)), let windowWord = word(),
              let maskWord = word(), let mask = Int(maskWord), let days = Schedule.days(mask), let restWord = word(), let kind = word() else { return nil }
        var window: DayWindow?
        if windowWord != "-" {
            let ends = windowWord.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let a = Int(ends[0]), let b = Int(ends[1]), (0..<86400).contains(a), (0..<86400).contains(b),
                  let w = DayWindow(start: LocalTime(secondOfDay: a)!, end: LocalTime(secondOfDay: b)!) else { return nil }
            window = w
        }
        var oncePer: Int?
        if restWord != "-" {
            guard let seconds = Int(restWord), Limits.Quantity.oncePer.range.contains(seconds) else { return nil }
            oncePer = seconds
        }
        let spot: Spot
        switch kind {
        case "network":
            guard (try? Self.spot("network:" + rest)) == .network(String(rest)) else { return nil }
            spot = .network(String(rest))
        case "area":
            // As written: Swift's own shortest form of each number (no hex, no exponent games).
            let numbers = rest.split(separator: " ", omittingEmptySubsequences: false).map { word in Double(word).flatMap { "\($0)" == word ? $0 : nil } }
            guard numbers.count == 3, let lat = numbers[0], let lon = numbers[1], let r = numbers[2],
                  let area = Area(latitude: lat, longitude: lon, radius: r) else { return nil }
            spot = .area(area)
        default:
            return nil
        }
        self.init(edge: edge, spot: spot, window: window, days: days, oncePer: oncePer)
    }
}

/// What the daemon saw: arriving at a place or leaving it.
public struct PlaceEvent: Sendable, Hashable {
    public var edge: PlaceTrigger.Edge
    public var spot: PlaceTrigger.Spot

    public init(_ edge: PlaceTrigger.Edge, _ spot: PlaceTrigger.Spot) {
        (self.edge, self.spot) = (edge, spot)
    }
}

extension PlaceTrigger {
    /// A place said in words, English or Korean, as `list` says it and as people say it:
    /// "on arriving at office-wifi", "when I leave home", "office-wifi에 도착하면",
    /// "집에서 떠나면", "on arriving within 300 m of 37.5665, 126.978", and after it, as `list`
    /// writes them, its hours, days and rest: ", 08:00–11:00, Mon–Fri, at most once every
    /// 4 h" (", 오전 8:00–오전 11:00, 월–금, 4시간에 한 번까지"). The name is kept as written
    /// (networks' names are case-sensitive); one in “…” is the name within. `nil` when the
    /// words are not a place's.
    static func phrase(_ text: String) throws(ScheduleError) -> PlaceTrigger? {
        let (head, extras) = Extras.strip(text)
        guard var trigger = try bare(head) else { return nil }
        if let problem = extras.problem { throw problem }
        (trigger.window, trigger.oncePer) = (extras.window, extras.oncePer)
        trigger.days = extras.days ?? Schedule.everyDay
        return trigger
    }

    /// The place alone.
    private static func bare(_ text: String) throws(ScheduleError) -> PlaceTrigger? {
        let lower = text.lowercased()
        let english: [(String, Edge)] = [("on arriving at ", .arrive), ("when i arrive at ", .arrive), ("when arriving at ", .arrive),
                                         ("on leaving ", .leave), ("when i leave ", .leave), ("when leaving ", .leave)]
        for (prefix, edge) in english where lower.hasPrefix(prefix) {
            let rest = String(text.dropFirst(prefix.count)).trimmingSpaces
            if let area = try areaWords(rest, edge: edge) { return PlaceTrigger(edge: edge, spot: .area(area)) }
            return PlaceTrigger(edge: edge, spot: try spot(unquoted(rest)))
        }
        for (prefix, edge) in [("on arriving within ", Edge.arrive)] where lower.hasPrefix(prefix) {
            if let area = try areaWords("within " + String(text.dropFirst(prefix.count)), edge: edge) { return PlaceTrigger(edge: edge, spot: .area(area)) }
        }
        let korean: [(String, Edge)] = [("에 도착하면", .arrive), ("에 도착할 때", .arrive), ("에 오면", .arrive),
                                        ("에서 떠나면", .leave), ("에서 떠날 때", .leave), ("에서 나가면", .leave), ("에서 나갈 때", .leave),
                                        ("을 떠나면", .leave), ("를 떠나면", .leave)]
        for (suffix, edge) in korean where text.hasSuffix(suffix) {
            let name = String(text.dropLast(suffix.count)).trimmingSpaces
            if let area = try koreanArea(name) { return PlaceTrigger(edge: edge, spot: .area(area)) }
            return PlaceTrigger(edge: edge, spot: try spot(unquoted(name)))
        }
        let koreanAreaEdges: [(String, Edge)] = [(" 안에 들어오면", .arrive), (" 밖으로 나가면", .leave)]
        for (suffix, edge) in koreanAreaEdges where text.hasSuffix(suffix) {
            if let area = try koreanArea(String(text.dropLast(suffix.count))) { return PlaceTrigger(edge: edge, spot: .area(area)) }
        }
        return nil
    }

    /// A name in “…” is the name within (what ``summary(timeStyle:language:)`` writes for a
    /// name that would read as something else).
    private static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.hasPrefix("\u{201C}"), name.hasSuffix("\u{201D}") else { return name }
        // Quoted, it is a network's name, whatever it looks like.
        return "network:" + String(name.dropFirst().dropLast())
    }

    /// Hours, days and a rest after a place, as ``summary(timeStyle:language:)`` writes
    /// them, taken from the end, each once.
    struct Extras {
        var window: DayWindow?
        var days: Set<Weekday>?
        var oncePer: Int?
        /// What looked like one of them and was wrong (said only when the rest is a place).
        var problem: ScheduleError?

        static func strip(_ text: String) -> (String, Extras) {
            // A name in “…” is never taken apart: only what follows its closing quote can hold them.
            var kept = "", tail = text
            if let close = text.lastIndex(of: "\u{201D}") {
                kept = String(text[...close])
                tail = String(text[text.index(after: close)...])
            }
            var parts = tail.components(separatedBy: ", ")
            var extras = Extras()
            guard parts.count > 1 else { return (text, extras) }
            // The rest: "at most once every 4 h", "4시간에 한 번까지".
            let last = parts[parts.count - 1]
            var rest: String?
            if last.lowercased().hasPrefix("at most once every ") { rest = String(last.dropFirst("at most once every ".count)) }
            if last.hasSuffix("에 한 번까지") { rest = String(last.dropLast("에 한 번까지".count)) }
            if let rest {
                parts.removeLast()
                if let seconds = duration(rest), Limits.Quantity.oncePer.range.contains(seconds) {
                    extras.oncePer = seconds
                } else {
                    extras.problem = ScheduleError(last, Phrase("invalid %s", Limits.Quantity.oncePer.label),
                                                   detail: Phrase("it must be %s", Limits.Quantity.oncePer.rangePhrase), accepted: ScheduleParser.durationForms)
                }
            }
            // The days: "Mon–Fri", or a list "Mon, Wed, Fri" (each its own part).
            var days = Set<Weekday>()
            while parts.count > 1, let day = weekday(parts[parts.count - 1]) {
                days.insert(day)
                parts.removeLast()
            }
            if days.isEmpty, parts.count > 1, let range = dayRange(parts[parts.count - 1]) {
                days = range
                parts.removeLast()
            }
            if !days.isEmpty { extras.days = days }
            // The hours: "08:00–11:00", "8:00 AM–11:00 AM", "오전 8:00–오전 11:00" (or with a
            // hyphen or an em dash). What reads like hours and is not is refused, never taken
            // for a part of the name.
            if parts.count > 1, looksLikeWindow(parts[parts.count - 1]) {
                let segment = parts.removeLast()
                let ends = segment.components(separatedBy: CharacterSet(charactersIn: "\u{2013}\u{2014}-"))
                if ends.count == 2, let start = time(ends[0]), let end = time(ends[1]), let window = DayWindow(start: start, end: end) {
                    extras.window = window
                } else {
                    extras.problem = extras.problem ?? ScheduleError(segment, Phrase("invalid window"),
                                                                     detail: Phrase("--until must not be before --from"),
                                                                     accepted: Phrase("use e.g. --from 09:30 --until 21:30"))
                }
            }
            return (kept + parts.joined(separator: ", "), extras)
        }

        /// Digits, colons, a dash and the words for the halves of the day, nothing else: hours.
        static func looksLikeWindow(_ segment: String) -> Bool {
            var rest = segment.lowercased()
            // "-8", a circle's longitude west of Greenwich as list writes it ("around 0.5665,
            // -8"), is a number, not hours (found by the phrase fuzz target).
            let trimmed = rest.trimmingSpaces
            if trimmed.hasPrefix("-"), trimmed.dropFirst().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) { return false }
            for word in ["a.m.", "p.m.", "am", "pm", "오전", "오후"] { rest = rest.replacingOccurrences(of: word, with: "") }
            let dashes = CharacterSet(charactersIn: "\u{2013}\u{2014}-")
            return rest.unicodeScalars.contains { dashes.contains($0) } && rest.contains { $0.isASCII && $0.isNumber }
                && rest.unicodeScalars.allSatisfy { dashes.contains($0) || ":0123456789 \u{202F}\u{00A0}".unicodeScalars.contains($0) }
        }

        static let englishDays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"], koreanDays = ["일", "월", "화", "수", "목", "금", "토"]

        static func weekday(_ text: String) -> Weekday? {
            (englishDays.firstIndex(of: text.lowercased()) ?? koreanDays.firstIndex(of: text)).flatMap(Weekday.init(rawValue:))
        }

        /// "Mon–Fri": Monday-first order, as list writes it.
        static func dayRange(_ text: String) -> Set<Weekday>? {
            let ends = text.components(separatedBy: "\u{2013}")
            guard ends.count == 2, let a = weekday(ends[0]), let b = weekday(ends[1]) else { return nil }
            let order: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
            let i = order.firstIndex(of: a)!, j = order.firstIndex(of: b)!
            guard i < j else { return nil }
            return Set(order[i...j])
        }

        /// "08:00", "8:00 AM", "오전 8:00", "오후 12:00".
        static func time(_ text: String) -> LocalTime? {
            // ICU writes a narrow no-break space before AM.
            let t = text.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{00A0}", with: " ").trimmingSpaces
            for (word, pm) in [("오전 ", false), ("오후 ", true)] where t.hasPrefix(word) {
                guard let clock = try? ScheduleParser.time(String(t.dropFirst(word.count)) + (pm ? "pm" : "am")) else { return nil }
                return clock
            }
            return try? ScheduleParser.time(t)
        }

        /// "4 h", "1 h 30 min", "90 s", "4시간", "1시간 30분", "90초": seconds.
        static func duration(_ text: String) -> Int? {
            let units: [(String, Int)] = [("min", 60), ("h", 3600), ("s", 1), ("시간", 3600), ("분", 60), ("초", 1)]
            var rest = Substring(text.replacingOccurrences(of: " ", with: "")), total = 0, any = false
            while !rest.isEmpty {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 7, let n = Int(digits) else { return nil }
                rest = rest.dropFirst(digits.count)
                guard let (unit, size) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
                rest = rest.dropFirst(unit.count)
                total += n * size
                any = true
            }
            return any ? total : nil
        }
    }

    /// "within 300 m of 37.5665, 126.978" (arriving), "the 300 m around 37.5665, 126.978"
    /// (leaving): the words ``summary(timeStyle:language:)`` writes.
    private static func areaWords(_ text: String, edge: Edge) throws(ScheduleError) -> Area? {
        let lower = text.lowercased()
        let (head, joint) = edge == .arrive ? ("within ", " of ") : ("the ", " around ")
        guard lower.hasPrefix(head) else { return nil }
        // The joint after the head ("the around 37, 127" has none: the head's space is not its).
        let afterHead = lower.index(lower.startIndex, offsetBy: head.count)
        guard let range = lower.range(of: joint, range: afterHead..<lower.endIndex) else { return nil }
        let distance = String(lower[afterHead..<range.lowerBound])
        return try area(position: String(lower[range.upperBound...]), distance: distance, typed: text)
    }

    /// "37.5665, 126.978 반경 300 m".
    private static func koreanArea(_ text: String) throws(ScheduleError) -> Area? {
        guard let range = text.range(of: " 반경 ") else { return nil }
        return try area(position: String(text[..<range.lowerBound]), distance: String(text[range.upperBound...]), typed: text)
    }

    private static func area(position given: String, distance: String, typed: String) throws(ScheduleError) -> Area? {
        // "(37.5665, 126.978)": the Korean words put the position in parentheses, so they
        // never start with a minus (which the option parser would take for an option).
        var position = given.trimmingSpaces
        if position.hasPrefix("("), position.hasSuffix(")") { position = String(position.dropFirst().dropLast()) }
        let numbers = position.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let d = distance.replacingOccurrences(of: " ", with: "")
        guard numbers.count == 2, d.hasSuffix("m") else { return nil }
        guard case .area(let area) = try spot("\(numbers[0]),\(numbers[1]),\(d)") else { return nil }
        return area
    }
}
