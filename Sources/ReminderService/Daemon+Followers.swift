import SystemdKit
import ReminderCore
import Sound

/// What follows the engine: the one place where everything that acts on its
/// status or its effects is called, in an order written once, here
/// (docs/architecture.md, "After a change"). The followers are named calls,
/// not a list behind a protocol: each takes something of its own (the phones
/// a text per phone, the status item the time scale, the silence the busy
/// state), and the order reads from top to bottom.
extension Daemon {
    /// After every change of state, once the change's own `PropertiesChanged` is out.
    func afterChange() {
        // An input of the engine's, not a follower: a setting (FullScreenReminders) can change what
        // of the busy state holds reminders back. The engine hears that first, so the deadline, the
        // files and every follower below see the final status, once.
        recheckHeldBusy()
        armDeadline()
        saveSnapshot()
        SystemdNotify.status(statusLine())
        followStatus()
    }

    /// The followers of the status, in their order.
    private func followStatus() {
        let settings = engine.settings
        // 1. The notifier's silence first: its update below may send the reminder, and a server that
        //    plays sounds is asked for none in do-not-disturb or while busy.
        notifier?.muted = status.doNotDisturb || busyState.active
        // 2. The phones, before the notifier: both act on the same reminder. The remote first: its
        //    lists decide whether a phone offers iCare's commands, which the ping's text says.
        phoneRemote?.update(status: status, settings: settings)
        phones?.update(status: status, settings: settings) { phone in
            Texts.phoneReminder(breakSeconds: settings.breakDuration, fromPhone: self.phoneRemote?.offersCommands(to: phone) ?? false)
        }
        // 3. The desktop's notification, and the idle watch's threshold (a break's length of idleness is a rest).
        notifier?.update(status: status, settings: settings)
        presence?.setIdleThreshold(seconds: settings.breakDuration)
        // 4. The ring in the panel.
        statusItem?.update(status: status, settings: settings, timeScale: engine.timeScale)
        // 5. Who plays the sounds (`SoundPlayedBy`), after the notifier: a setting may have changed it.
        showSoundWay()
        // 6. What iCare can see on this desktop (`Capabilities`), last: it reads all of the above.
        refreshCapabilities()
    }

    /// The followers of each effect, called after the effect is carried out (its signal sent).
    func followEffect(_ effect: ReminderEffect) {
        if case .breakDue = effect { presence?.checkAwayDespiteInhibitor() }
        if case .breakCompleted = effect {
            let next = status.nextBreak
            notifier?.breakCompleted(nextBreak: next, clock: next > 0 ? clockTime(next) : nil)
        }
        // The sound last, once the notifier has said what it shows. There are no sounds (nil) until
        // `startSounds`: what ended while the service was down is not heard.
        guard let eventSounds else { return }
        // No "break complete" goes to the server while a phone mirrors every notification: icared plays its sound.
        var serverPlays = serverPlaysSound
        if case .breakCompleted = effect, notifier?.phones.quietAfterReminder == true { serverPlays = false }
        eventSounds.perform(effect, SoundMoment(sound: settings.sound, serverPlays: serverPlays,
                                                doNotDisturb: status.doNotDisturb, busy: busyState.active))
    }

    /// Arms the one deadline timer to the engine's next deadline.
    private func armDeadline() {
        guard let deadline else { return }
        guard let next = engine.nextDeadline else {
            deadline.setEnabled(.off)
            return
        }
        let now = Daemon.wallNow()
        // Never in the past: a deadline missed (the machine slept) fires at once.
        let at = UInt64(max(next, now))
        deadline.setTime(at)
        deadline.setEnabled(.oneshot)
    }
}
