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
        sounds.onChange = { [unowned self] in self.showSoundWay() }
        notifier?.onProfileChange = { [unowned self] in self.showSoundWay() }
        if let dconf = dnd?.dconf { sounds.follow(dconf) }
        let previousChange = changeHook
        changeHook = { [unowned self] in
            // Also a server that plays sounds is asked for none in do-not-disturb or while busy.
            self.notifier?.muted = self.status.doNotDisturb || self.busyState.active
            previousChange?()
            self.showSoundWay()
        }
        showSoundWay()
        let previous = effectHook
        effectHook = { [unowned self] effect in
            previous?(effect)
            // No "break complete" goes to the server while a phone mirrors every notification: icared plays its sound.
            var serverPlays = self.serverPlaysSound
            if case .breakCompleted = effect, self.notifier?.phones.quietAfterReminder == true { serverPlays = false }
            self.eventSounds?.perform(effect, SoundMoment(
                sound: self.engine.settings.sound, serverPlays: serverPlays,
                doNotDisturb: self.status.doNotDisturb, busy: self.busyState.active))
        }
    }

    /// The notification server lists the `sound` capability and plays `sound-name` itself.
    var serverPlaysSound: Bool { notifier?.profile?.sound ?? false }

    /// Brings `SoundPlayedBy` up to date, announcing it when it changed (a setting, the server, the desktop's switch).
    func showSoundWay() {
        guard let eventSounds else { return }
        let way = eventSounds.way(sound: engine.settings.sound, serverPlays: serverPlaysSound).rawValue
        guard way != soundPlayedBy else { return }
        announcingChanges { soundPlayedBy = way }
    }
}
