import Foundation

/// What a schedule phrase was read as: the schedule the flags would make, and what was
/// chosen on the person's behalf (a bare hour in a one-shot), to be said back to them.
public struct PhraseReading: Sendable, Hashable {
    /// The schedule.
    public var schedule: Schedule
    /// What was chosen where the words left a choice, each a phrase to show.
    public var notes: [Phrase]
    /// The flags that make the same schedule, as said (`--in 20m`, `--every 2h --from
    /// 09:00 --until 18:00`); `nil` when only words say it (every other Friday).
    public var flags: String?
    /// Each time read one way where the words allow another (a bare hour, a colon time 1–6):
    /// what was said and how to say the other reading, for faces that offer both readings
    /// instead of one (the desktop's search); the notes say the same in words.
    public var choices: [Choice] = []

    /// A time said one way that reads another way too: `said` as typed (9, 3시, 2:30), and
    /// `other`, the words for the reading not taken (9pm, 새벽 3시, 2:30pm).
    public struct Choice: Sendable, Hashable {
        public var said: String
        public var other: String
        public init(said: String, other: String) {
            self.said = said
            self.other = other
        }
    }
}

/// Reads a schedule said in words, English or Korean ("every weekday at 9:30", "매일 오전
/// 9시", "평일 오전 9시 30분부터 오후 9시 30분까지 30분마다") into the ``Schedule`` the flags
/// make: one meaning, two spellings. Pure: the clock and the zone come in as values, and
/// both languages are read whatever the person's is. It never guesses silently: words left
/// over, a bare hour every day (매일 9시), "next friday" and 12/1 are refused with the
/// readings; every choice it makes comes back in ``PhraseReading/notes`` (a bare hour on a
/// named day is the waking day's, 7–11 morning, 12 noon, 1–6 afternoon; without a day, the
/// next such time; a word read as another, tomorow → tomorrow). It reads in three stages,
/// each in its own file: words (``PhraseWords``), pieces (``PhraseReader`` into
/// ``PhrasePieces``), and the schedule (``PhrasePieces/schedule(now:zone:)``). The grammar
/// is in docs/guide.md ("Schedules in words") and docs/phrases.md.
public enum SchedulePhrase {
    /// The most UTF-8 bytes a phrase may have; a longer one is refused at once.
    public static let maxLength = PhraseWords.maxLength

    // TRANSLATORS: what a schedule phrase may say (keep the examples: they are what to type).
    static let forms = Phrase("say e.g. every weekday at 9:30, in 20 minutes, tomorrow 9am, every 30 minutes from 9:30 to 21:30, 매일 오전 9시")

    /// A refusal of words not understood, with the nearest reading that works: the phrase
    /// without them, when that reads ("did you mean: 내일 오전 9시 → --on '2026-11-26 09:00'?").
    static func suggest(_ error: ScheduleError, reader: PhraseReader, now: Date, zone: TimeZone, defaultTime: LocalTime?, dateOrder: DateOrder?) -> ScheduleError {
        guard error.problem.template == "words not understood", !reader.leftover.isEmpty else { return error }
        let dropped = Set(reader.leftover.flatMap { Array($0) })
        // Only words Nudge does not know are left out: without a word it knows ("in 2 your"
        // is no "2"), the reading would be another phrase's.
        guard dropped.allSatisfy({ reader.words[$0].kind == .unknown }) else { return error }
        // Nor a piece of a Korean word whose other pieces would stay: 내일기 (my diary) is
        // no 내일, tomorrow.
        func joined(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (reader.words[a].span, reader.words[b].span)
            return x.upperBound == y.lowerBound && x.upperBound > 0 && x.upperBound < reader.source.count
                && PhraseWords.isHangul(reader.source[x.upperBound - 1]) && PhraseWords.isHangul(reader.source[y.lowerBound])
        }
        // Nor a day's name beside the words left out: "Mon Ami cafe", "Sunday School" are
        // names, and without the rest of them no Monday or Sunday was said.
        func isDay(_ k: Int) -> Bool {
            guard let key = reader.words[k].key else { return false }
            return PhraseWords.weekdayKeys[key] != nil || PhraseWords.weekdayKeys[String(key.dropLast())] != nil
        }
        for k in dropped {
            if k > 0, !dropped.contains(k - 1), joined(k - 1, k) || isDay(k - 1) { return error }
            if k + 1 < reader.words.count, !dropped.contains(k + 1), joined(k, k + 1) || isDay(k + 1) { return error }
        }
        var kept: [String] = []
        for (k, word) in reader.words.enumerated() where !dropped.contains(k) {
            let said = String(reader.source[word.span])
            guard !said.isEmpty else { continue }
            // Words written together stay together (오전9시).
            if k > 0, !dropped.contains(k - 1), reader.words[k - 1].span.upperBound == word.span.lowerBound, !kept.isEmpty { kept[kept.count - 1] += said } else { kept.append(said) }
        }
        let rest = kept.joined(separator: " ")
        guard !rest.isEmpty, let reading = try? read(rest, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder, suggesting: false), let flags = reading.flags else { return error }
        var helped = error
        // TRANSLATORS: a refusal's nearest reading: %1$s the phrase without the words not understood, %2$s what it makes (--at 09:00).
        helped.accepted = Phrase("did you mean: %1$s → %2$s?", rest, flags)
        return helped
    }

    /// The schedule `text` says, read at `now` in `zone`. A day said without a time of day
    /// ("tomorrow", "friday", "12월 1일", "every monday") takes `defaultTime`, the person's
    /// default reminder time, and says so in the notes; without one (`nil`, the default)
    /// it is refused, asking at what time. A numeric date both orders allow (3/4) is read in
    /// `dateOrder`, the person's locale's, and said; without one (`nil`) it is refused.
    public static func read(_ text: String, now: Date, zone: TimeZone, defaultTime: LocalTime? = nil,
                            dateOrder: DateOrder? = nil) throws(ScheduleError) -> PhraseReading {
        try read(text, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder, suggesting: true)
    }

    /// The schedule `text` says; a refusal of words not understood offers the nearest
    /// reading when `suggesting` (once: that reading is not searched for one of its own).
    static func read(_ text: String, now: Date, zone: TimeZone, defaultTime: LocalTime?, dateOrder: DateOrder? = nil,
                     suggesting: Bool) throws(ScheduleError) -> PhraseReading {
        guard text.utf8.count <= PhraseWords.maxLength else {
            // TRANSLATORS: %d is the most characters a schedule phrase may have.
            // Twenty characters, and no more than forty scalars: one character can carry any
            // number of combining marks.
            var head = String(text.prefix(20))
            if head.unicodeScalars.count > 40 { head = String(String.UnicodeScalarView(head.unicodeScalars.prefix(40))) }
            throw ScheduleError(head + "…", Phrase("schedule phrase too long"),
                                // TRANSLATORS: %d is the most bytes of UTF-8 a schedule phrase may have (a Korean letter is 3).
                                detail: Phrase("it may have at most %d bytes", PhraseWords.maxLength), accepted: forms)
        }
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw ScheduleError("", Phrase("no schedule given"), accepted: forms) }
        // A cron expression is read as cron reads it ("cron 0 9 * * mon-fri", as list says it).
        if trimmed.lowercased().hasPrefix("cron ") {
            let schedule = Schedule.cron(try CronExpression(String(trimmed.dropFirst(5))))
            return PhraseReading(schedule: schedule, notes: [], flags: schedule.flagsText(in: zone))
        }
        // A place is a name, read as written (networks' names are case-sensitive).
        if let trigger = try PlaceTrigger.phrase(trimmed) {
            return PhraseReading(schedule: .place(trigger), notes: [], flags: trigger.flagsText)
        }
        // Three stages, each testable alone: the words (tokens with their places in the
        // text), the pieces they say, and the one schedule those make at `now`.
        var (words, source) = PhraseWords.split(trimmed, zone: zone)
        // About 3, 3시쯤, 9ish: an approximate time is the time itself, said.
        let approximate = words.enumerated().filter { $0.element.key == "about" }
        if !approximate.isEmpty {
            let dropped = Set(approximate.map(\.offset) + approximate.map(\.offset).filter { $0 > 0 && words[$0 - 1].isMark("-") }.map { $0 - 1 })
            words = words.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
        var reader = PhraseReader(words: words, source: source)
        reader.dateOrder = dateOrder
        var pieces: PhrasePieces
        do {
            pieces = try reader.readAll()
        } catch {
            throw suggesting ? suggest(error, reader: reader, now: now, zone: zone, defaultTime: defaultTime, dateOrder: dateOrder) : error
        }
        var reading = try pieces.schedule(now: now, zone: zone, defaultTime: defaultTime)
        reading.flags = pieces.flags ?? reading.schedule.flagsText(in: zone)
        reading.choices = pieces.choices
        // Casual spellings and typos, said as read ("tomorow → tomorrow", "낼 → 내일").
        let typed = words.compactMap { word in
            // TRANSLATORS: a word read as another: %1$s as typed (tomorow), %2$s as read (tomorrow).
            word.readAs.map { Phrase("%1$s → %2$s", word.text, $0) }
        }
        reading.notes = typed + reading.notes
        if let first = approximate.first {
            // TRANSLATORS: an approximate time (3시쯤, about 4): %1$s the word said (쯤, about).
            reading.notes.append(Phrase("%1$s: an approximate time is read as the time itself", first.element.text))
        }
        return reading
    }
}

/// The order a locale writes a numeric date's day and month in: `3/4` is March 4 in
/// en_US and Korean (month first), 3 April in en_GB and most of Europe (day first).
public enum DateOrder: Sendable, Equatable {
    case monthFirst, dayFirst
}
