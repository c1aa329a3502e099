import ReminderCore
import Sound

/// The sounds of a reminder and of a break's end, played by icared where the
/// notification server does not play `sound-name` (the `Sound` target).
extension Daemon {
    /// Starts the sounds, which follow the engine's effects (Daemon+Followers). Called once the effects of the
    /// start-up (what ended while the service was down) are carried out: those
    /// are not heard.
    func startSounds() {
        let sounds = EventSounds(loop: loop, log: log)
        parts.sounds = sounds
        // The desktop's switch, a fact from which `Announced` says who plays them (`SoundPlayedBy`).
        sounds.onChange = { [unowned self, unowned sounds] in
            self.facts.desktopSounds = sounds.desktopAllows
            self.report()
        }
        if let dconf = parts.dnd?.dconf { sounds.follow(dconf) }
        // From here on the effects are heard, and the notifier is kept quiet while icared plays:
        // both from Daemon+Followers.
        facts.desktopSounds = sounds.desktopAllows
    }
}
