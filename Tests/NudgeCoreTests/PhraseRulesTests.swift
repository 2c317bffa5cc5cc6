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
        // And stage three makes a schedule of it.
        let reading = try SchedulePhrase.read(example, now: now, zone: zone)
        _ = reading
    }

    /// The table docs/phrases.md shows, as this test renders it from the rules.
    static var rendered: String {
        var lines = ["| Rule | Starts at a word | Reads, for example |", "|---|---|---|"]
        for rule in PhraseReader.rules {
            let starts = rule.starts.isEmpty ? "any" : rule.starts.sorted().map { "`\($0)`" }.joined(separator: " ")
            let examples = rule.examples.map { "“\($0)”" }.joined(separator: ", ")
            lines.append("| \(rule.name) | \(starts) | \(examples) |")
        }
        return lines.joined(separator: "\n")
    }

    @Test func docsShowTheTable() throws {
        let docs = try String(contentsOf: Bench.packageRoot.appendingPathComponent("docs/phrases.md"), encoding: .utf8)
        let shown = docs.contains(Self.rendered + "\n")
        #expect(shown, "docs/phrases.md should hold, under \"The reader's rules\":\n\(Self.rendered)\nEND")
    }
}
