/// The `State` property of `org.icare.Reminder`.
public enum ReminderState: String, Sendable, CaseIterable {
    /// Counting down to the next break (`NextBreak`).
    case waiting
    /// The reminder is out; waiting for the person to start, snooze or skip.
    case due
    /// A break's countdown is running (`BreakEnds`).
    case `break`
    /// A reminder was snoozed; it comes back at `NextBreak`.
    case snoozed
    /// No reminders; `PauseReason` says why.
    case paused
    /// Outside the active hours, or a weekend day in weekdays-only mode.
    case inactive
}
