import Localization
/// Calls, screen shares and videos: what `BusyPolicy` makes of them, and
/// why time spent in them is never a natural break.
extension ReminderEngine {
    /// How long after the busy state ends a held reminder waits (scaled like
    /// the interval): time to say goodbye and close the call.
    public static let busyGrace: UInt32 = 120

    /// The busy state as last observed (`.busy`): what holds reminders back, as the daemon decided it.
    public var busyObserved: Bool { busy }

    /// A reminder falling due now would be held because of a call (policy
    /// `defer`): while busy, and for `busyGrace` after it ends.
    var holdingForBusy: Bool {
        guard settings.busyPolicy == .defer else { return false }
        if busy { return true }
        if let until = graceUntil { return clock < until }
        return false
    }

    /// The busy state as observed. Starting: an idle span being counted is
    /// dropped (the person is in a call, not resting). Ending: under `defer`
    /// the grace period begins (unless `grace` is false); idleness still
    /// reported counts from now.
    mutating func setBusy(_ on: Bool, grace: Bool = true, at now: Timestamp) {
        guard on != busy else { return }
        busy = on
        if on {
            graceUntil = nil
            if idleSince != nil {
                idleSince = nil
                if !locked, !asleep { awaySince = nil }
            }
        } else {
            busyEnded = now
            graceUntil = grace && settings.busyPolicy == .defer ? now + timeScale.wait(Self.busyGrace) : nil
            if idleObserved { beginIdle(since: now) }
        }
        syncCauses()
    }

    /// The grace period's end, while it holds a reminder back.
    func graceTransition() -> Timestamp? {
        guard let until = graceUntil, !busy, case .due(_, _, true) = phase else { return nil }
        return until
    }

    /// The earliest instant an absence ending now may count from: never
    /// before the last call ended.
    func restCountsFrom(_ since: Timestamp) -> Timestamp {
        max(since, busyEnded ?? since)
    }
}
