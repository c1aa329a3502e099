import SystemdKit

/// Keeps iCare from sending the same words twice within a second. KDE
/// Plasma 5.27 refuses a `Notify` (a replacement too) whose app name,
/// summary and body equal those of the last one it accepted less than a
/// second before, with `org.freedesktop.Notifications.Error.ExcessNotificationGeneration`
/// (docs/desktop-facts.md). The countdown can ask for the same words twice
/// within a second (its first update after a server restart, then the
/// whole-second tick that rounds to the same number): that second one is
/// either already on screen, or goes out a second later.
struct NotificationPace {
    /// The error Plasma answers a repeat with.
    static let excessError = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"
    /// How long a server may refuse the same words, in µs (monotonic clock).
    static let gap: UInt64 = 1_000_000
    private var last: (content: NotificationContent, at: UInt64)?

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

    mutating func sent(_ content: NotificationContent, at now: UInt64) {
        last = (content, now)
    }

    /// A new server has seen nothing yet.
    mutating func forget() { last = nil }
}
