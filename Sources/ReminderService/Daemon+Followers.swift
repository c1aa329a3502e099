import SystemdKit
import ReminderCore
import Sound
import StatusItem

/// What follows the engine: the one place where everything that acts on its
/// status or its effects is called, in an order written once, here
/// (docs/architecture.md, "After a change"). The followers are named calls,
/// not a list behind a protocol: each takes something of its own (the phones
/// a text per phone, the status item the time scale, the silence the busy
/// state), and the order reads from top to bottom.
extension Daemon {
    /// A watcher's report, once its callback has written its fact: `event` (if any) goes to the
    /// engine, and the one pass runs. Whether the desktop is known yet is decided here: before it is,
    /// the engine is built from the facts (`startWithDesktopKnown`). From inside a pass (a follower's
    /// own callback), the pass under way announces the fact, and the event waits for its end.
    func report(_ event: ReminderEvent? = nil, at moment: Timestamp? = nil) {
        guard pass.desktopKnown else { return }
        guard !pass.running else {
            if let event { pass.waiting.append((event, moment ?? Daemon.wallNow())) }
            return
        }
        deliver(event, at: moment)
    }

    /// The one pass, after every change the engine took: the deadline, the saved schedule, the
    /// followers in their order, and then the one value announced (one `PropertiesChanged` with
    /// what differs from the value announced last).
    func afterChange() {
        pass.running = true
        let status = engine.status
        armDeadline()
        saveSnapshot()
        SystemdNotify.status(statusLine(status))
        followStatus(status)
        announce(Announced(status: status, settings: engine.settings, facts: facts))
        pass.running = false
        let waiting = pass.waiting
        pass.waiting = []
        for w in waiting { deliver(w.event, at: w.at) }
    }

    /// The followers of the status, in their order.
    private func followStatus(_ status: ReminderStatus) {
        let settings = engine.settings
        // 1. The notifier's inputs first: its update below may send the reminder. A server that plays
        //    sounds is asked for none in do-not-disturb or while busy; over a full screen a reminder is
        //    urgent; a phone that mirrors the desktop asks for quiet after the reminder.
        let notifier = parts.notifier
        notifier?.muted = status.doNotDisturb || Announced.held(facts.busy, settings).active
        notifier?.overFullScreen = facts.fullScreen
        notifier?.phones = facts.notificationPhones
        // 2. The phones, before the notifier: both act on the same reminder. The remote first: its
        //    lists decide whether a phone offers iCare's commands, which the ping's text says.
        let remote = parts.phoneRemote
        remote?.update(status: status, settings: settings)
        parts.phones?.update(status: status, settings: settings) { phone in
            Texts.phoneReminder(breakSeconds: settings.breakDuration, fromPhone: remote?.offersCommands(to: phone) ?? false)
        }
        // 3. The desktop's notification, and the idle watch's threshold (a break's length of idleness is a rest).
        notifier?.update(status: status, settings: settings)
        parts.presence?.setIdleThreshold(seconds: settings.breakDuration)
        // 4. The ring in the panel; its place follows the `StatusItem` setting too.
        if let item = parts.statusItem {
            item.update(status: status, settings: settings, timeScale: engine.timeScale)
            facts.desktop.ring = Daemon.ring(item.place)
        }
        // 5. What is announced (`SoundPlayedBy`, `Capabilities`, …) is made last, in `afterChange`:
        //    it reads the facts the followers above may have reported (the ring's place).
    }

    /// Sends one `PropertiesChanged` with what differs from the value announced last, and gives the
    /// ring's menu what it shows of it.
    private func announce(_ value: Announced) {
        parts.statusItem?.extras = MenuExtras(phones: value.phones, cannotSee: value.capabilities.contains { $0.state == .missing })
        let old = announced
        announced = value
        object?.emitPropertiesChanged(ReminderInterface.name, ReminderInterface.changes(from: old, to: value))
    }

    /// The followers of each effect, called after the effect is carried out (its signal sent).
    func followEffect(_ effect: ReminderEffect) {
        if case .breakDue = effect { parts.presence?.checkAwayDespiteInhibitor() }
        if case .breakCompleted = effect {
            let next = engine.status.nextBreak
            parts.notifier?.breakCompleted(nextBreak: next, clock: next > 0 ? clockTime(next) : nil)
        }
        // The sound last, once the notifier has said what it shows. There are no sounds (nil) until
        // `startSounds`: what ended while the service was down is not heard.
        guard let sounds = parts.sounds else { return }
        // No "break complete" goes to the server while a phone mirrors every notification: icared plays its sound.
        var serverPlays = facts.serverPlaysSound
        if case .breakCompleted = effect, facts.notificationPhones.quietAfterReminder { serverPlays = false }
        let settings = engine.settings
        sounds.perform(effect, SoundMoment(sound: settings.sound, serverPlays: serverPlays, doNotDisturb: engine.status.doNotDisturb,
                                           busy: Announced.held(facts.busy, settings).active))
    }

    /// Arms the one deadline timer to the engine's next deadline.
    private func armDeadline() {
        guard let deadline = parts.deadline else { return }
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
