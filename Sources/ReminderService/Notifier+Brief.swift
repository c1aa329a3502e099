import DBusKit
import ReminderCore

/// The brief notices: the status a click on the status item asks for, "break complete", and the first
/// start's notice.
extension Notifier {
    /// Shows the status briefly: the answer to a left click on the
    /// status item when no break is due. Only in place of nothing or of
    /// another brief notice: a reminder or a countdown on screen says more.
    /// Shown again on every click, even when the last one was dismissed.
    func showStatus(summary: String, body: String) {
        guard wanted == .none || wanted.isBrief else { return }
        dismissed = nil
        logged = .none
        want(.status(summary: summary, body: body))
    }

    /// Shows the brief "break complete" in place of the countdown.
    func breakCompleted(nextBreak: Timestamp, clock: String?) {
        guard !phones.quietAfterReminder else { return }
        completeClock = clock
        want(.complete(next: nextBreak))
    }
}

/// The first start's notice, "iCare is on", for a person who never opens
/// the app: shown once per person (the daemon keeps the debt in its
/// `WelcomeMark`), only while the schedule waits for the first break and the
/// desktop is quiet (no do-not-disturb, no call), like a reminder; a
/// reminder or countdown takes its place, and a reminder shown first settles
/// it (its "first eye break at" would no longer be true). "Open iCare" (and the body click,
/// where the server takes one) opens the app by the bus (Daemon+Welcome).
extension Notifier {
    /// A server has shown the notice, or a reminder before it: nothing is owed any more.
    func welcomeSettled() {
        guard welcomeOwed else { return }
        welcomeOwed = false
        onWelcomed?()
    }

    /// `ActivationToken` (notification spec 1.2): sent by the server just before
    /// `ActionInvoked`, so the window the action opens may take the focus.
    func activationTokenSent(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 2, let nid = args[0].uint32, let token = args[1].string,
              nid != 0, !token.isEmpty, token.utf8.count <= 1024 else { return }
        lastActivationToken = (nid, token)
    }

    /// The token the server sent for notification `nid`, taken (it is good for one activation).
    func activationToken(for nid: UInt32) -> String? {
        guard let last = lastActivationToken, last.id == nid else { return nil }
        lastActivationToken = nil
        return last.token
    }
}
