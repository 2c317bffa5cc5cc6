import DBus
import Foundation
import FreedesktopDelivery
import NudgeCore
import Platform

/// The `[Desktop Entry]` group of a .desktop file, key by key (no locale variants needed).
struct DesktopEntry {
    private var values: [String: String] = [:]

    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var inGroup = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inGroup = line == "[Desktop Entry]"
                continue
            }
            guard inGroup, !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            if values[key] == nil { values[key] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces) }
        }
    }

    subscript(key: String) -> String? { values[key] }
}
