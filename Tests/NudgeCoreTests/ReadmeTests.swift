import Foundation
import Testing
import TestSupport

/// The README stays a front page: at most 300 lines, a Quick start of exactly the two
/// commands the project promises, and every link to the docs pointing at a heading there.
@Suite(.onTestThreads)
struct ReadmeTests {
    let root = Bench.packageRoot

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func itIsAFrontPageWithTheTwoCommands() throws {
        let readme = try text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 301, "README.md has \(lines.count - 1) lines")
        let quick = try #require(readme.components(separatedBy: "## Quick start").dropFirst().first?.components(separatedBy: "```sh\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let commands = quick.split(separator: "\n").map { $0.split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        #expect(commands == ["make demo", "make test"])
    }

    /// GitHub's anchor for a heading: lower case, spaces to hyphens, only letters, digits,
    /// hyphens and underscores kept.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().map { $0 == " " ? "-" : $0 }.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func itsLinksIntoTheDocsReachAHeading() throws {
        let readme = try text("README.md")
        let pattern = /\]\((docs\/[a-z-]+\.md)#([^)]+)\)/
        var checked = 0
        for match in readme.matches(of: pattern) {
            let doc = try text(String(match.output.1))
            let anchors = Set(doc.split(separator: "\n").filter { $0.hasPrefix("#") }
                .map { Self.anchor(String($0.drop(while: { $0 == "#" }).dropFirst())) })
            #expect(anchors.contains(String(match.output.2)), "README links \(match.output.1)#\(match.output.2), which has no such heading")
            checked += 1
        }
        #expect(checked > 5)
    }
}
