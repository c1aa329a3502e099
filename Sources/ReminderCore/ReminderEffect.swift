/// What the service must do after an event, in order. A `record` always
/// comes before the signal about the same break.
public enum ReminderEffect: Equatable, Sendable {
    /// Append this record to the history, durably, before going on.
    case record(BreakRecord)
    /// A reminder goes out now: emit `BreakDue` and show the notification.
    /// Never emitted for a reminder held by `DndPolicy.defer`; emitted when the hold ends.
    case breakDue(at: Timestamp)
    /// A countdown started: emit `BreakStarted`.
    case breakStarted(ends: Timestamp)
    /// A countdown ran to its end: emit `BreakCompleted`.
    case breakCompleted(at: Timestamp)
    /// A break was skipped (by `Skip`): emit `BreakSkipped`.
    case breakSkipped(at: Timestamp)
    /// A reminder was left unanswered for a whole interval: emit `BreakMissed`.
    case breakMissed(at: Timestamp)
    /// A reminder was snoozed: emit `BreakSnoozed`.
    case breakSnoozed(until: Timestamp)
}
