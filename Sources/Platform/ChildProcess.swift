#if canImport(Glibc)
import Glibc
#endif

/// Runs a program directly (`posix_spawn`, no shell) with the process's environment,
/// stdin and stderr on /dev/null, and returns its exit status and what it wrote to
/// stdout (up to 64 KiB). A program still running after `timeout` milliseconds is
/// killed with its process group; `nil` when it could not start, was killed, or timed out.
public func runReadingOutput(_ path: String, _ arguments: [String], timeout: Int32) -> (status: Int32, output: String)? {
    var pipeEnds: [Int32] = [-1, -1]
    guard (try? systemCall("pipe", { pipe(&pipeEnds) })) != nil else { return nil }
    // Neither end may leak into another child spawned meanwhile.
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(pipeEnds[0]) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Its own process group, so a timeout kills whatever it started too.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    var pid: pid_t = 0
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let started = (try? systemCall(returningError: "posix_spawn", { posix_spawn(&pid, path, &actions, &attributes, argv, environ) })) != nil
    close(pipeEnds[1])
    guard started else { return nil }

    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end = monotonicSeconds() + Double(timeout) / 1000
    var finished = false
    while output.count < 65_536 {
        let left = Int64(((end - monotonicSeconds()) * 1000).rounded(.up))
        var descriptor = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        guard left > 0, (try? systemCall("poll", { poll(&descriptor, 1, Int32(left)) })) == 1,
              let count = try? systemCall("read", { read(pipeEnds[0], &buffer, buffer.count) }) else { break }
        if count == 0 {
            finished = true
            break
        }
        output += buffer[..<count]
    }
    if !finished { kill(-pid, SIGKILL) }
    var status: Int32 = 0
    _ = try? systemCall("waitpid", { waitpid(pid, &status, 0) })
    // Exited normally (WIFEXITED): its status is the second byte.
    guard finished, status & 0x7f == 0 else { return nil }
    return ((status >> 8) & 0xff, String(decoding: output, as: UTF8.self))
}
