#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NudgeCore
import Platform

/// Plays a reminder's sound on this machine when the notification server does not.
///
/// Runs the player program directly (`posix_spawnp`), never through a shell, and does not
/// wait for it. `NUDGE_SOUND_PLAYER` names a program that gets the sound file's path;
/// otherwise the first of `canberra-gtk-play`, `pw-play`, `paplay` found on `PATH`.
public struct SoundPlayer: Sendable, Hashable {
    /// The player program.
    public var program: String
    /// Whether it takes theme names itself (`canberra-gtk-play -i NAME`).
    public var takesNames: Bool

    /// The player this environment gives, or `nil` when none is available.
    public static func find(environment: Environment) -> SoundPlayer? {
        if let custom = environment["NUDGE_SOUND_PLAYER"] {
            return SoundPlayer(program: custom, takesNames: false)
        }
        for candidate in ["canberra-gtk-play", "pw-play", "paplay"] {
            for dir in environment.searchPath where access("\(dir)/\(candidate)", X_OK) == 0 {
                return SoundPlayer(program: "\(dir)/\(candidate)", takesNames: candidate == "canberra-gtk-play")
            }
        }
        return nil
    }

    /// The command line that plays `sound`, or `nil` when a named sound has no file.
    public func arguments(for sound: Sound, environment: Environment) -> [String]? {
        switch sound {
        case .named(let name) where takesNames: return [program, "-i", name]
        case .file(let path) where takesNames: return [program, "-f", path]
        case .file(let path): return [program, path]
        case .named(let name):
            guard let file = Self.themeFile(named: name, environment: environment) else { return nil }
            return [program, file]
        }
    }

    /// Starts the player; returns its pid, or `nil` when it could not start (a missing
    /// sound file or program is not worth more than silence).
    @discardableResult
    public func play(_ sound: Sound, environment: Environment) -> pid_t? {
        guard let argv = arguments(for: sound, environment: environment) else { return nil }
        return Self.spawn(argv)
    }

    /// The file for a sound-theme name, looked up in the freedesktop theme under the XDG
    /// data folders (relative ones ignored, as the XDG spec says).
    public static func themeFile(named name: String, environment: Environment) -> String? {
        for dir in [environment.dataHome] + environment.dataDirs {
            for ext in ["oga", "ogg", "wav"] {
                let file = "\(dir)/sounds/freedesktop/stereo/\(name).\(ext)"
                if access(file, R_OK) == 0 { return file }
            }
        }
        return nil
    }

    static func spawn(_ argv: [String]) -> pid_t? {
        var pid: pid_t = 0
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The player must not read our stdin or write into our stdout and stderr (pipes
        // someone may read to their end, or the journal).
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // A daemon blocks its signals for signalfd and ignores SIGCHLD; the player starts
        // with neither, so it can be stopped like any program.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), child = sigset_t()
        sigemptyset(&none)
        sigemptyset(&child)
        sigaddset(&child, SIGCHLD)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &child)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        do {
            try systemCall(returningError: "posix_spawnp(\(argv[0]))") { posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, environ) }
            return pid
        } catch {
            return nil
        }
    }
}
