import Foundation
@testable import NudgeCore
import TestSupport
import Testing

/// The reader's table of rules (``PhraseReader/rules``, issue 54): each row reads its
/// examples whole, itself among the rules that read them, and docs/phrases.md's table is
/// the table.
struct PhraseRulesTests {
    let zone = PhraseTables.zone, now = PhraseTables.now

    @Test func everyRuleHasANameOfItsOwnAndExamples() {
        let names = PhraseReader.rules.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        for rule in PhraseReader.rules {
            #expect(!rule.examples.isEmpty, "\(rule.name)")
        }
    }

    @Test(arguments: PhraseReader.rules.flatMap { rule in rule.examples.map { (rule.name, $0) } })
    func eachRuleReadsItsExamples(rule: String, example: String) throws {
        let (words, source) = PhraseWords.split(example, zone: zone)
        var reader = PhraseReader(words: words, source: source)
        reader.trace = []
        _ = try reader.readAll()
        #expect(reader.trace?.contains(rule) == true, "\(example): read by \(reader.trace ?? [])")
        // Each rule that read made only pieces of the kinds its row says.
        for (name, kinds) in reader.madeBy {
            let declared = PhraseReader.rules.first { $0.name == name }?.makes ?? []
            #expect(kinds.isSubset(of: declared), "\(example): \(name) made \(kinds.subtracting(declared).map(\.rawValue).sorted())")
        }
        // And stage three makes a schedule of it.
        let reading = try SchedulePhrase.read(example, now: now, zone: zone)
        _ = reading
    }

    /// Every kind a row says it makes is made by one of its examples, a row of the phrase
    /// tables, or a phrasing of the sets written without our tables (a kind nothing makes
    /// is not known to be made). That a row makes no other is checked by every phrase read in
    /// a debug build (``PhraseReader/checksMakes``).
    @Test func eachRuleMakesWhatItSays() throws {
        var phrases = PhraseReader.rules.flatMap(\.examples) + (PhraseTables.english + PhraseTables.korean).map(\.0)
        let fixtures = Bench.packageRoot.appendingPathComponent("Tests/Fixtures/phrases")
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where file.hasSuffix(".tsv") {
            let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                // The phrase is first, or after a now and a zone (or a locale and a now).
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let afterTwo = fields.count > 3 && (fields[0].hasPrefix("20") || fields[0].contains("_"))
                phrases.append(fields[afterTwo ? 2 : 0])
            }
        }
        var made: [String: Set<PhrasePiece.Kind>] = [:]
        for phrase in phrases {
            let (words, source) = PhraseWords.split(phrase, zone: zone)
            var reader = PhraseReader(words: words, source: source)
            reader.trace = []
            _ = try? reader.readAll()
            made.merge(reader.madeBy) { $0.union($1) }
        }
        for rule in PhraseReader.rules {
            let unmade = rule.makes.subtracting(made[rule.name] ?? [])
            #expect(unmade.isEmpty, "\(rule.name) says it makes \(unmade.map(\.rawValue).sorted()), which nothing read makes")
        }
    }

    /// The table docs/phrases.md shows, as this test renders it from the rules.
    static var rendered: String {
        var lines = ["| Rule | Starts at a word | Reads, for example | Makes |", "|---|---|---|---|"]
        for rule in PhraseReader.rules {
            let starts = rule.starts.isEmpty ? "any" : rule.starts.sorted().map { "`\($0)`" }.joined(separator: " ")
            let examples = rule.examples.map { "“\($0)”" }.joined(separator: ", ")
            let makes = rule.makes.isEmpty ? "nothing" : PhrasePiece.Kind.allCases.filter(rule.makes.contains).map(\.rawValue).joined(separator: ", ")
            lines.append("| \(rule.name) | \(starts) | \(examples) | \(makes) |")
        }
        return lines.joined(separator: "\n")
    }

    @Test func docsShowTheTable() throws {
        let docs = try String(contentsOf: Bench.packageRoot.appendingPathComponent("docs/phrases.md"), encoding: .utf8)
        // NUDGE_RULES_TABLE=FILE writes the table there, to paste (a failure's message is cut short).
        if let path = ProcessInfo.processInfo.environment["NUDGE_RULES_TABLE"] { try Self.rendered.write(toFile: path, atomically: true, encoding: .utf8) }
        let shown = docs.contains(Self.rendered + "\n")
        #expect(shown, "docs/phrases.md should hold, under \"The reader's rules\":\n\(Self.rendered)\nEND")
    }
}
