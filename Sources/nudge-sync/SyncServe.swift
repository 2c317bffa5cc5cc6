import ArgumentParser
import DaemonAPI
import Foundation
import NudgeKit
import Platform

/// `nudge-sync serve` (hidden): the daemon's background syncs, in a process that stays.
///
/// The daemon starts it at its first sync and keeps it, so that a sync where nothing
/// changed costs only its own work: a process of its own would map libcurl's and libxml2's
/// 45 libraries and relocate them every time (15–19 ms of a 40 ms sync). It is still a
/// process apart from the daemon: libcurl is never in the daemon, and a stalled server
/// stalls only this one.
///
/// Its stdin and stdout are one socket to the daemon. Each line `sync` asks for one sync of
/// every account, done as `nudge sync now --background` does it (a store, a zone, a lock, a
/// keyring connection of its own each time, so a store replaced or a zone changed meanwhile
/// is met as a new process would meet it); the answer is one line:
/// `exit STATUS [retry-after SECONDS] cpu-us MICROSECONDS` (the status `nudge sync now`
/// would exit with; the CPU this sync took). Between syncs it waits in a read: no timer, no
/// wake-up. It ends when the daemon does (the socket closes), and after a sync when its
/// program was replaced on disk (an upgrade), so the daemon's next sync starts the new one.
struct SyncServe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the daemon's background syncs over stdin and stdout (for the daemon only).",
        shouldDisplay: false
    )

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        // The answers go to the socket only: anything else that would write to stdout goes
        // to /dev/null instead.
        let channel = dup(1)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard channel >= 0, null >= 0, dup2(null, 1) == 1 else { throw ExitCode(ExitStatus.ioError.rawValue) }
        close(null)
        _ = fcntl(channel, F_SETFD, FD_CLOEXEC)
        var lines = LineReader(fd: 0)
        while let line = lines.next() {
            let answer = line == "sync" ? Self.syncOnce() : "exit \(ExitStatus.usage.rawValue)"
            // SIGPIPE ignored: a daemon gone is an error here, and the end.
            guard (try? writeAll(channel, Array((answer + "\n").utf8))) != nil else { return }
            if Self.replacedOnDisk { return }
        }
    }

    /// One sync, as `nudge sync now --background`, and its answer line.
    static func syncOnce() -> String {
        let started = processCPUMicroseconds()
        var world = World.live
        // The zone as it is now, not as it was when this process started.
        world.zone = SystemZone.resolve(environment: world.environment).zone
        var status = ExitStatus.success.rawValue
        var retryAfter: Double?
        do {
            let (ok, asked) = try SyncNow.sync(world, id: nil, background: true, verbose: false)
            if !ok { status = ExitStatus.unavailable.rawValue }
            retryAfter = asked
        } catch let error as OperationError {
            status = error.code.rawValue
        } catch let error as ExitCode {
            status = error.rawValue
        } catch {
            status = ExitStatus.ioError.rawValue
        }
        let retry = retryAfter.map { " retry-after \(Int($0.rounded(.up)))" } ?? ""
        return "exit \(status)\(retry) cpu-us \(processCPUMicroseconds() - started)"
    }

    /// Whether this program's file was replaced or removed since it started.
    static var replacedOnDisk: Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))?.hasSuffix(" (deleted)") ?? false
    }

    static func processCPUMicroseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return now.tv_sec * 1_000_000 + now.tv_nsec / 1000
    }
}

/// Lines read from a descriptor as they come (blocking), without their newline; `nil` at the
/// end or an error. A line longer than 4 KB is cut there.
struct LineReader {
    let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...end) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            if pending.count >= 4096 {
                defer { pending.removeSubrange(..<4096) }
                return String(decoding: pending[..<4096], as: UTF8.self)
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }
}
