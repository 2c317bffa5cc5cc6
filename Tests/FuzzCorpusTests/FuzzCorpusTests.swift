import Foundation
import FuzzChecks
import Testing

/// Every fuzz target's corpus and every input a fuzzer found wrong (fuzz/regressions),
/// checked as ordinary tests on every `make test`: a reader that breaks one of its
/// properties again fails here, named, without a fuzzer.
struct FuzzCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fuzz").path

    static func inputs(_ kind: String, _ target: String) -> [String] {
        let folder = root + "/" + kind + "/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func corpusAndRegressionsHold(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let corpus = Self.inputs("corpus", name), regressions = Self.inputs("regressions", name)
        #expect(corpus.count >= 5, "fuzz/corpus/\(name) has \(corpus.count) inputs")
        for file in corpus + regressions {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            do throws(FuzzFailure) { try target.check(bytes) } catch {
                Issue.record("\(file.dropFirst(Self.root.count + 1)): \(error)")
            }
        }
    }
}
