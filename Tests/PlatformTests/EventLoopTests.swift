import Foundation
import Platform
import Testing
import TestSupport

/// The one event loop the daemon, `nudge ui` and their children run on, and the one way to
/// start a child.
@Suite(.onTestThreadsAhead, .serialized)
struct EventLoopTests {
    /// A pipe with a byte written into it, so its read end is ready.
    func readyPipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = write(ends[1], "x", 1)
        return (ends[0], ends[1])
    }

    @Test func aSourceRemovedDuringDispatchIsNeverCalledAgain() throws {
        let loop = EventLoop()
        let a = try readyPipe(), b = try readyPipe()
        defer { [a.read, a.write, b.read, b.write].forEach { close($0) } }
        var calls: [String] = []
        var second: EventLoop.Source?
        loop.add(descriptor: a.read) { _ in
            calls.append("a")
            second?.remove()
        }
        second = loop.add(descriptor: b.read) { _ in calls.append("b") }
        // Both are ready in the same turn; the first removes the second before its turn.
        try loop.turn(maxWait: 0)
        try loop.turn(maxWait: 0)
        #expect(calls == ["a", "a"])
        #expect(second?.isRemoved == true)
    }

    @Test func aTimerFiresOnceAtItsDeadlineAndIsArmedAgainByItsCallback() throws {
        let loop = EventLoop()
        var fired = 0
        var timer: EventLoop.Source!
        timer = loop.addTimer(at: monotonicSeconds() + 0.01) {
            fired += 1
            if fired < 3 { timer.deadline = monotonicSeconds() + 0.01 }
        }
        // Nothing else is on the loop: each turn sleeps until the timer's deadline.
        for _ in 0..<3 { try loop.turn() }
        #expect(fired == 3)
        #expect(timer.deadline == nil)
        // Disarmed, it holds no turn up.
        let before = monotonicSeconds()
        try loop.turn(maxWait: 0)
        #expect(fired == 3 && monotonicSeconds() - before < 5)
    }

    @Test func beforeWaitRunsEveryTurnAndExitEndsRun() throws {
        let loop = EventLoop()
        var turns = 0
        loop.addBeforeWait {
            turns += 1
            if turns == 3 { loop.exit() }
        }
        loop.addTimer(at: monotonicSeconds()) {}
        _ = loop.addTimer(at: nil) {}
        var ticker: EventLoop.Source!
        ticker = loop.addTimer(at: monotonicSeconds()) { ticker.deadline = monotonicSeconds() }
        try loop.run()
        #expect(turns == 3)
    }

    /// Variables given are the child's beside this process's own, in place of any of the
    /// same name (the window gets a click's activation token so).
    @Test func aChildGetsTheVariablesGivenBesideItsOwn() throws {
        let (pid, output) = try ChildProcess.spawn("/bin/sh", ["-c", "printf '%s|%s' \"$XDG_ACTIVATION_TOKEN\" \"$PATH\""],
                                                   readOutput: true, adding: ["XDG_ACTIVATION_TOKEN": "token-1"])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(output!, &buffer, buffer.count)
        close(output!)
        let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(text == "token-1|" + (ProcessInfo.processInfo.environment["PATH"] ?? ""))
    }

    @Test func aChildIsReapedWithItsStatusOrItsSignal() throws {
        let loop = EventLoop()
        var exits: [EventLoop.ChildExit] = []
        let exited = try ChildProcess.spawn("/bin/sh", ["-c", "exit 3"])
        let killed = try ChildProcess.spawn("/bin/sh", ["-c", "kill -KILL $$"])
        for child in [exited.pid, killed.pid] { try loop.add(child: child) { exits.append($0) } }
        while exits.count < 2 { try loop.turn() }
        #expect(Set(exits.map { "\($0)" }) == ["exited(3)", "killed(9)"])
        // Reaped: nothing is left to wait for.
        #expect(waitpid(exited.pid, nil, WNOHANG) == -1 && errno == ECHILD)
    }

    /// What `gsettings` says, read without blocking the loop: the exit status as the
    /// program ended (it always read 0 in the daemon, which ignored SIGCHLD), its output,
    /// and a program that outlives its time or writes too much is killed, group and all.
    @Test func aProgramsOutputIsReadOnTheLoop() throws {
        let loop = EventLoop()
        var results: [String: (status: Int32, output: String)?] = [:]
        ChildProcess.run("/bin/sh", ["-c", "echo false; exit 3"], on: loop, timeout: 5000) { results["status"] = $0 }
        ChildProcess.run("/bin/sh", ["-c", "sleep 30 & sleep 30"], on: loop, timeout: 100) { results["slow"] = $0 }
        ChildProcess.run("/bin/sh", ["-c", "head -c 100000 /dev/zero"], on: loop, timeout: 5000, limit: 1000) { results["much"] = $0 }
        ChildProcess.run("/nonexistent/program", [], on: loop, timeout: 5000) { results["missing"] = $0 }
        var ticks = 0
        loop.addBeforeWait { ticks += 1 }
        while results.count < 4 { try loop.turn() }
        #expect(results["status"]??.status == 3 && results["status"]??.output == "false\n")
        for name in ["slow", "much", "missing"] {
            guard case .some(.none) = results[name] else { Issue.record("\(name): \(String(describing: results[name]))"); continue }
        }
        // The loop turned while they ran: nothing waited for a child.
        #expect(ticks > 1)
    }

    /// A daemon blocks SIGTERM, SIGINT and SIGHUP for its signalfd; a child must start
    /// with none blocked (the gsettings children inherited them, unkillable by SIGTERM).
    @Test func aChildStartsWithNoSignalBlocked() throws {
        let loop = EventLoop()
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        var result: (status: Int32, output: String)??
        ChildProcess.run("/bin/grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"], on: loop, timeout: 5000) { result = $0 }
        while result == nil { try loop.turn() }
        let lines = try #require(result??.output).split(separator: "\n")
        #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines)")
    }
}
