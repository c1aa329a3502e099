import DBusKit
import SystemdKit

/// What the notifier sends: one `Notify` at a time (paced: the same words never twice within a
/// second), its reply or refusal, and a notification taken away (`CloseNotification`, or an
/// expiring replacement where the server strands a closed bubble).
extension Notifier {
    func close() {
        let closing = id
        adopted = false
        if closing != 0, profile?.closesByExpiring == true {
            // The same words, expiring at once: the server takes it away itself (NotificationClosed, reason 1).
            let last = lastContent ?? NotificationContent.reminder(profile!, settings, icon, quiet: true)
            send(NotificationContent.vanishing(last), view: .none)
            return
        }
        shown = .none
        confirmed = .none
        id = 0
        guard closing != 0 else { return }
        bus.call(.methodCall(destination: destination, path: Notifier.path, interface: Notifier.interface,
                             member: MemberName("CloseNotification"), arguments: [.uint32(closing)])) { _ in }
    }

    func send(_ content: NotificationContent, view: View) {
        let now = Clock.monotonic.now()
        if let at = pace.earliest(content, now: now) {
            // The same words less than a second ago: on screen already, or they go a second after the last.
            if view != shown || !pace.isRepeat(content, now: now) { pace.hold(until: at) { [unowned self] in self.reconcile() } }
            return
        }
        pace.sent(content, at: now)
        let message = Message.methodCall(destination: destination, path: Notifier.path, interface: Notifier.interface,
                                         member: MemberName("Notify"), arguments: [
            .string(Texts.appName), .uint32(id), .string(icon.appIcon), .string(content.summary), .string(content.body),
            .strings(content.actions), .vardict(content.hints), .int32(content.timeout),
        ])
        let sentOn = generation
        inFlight = true
        adopted = false
        shown = view
        lastContent = content
        // libdbus's default timeout: a Notify given up too early may still show, and then could never be closed.
        bus.call(message) { [weak self] result in
            guard let self, sentOn == self.generation else { return }
            self.inFlight = false
            switch result {
            case .success(let reply):
                if let newID = (try? reply.arguments())?.first?.uint32, newID != 0 { self.id = newID }
                self.confirmed = view
                // The notice shown, or a reminder first: either way the person has met iCare.
                switch view {
                case .welcome, .reminder: self.welcomeSettled()
                default: break
                }
            case .failure(let e):
                self.shown = .none
                self.confirmed = .none
                if Notifier.foundNoServer(e) {
                    self.log.notice("No notification server answered (\(e.name)).")
                    self.logInstead(view)
                    self.refused = view
                    self.refusedByServer = false
                    self.stopTicker()
                } else if e.name == NotificationPace.excessError {
                    // Words repeated within a second: sent again a second after them (the pace holds them until then).
                    self.log.info("The notification server refused words repeated within a second; they go again a second later.")
                } else {
                    self.log.warning("The notification server refused a notification: \(e.message)")
                    self.refused = view
                    self.refusedByServer = true
                }
            }
            // The state may have moved on while the call was out.
            self.reconcile()
        }
    }
}
