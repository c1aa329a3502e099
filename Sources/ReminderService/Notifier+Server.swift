import DBusKit
import SystemdKit
import ReminderCore
import DesktopReport

/// The server side of the notifier: a new owner of the server's name (its
/// profile read, what a killed predecessor left adopted), and the server's
/// two signals, a button pressed and a bubble closed.
extension Notifier {
    /// The server as `Capabilities` says it: not known yet, none, or its name, version and buttons.
    var serverFact: DesktopFacts.Server {
        guard ownerKnown else { return .unknown }
        guard owner != nil else { return .none }
        guard let profile else { return .unknown }
        return .found(name: profile.displayName, version: profile.serverVersion, actions: profile.actions)
    }

    func serverChanged(_ newOwner: String?) {
        generation += 1
        // What a killed predecessor left on this very server (read before the id is reset).
        let left = memo?.load()
        id = 0
        owner = newOwner
        profile = nil
        adopted = false
        dismissedID = 0
        shown = .none
        confirmed = .none
        inFlight = false
        refused = nil
        pace.forget()
        stopTicker()
        // A server that comes later gets what is due or running, not an old brief notice.
        if wanted.isBrief, !welcomeOwed { wanted = .none }
        ownerKnown = true
        guard newOwner != nil else {
            if !saidNoServer {
                log.notice("No notification server on the session bus; reminders go out as BreakDue signals and appear in this log.")
                saidNoServer = true
            }
            // What was on screen went with the server: the log shows it now.
            logInstead(wanted)
            onProfileChange?()
            return
        }
        saidNoServer = false
        let askedOn = generation
        call("GetServerInformation") { [weak self] info in
            guard let self, askedOn == self.generation else { return }
            let name = info?.first?.string ?? ""
            let version = (info?.count ?? 0) > 2 ? info?[2].string ?? "" : ""
            self.call("GetCapabilities") { [weak self] caps in
                guard let self, askedOn == self.generation else { return }
                let capabilities = Set(caps?.first?.strings ?? [])
                let profile = NotificationProfile(name: name, version: version, capabilities: capabilities)
                self.profile = profile
                self.log.info("Notification server found: \(name.isEmpty ? "(no name)" : name) \(version), drawn as \(profile.family.rawValue) (capabilities: \(capabilities.sorted().joined(separator: " "))).")
                if let left, left.server == newOwner, self.id == 0 {
                    self.id = left.id
                    self.adopted = true
                    self.log.info("Notification \(left.id), left on screen by an earlier icared, is replaced or closed.")
                }
                // Last: the daemon's pass that follows it updates this notifier, which is ready for it now.
                self.onProfileChange?()
                self.reconcile()
            }
        }
    }

    /// Calls a method of the server without arguments; `done` gets its reply's arguments, or nil.
    func call(_ member: String, _ done: @escaping ([DBusValue]?) -> Void) {
        bus.call(.methodCall(destination: destination, path: Notifier.path, interface: Notifier.interface,
                             member: MemberName(member))) { result in
            if case .success(let reply) = result { done(try? reply.arguments()) } else { done(nil) }
        }
    }

    func actionInvoked(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 2, let nid = args[0].uint32, let key = args[1].string,
              nid != 0 else { return }
        let view: View
        if nid == id && !adopted {
            // A click on what the server showed before a call now out is stale: the state has moved on.
            if inFlight && confirmed != shown { return }
            view = shown
        } else if nid == dismissedID, dismissed == wanted, let d = dismissed {
            // A button of the dismissed bubble (dunst's menu), while its view is still what the state asks for.
            view = d
        } else {
            return
        }
        switch (view, key) {
        case (.reminder, "default"), (.reminder, "start"): onAction?(.start)
        case (.reminder, "snooze"): onAction?(.snooze)
        case (.reminder, "skip"): onAction?(.skip)
        case (.countdown, "end"): onAction?(.endBreak)
        case (.welcome, "default"), (.welcome, "open"): onAction?(.openApp(activationToken: activationToken(for: nid)))
        default: break
        }
    }

    func notificationClosed(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 2, let nid = args[0].uint32, let reason = args[1].uint32,
              nid == id, nid != 0 else { return }
        // The server answers in order: a close seen while a Notify is out is about what it showed before.
        let closed = inFlight ? confirmed : shown
        id = 0
        adopted = false
        confirmed = .none
        if !inFlight { shown = .none }
        // Expired (1) or dismissed by the person (2): not a decision, but not pushed again either.
        if (reason == 1 || reason == 2) && closed == wanted && closed != .none {
            dismissed = closed
            dismissedID = nid
            reconcile()
        }
    }
}
