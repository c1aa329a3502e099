import SystemdKit

/// Keeps iCare from sending the same words twice within a second. KDE
/// Plasma 5.27 refuses a `Notify` (a replacement too) whose app name,
/// summary and body equal those of the last one it accepted less than a
/// second before, with `org.freedesktop.Notifications.Error.ExcessNotificationGeneration`
/// (docs/desktop-facts.md). The countdown can ask for the same words twice
/// within a second (its first update after a server restart, then the
/// whole-second tick that rounds to the same number): that second one is
/// either already on screen, or goes out a second later.
final class NotificationPace {
    /// The error Plasma answers a repeat with.
    static let excessError = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"
    /// How long iCare keeps the same words apart, in µs (monotonic clock):
    /// Plasma's second, counted from when it received the last, plus room
    /// for that one having taken longer on the way than the next.
    static let gap: UInt64 = 1_250_000
    private var last: (content: NotificationContent, at: UInt64)?
    private let loop: EventLoop
    /// Calls back once held words may go out.
    private var timer: EventSource?

    init(loop: EventLoop) { self.loop = loop }

    /// When `content` may go out, if not now: a second after the same words last went.
    func earliest(_ content: NotificationContent, now: UInt64) -> UInt64? {
        guard let last, last.content.summary == content.summary, last.content.body == content.body,
              now < last.at + Self.gap else { return nil }
        return last.at + Self.gap
    }

    /// Whether `content` is exactly what went out last, less than a second ago.
    func isRepeat(_ content: NotificationContent, now: UInt64) -> Bool {
        guard let last else { return false }
        return last.content == content && now < last.at + Self.gap
    }

    func sent(_ content: NotificationContent, at now: UInt64) {
        last = (content, now)
    }

    /// Calls `then` at `at` (monotonic), once, however often it is asked before.
    func hold(until at: UInt64, then: @escaping () -> Void) {
        guard timer == nil else { return }
        timer = try? loop.addTimer(clock: .monotonic, at: at, accuracy: 1_000) { [unowned self] in
            self.timer?.cancel()
            self.timer = nil
            then()
        }
    }

    /// A new server has seen nothing yet; nothing is held for it.
    func forget() {
        last = nil
        timer?.cancel()
        timer = nil
    }
}
