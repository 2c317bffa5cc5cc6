import Foundation
import NudgeCore
import Testing
import TestSupport

/// What the window's About and Help say about Nudge is what software centres read from the
/// metainfo: kept once in NudgeService, held equal to packaging's file here.
@Suite(.onTestThreads)
struct MetainfoTests {
    /// The text of the first element `<name …attributes…>` of the file (one line each there).
    func element(_ name: String, _ attributes: String = "", in text: String) -> String? {
        let open = "<" + name + attributes + ">"
        guard let start = text.range(of: open), let end = text.range(of: "</" + name + ">", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func theWindowsAboutAndHelpSayWhatTheMetainfoSays() throws {
        let path = Bench.packageRoot.appendingPathComponent("packaging/io.github.nudge.Nudge.metainfo.xml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(element("url", #" type="homepage""#, in: text) == NudgeService.website)
        #expect(element("url", #" type="help""#, in: text) == NudgeService.help)
        #expect(element("url", #" type="bugtracker""#, in: text) == NudgeService.issues)
        #expect(element("developer_name", in: text) == NudgeService.developers)
        #expect(element("project_license", in: text) == NudgeService.license)
        // The newest release (listed first) is the version every program says.
        let release = try #require(text.range(of: #"<release version=""#))
        #expect(text[release.upperBound...].prefix { $0 != "\"" } == NudgeService.version)
    }
}
