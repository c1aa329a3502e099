import Glibc
import DBusKit
import SystemdKit
import ReminderCore
import Localization

/// `watch`: the live full-screen view. Redraws once a second (a realtime
/// timer re-armed at its previous deadline, on whole seconds) and at once on
/// every signal and property change; keys act through the service. Every
/// way out (q, Ctrl-C, SIGTERM, SIGHUP, a lost bus, an error) restores the terminal.
final class WatchSession {
    let context: RunContext
    let loop: EventLoop
    let feed: LiveFeed
    let terminal = Terminal()
    private var sources: [EventSource] = []
    private var tick: EventSource?
    private var deadline: Timestamp = 0
    private var message = ""
    private var messageUntil: Timestamp = 0
    private var status: Int32 = ExitStatus.ok
    private var farewell = ""

    init(context: RunContext) throws(CLIError) {
        self.context = context
        loop = try EventLoop.forCLI()
        feed = try LiveFeed(loop: loop)
    }

    func run() throws(CLIError) -> Int32 {
        guard terminal.isInteractive else {
            throw .failure(tr("watch needs a terminal; in scripts use 'icarectl monitor' or 'icarectl status --follow'."))
        }
        try setUpSources()
        try terminal.enter()
        defer {
            terminal.leave()
            if !farewell.isEmpty { context.err.write(farewell) }
        }
        feed.onEvent = { [unowned self] _ in self.draw() }
        feed.onDisconnect = { [unowned self] in
            self.farewell = tr("The connection to your desktop session was lost.") + "\n"
            self.status = ExitStatus.failure
            self.loop.exit(ExitStatus.failure)
        }
        feed.start()
        draw()
        armTick()
        try loop.runForCLI()
        return status
    }

    private func setUpSources() throws(CLIError) {
        try loop.setUpForCLI {
            for signo in [SIGINT, SIGTERM, SIGHUP] {
                sources.append(try loop.addSignal(signo) { [unowned self] _ in self.loop.exit(ExitStatus.ok) })
            }
            sources.append(try loop.addSignal(SIGWINCH) { [unowned self] _ in self.draw() })
            sources.append(try loop.addSignal(SIGTSTP) { [unowned self] _ in self.suspend() })
            sources.append(try loop.addIO(fd: terminal.input, events: IOEvents.readable.rawValue) { [unowned self] revents in
                self.readKeys(revents)
            })
            tick = try loop.addTimer(clock: .realtime, at: 0, accuracy: 5_000) { [unowned self] in
                self.draw()
                self.armTick()
            }
        }
    }

    /// The next whole second after the previous deadline; re-aligned after a
    /// suspend or a clock jump.
    private func armTick() {
        let now = context.now()
        deadline += Micro.second
        if deadline <= now || deadline > now + 2 * Micro.second {
            deadline = (now / Micro.second + 1) * Micro.second
        }
        // A few ms past the second, so the countdown has already moved on.
        tick?.setTime(UInt64(deadline + 3_000))
        tick?.setEnabled(.oneshot)
    }

    private func draw() {
        let now = context.now()
        if messageUntil > 0, now >= messageUntil {
            message = ""
            messageUntil = 0
        }
        let size = terminal.size
        let screen = WatchScreen(time: context.time, style: context.style)
        terminal.draw(screen.render(feed.status, now: now, columns: size.columns, rows: size.rows, message: message))
    }

    /// Ctrl-Z: give the shell its terminal back, stop, and take it again on `fg`.
    private func suspend() {
        terminal.leave()
        kill(getpid(), SIGSTOP)
        try? terminal.enter()
        draw()
    }

    private func readKeys(_ revents: UInt32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(terminal.input, &buffer, buffer.count)
        if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) {
            loop.exit(ExitStatus.ok)   // the terminal went away
            return
        }
        for byte in buffer.prefix(max(0, n)) { key(byte) }
    }

    private func key(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4:
            loop.exit(ExitStatus.ok)
        case UInt8(ascii: "s"):
            act("StartBreak", [], tr("Break started."))
        case UInt8(ascii: "z"):
            act("Snooze", [.uint32(0)], tr("Snoozed."))
        case UInt8(ascii: "k"):
            act("Skip", [], tr("Skipped."))
        case UInt8(ascii: "p"):
            if let s = feed.status, s.state == "paused", s.pauseReason == "user" {
                act("Resume", [], tr("Resumed."))
            } else {
                act("Pause", [.uint32(0)], tr("Paused until you press p again."))
            }
        default:
            break
        }
    }

    private func act(_ member: String, _ args: [DBusValue], _ done: String) {
        feed.call(member, args) { [weak self] error in
            guard let self else { return }
            self.message = error ?? done
            self.messageUntil = self.context.now() + 5 * Micro.second
            self.draw()
        }
    }
}
