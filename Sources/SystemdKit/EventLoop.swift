import Glibc
import CSystemd

/// An sd-event loop: one thread, every wake-up a real event (no polling).
public final class EventLoop {
    /// The `sd_event` handle; owned.
    public let raw: OpaquePointer
    /// Sources the loop itself keeps alive (termination signals).
    private var owned: [EventSource] = []

    /// Creates a new loop (sd_event_new).
    public init() throws(SystemdError) {
        var e: OpaquePointer?
        try sdCheck(sd_event_new(&e), "sd_event_new")
        raw = e!
    }

    deinit {
        owned.forEach { $0.cancel() }
        sd_event_unref(raw)
    }

    /// Runs until `exit` is called; returns the exit code (sd_event_loop).
    public func run() throws(SystemdError) -> Int32 {
        try sdCheck(sd_event_loop(raw), "sd_event_loop")
    }

    /// Runs one iteration, waiting at most `timeout` µs (sd_event_run); for tests and tools.
    @discardableResult
    public func runOnce(timeout: UInt64) throws(SystemdError) -> Int32 {
        try sdCheck(sd_event_run(raw, timeout), "sd_event_run")
    }

    /// Asks the loop to end with `code` (sd_event_exit).
    public func exit(_ code: Int32) { sd_event_exit(raw, code) }

    /// The loop's cached time of the current iteration on `clock`, µs (sd_event_now).
    public func now(_ clock: Clock) -> UInt64 {
        var t: UInt64 = 0
        if sd_event_now(raw, clock.id, &t) < 0 { return clock.now() }
        return t
    }

    /// Sends WATCHDOG=1 at half of `WATCHDOG_USEC` when systemd asked for it
    /// (sd_event_set_watchdog). Returns whether a watchdog is active.
    @discardableResult
    public func enableWatchdog() -> Bool { sd_event_set_watchdog(raw, 1) > 0 }

    /// Blocks SIGTERM and SIGINT and ends the loop with code 0 when one arrives.
    public func exitOnTerminationSignals() throws(SystemdError) {
        for signo in [SIGTERM, SIGINT] {
            owned.append(try addSignal(signo) { [unowned self] _ in self.exit(0) })
        }
    }

    // MARK: sources

    /// Watches `fd` for epoll `events` (sd_event_add_io); the handler gets `revents`.
    public func addIO(fd: Int32, events: UInt32, _ handler: @escaping (UInt32) -> Void) throws(SystemdError) -> EventSource {
        var s: OpaquePointer?
        try sdCheck(sd_event_add_io(raw, &s, fd, events, { _, _, revents, userdata in
            unbox(userdata, as: ((UInt32) -> Void).self)(revents)
            return 0
        }, nil), "sd_event_add_io")
        attach(HandlerBox(handler), to: s!)
        return EventSource(raw: s!)
    }

    /// A one-shot timer at absolute `usec` on `clock`, with `accuracy` µs of
    /// allowed slack (sd_event_add_time). Re-arm with `setTime` + `setEnabled(.oneshot)`.
    public func addTimer(clock: Clock, at usec: UInt64, accuracy: UInt64, _ handler: @escaping () -> Void) throws(SystemdError) -> EventSource {
        var s: OpaquePointer?
        try sdCheck(sd_event_add_time(raw, &s, clock.id, usec, accuracy, { _, _, userdata in
            unbox(userdata, as: (() -> Void).self)()
            return 0
        }, nil), "sd_event_add_time")
        attach(HandlerBox(handler), to: s!)
        return EventSource(raw: s!)
    }

    /// Handles signal `signo`, blocking it first (sd_event_add_signal with SD_EVENT_SIGNAL_PROCMASK).
    public func addSignal(_ signo: Int32, _ handler: @escaping (Int32) -> Void) throws(SystemdError) -> EventSource {
        var s: OpaquePointer?
        try sdCheck(sd_event_add_signal(raw, &s, signo | Int32(SD_EVENT_SIGNAL_PROCMASK), { _, info, userdata in
            unbox(userdata, as: ((Int32) -> Void).self)(Int32(info!.pointee.ssi_signo))
            return 0
        }, nil), "sd_event_add_signal")
        attach(HandlerBox(handler), to: s!)
        return EventSource(raw: s!)
    }

    /// Watches `path` with inotify `mask` (sd_event_add_inotify); the handler
    /// gets the event's mask and the name inside a watched directory.
    public func addInotify(path: String, mask: UInt32, _ handler: @escaping (UInt32, String) -> Void) throws(SystemdError) -> EventSource {
        var s: OpaquePointer?
        try sdCheck(sd_event_add_inotify(raw, &s, path, mask, { _, ev, userdata in
            guard let ev else { return 0 }
            var name = ""
            if ev.pointee.len > 0 {
                // The name follows the fixed part of the event in sd-event's buffer (not in a copy).
                let base = UnsafeRawPointer(ev).advanced(by: MemoryLayout<inotify_event>.size)
                name = String(cString: base.assumingMemoryBound(to: CChar.self))
            }
            unbox(userdata, as: ((UInt32, String) -> Void).self)(ev.pointee.mask, name)
            return 0
        }, nil), "sd_event_add_inotify(\(path))")
        attach(HandlerBox(handler), to: s!)
        return EventSource(raw: s!)
    }

    /// Runs `handler` on the next iteration (sd_event_add_defer); starts as one-shot.
    public func addDefer(_ handler: @escaping () -> Void) throws(SystemdError) -> EventSource {
        var s: OpaquePointer?
        try sdCheck(sd_event_add_defer(raw, &s, { _, userdata in
            unbox(userdata, as: (() -> Void).self)()
            return 0
        }, nil), "sd_event_add_defer")
        attach(HandlerBox(handler), to: s!)
        let source = EventSource(raw: s!)
        source.setEnabled(.oneshot)
        return source
    }

    /// Calls `handler` whenever the wall clock is set (NTP step, manual
    /// change, resume with a corrected clock). libsystemd 252 keeps
    /// `sd_event_add_time_change` private, so this arms a realtime timerfd
    /// with TFD_TIMER_CANCEL_ON_SET far in the future; a clock set cancels it
    /// (read gives ECANCELED) and it is re-armed.
    public func addTimeChange(_ handler: @escaping () -> Void) throws(SystemdError) -> EventSource {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemdError(function: "timerfd_create", errno: errno) }
        func arm() -> Int32 {
            var spec = itimerspec()
            spec.it_value.tv_sec = Int.max / 2   // never fires; only the cancel matters
            return timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
        }
        guard arm() == 0 else {
            let e = errno
            close(fd)
            throw SystemdError(function: "timerfd_settime", errno: e)
        }
        let source = try addIO(fd: fd, events: IOEvents.readable.rawValue) { _ in
            var expirations: UInt64 = 0
            let n = read(fd, &expirations, 8)
            if n < 0 && errno == ECANCELED {
                _ = arm()
                handler()
            }
        }
        if let r = source.raw { sd_event_source_set_io_fd_own(r, 1) }
        return source
    }
}
