/// A length of time as the flags write it (`90s`, `1h30m`) or as a person says it in
/// English or Korean (`10 min`, `1 hour and 30 minutes`, `half an hour`, `10분`,
/// `1시간 30분`, `1시간 반`, `1.5 hours`), read into whole seconds. Units come from the
/// largest down, each once; a decimal or a half is allowed on the first and only number
/// whose unit is larger than a second, when the result is whole seconds.
enum DurationWords {
    /// The units, by their words: rank (larger first) and seconds.
    private static let units: [String: (rank: Int, seconds: Int)] = {
        var units: [String: (Int, Int)] = [:]
        for word in ["d", "day", "days", "일"] { units[word] = (4, 86400) }
        for word in ["h", "hr", "hrs", "hour", "hours", "시간"] { units[word] = (3, 3600) }
        for word in ["m", "min", "mins", "minute", "minutes", "분"] { units[word] = (2, 60) }
        for word in ["s", "sec", "secs", "second", "seconds", "초"] { units[word] = (1, 1) }
        return units
    }()

    /// Korean number words as they count time: native for hours (한 시간, 두 시간 반, 열두
    /// 시간) and Sino-Korean tens for minutes and seconds (삼십 분, 십오 초).
    private static let koreanNumbers: [String: Int] = [
        "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "열한": 11, "열두": 12,
        "스물": 20, "스무": 20, "십": 10, "십오": 15, "이십": 20, "삼십": 30, "사십": 40, "사십오": 45, "오십": 50,
    ]

    /// The seconds `text` says; `nil` when it is not a length of time.
    static func seconds(_ text: String) -> Int? {
        var words = Self.words(text.lowercased())
        // "an hour and a half", "half an hour", "a minute".
        var total = 0.0, lastRank = 5, amounts = 0
        var pending: Double? = nil
        while !words.isEmpty {
            let word = words.removeFirst()
            if word == "and" || word == "," { continue }
            if let number = Double(word), word.first!.isASCII, word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
                guard pending == nil, number < 1e9 else { return nil }
                pending = number
            } else if let number = koreanNumbers[word] {
                guard pending == nil else { return nil }
                pending = Double(number)
            } else if word == "a" || word == "an" {
                guard pending == nil else { return nil }
                pending = 1
            } else if word == "half" {
                // "half an hour": a half of the unit that follows.
                guard pending == nil else { return nil }
                if words.first == "a" || words.first == "an" { words.removeFirst() }
                pending = 0.5
            } else if word == "반", lastRank < 5, amounts > 0, pending == nil {
                // 1시간 반: half of the unit just said.
                let unit = units.values.first { $0.rank == lastRank }!.seconds
                guard unit > 1 else { return nil }
                total += Double(unit) / 2
                amounts += 1
                if !words.isEmpty { return nil }
            } else if let unit = units[word], let amount = pending, unit.rank < lastRank {
                // A fraction only where it makes whole seconds.
                guard amount == amount.rounded() || unit.seconds > 1 else { return nil }
                total += amount * Double(unit.seconds)
                (pending, lastRank, amounts) = (nil, unit.rank, amounts + 1)
                // "an hour and a half".
                if words.count >= 2, words[0] == "and", words[1] == "a" || words[1] == "an", words.count >= 3, words[2] == "half" {
                    guard unit.seconds > 1 else { return nil }
                    total += Double(unit.seconds) / 2
                    words.removeFirst(3)
                }
            } else {
                return nil
            }
        }
        guard pending == nil, amounts > 0, total == total.rounded(), total < 1e15 else { return nil }
        return Int(total)
    }

    /// The text cut into numbers and words: `1h30m` → 1, h, 30, m; `1시간 30분` → 1, 시간,
    /// 30, 분; `10 minutes, 5 seconds` → 10, minutes, ",", 5, seconds.
    private static func words(_ text: String) -> [String] {
        var words: [String] = [], current = "", currentIsNumber = false
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for ch in text {
            if ch.isWhitespace {
                flush()
            } else if ch == "," {
                flush()
                words.append(",")
            } else {
                // A point belongs to the number it follows (1.5h); anything else starts a word.
                let isNumber = ch.isASCII && ch.isNumber || ch == "." && currentIsNumber && !current.isEmpty
                if !current.isEmpty && isNumber != currentIsNumber { flush() }
                if current.isEmpty { currentIsNumber = isNumber }
                current.append(ch)
            }
        }
        flush()
        // 1시간반: the half written onto its unit; 한시간, 삼십분: the number onto its unit.
        return words.flatMap { word -> [String] in
            var parts = [word]
            if word.count > 1, word.hasSuffix("반"), units[String(word.dropLast())] != nil || koreanNumbers.keys.contains(where: { word.hasPrefix($0) }) {
                parts = [String(word.dropLast()), "반"]
            }
            if let unit = ["시간", "분", "초"].first(where: { parts[0].hasSuffix($0) && parts[0] != $0 }),
               koreanNumbers[String(parts[0].dropLast(unit.count))] != nil {
                parts = [String(parts[0].dropLast(unit.count)), unit] + parts.dropFirst()
            }
            return parts
        }
    }
}
