import DBus
import Foundation
import Platform

/// Access to the live test bench that `scripts/testbench` sets up (private bus, Xvfb,
/// dunst): running programs in it and reading what the notification server received.
public enum Bench {
    /// The bench's scratch folder, or `nil` when the tests run outside the bench.
    public static var directory: String? { ProcessInfo.processInfo.environment["NUDGE_BENCH_DIR"] }

    /// Whether the live tests can run: `make test` always runs them inside the bench.
    public static var isAvailable: Bool { directory != nil }

    /// A new connection to the bench's session bus, found the way every Nudge command
    /// finds it.
    public static func sessionBus() throws(BusError) -> Connection {
        try Connection.bus(address: Environment.current.sessionBusAddress ?? "")
    }

    /// The package's root folder.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `nudge` binary (beside the test bundle, in the same build folder).
    public static var nudgePath: String {
        if let path = ProcessInfo.processInfo.environment["NUDGE_BIN"] { return path }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("nudge").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/nudge").path
    }

    /// What a finished program left behind.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything it wrote to stdout.
        public var stdout: String
        /// Everything it wrote to stderr.
        public var stderr: String
        /// How long it ran, in seconds.
        public var seconds: Double
    }

    /// Runs a program to its end (killed after `timeout` seconds).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                           timeout: Double = 30) throws -> Outcome {
        let start = Date()
        let running = executable.hasPrefix("/")
            ? try Running(executable, arguments, environment: environment)
            : try Running("/usr/bin/env", [executable] + arguments, environment: environment)
        var outcome = running.finish(timeout: timeout)
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }

    /// Runs the built `nudge` with arguments.
    @discardableResult
    public static func nudge(_ arguments: String..., environment: [String: String?] = [:], timeout: Double = 30) throws -> Outcome {
        try run(nudgePath, arguments, environment: environment, timeout: timeout)
    }

    /// Runs the built `nudge` with an argument list.
    @discardableResult
    public static func nudge(_ arguments: [String], environment: [String: String?] = [:], timeout: Double = 30) throws -> Outcome {
        try run(nudgePath, arguments, environment: environment, timeout: timeout)
    }

    /// Starts the built `nudge` without waiting for it.
    public static func start(_ arguments: [String], environment: [String: String?] = [:]) throws -> Running {
        try Running(nudgePath, arguments, environment: environment)
    }

    /// Starts another program (an absolute path) without waiting for it.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> Running {
        try Running(executable, arguments, environment: environment)
    }

    /// Runs `dunstctl` and returns its trimmed output.
    @discardableResult
    public static func dunstctl(_ arguments: String...) throws -> String {
        try run("dunstctl", arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `dunstctl count displayed` as a number.
    public static func displayedCount() throws -> Int { Int(try dunstctl("count", "displayed")) ?? -1 }

    /// Closes every pop-up and clears dunst's history, so each test starts clean.
    public static func reset() throws {
        try dunstctl("close-all")
        try dunstctl("history-clear")
        try dunstctl("set-paused", "false")
    }

    /// dunst's history (closed pop-ups), newest first, each as field → value.
    public static func history() throws -> [[String: Any]] {
        let text = try run("dunstctl", ["history"]).stdout
        guard let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let outer = json["data"] as? [[Any]], let entries = outer.first as? [[String: Any]] else { return [] }
        return entries.map { entry in
            entry.compactMapValues { ($0 as? [String: Any])?["data"] }
        }
    }

    /// Polls `condition` until it holds or `seconds` pass.
    ///
    /// The pause between looks is at least as long as the look took and a tenth of the time
    /// waited so far (within 20–250 ms): a look that starts a program (the window's driver,
    /// `nudge log`) asked every 20 ms kept the machine busy for the whole wait, and the
    /// suite's two cores were 95 % busy (issue 51).
    public static func eventually(_ seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
        let start = Date(), deadline = start.addingTimeInterval(seconds)
        repeat {
            let looked = Date()
            if try condition() { return true }
            let now = Date()
            let pause = min(max(now.timeIntervalSince(looked), now.timeIntervalSince(start) / 10, 0.02), 0.25)
            usleep(UInt32(min(pause, max(deadline.timeIntervalSince(now), 0.001)) * 1_000_000))
        } while Date() < deadline
        return try condition()
    }
}

/// A program started in the background; its output is collected until it ends.
public final class Running: @unchecked Sendable {
    private var process = Process()
    private let collector: OutputCollector

    init(_ executable: String, _ arguments: [String], environment: [String: String?]) throws {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var attempt = 0
        while true {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = env
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            do {
                try Self.spawnWithSignalsUnblocked(process)
                self.process = process
                collector = OutputCollector(out: out, err: err)
                return
            } catch let error as NSError where attempt < 50 && (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                // A binary just copied (a test's own install) is busy while another test's
                // child, forked meanwhile, still holds the copy's descriptor: a moment later
                // it is not ("Text file busy" failed a make test once).
                attempt += 1
                usleep(20_000)
            }
        }
    }

    /// Starts the process from a thread that blocks no signals. Process hands the calling
    /// thread's signal mask to the child, and the threads tests run on block nearly all of
    /// them: a bus, dunst or dbus-monitor started from there would ignore SIGTERM.
    private static func spawnWithSignalsUnblocked(_ process: Process) throws {
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try process.run() } catch { outcome.error = error }
            done.signal()
        }
        // Process.run lists the open descriptors on its stack; a small thread stack overflows
        // when a busy test process has many open.
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        if let error = outcome.error { throw error }
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }
    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }
    /// What it wrote to stdout so far.
    public var stdoutSoFar: String { collector.stdoutSoFar }
    /// What it wrote to stderr so far.
    public var stderrSoFar: String { collector.stderrSoFar }

    /// Waits up to `timeout` seconds for the end (then kills it) and returns the outcome.
    public func finish(timeout: Double = 10) -> Bench.Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        while process.isRunning { usleep(2_000) }
        let (stdout, stderr) = collector.finish()
        return Bench.Outcome(status: process.terminationStatus, stdout: stdout, stderr: stderr, seconds: 0)
    }

    /// Sends SIGTERM and collects the outcome.
    public func stop() -> Bench.Outcome {
        if process.isRunning { kill(pid, SIGTERM) }
        return finish(timeout: 3)
    }
}

/// Reads a process's stdout and stderr on background threads, so a full pipe never
/// blocks it.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let group = DispatchGroup()

    init(out: Pipe, err: Pipe) {
        for (pipe, isOut) in [(out, true), (err, false)] {
            group.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.lock()
                    if isOut { self.out.append(chunk) } else { self.err.append(chunk) }
                    lock.unlock()
                }
                // Closed here: the thread keeps the handle alive, so it would never close on its own.
                try? handle.close()
                group.leave()
            }
        }
    }

    var stdoutSoFar: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: out, as: UTF8.self)
    }

    var stderrSoFar: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    func finish() -> (String, String) {
        group.wait()
        lock.lock(); defer { lock.unlock() }
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// A `dbus-monitor` capture of calls to the notification service: the independent
/// witness of what went over the bus.
public final class BusMonitor {
    private let running: Running
    private let address: String?
    private static let marker = (path: "/io/github/nudge/Test", interface: "io.github.nudge.Test", member: "Marker")

    /// Starts capturing (on the session bus, or the bus at `address`) and waits until the
    /// monitor is attached.
    public init(rule: String = "type='method_call',interface='org.freedesktop.Notifications'", address: String? = nil) throws {
        let bus = address.map { ["--address", $0] } ?? ["--session"]
        let markers = "type='signal',interface='\(Self.marker.interface)',member='\(Self.marker.member)'"
        let running = try Running("/usr/bin/dbus-monitor", bus + [rule, markers], environment: [:])
        self.running = running
        self.address = address
        _ = Bench.eventually(3) { running.stdoutSoFar.contains("NameAcquired") || running.stdoutSoFar.contains("NameLost") }
        settle()
    }

    /// What was captured so far.
    public var soFar: String { running.stdoutSoFar }

    /// Waits until the capture holds everything the bus routed before this call: a marker
    /// signal sent now reaches the monitor after all of it.
    public func settle() {
        let token = "marker-\(UInt64.random(in: 0...UInt64.max))"
        guard let connection = try? (address.map { try Connection.bus(address: $0) } ?? Bench.sessionBus()),
              (try? connection.emit(path: Self.marker.path, interface: Self.marker.interface, member: Self.marker.member,
                                    arguments: [.string(token)])) != nil else { return }
        connection.flush()
        _ = Bench.eventually(5) { running.stdoutSoFar.contains(token) }
    }

    /// Stops the capture, once it holds everything routed before the call, and returns its text.
    public func stop() -> String {
        settle()
        return running.stop().stdout
    }
}

/// A private bus of the bench's kind (no service directories), for tests that need a bus
/// without a notification server.
public final class PrivateBus {
    private let running: Running
    /// Its address.
    public let address: String

    /// Starts `dbus-daemon` with the bench's configuration.
    public init() throws {
        guard let dir = Bench.directory else { throw CocoaError(.fileNoSuchFile) }
        let running = try Running("/usr/bin/dbus-daemon", ["--config-file=\(dir)/bus.conf", "--nofork", "--print-address=1"],
                                  environment: [:])
        self.running = running
        _ = Bench.eventually(5) { running.stdoutSoFar.contains("unix:") }
        address = running.stdoutSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { _ = running.stop() }
}

extension Bench {
    private static let dunstLock = NSLock()

    /// Runs a test body that uses the shared dunst alone: pop-up counts and history are
    /// global, so such tests take turns while the rest of the suite runs in parallel.
    public static func withDunst<T>(_ body: () throws -> T) throws -> T {
        dunstLock.lock()
        defer { dunstLock.unlock() }
        try reset()
        return try body()
    }
}
