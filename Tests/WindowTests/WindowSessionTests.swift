import Foundation
import Testing
import TestSupport

/// The window's harness itself, where it recovers from a display that fails under it.
@Suite(.onTestThreadsAhead, .serialized, .enabled(if: windowCanRun))
struct WindowSessionTests: WindowSuite {
    /// A window that cannot open its display is started again on a new one (GTK refused a
    /// display that still answered, in CI runs). The screen reader's registry is a client of the
    /// display and ends with it, so it has to come back too: in one CI run it had not, and the
    /// window's second start was answered "Message recipient disconnected". Here the display is
    /// made to end before the window starts, after the registry has been used on it.
    @Test func aWindowWhoseDisplayEndedIsStartedAgainWithAScreenReaderThatHearsIt() throws {
        let desktop = try Desktop(server: false)
        _ = try desktop.add("Take the medicine", "--at", "21:00")
        let window = try WindowSession(desktop: desktop)
        _ = try window.nodes()
        let first = window.display.name
        _ = try Bench.run("/usr/bin/pkill", ["-f", "^/usr/bin/Xvfb \(first) "])
        try window.open()
        #expect(window.display.name != first)
        #expect(try window.reaches("check box", "Take the medicine", "checked"))
        _ = window.close()
    }
}
