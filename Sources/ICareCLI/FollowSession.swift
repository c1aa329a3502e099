import DBusKit
import SystemdKit
import ReminderCore
import Localization

/// `status --follow`: one long-lived process that prints a new status line
/// (or block) on every change and every minute. It listens to the service's
/// signals; the only timer is the next minute boundary of the countdown.
final class FollowSession {
    let context: RunContext
    let format: StatusFormat
    let loop: EventLoop
    let feed: LiveFeed
    private var timer: EventSource?
    private var emitter: EventSource?
    private var ready = false
    private var status: Int32 = ExitStatus.ok

    init(context: RunContext, format: StatusFormat) throws(CLIError) {
        self.context = context
        self.format = format
        loop = try EventLoop.forCLI()
        feed = try LiveFeed(loop: loop)
    }

    func run() throws(CLIError) -> Int32 {
        try loop.setUpForCLI {
            try loop.exitOnTerminationSignals()
            timer = try loop.addTimer(clock: .realtime, at: 0, accuracy: 50_000) { [unowned self] in self.emit() }
            timer?.setEnabled(.off)
            emitter = try loop.addDefer { [unowned self] in self.emit() }
            emitter?.setEnabled(.off)
        }
        feed.onEvent = { [unowned self] event in
            if case .snapshot = event { self.ready = true }
            if case .service(running: false) = event { self.ready = true }
            // Coalesce what arrives together (a signal and its PropertiesChanged) into one line.
            if self.ready { self.emitter?.setEnabled(.oneshot) }
        }
        feed.onDisconnect = { [unowned self] in
            self.context.err.write(tr("The connection to your desktop session was lost.") + "\n")
            self.status = ExitStatus.failure
            self.loop.exit(ExitStatus.failure)
        }
        feed.start()
        try loop.runForCLI()
        return status
    }

    func emit() {
        let now = context.now()
        let f = StatusFormatter(time: context.time, style: context.style)
        let text: String
        switch format {
        case .text: text = feed.status.map { f.text($0, now: now) + "\n" } ?? ReminderBus.notRunning + "\n\n"
        case .plain: text = (feed.status.map { f.short($0, now: now) } ?? "") + "\n"
        case .waybar: text = f.waybar(feed.status, now: now).text + "\n"
        case .json: text = f.json(feed.status, now: now).text + "\n"
        }
        if !context.out.write(text) {
            loop.exit(ExitStatus.ok)   // the bar went away
            return
        }
        timer?.setTime(UInt64(FollowSession.nextTick(feed.status, now: now)))
        timer?.setEnabled(.oneshot)
    }

    /// The next line is due in a minute, or sooner when the shown minutes of
    /// a countdown change (so `13m` turns into `12m` on time).
    static func nextTick(_ s: ServiceStatus?, now: Timestamp) -> Timestamp {
        let minute = 60 * Micro.second
        var tick = now + minute
        guard let s else { return tick }
        let end: Timestamp = switch s.state {
        case "waiting", "snoozed", "inactive": s.nextBreak
        case "paused": s.pausedUntil
        case "break": s.breakEnds
        default: 0
        }
        if end > now {
            let left = end - now
            let boundary = end - ((left + minute - 1) / minute - 1) * minute
            if boundary > now { tick = min(tick, boundary) }
        }
        return tick
    }
}
