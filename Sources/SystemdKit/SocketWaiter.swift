import Glibc

/// Waits for a unix socket to come (back) — a bus or a media server that
/// restarted — without a timer or polling while it is away: its folder is
/// watched with inotify, and when the socket's name appears `attempt` is
/// called, a second apart, until it succeeds or `retries` tries are spent
/// (the server may bind before it listens); then it waits for the name to
/// appear again. A socket already there when waiting starts is tried too.
public final class SocketWaiter {
    private let loop: EventLoop
    private let folder: String
    private let name: String
    private let retries: Int
    private let attempt: () -> Bool
    private var watch: EventSource?
    private var retry: EventSource?
    private var triesLeft = 0

    /// `attempt` connects and says whether it did; `path` is the socket's full path.
    public init?(loop: EventLoop, path: String, retries: Int = 5, attempt: @escaping () -> Bool) {
        guard let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else { return nil }
        self.loop = loop
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
        name = String(path[path.index(after: slash)...])
        self.retries = retries
        self.attempt = attempt
    }

    /// Whether it is waiting now.
    public var waiting: Bool { watch != nil }

    /// Starts waiting; false when the folder cannot be watched (it does not
    /// exist: nothing to wait for). Idempotent.
    @discardableResult
    public func start() -> Bool {
        guard watch == nil else { return true }
        watch = try? loop.addInotify(path: folder, mask: UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) { [unowned self] _, created in
            guard created == self.name else { return }
            self.triesLeft = self.retries
            self.tryNow()
        }
        guard watch != nil else { return false }
        // It may have come back before the loss was noticed.
        if access(folder == "/" ? "/\(name)" : "\(folder)/\(name)", F_OK) == 0 {
            triesLeft = retries
            scheduleRetry()
        }
        return true
    }

    /// Stops waiting (after a connection made elsewhere).
    public func stop() {
        retry?.setEnabled(.off)
        watch?.cancel()
        watch = nil
    }

    private func tryNow() {
        guard watch != nil else { return }
        if attempt() {
            stop()
            return
        }
        triesLeft -= 1
        if triesLeft > 0 { scheduleRetry() }
    }

    private func scheduleRetry() {
        if retry == nil {
            retry = try? loop.addTimer(clock: .monotonic, at: 0, accuracy: 100_000) { [unowned self] in self.tryNow() }
        }
        retry?.setTime(Clock.monotonic.now() + 1_000_000)
        retry?.setEnabled(.oneshot)
    }
}
