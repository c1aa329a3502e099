/// Everything the read-only D-Bus properties show, at one moment.
public struct ReminderStatus: Equatable, Sendable {
    /// `State`.
    public var state: ReminderState
    /// `PauseReason`: the most recently begun cause while paused, else `.none`.
    public var pauseReason: PauseReason
    /// `NextBreak`: waiting/snoozed — when the next reminder fires; due —
    /// when the reminder went out (held: when it fell due); break —
    /// `BreakEnds + Interval`; paused — `PausedUntil + Interval` when a timed
    /// user pause is the only cause, else 0; inactive — the first reminder of
    /// the next active period. Always moved past the end of the active hours
    /// to the next period's first reminder when the stretch ends first.
    public var nextBreak: Timestamp
    /// `BreakEnds`: in `break`, when the countdown ends; else 0.
    public var breakEnds: Timestamp
    /// `PausedUntil`: the end of a timed user pause; else 0.
    public var pausedUntil: Timestamp
    /// `CompletedToday`: completed and natural records since local midnight.
    public var completedToday: UInt32
    /// `SkippedToday`: skipped records since local midnight.
    public var skippedToday: UInt32
    /// `MissedToday`: missed records (reminders left unanswered) since local midnight.
    public var missedToday: UInt32
    /// `DoNotDisturb`, as last reported.
    public var doNotDisturb: Bool
    /// Due, but held back by `DndPolicy.defer` while do-not-disturb is on:
    /// show no notification until it is released (with a `breakDue` effect).
    public var reminderHeld: Bool

    /// A status from its parts.
    public init(state: ReminderState, pauseReason: PauseReason = .none, nextBreak: Timestamp = 0,
                breakEnds: Timestamp = 0, pausedUntil: Timestamp = 0, completedToday: UInt32 = 0,
                skippedToday: UInt32 = 0, missedToday: UInt32 = 0, doNotDisturb: Bool = false,
                reminderHeld: Bool = false) {
        self.state = state
        self.pauseReason = pauseReason
        self.nextBreak = nextBreak
        self.breakEnds = breakEnds
        self.pausedUntil = pausedUntil
        self.completedToday = completedToday
        self.skippedToday = skippedToday
        self.missedToday = missedToday
        self.doNotDisturb = doNotDisturb
        self.reminderHeld = reminderHeld
    }
}
