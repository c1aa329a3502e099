import Localization

/// The words of the reminder's actions, one text each wherever a person
/// presses them: the ring's menu in the panel and the app's buttons.
public enum ActionTexts {
    public static var startBreak: String { tr("Start break now") }
    public static func snooze(seconds: UInt32) -> String {
        // TRANSLATORS: a menu item; min is minutes.
        seconds % 60 == 0 ? tr("Snooze %d min", seconds / 60) : tr("Snooze %d s", seconds)
    }
    public static var skip: String { tr("Skip this break") }
    public static var pause30: String { tr("Pause for 30 min") }
    public static var pause60: String { tr("Pause for 1 hour") }
    public static var pauseUntilResumed: String { tr("Pause until resumed") }
    public static var resume: String { tr("Resume") }
}
