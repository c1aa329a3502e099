import SystemdKit
import WaylandIdle

/// Idleness from the Wayland compositor's own protocol, used only where it
/// adds something: `WAYLAND_DISPLAY` is set, GNOME's idle monitor is not on
/// the bus (where it is, it is the better source: it also answers how long
/// the person has really been away through an idle inhibitor), and the
/// compositor offers ext-idle-notify-v1 or org_kde_kwin_idle.
///
/// It is tried once Mutter's absence is known, stopped quietly if Mutter
/// appears, and tried again if Mutter goes. A compositor that offers no
/// protocol, cannot be reached, or goes away ends it for the rest of the
/// run: `WAYLAND_DISPLAY` names one session's compositor, and when that
/// goes the session is ending (a new session starts a new `icared` with
/// its own environment). While it is gone the person counts as present.
final class WaylandIdleSource {
    /// The display from `WAYLAND_DISPLAY` (nil: not a Wayland session).
    let display: String?
    /// `idle` changed.
    var onIdle: (() -> Void)?
    /// Logs a line (the monitor's log, each kind once).
    var note: ((LogLevel, String) -> Void)?
    /// Runs when `watching` changed (the compositor answered, or the watch ended).
    var onWatchingChange: (() -> Void)?

    /// Whether the compositor says the person is idle.
    var idle: Bool { watch?.idle ?? false }
    /// The protocol being watched, for the list of sources.
    private(set) var watching: IdleProtocol? {
        didSet { if watching != oldValue { onWatchingChange?() } }
    }

    private let loop: EventLoop
    private var watch: WaylandIdleWatch?
    private var thresholdMs: UInt32
    /// Unsupported, unreachable or gone: not tried again.
    private var finished = false

    init(display: String?, loop: EventLoop, thresholdMs: UInt32) {
        self.display = display.flatMap { $0.isEmpty ? nil : $0 }
        self.loop = loop
        self.thresholdMs = thresholdMs
    }

    deinit { watch?.stop() }

    /// Mutter's idle monitor appeared (true: the Wayland watch is not needed)
    /// or is absent (false: the Wayland watch starts, unless it ended).
    func mutterPresent(_ present: Bool) {
        if present {
            guard let w = watch else { return }
            watch = nil
            watching = nil
            let wasIdle = w.idle
            w.stop()
            note?(.info, "\(mutterName) is on the bus: the Wayland idle watch is not needed")
            if wasIdle { onIdle?() }
        } else {
            start()
        }
    }

    /// The idle timeout, ms.
    func setThreshold(ms: UInt32) {
        thresholdMs = ms
        watch?.setTimeout(ms: ms)
    }

    private func start() {
        guard watch == nil, !finished, let display else { return }
        let w: WaylandIdleWatch
        do {
            w = try WaylandIdleWatch(display: display, loop: loop, timeoutMs: thresholdMs)
        } catch {
            finished = true
            note?(.info, "\(error): no idle watch from the Wayland compositor")
            return
        }
        w.onIdle = { [weak self] _ in self?.onIdle?() }
        w.onStatus = { [weak self] status in self?.statusChanged(status) }
        watch = w
        w.start()
    }

    private func statusChanged(_ status: WaylandIdleWatch.Status) {
        switch status {
        case .watching(let proto):
            watching = proto
            note?(.info, "watching the Wayland compositor's idle notifications (\(proto.globalName) on \(display ?? ""))")
        case .unsupported:
            finish()
            note?(.info, "the Wayland compositor on \(display ?? "") offers neither ext_idle_notifier_v1 nor org_kde_kwin_idle: no idle watch from it")
        case .gone(let reason):
            finish()
            note?(.warning, "the Wayland compositor on \(display ?? "") went away (\(reason)): the person counts as present, and it is not watched again in this run")
        }
    }

    private func finish() {
        finished = true
        watching = nil
        watch = nil
    }

    private var mutterName: String { MutterIdleWatcher.busName }
}
