import Glibc
import DBusKit
import SystemdKit
import ReminderCore

/// The desktop notification that mirrors the engine's state: a reminder
/// with Start / Snooze / Skip while a break is due, a countdown during a
/// break, a transient "break complete" at its end. It reconciles what is on
/// screen with what the state asks for after every change, so at most one
/// iCare notification is ever shown and none is left stale.
///
/// Rules where docs/desktop-facts.md leaves a choice:
/// - Nothing is shown before the server's name and capabilities are known
///   (they choose the `NotificationProfile`), so a reminder never goes out
///   without buttons, or with the wrong ones, because a reply was late.
/// - One id is carried through reminder → countdown → "break complete"
///   with `replaces_id` ("break complete" is a new one on GNOME Shell); a notification is taken away only when nothing
///   should be on screen (on notification-daemon by an expiring
///   replacement, since its `CloseNotification` strands the bubble).
/// - A button used after the person dismissed the bubble (dunst's menu
///   outlives it) still answers while that view is what the state asks for.
/// - A notification the person dismissed (or the server expired) is not
///   pushed again until the view changes: a dismissal is not a decision.
/// - A `NotificationClosed` that arrives while a `Notify` is out is about
///   what the server showed before that call (it answers in order).
/// - A view the server refused is not retried until the view changes; but a
///   refused countdown is tried again on the next tick (with the next
///   second's words), never left frozen, and a refusal of words repeated
///   within a second (Plasma's) is retried a second later.
/// - The same words never go out twice within a second (`NotificationPace`):
///   a repeat of what is on screen is dropped, anything else waits.
/// - Where no server runs (no owner of its name, or a `Notify` that found
///   none), the reminder, the break's start and its end are logged at notice
///   level instead, each once, so `icared --log-stderr` shows the cycle.
final class Notifier {
    static let busName = BusName("org.freedesktop.Notifications")
    /// Where calls go: the server's unique name, as libnotify addresses them. GSConnect before 56 forwards
    /// to the phone only a `Notify` sent to the server's unique name (docs/phones.md); a reply from a
    /// server that went in the meantime fails as if there were none.
    var destination: BusName { owner.flatMap { BusName(rawValue: $0) } ?? Notifier.busName }
    static let path = ObjectPath("/org/freedesktop/Notifications")
    static let interface = InterfaceName("org.freedesktop.Notifications")

    // Internal, not private, where Notifier+Countdown.swift (the tick, the log instead of a server) and
    // Notifier+Server.swift (a new server, its signals) use them.
    let bus: Connection
    let loop: EventLoop
    let log: Log
    let icon: NotificationIcon
    let memo: NotificationMemo?
    var onAction: ((Action) -> Void)?
    /// Runs when the server's profile becomes known or goes (who plays the sounds may change).
    var onProfileChange: (() -> Void)?

    var owner: String?
    /// How to draw on this server; nil until its `GetServerInformation` and `GetCapabilities` replies.
    var profile: NotificationProfile?
    /// Counts server changes: a reply from an earlier server is stale.
    var generation = 0
    /// Our notification's id on the server (0: none), remembered in the runtime folder.
    var id: UInt32 = 0 {
        didSet { if id != oldValue { remember() } }
    }
    /// The id a killed predecessor left on this server: replaced by what is wanted, or closed.
    var adopted = false
    /// The id of the view the person dismissed (its buttons may still be used: dunst's menu).
    var dismissedID: UInt32 = 0
    /// What was last sent under `id` (set when the call goes out).
    var shown: View = .none
    /// What was last sent (the reminder's text follows the settings).
    var lastContent: NotificationContent?
    /// What the server had answered for under `id` before the call now out.
    var confirmed: View = .none
    var inFlight = false
    var wanted: View = .none
    /// A view the person dismissed: not shown again until the view changes.
    var dismissed: View?
    /// A view the server refused: not tried again on this server until the view changes (a countdown: until the next tick).
    var refused: View?
    /// Whether `refused` is the server's answer (not a server that went away).
    var refusedByServer = false
    /// When the same words last went out; what must wait for a second.
    let pace: NotificationPace
    var settings = Settings()
    /// Do-not-disturb or busy: the server is asked for silence instead of `sound-name` (Daemon+Sound sets it).
    var muted = false
    /// A full-screen window hides all but urgent notifications: a reminder or countdown sent now is urgent.
    var overFullScreen = false
    /// A reminder or countdown goes out urgent: over a full screen the desktop reports, or, with
    /// FullScreenReminders on, on a server that hides a normal one under a full screen it never reports.
    var urgent: Bool { overFullScreen || (settings.fullScreenReminders && profile?.hiddenUnderFullScreen == true) }
    /// What the linked phones ask of what follows a reminder (set in the daemon's pass, before `update`).
    var phones = NotificationPhones()
    /// The first start's notice is still to be shown (Notifier+Brief).
    var welcomeOwed = false
    /// Runs once a server has shown the first start's notice, or a reminder before it.
    var onWelcomed: (() -> Void)?
    /// A local clock time ("14:20") for an instant, for the first start's notice (the daemon's `clockTime`).
    var clockText: ((Timestamp) -> String)?
    /// The last `ActivationToken` the server sent (notification id, token).
    var lastActivationToken: (id: UInt32, token: String)?
    var ticker: EventSource?
    private var watches: [AnyObject] = []
    var saidNoServer = false
    /// Whether the name watch has reported the server (or its absence) yet.
    var ownerKnown = false
    /// The last view written to the log for want of a server.
    var logged: View = .none
    /// The next break's local time for "break complete", if one is planned.
    var completeClock: String?
    /// Whether the engine's status has come yet: until it has, `wanted` is
    /// no decision, and a bubble a killed predecessor left must not be closed
    /// for it (the server can answer before the service has built its engine).
    private var statusKnown = false

    /// `runtimeDirectory`: where the id on screen is remembered across a crash (nil: nowhere).
    init(bus: Connection, loop: EventLoop, log: Log, runtimeDirectory: String?) {
        self.bus = bus
        self.loop = loop
        self.log = log
        icon = NotificationIcon.resolve()
        memo = NotificationMemo(runtimeDirectory: runtimeDirectory)
        pace = NotificationPace(loop: loop)
    }

    private func remember() {
        do {
            try memo?.record(id, server: owner)
        } catch {
            log.warning("Cannot remember the notification's id: \(error)")
        }
    }

    /// Follows the notification server and its signals.
    func start() {
        watches.append(bus.watchName(Notifier.busName) { [unowned self] owner in self.serverChanged(owner) })
        watches.append(bus.subscribe(MatchRule(sender: Notifier.busName.rawValue, path: Notifier.path.rawValue,
                                               interface: Notifier.interface.rawValue, member: "ActionInvoked")) {
            [unowned self] m in self.actionInvoked(m)
        })
        watches.append(bus.subscribe(MatchRule(sender: Notifier.busName.rawValue, path: Notifier.path.rawValue,
                                               interface: Notifier.interface.rawValue, member: "NotificationClosed")) {
            [unowned self] m in self.notificationClosed(m)
        })
        watches.append(bus.subscribe(MatchRule(sender: Notifier.busName.rawValue, path: Notifier.path.rawValue,
                                               interface: Notifier.interface.rawValue, member: "ActivationToken")) {
            [unowned self] m in self.activationTokenSent(m)
        })
    }

    /// Brings the screen in line with the engine's status.
    func update(status: ReminderStatus, settings: Settings) {
        self.settings = settings
        statusKnown = true
        switch status.state {
        case .due where !status.reminderHeld: want(.reminder(at: status.nextBreak))
        // A phone sent every update would alert for each: the ring counts the break instead.
        case .break where phones.quietAfterReminder: want(.none)
        case .break: want(.countdown(ends: status.breakEnds))
        case .waiting where welcomeOwed && !muted: want(.welcome(next: status.nextBreak))
        default:
            // A brief notice ("break complete", the status) stays until it expires or something else must be shown;
            // the welcome not yet shown waits for the next quiet wait (Notifier+Brief).
            if wanted.isBrief, !welcomeOwed { want(wanted) } else { want(.none) }
        }
    }

    func want(_ view: View) {
        wanted = view
        if let d = dismissed, d != view { dismissed = nil }
        if let r = refused, r != view { refused = nil }
        if ownerKnown && owner == nil { logInstead(view) }
        reconcile()
    }

    // MARK: reconciling

    func reconcile() {
        guard owner != nil, let profile, !inFlight, statusKnown else { return }
        if case .countdown(let ends) = wanted, wanted == refused, refusedByServer, wanted != dismissed {
            // Refused: the next tick tries again, with the next second's words.
            if ticker == nil { startTicker(ends: ends) }
            return
        }
        if wanted == dismissed || wanted == refused {
            stopTicker()
            // Dismissed while an update of it was out: that update put it back; take it away.
            if shown == wanted, id != 0 { close() }
            return
        }
        switch wanted {
        case .none:
            stopTicker()
            switch shown {
            case .reminder, .countdown: close()
            case .none where adopted: close()
            case .none, .complete, .status, .welcome: break
            }
        case .reminder:
            stopTicker()
            let content = NotificationContent.reminder(profile, settings, icon, quiet: muted).urgent(urgent)
            // After a brief notice, a new notification: an update of one Plasma 6.7 keeps in its history never
            // pops up (docs/desktop-facts.md, "Brief notices").
            if shown != wanted, shown.isBrief, id != 0, !profile.closesByExpiring { close() }
            if shown != wanted {
                send(content, view: wanted)
            } else if lastContent != content {
                // Only its text changed (a setting): updated in place, without sounding again.
                send(NotificationContent.reminder(profile, settings, icon, quiet: true).urgent(urgent), view: wanted)
            }
        case .countdown(let ends):
            if shown != wanted {
                showCountdown(ends: ends)
                if profile.countsEachSecond { startTicker(ends: ends) }
            }
        case .complete:
            stopTicker()
            // GNOME Shell: a banner of its own, not an update that shrinks the countdown's from under the pointer.
            if shown != wanted, profile.completeIsNew, id != 0 { close() }
            if shown != wanted {
                send(NotificationContent.complete(profile, settings, icon, clock: completeClock, quiet: muted)
                    .keptFromPhones(phones.hintAfterReminder), view: wanted)
            }
        case .status(let summary, let body):
            stopTicker()
            if shown != wanted { send(NotificationContent.status(summary: summary, body: body, icon), view: wanted) }
        case .welcome(let next):
            stopTicker()
            if shown != wanted { send(NotificationContent.welcome(profile, settings, icon, clock: clockText?(next) ?? ""), view: wanted) }
        }
    }

    func showCountdown(ends: Timestamp) {
        guard let profile else { return }
        send(NotificationContent.countdown(profile, settings, icon, ends: ends, now: Timestamp(Clock.realtime.now()))
                .keptFromPhones(phones.hintAfterReminder).urgent(urgent), view: .countdown(ends: ends))
    }
}
