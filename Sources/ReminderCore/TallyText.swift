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

/// Where the person's breaks are kept when another icared keeps them (one
/// icared per person): the sentence of icared's `KeptElsewhere` refusal, and
/// what `icarectl` and the app show, one text for all three.
public enum KeptElsewhereText {
    public static func sentence(keptBy: String) -> String {
        // TRANSLATORS: a D-Bus refusal and icarectl's answer when another icared keeps the breaks; %s is keptBy's words.
        tr("Another iCare keeps your breaks: %s. This one takes over when that one stops.", keptBy)
    }
}
