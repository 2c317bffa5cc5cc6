import Foundation

/// A terminal for a test: a tmux server of its own (its own socket, no configuration) with
/// one window running `sh`, driven with `send-keys` and read with `capture-pane`, as a
/// person at a terminal would use a program.
public final class Tmux {
    public let directory: String
    private let socket: String
    private let environment: [String: String?]

    /// Starts a `width`×`height` terminal; `environment` is what the shell in it (and so
    /// every program started there) gets on top of the test's own.
    public init(width: Int = 100, height: Int = 30, environment: [String: String?]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-tmux-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/socket"
        self.environment = environment
        // The server outlives the client that starts it, so it must hold none of the
        // test's descriptors: not the pipes the test reads, nor the socket Foundation's
        // Process watches to learn that a child ended (neither would ever close).
        let script = "for d in /proc/$$/fd/*; do n=${d##*/}; if [ \"$n\" -gt 2 ]; then eval \"exec $n>&-\"; fi; done 2>/dev/null; "
            + "exec tmux -S \"$0\" -f /dev/null new-session -d -x \"$1\" -y \"$2\" -s t sh >\"$3\" 2>&1"
        let started = try Bench.run("/bin/bash", ["-c", script, socket, "\(width)", "\(height)", directory + "/tmux.log"],
                                    environment: environment.merging(["PS1": "$ ", "ENV": nil, "TMUX": nil]) { $1 }, timeout: 10)
        guard started.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux did not start: "
                                                        + ((try? String(contentsOfFile: directory + "/tmux.log", encoding: .utf8)) ?? "")])
        }
        // Sizes are the window's, not a client's (there is none).
        try tmux("set-option", "-g", "window-size", "manual")
    }

    deinit {
        _ = try? tmux("kill-server")
        try? FileManager.default.removeItem(atPath: directory)
    }

    @discardableResult
    public func tmux(_ arguments: String...) throws -> Bench.Outcome {
        try tmux(arguments)
    }

    @discardableResult
    public func tmux(_ arguments: [String]) throws -> Bench.Outcome {
        try Bench.run("/usr/bin/tmux", ["-S", socket] + arguments, environment: environment, timeout: 10)
    }

    /// Types text as it is (`send-keys -l`): escapes and all. Long text goes in pieces
    /// (tmux refuses a command over about 16 KB), one after the other as a paste arrives.
    public func type(_ text: String) throws {
        var rest = Substring(text)
        repeat {
            let piece = rest.prefix(4096)
            try tmux("send-keys", "-t", "t", "-l", String(piece))
            rest = rest.dropFirst(piece.count)
        } while !rest.isEmpty
    }

    /// Presses keys by tmux's names: `Enter`, `Space`, `Down`, `C-c`, `Escape`, `BTab`.
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "t"] + keys)
    }

    /// Runs a command line in the shell.
    public func run(_ line: String) throws {
        try type(line)
        try press("Enter")
    }

    /// What the terminal shows, a line each (`capture-pane -p`; trailing blanks cut).
    public func screen() throws -> [String] {
        try tmux("capture-pane", "-p", "-t", "t").stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The same with its colours and attributes as escapes (`capture-pane -e`).
    public func screenWithAttributes() throws -> String {
        try tmux("capture-pane", "-p", "-e", "-t", "t").stdout
    }

    /// Waits until the screen satisfies `condition` and returns it; `nil` after `timeout`
    /// seconds (the last screen is in ``lastScreen``).
    public func wait(timeout: Double = 15, until condition: ([String]) -> Bool) throws -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            lastScreen = try screen()
            if condition(lastScreen) { return lastScreen }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// Waits until some line contains `text`.
    public func wait(for text: String, timeout: Double = 15) throws -> [String]? {
        try wait(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// The screen last read by ``wait(timeout:until:)``, for a failure's message.
    public private(set) var lastScreen: [String] = []

    /// Resizes the terminal.
    public func resize(width: Int, height: Int) throws {
        try tmux("resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)")
    }

    /// The process id of the program in the foreground of the terminal, if it is not the shell.
    public func foregroundProgram(named name: String) throws -> Int32? {
        let shell = try tmux("display-message", "-p", "-t", "t", "#{pane_pid}").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try Bench.run("/usr/bin/pgrep", ["-P", shell, "-x", name]).stdout
        return children.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// A file in the terminal's folder, for what the shell writes there.
    public func file(_ name: String) -> String { directory + "/" + name }

    /// Waits up to `timeout` seconds for a file the shell writes, and returns its text.
    public func waitForFile(_ name: String, timeout: Double = 15) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let text = try? String(contentsOfFile: file(name), encoding: .utf8), text.hasSuffix("\n") { return text }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }
}
