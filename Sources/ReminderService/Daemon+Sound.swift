import ReminderCore
import Sound

/// The sounds of a reminder and of a break's end, played by icared where the
/// notification server does not play `sound-name` (the `Sound` target).
extension Daemon {
    /// Wires the sounds to the engine's effects. Called once the effects of the
    /// start-up (what ended while the service was down) are carried out: those
    /// are not heard.
    func startSounds() {
        let sounds = EventSounds(loop: loop, log: log)
        eventSounds = sounds
        sounds.onChange = { [unowned self] in self.announcingChanges {} }
        notifier?.onProfileChange = { [unowned self] in self.announcingChanges {} }
        if let dconf = dnd?.dconf { sounds.follow(dconf) }
        let previous = effectHook
        effectHook = { [unowned self] effect in
            previous?(effect)
            self.eventSounds?.perform(effect, SoundMoment(
                sound: self.engine.settings.sound, serverPlays: self.serverPlaysSound,
                doNotDisturb: self.status.doNotDisturb, busy: self.busyState.active))
        }
    }

    /// The notification server lists the `sound` capability and plays `sound-name` itself.
    var serverPlaysSound: Bool { notifier?.profile?.sound ?? false }

    /// Who plays the sounds now (`SoundPlayedBy`).
    var soundPlayedBy: String { soundWay.rawValue }

    var soundWay: SoundWay {
        eventSounds?.way(sound: engine.settings.sound, serverPlays: serverPlaysSound)
            ?? (engine.settings.sound ? (serverPlaysSound ? .notificationServer : .icared) : .none)
    }
}
