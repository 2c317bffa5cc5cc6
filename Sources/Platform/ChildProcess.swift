#if canImport(Glibc)
import Glibc
import CLinux
#endif

/// Starting programs, the one way Nudge does it: directly (`posix_spawn`, never a shell),
/// with stdin and stderr on /dev/null, and the signal state a program expects whatever the
/// parent did to its own (an empty mask, where a daemon blocks its signals for a signalfd;
/// SIGCHLD and SIGPIPE at their defaults).
public enum ChildProcess {
    /// Starts `program` (a path; with `search`, a name looked up in PATH) with `arguments`.
    /// Its stdout goes to /dev/null, or with `readOutput` into a pipe whose read end
    /// (non-blocking, close-on-exec) is returned; with `errorsToo`, its stderr goes there as
    /// well. `input`: a descriptor it reads as its stdin (the caller closes its own copy).
    /// With `group` it leads a process group of its own, so what it starts can be killed with it.
    public static func spawn(_ program: String, _ arguments: [String], search: Bool = false, readOutput: Bool = false,
                             errorsToo: Bool = false, input: Int32? = nil, output: Int32? = nil,
                             group: Bool = false, adding variables: [String: String] = [:]) throws(SystemError) -> (pid: pid_t, output: Int32?) {
        var pipeEnds: [Int32] = [-1, -1]
        if readOutput {
            try systemCall("pipe") { pipe(&pipeEnds) }
            // Neither end may leak into another child spawned meanwhile.
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if readOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if readOutput && errorsToo {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else of this process reaches the child: a descriptor someone left without
        // close-on-exec (Foundation's Process keeps a socket in its child to learn when it
        // ends) would otherwise live on in a window that outlives the daemon.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGCHLD)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if group {
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, flags)
        var pid: pid_t = 0
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The process's own environment, with `variables` in place of any of the same name.
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !variables.isEmpty {
            var entry = environ
            while let pair = entry.pointee {
                let name = String(cString: pair).prefix { $0 != "=" }
                if variables[String(name)] == nil { envp.append(strdup(pair)) }
                entry += 1
            }
            envp += variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
            envp.append(nil)
        }
        defer { envp.forEach { free($0) } }
        do {
            try systemCall(returningError: "posix_spawn(\(program))") {
                envp.withUnsafeBufferPointer { custom in
                    let env = variables.isEmpty ? environ : UnsafeMutablePointer(mutating: custom.baseAddress!)
                    return search ? posix_spawnp(&pid, program, &actions, &attributes, argv, env)
                        : posix_spawn(&pid, program, &actions, &attributes, argv, env)
                }
            }
        } catch {
            if readOutput { pipeEnds.forEach { close($0) } }
            throw error
        }
        guard readOutput else { return (pid, nil) }
        close(pipeEnds[1])
        _ = fcntl(pipeEnds[0], F_SETFL, O_NONBLOCK)
        return (pid, pipeEnds[0])
    }

    /// Runs `program` on `loop`, never blocking it: `completion` is called once, with the
    /// exit status and what it wrote to stdout, or `nil` when it could not start, was
    /// killed, wrote more than `limit` bytes, or still ran after `timeout` milliseconds
    /// (then it is killed with whatever it started). The child is always reaped. `input`: what
    /// it reads on stdin (a line or two: it must fit a pipe's buffer); `errorsToo`: its stderr
    /// is read with its stdout.
    public static func run(_ program: String, _ arguments: [String], on loop: EventLoop, timeout: Int32, limit: Int = 65_536,
                           input: String? = nil, errorsToo: Bool = false,
                           completion: @escaping ((status: Int32, output: String)?) -> Void) {
        var stdin: [Int32] = [-1, -1]
        if let input {
            guard input.utf8.count < 4096, (try? systemCall("pipe") { pipe(&stdin) }) != nil else { return completion(nil) }
            for end in stdin { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = input.withCString { write(stdin[1], $0, strlen($0)) }
            close(stdin[1])
        }
        let spawned = try? spawn(program, arguments, readOutput: true, errorsToo: errorsToo, input: input == nil ? nil : stdin[0], group: true)
        if input != nil { close(stdin[0]) }
        guard let (pid, fd) = spawned, let fd else { return completion(nil) }
        var output: [UInt8] = []
        var overflowed = false
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !overflowed, let count = try? readAvailable(fd, into: &buffer, count: buffer.count), count > 0 {
                output += buffer[..<count]
                if output.count > limit {
                    overflowed = true
                    kill(-pid, SIGKILL)
                }
            }
        }
        let reader = loop.add(descriptor: fd) { _ in drain() }
        let timer = loop.addTimer(at: monotonicSeconds() + Double(timeout) / 1000) { kill(-pid, SIGKILL) }
        do {
            try loop.add(child: pid) { exit in
                // Gone: what it wrote is all in the pipe by now.
                drain()
                reader.remove()
                timer.remove()
                close(fd)
                guard case .exited(let status) = exit, !overflowed else { return completion(nil) }
                completion((status, String(decoding: output, as: UTF8.self)))
            }
        } catch {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = try? systemCall("waitpid") { waitpid(pid, &status, 0) }
            reader.remove()
            timer.remove()
            close(fd)
            completion(nil)
        }
    }
}
