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
            for dir in environment.searchPath where isExecutable("\(dir)/\(candidate)") {
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
                if isReadable(file) { return file }
            }
        }
        return nil
    }

    /// Starts the player (found in PATH), never waited for here: its output goes nowhere
    /// and it starts with the signal state a program expects (see ``ChildProcess``).
    static func spawn(_ argv: [String]) -> pid_t? {
        try? ChildProcess.spawn(argv[0], Array(argv.dropFirst()), search: true).pid
    }
}
