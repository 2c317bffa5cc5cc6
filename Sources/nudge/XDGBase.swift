import Foundation

/// The XDG base folders the person's session uses (an unset or relative value means the default).
enum XDGBase {
    static func configHome(_ environment: [String: String]) -> String {
        absolute(environment["XDG_CONFIG_HOME"]) ?? home(environment) + "/.config"
    }

    static func dataHome(_ environment: [String: String]) -> String {
        absolute(environment["XDG_DATA_HOME"]) ?? home(environment) + "/.local/share"
    }

    private static func absolute(_ path: String?) -> String? { path.flatMap { $0.hasPrefix("/") ? $0 : nil } }
    private static func home(_ environment: [String: String]) -> String { environment["HOME"] ?? NSHomeDirectory() }
}
