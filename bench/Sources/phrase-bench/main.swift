// Reading schedules said in words: every phrase of the tables (Korean and English, refusals
// too), each read many times, beside the same schedules read from their flags, in one run;
// the slowest phrase alone; and hostile input (10,000 repeated words, 1 MB) to its refusal.
// Run: swift run -c release phrase-bench
import BenchSupport
import Foundation
import NudgeCore
import TestSupport

let zone = PhraseTables.zone, now = PhraseTables.now
let rows = PhraseTables.korean + PhraseTables.english
let phrases = rows.map(\.0)
let flags = rows.filter { $0.1.hasPrefix("--") }.map { PhraseTables.flags($0.1) }
let rounds = 200

func ns(_ start: DispatchTime) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) }
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

// Both checked first: every phrase reads as its table says (the tests say how).
var read = 0
for phrase in phrases where (try? SchedulePhrase.read(phrase, now: now, zone: zone)) != nil { read += 1 }

var phraseRuns: [Double] = [], flagRuns: [Double] = []
for _ in 0..<5 {
    var t = DispatchTime.now()
    for _ in 0..<rounds { for phrase in phrases { _ = try? SchedulePhrase.read(phrase, now: now, zone: zone) } }
    phraseRuns.append(ns(t) / Double(rounds * phrases.count))
    t = DispatchTime.now()
    for _ in 0..<rounds { for f in flags { _ = try? ScheduleParser.schedule(f, now: now, zone: zone) } }
    flagRuns.append(ns(t) / Double(rounds * flags.count))
}
let perPhrase = median(phraseRuns) / 1000, perFlags = median(flagRuns) / 1000
print("phrase-bench: \(phrases.count) phrases (\(read) read, \(phrases.count - read) refused) and \(flags.count) flag sets, \(rounds) rounds, median of 5")
figure("phrase: one phrase read, mean over the tables", perPhrase, "µs", anchor: "the same schedules from their flags", perFlags)

/// The slowest of `phrases`: each read once a round, every phrase in turn, and its median
/// over the rounds taken. Timed in rounds, not each phrase's reads together: a pause of
/// the machine's lasting a few milliseconds (a kernel thread, another process) then
/// slows one read of many phrases, not every read of one, which the figure, the largest
/// of some hundreds of medians, took for that phrase's (464 µs one run, 203 the next).
func slowestOf(_ phrases: [String], rounds: Int, now: Date, zone: TimeZone) -> (Double, String) {
    var times = [[Double]](repeating: [], count: phrases.count)
    for _ in 0..<rounds {
        for (index, phrase) in phrases.enumerated() {
            let t = DispatchTime.now()
            _ = try? SchedulePhrase.read(phrase, now: now, zone: zone)
            times[index].append(ns(t) / 1000)
        }
    }
    return zip(times.map(median), phrases).max { $0.0 < $1.0 } ?? (0, "")
}

let slowest = slowestOf(phrases, rounds: 51, now: now, zone: zone)
print("phrase-bench: the slowest phrase is \"\(slowest.1)\"")
figure("phrase: the slowest phrase of the tables", slowest.0, "µs", anchor: "the same schedules from their flags", perFlags)

// Hostile input: refused in one line, at once.
for (name, text) in [("10,000 repeated words", String(repeating: "매일 ", count: 10_000)), ("1 MB", String(repeating: "x", count: 1_000_000))] {
    var times: [Double] = []
    for _ in 0..<21 {
        let t = DispatchTime.now()
        _ = try? SchedulePhrase.read(text, now: now, zone: zone)
        times.append(ns(t) / 1000)
    }
    figure("phrase: \(name) refused", median(times), "µs", anchor: "the same schedules from their flags", perFlags)
}

// Everyday phrasings written without our tables (Tests/Fixtures/phrases), refusals
// included, at their own fixed now: the mean and the slowest.
let everydayZone = TimeZone(identifier: "Asia/Seoul")!
let everydayNow = try! ScheduleParser.instant("2026-03-10 14:20", zone: everydayZone)
var everyday: [String] = []
for language in ["en", "ko"] {
    let url = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases/everyday-\(language).tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
    everyday += text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
}
if !everyday.isEmpty {
    var runs: [Double] = []
    for _ in 0..<5 {
        let t = DispatchTime.now()
        for _ in 0..<50 { for phrase in everyday { _ = try? SchedulePhrase.read(phrase, now: everydayNow, zone: everydayZone) } }
        runs.append(ns(t) / Double(50 * everyday.count))
    }
    print("phrase-bench: \(everyday.count) everyday phrasings, 50 rounds, median of 5")
    figure("phrase: one everyday phrasing read or refused, mean", median(runs) / 1000, "µs", anchor: "the same schedules from their flags", perFlags)
    let slowestEveryday = slowestOf(everyday, rounds: 21, now: everydayNow, zone: everydayZone)
    print("phrase-bench: the slowest everyday phrasing is \"\(slowestEveryday.1)\"")
    figure("phrase: the slowest everyday phrasing", slowestEveryday.0, "µs", anchor: "the same schedules from their flags", perFlags)
}
