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
        eventSounds = sounds
        sounds.onChange = { [unowned self] in self.showSoundWay() }
        notifier?.onProfileChange = { [unowned self] in
            self.showSoundWay()
            self.refreshCapabilities()
        }
        if let dconf = dnd?.dconf { sounds.follow(dconf) }
        // From here on the effects are heard, and the notifier is kept quiet while icared plays:
        // both from Daemon+Followers.
        showSoundWay()
    }

    /// The notification server lists the `sound` capability and plays `sound-name` itself.
    var serverPlaysSound: Bool { notifier?.profile?.sound ?? false }

    /// Brings `SoundPlayedBy` up to date, announcing it when it changed (a setting, the server, the desktop's switch).
    func showSoundWay() {
        guard let eventSounds else { return }
        let way = eventSounds.way(sound: engine.settings.sound, serverPlays: serverPlaysSound).rawValue
        guard way != soundPlayedBy else { return }
        announcingChanges { soundPlayedBy = way }
        refreshCapabilities()
    }
}
