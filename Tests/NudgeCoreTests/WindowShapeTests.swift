import Foundation
import Testing
import TestSupport

/// Issue 51's shape of the window's code, held: GTK's and libadwaita's C API is called in
/// one binding layer, the files that wire behaviour call it little, and the two big
/// initialisers stay short (their wiring is in the .ui files).
@Suite(.onTestThreads)
struct WindowShapeTests {
    let folder = Bench.packageRoot.appendingPathComponent("Sources/nudge-window")
    /// The files that speak the C API for the rest.
    static let bindingLayer: Set = ["WidgetProperties.swift", "ObjectProperties.swift", "GObject.swift", "HandlerScope.swift",
                                    "WindowResources.swift"]

    func sources() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// Calls of `gtk_`, `adw_` and `g_` functions, counted as issue 51 counted them.
    static func rawCalls(_ text: String) -> Int { text.matches(of: /\b(gtk|adw|g)_[a-z0-9_]+\(/).count }

    @Test func rawCallsAreAtMostHalfOfWhatIssue51Found() throws {
        let files = try sources()
        let all = files.reduce(0) { $0 + Self.rawCalls($1.text) }
        let wiring = files.filter { !Self.bindingLayer.contains($0.name) }.reduce(0) { $0 + Self.rawCalls($1.text) }
        #expect(all <= 195, "the window makes \(all) raw calls (391 when issue 51 was filed)")
        #expect(wiring <= 40, "the files that wire behaviour make \(wiring) raw calls")
    }

    @Test func theMainInitialisersAreShort() throws {
        for name in ["MainWindow.swift", "AlertListView.swift"] {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex { $0.hasPrefix("    init(") }, "\(name) has no init")
            let end = try #require(lines[start...].firstIndex { $0 == "    }" })
            #expect(end - start + 1 <= 60, "\(name)'s init is \(end - start + 1) lines")
        }
    }
}
