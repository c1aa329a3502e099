import ReminderCore

/// Every text iCare shows a person, in one place: short, friendly, honest.
/// The 20-20-20 rule relieves eye strain while it is practised; nothing
/// here claims more (no myopia claims).
enum Texts {
    static let appName = "iCare"
    /// The icon and desktop entry installed by `make install`.
    static let iconName = "org.icare.Reminder"
    static let desktopEntry = "org.icare.Reminder"
    /// The notification category (the spec's `x-vendor.class` form for ones it does not list).
    static let category = "x-icare.break"

    static let reminderSummary = "Time for an eye break"
    static func reminderBody(breakSeconds: UInt32) -> String {
        "Look at something about 6 m (20 ft) away for \(breakSeconds) seconds."
    }
    /// For servers without action buttons.
    static func reminderBodyWithoutButtons(breakSeconds: UInt32) -> String {
        reminderBody(breakSeconds: breakSeconds) + " Run 'icarectl start' to count the break."
    }
    static let startLabel = "Start"
    /// "Snooze 5 min"; exact when the duration is not whole minutes ("Snooze 1 min 30 s").
    static func snoozeLabel(seconds: UInt32) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        if minutes == 0 { return "Snooze \(rest) s" }
        return rest == 0 ? "Snooze \(minutes) min" : "Snooze \(minutes) min \(rest) s"
    }
    static let skipLabel = "Skip"

    static func countdownSummary(secondsLeft: Int64) -> String { "Look far away · \(secondsLeft) s" }
    static let countdownBody = "Let your eyes rest on something in the distance."
    static let endBreakLabel = "End break"

    static let completeSummary = "Break complete"
    static func completeBody(nextAt: String?) -> String {
        if let nextAt { return "Well done. Next break at \(nextAt)." }
        return "Well done."
    }

    // icared's own messages on the terminal and in the log.

    /// `--time-scale` or `ICARE_TIME_SCALE` with a bad value (`option` names which; nil: no value given).
    static func badTimeScale(option: String, value: String?) -> String {
        guard let value else { return "icared: \(option) needs a whole number from 1 to 3600. Try 'icared --help'." }
        return "icared: \(option) takes a whole number from 1 to 3600, not '\(value)'. Try 'icared --help'."
    }
    /// Logged at start when a time scale is in effect.
    static func timeScaleInEffect(factor: UInt32) -> String {
        "Time scale \(factor): the time between breaks passes \(factor) times faster than the settings say (a demo and test aid); breaks last their real length."
    }

    // Where no notification server runs, the cycle goes to the log instead
    // (`icared --log-stderr` shows it on the terminal): the notifications' words.

    /// A reminder, logged.
    static func reminderInLog(breakSeconds: UInt32) -> String {
        "Time for an eye break: look at something about 6 m (20 ft) away for \(breakSeconds) seconds. Run 'icarectl start' to count the break."
    }
    /// A break's countdown began, logged.
    static func breakStartedInLog(secondsLeft: Int64) -> String {
        "Break started: look far away for \(secondsLeft) seconds and let your eyes rest on something in the distance."
    }
    /// A break ran to its end, logged (`nextAt`: the next break's local time, if any).
    static func breakCompleteInLog(nextAt: String?) -> String {
        if let nextAt { return "Break complete. Well done. Next break at \(nextAt)." }
        return "Break complete. Well done."
    }

    /// Sound theme names (freedesktop sound naming spec).
    static let reminderSound = "bell"
    static let completeSound = "complete"
}
