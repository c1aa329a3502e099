import Glibc
import DBusKit
import SystemdKit
import ReminderCore

/// The desktop notification that mirrors the engine's state: a reminder
/// with Start / Snooze / Skip while a break is due, a countdown during a
/// break, a transient "break complete" at its end. It reconciles what is on
/// screen with what the state asks for after every change, so at most one
/// iCare notification is ever shown and none is left stale.
final class Notifier {
    /// What the person asked for through a button.
    enum Action: Equatable { case start, snooze, skip, endBreak }

    /// What should be on screen.
    enum View: Equatable {
        case none
        case reminder(at: Timestamp)
        case countdown(ends: Timestamp)
    }

    private enum Shown: Equatable {
        case reminder(at: Timestamp)
        case countdown(ends: Timestamp)
        case complete
    }

    static let busName = BusName("org.freedesktop.Notifications")
    static let path = ObjectPath("/org/freedesktop/Notifications")
    static let interface = InterfaceName("org.freedesktop.Notifications")

    private let bus: Connection
    private let loop: EventLoop
    private let log: Log
    var onAction: ((Action) -> Void)?

    private var owner: String?
    private var capabilities: Set<String> = []
    private var id: UInt32 = 0
    private var shown: Shown?
    /// A view the person dismissed: not shown again until the view changes.
    private var dismissed: View?
    private var inFlight = false
    private var wanted: View = .none
    private var settings = Settings()
    private var status: ReminderStatus?
    private var ticker: EventSource?
    private var watches: [AnyObject] = []
    private var saidNoServer = false

    init(bus: Connection, loop: EventLoop, log: Log) {
        self.bus = bus
        self.loop = loop
        self.log = log
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
    }

    /// Brings the screen in line with the engine's status.
    func update(status: ReminderStatus, settings: Settings) {
        self.status = status
        self.settings = settings
        switch status.state {
        case .due where !status.reminderHeld: wanted = .reminder(at: status.nextBreak)
        case .break: wanted = .countdown(ends: status.breakEnds)
        default: wanted = .none
        }
        if let d = dismissed, d != wanted { dismissed = nil }
        reconcile()
    }

    /// Shows the brief "break complete" in place of the countdown.
    func breakCompleted(nextBreak: Timestamp, clock: String?) {
        guard owner != nil else { return }
        ticker?.cancel()
        ticker = nil
        var hints: [(String, DBusValue)] = [("transient", .bool(true)), ("urgency", .byte(0))]
        hints += commonHints()
        if settings.sound { hints.append(("sound-name", .string(Texts.completeSound))) }
        send(summary: Texts.completeSummary, body: Texts.completeBody(nextAt: clock), actions: [], hints: hints,
             timeout: 5_000, shown: .complete)
    }

    // MARK: reconciling

    private func reconcile() {
        guard owner != nil, !inFlight else { return }
        if wanted == dismissed { return }
        switch wanted {
        case .none:
            stopTicker()
            if let s = shown, s != .complete { close() }
        case .reminder(let at):
            stopTicker()
            if shown != .reminder(at: at) { showReminder(at: at) }
        case .countdown(let ends):
            if shown != .countdown(ends: ends) {
                showCountdown(ends: ends)
                startTicker(ends: ends)
            }
        }
    }

    private func commonHints() -> [(String, DBusValue)] {
        [("desktop-entry", .string(Texts.desktopEntry)), ("category", .string("x-icare.break"))]
    }

    private func showReminder(at: Timestamp) {
        let seconds = settings.breakDuration
        var actions: [String] = []
        let body: String
        if capabilities.contains("actions") {
            actions = ["default", Texts.startLabel, "start", Texts.startLabel,
                       "snooze", Texts.snoozeLabel(seconds: settings.snoozeDuration), "skip", Texts.skipLabel]
            body = Texts.reminderBody(breakSeconds: seconds)
        } else {
            body = Texts.reminderBodyWithoutButtons(breakSeconds: seconds)
        }
        var hints = commonHints() + [("urgency", .byte(1)), ("resident", .bool(true))]
        if settings.sound { hints.append(("sound-name", .string(Texts.reminderSound))) }
        send(summary: Texts.reminderSummary, body: body, actions: actions, hints: hints, timeout: 0, shown: .reminder(at: at))
    }

    private func showCountdown(ends: Timestamp) {
        let now = Timestamp(Clock.realtime.now())
        let total = Int64(settings.breakDuration) * Micro.second
        let left = max(0, ends - now)
        let secondsLeft = (left + Micro.second / 2) / Micro.second
        let percent = total > 0 ? Int32(max(0, min(100, 100 - left * 100 / total))) : 100
        let actions = capabilities.contains("actions") ? ["end", Texts.endBreakLabel] : []
        let hints = commonHints() + [("urgency", .byte(1)), ("value", .int32(percent)), ("suppress-sound", .bool(true)),
                                     ("resident", .bool(true))]
        send(summary: Texts.countdownSummary(secondsLeft: secondsLeft), body: Texts.countdownBody, actions: actions,
             hints: hints, timeout: 0, shown: .countdown(ends: ends))
    }

    private func close() {
        let closing = id
        shown = nil
        id = 0
        guard closing != 0 else { return }
        bus.call(.methodCall(destination: Notifier.busName, path: Notifier.path, interface: Notifier.interface,
                             member: MemberName("CloseNotification"), arguments: [.uint32(closing)])) { _ in }
    }

    private func send(summary: String, body: String, actions: [String], hints: [(String, DBusValue)], timeout: Int32, shown view: Shown) {
        let message = Message.methodCall(destination: Notifier.busName, path: Notifier.path, interface: Notifier.interface,
                                         member: MemberName("Notify"), arguments: [
            .string(Texts.appName), .uint32(id), .string(Texts.iconName), .string(summary), .string(body),
            .strings(actions), .vardict(hints), .int32(timeout),
        ])
        inFlight = true
        shown = view
        bus.call(message) { [weak self] result in
            guard let self else { return }
            self.inFlight = false
            switch result {
            case .success(let reply):
                if let newID = (try? reply.arguments())?.first?.uint32, newID != 0 { self.id = newID }
            case .failure(let e):
                self.log.warning("The notification server refused a notification: \(e.message)")
                self.shown = nil
                return
            }
            // The state may have moved on while the call was out.
            self.reconcile()
        }
    }

    // MARK: the countdown's tick

    /// Updates the countdown on whole seconds before `ends`, re-armed at the
    /// previous deadline (no drift), on the monotonic clock.
    private func startTicker(ends: Timestamp) {
        stopTicker()
        let now = Timestamp(Clock.realtime.now())
        let left = ends - now
        guard left > Micro.second else { return }
        // The next whole second before the end.
        let nextWall = ends - (left / Micro.second) * Micro.second
        let firstTick = nextWall > now ? nextWall : nextWall + Micro.second
        let mono = Clock.monotonic.now() + UInt64(firstTick - now)
        ticker = try? loop.addTimer(clock: .monotonic, at: mono, accuracy: 1_000) { [unowned self] in self.tick(ends: ends) }
    }

    private func tick(ends: Timestamp) {
        guard let t = ticker else { return }
        let now = Timestamp(Clock.realtime.now())
        guard wanted == .countdown(ends: ends), dismissed != wanted, now < ends - Micro.second / 2 else {
            stopTicker()
            return
        }
        if !inFlight { showCountdown(ends: ends) }
        t.setTime(t.time + UInt64(Micro.second))
        t.setEnabled(.oneshot)
    }

    private func stopTicker() {
        ticker?.cancel()
        ticker = nil
    }

    // MARK: the server

    private func serverChanged(_ newOwner: String?) {
        owner = newOwner
        id = 0
        shown = nil
        inFlight = false
        stopTicker()
        guard newOwner != nil else {
            if !saidNoServer {
                log.notice("No notification server on the session bus; reminders go out as BreakDue signals only.")
                saidNoServer = true
            }
            return
        }
        saidNoServer = false
        bus.call(.methodCall(destination: Notifier.busName, path: Notifier.path, interface: Notifier.interface,
                             member: MemberName("GetCapabilities"))) { [weak self] result in
            guard let self else { return }
            if case .success(let reply) = result, let caps = (try? reply.arguments())?.first?.strings {
                self.capabilities = Set(caps)
            } else {
                self.capabilities = []
            }
            self.log.info("Notification server found (capabilities: \(self.capabilities.sorted().joined(separator: " "))).")
            self.reconcile()
        }
    }

    private func actionInvoked(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 2, let nid = args[0].uint32, let key = args[1].string,
              nid == id, nid != 0 else { return }
        switch (shown, key) {
        case (.reminder?, "default"), (.reminder?, "start"): onAction?(.start)
        case (.reminder?, "snooze"): onAction?(.snooze)
        case (.reminder?, "skip"): onAction?(.skip)
        case (.countdown?, "end"): onAction?(.endBreak)
        default: break
        }
    }

    private func notificationClosed(_ m: Message) {
        guard let args = try? m.arguments(), args.count == 2, let nid = args[0].uint32, let reason = args[1].uint32,
              nid == id, nid != 0, !inFlight else { return }
        // A dismissal is not a decision: the break stays due, but the same view is not pushed again.
        if reason == 2 || reason == 1 {
            switch shown {
            case .reminder(let at)?: dismissed = .reminder(at: at)
            case .countdown(let ends)?: dismissed = .countdown(ends: ends)
            default: break
            }
        }
        stopTickerIfDismissed()
        shown = nil
        id = 0
    }

    private func stopTickerIfDismissed() {
        if case .countdown? = dismissed { stopTicker() }
    }
}
