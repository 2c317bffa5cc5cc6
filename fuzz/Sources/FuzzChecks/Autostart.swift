import NudgeCore
import NudgeKit

/// An autostart entry a person edited: any text reads as some entry, and Nudge's edit of
/// it (the keys `nudge autostart` sets and removes) reads back with those keys changed
/// and every other key as it was; and an entry GLib loads (no `problem`) is one GLib still
/// loads once edited, or the session would skip a file it used to read.
enum AutostartFuzz {
    static let target = FuzzTarget("autostart", "autostart .desktop entries (nudge autostart, doctor)") { bytes throws(FuzzFailure) in
        let text = FuzzTargets.text(bytes)
        let entry = DesktopEntry(text: text)
        for changes: [String: String?] in [["Hidden": "true"], ["Hidden": nil, "X-GNOME-Autostart-enabled": "true"]] {
            let edited = AutostartPlaces.edited(text, changes)
            let again = DesktopEntry(text: edited)
            var expected = entry.keys
            for (key, value) in changes { expected[key] = value }
            try expect(again.keys == expected, "\(text.shown) edited with \(changes) reads as \(again.keys), not \(expected)")
            if entry.problem == nil, let problem = again.problem {
                throw FuzzFailure("\(text.shown) loads, but edited with \(changes) as \(edited.shown) does not: \(problem)")
            }
        }
    }
}
