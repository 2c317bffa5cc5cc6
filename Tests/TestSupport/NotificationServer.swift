import Foundation

/// The notification servers the live tests run against: dunst (the bench's own) and the
/// others Debian runs headless under Xvfb.
public enum NotificationServer: String, Sendable, CaseIterable, CustomStringConvertible {
    case dunst
    case xfce4Notifyd = "xfce4-notifyd"
    case notificationDaemon = "notification-daemon"

    /// The server's program.
    public var executable: String {
        switch self {
        case .dunst: "/usr/bin/dunst"
        case .xfce4Notifyd: "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
        case .notificationDaemon: "/usr/lib/notification-daemon/notification-daemon"
        }
    }

    /// Whether it is installed here (`make deps` installs all three).
    public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public var description: String { rawValue }
}

/// An X display of its own (Xvfb), so what one test clicks is never another test's pop-up.
public final class PrivateDisplay: @unchecked Sendable {
    /// `:N`.
    public let name: String
    private let xvfb: Running

    public init() throws {
        // An Xvfb that ends as another starts can take the new one's display number with
        // it (seen in clean-clone CIs and a bench run: the new server said ":0", then
        // ended; once it answered xdpyinfo while GTK could not connect): displays are not
        // the lowest free number, which the server that just ended held, but one drawn
        // from a wide range, and one that does not answer is replaced.
        var reason = ""
        for _ in 1...5 {
            let number = Int.random(in: 100...4000)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") else { continue }
            // No autorepeat (-r): xdotool presses and releases a key as two requests, and on a
            // machine busy with the suite the release came after X's 660 ms repeat delay: an
            // Escape that opened the form's Discard question was repeated, and closed it.
            let running = try Running("/usr/bin/Xvfb", [":\(number)", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-r"],
                                      environment: [:])
            guard Bench.eventually(10, { running.stdoutSoFar.contains("\n") || !running.isRunning }),
                  let number = Int(running.stdoutSoFar.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                reason = "Xvfb did not start: \(running.stderrSoFar.suffix(300))"
                _ = running.stop()
                continue
            }
            let answer = try? Bench.run("/usr/bin/xdpyinfo", ["-display", ":\(number)"], timeout: 10)
            guard running.isRunning, answer?.status == 0 else {
                reason = "Xvfb :\(number) did not answer: \(running.stderrSoFar.suffix(300))"
                _ = running.stop()
                continue
            }
            xvfb = running
            name = ":\(number)"
            return
        }
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: reason])
    }

    deinit { _ = xvfb.stop() }

    /// What the display's server says of itself, for a failure's message: whether Xvfb
    /// still runs and answers (`xdpyinfo`).
    public var health: String {
        let answer = try? Bench.run("/usr/bin/xdpyinfo", ["-display", name], timeout: 10)
        return "Xvfb \(name) \(xvfb.isRunning ? "running" : "ended: \(xvfb.stderrSoFar.suffix(300))"), xdpyinfo "
            + (answer.map { $0.status == 0 ? "answers" : "fails: \($0.stderr.prefix(200))" } ?? "did not run")
    }

    /// A window on this display, by X id, with its place on the screen.
    public struct Window: Sendable, Equatable {
        public var id: String
        public var x: Int, y: Int, width: Int, height: Int
    }

    /// The visible windows of a process larger than an icon (pop-ups, not helper windows).
    public func windows(of pid: Int32) -> [Window] {
        guard let ids = try? xdotool(["search", "--all", "--onlyvisible", "--pid", String(pid), "--name", ""]) else { return [] }
        return ids.split(separator: "\n").compactMap { id -> Window? in
            guard let shell = try? xdotool(["getwindowgeometry", "--shell", String(id)]) else { return nil }
            var values: [String: Int] = [:]
            for line in shell.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let number = Int(parts[1]) { values[String(parts[0])] = number }
            }
            guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"],
                  width > 100, height > 40 else { return nil }
            return Window(id: String(id), x: x, y: y, width: width, height: height)
        }
    }

    /// Clicks the left button at a point of the screen, as a person would.
    public func click(x: Int, y: Int) throws {
        _ = try xdotool(["mousemove", "--sync", String(x), String(y)])
        _ = try xdotool(["click", "1"])
    }

    /// Saves the whole screen as a PNG.
    public func screenshot(to path: String) throws {
        let outcome = try Bench.run("import", ["-window", "root", path], environment: ["DISPLAY": name])
        guard outcome.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: outcome.stderr])
        }
    }

    private func xdotool(_ arguments: [String]) throws -> String {
        try Bench.run("xdotool", arguments, environment: ["DISPLAY": name]).stdout
    }
}
