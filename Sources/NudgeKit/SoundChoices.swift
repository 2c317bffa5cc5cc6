import FreedesktopDelivery
import NudgeCore
import Platform

/// The sounds a face offers for a reminder's pop-up, in words, and a preview of each: the
/// freedesktop theme's sounds that suit a reminder and are installed here, silence, and
/// the reminder's own sound when it is another (a file, a name given on the command line).
public enum SoundChoices {
    /// One choice: the sound (`nil` for silence) and what it is called.
    public struct Choice: Sendable, Equatable {
        public var sound: Sound?
        public var name: String
    }

    /// The theme's sounds that suit a reminder, each with its name in words, the default first.
    private static var themeSounds: [(String, String)] {
        [
            // TRANSLATORS: a sound a reminder's pop-up may play (the freedesktop theme's alarm-clock-elapsed); the default.
            ("alarm-clock-elapsed", tr("Alarm clock (default)")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's bell).
            ("bell", tr("Bell")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's complete).
            ("complete", tr("Done chime")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's message).
            ("message", tr("Message")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's message-new-instant).
            ("message-new-instant", tr("New message")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's dialog-information).
            ("dialog-information", tr("Information")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's phone-incoming-call).
            ("phone-incoming-call", tr("Phone ringing")),
            // TRANSLATORS: a sound a reminder's pop-up may play (the theme's service-login).
            ("service-login", tr("Welcome")),
        ]
    }

    /// Silence, the theme's sounds installed here, and `current` when it is none of them.
    public static func choices(current: Sound?, environment: Environment = .current) -> [Choice] {
        // TRANSLATORS: the sound choice for a pop-up without a sound.
        var choices = [Choice(sound: nil, name: tr("None"))]
        for (name, words) in themeSounds where name == Sound.reminder.description
            || SoundPlayer.themeFile(named: name, environment: environment) != nil {
            choices.append(Choice(sound: .named(name), name: words))
        }
        if let current, !choices.contains(where: { $0.sound == current }) {
            choices.append(Choice(sound: current, name: current.description))
        }
        return choices
    }

    /// Plays `sound` once, as a pop-up would; false when this machine has no player for it.
    @discardableResult
    public static func preview(_ sound: Sound, environment: Environment = .current) -> Bool {
        guard let player = SoundPlayer.find(environment: environment) else { return false }
        return player.play(sound, environment: environment) != nil
    }
}
