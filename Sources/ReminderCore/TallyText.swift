import Localization

/// A day's breaks in words, the same in `icarectl`, the app, the panel's ring
/// and its tooltip: "3 completed, 1 skipped", and ", 2 missed" only when a
/// reminder went unanswered (so a day without one reads as it always did).
/// Skipped is what the person chose (Skip); missed is a reminder nobody
/// answered for a whole interval, which iCare cannot know was seen.
public enum TallyText {
    public static func counts(completed: Int, skipped: Int, missed: Int) -> String {
        missed > 0 ? tr("%d completed, %d skipped, %d missed", completed, skipped, missed)
            : tr("%d completed, %d skipped", completed, skipped)
    }

    /// Today's counts of `status`.
    public static func today(_ status: ReminderStatus) -> String {
        counts(completed: Int(status.completedToday), skipped: Int(status.skippedToday), missed: Int(status.missedToday))
    }
}
