// Clocks and child processes for the benchmarks.
#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds (user + system) of this process, or of its waited-for children.
public func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Monotonic seconds.
public func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs a program (found on PATH) to its end with stdout sent to /dev/null; returns its
/// exit status. No shell.
@discardableResult
public func runChild(_ argv: [String], quiet: Bool = true) -> Int32 {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for arg in cArgs { free(arg) } }
    guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else {
        print("cannot run \(argv[0])")
        exit(69)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return (status >> 8) & 0xff
}

/// The median of some numbers.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Milliseconds with two decimals.
public func ms(_ seconds: Double) -> String {
    let v = (seconds * 1e5).rounded() / 100
    return "\(v) ms"
}

/// A process started with an environment; stderr to a file.
public func spawn(_ argv: [String], environment extra: [String: String], stderr: String? = nil, stdout: String? = nil) -> pid_t {
    spawn(argv, environment: extra) { actions, _ in
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
}

/// A process started with this one's environment and `extra` over it, its descriptors and
/// attributes set by `arrange` (a terminal of its own, say). No shell.
public func spawn(_ argv: [String], environment extra: [String: String],
                  arrange: (inout posix_spawn_file_actions_t, inout posix_spawnattr_t) -> Void) -> pid_t {
    var env: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let eq = text.firstIndex(of: "=") { env[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
        pointer += 1
    }
    for (key, value) in extra { env[key] = value }
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    let args: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { (envp + args).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    arrange(&actions, &attributes)
    var pid: pid_t = 0
    guard posix_spawnp(&pid, argv[0], &actions, &attributes, args, envp) == 0 else { fatalError("cannot start \(argv[0])") }
    return pid
}
