import ReminderCore
import Localization

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

    static var reminderSummary: String { tr("Time for an eye break") }
    static func reminderBody(breakSeconds: UInt32) -> String {
        trn("Look at something about 6 m (20 ft) away for %d second.",
            "Look at something about 6 m (20 ft) away for %d seconds.", Int(breakSeconds), breakSeconds)
    }
    /// For servers without action buttons.
    static func reminderBodyWithoutButtons(breakSeconds: UInt32) -> String {
        trn("Look at something about 6 m (20 ft) away for %d second. Run 'icarectl start' to count the break.",
            "Look at something about 6 m (20 ft) away for %d seconds. Run 'icarectl start' to count the break.",
            Int(breakSeconds), breakSeconds)
    }
    // TRANSLATORS: a notification button that starts the break countdown.
    static var startLabel: String { tr("Start") }
    /// "Snooze 5 min"; exact when the duration is not whole minutes ("Snooze 1 min 30 s").
    static func snoozeLabel(seconds: UInt32) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        // TRANSLATORS: notification buttons; min and s are the units' short forms.
        if minutes == 0 { return tr("Snooze %d s", rest) }
        return rest == 0 ? tr("Snooze %d min", minutes) : tr("Snooze %d min %d s", minutes, rest)
    }
    // TRANSLATORS: a notification button.
    static var skipLabel: String { tr("Skip") }

    // TRANSLATORS: the countdown notification's title; %d is the seconds left.
    static func countdownSummary(secondsLeft: Int64) -> String { tr("Look far away · %d s", secondsLeft) }
    static var countdownBody: String { tr("Let your eyes rest on something in the distance.") }
    // TRANSLATORS: a button on the countdown notification.
    static var endBreakLabel: String { tr("End break") }

    static var completeSummary: String { tr("Break complete") }
    /// `nextAt` is a clock time in the person's locale.
    static func completeBody(nextAt: String?) -> String {
        if let nextAt { return tr("Well done. Next break at %s.", nextAt) }
        return tr("Well done.")
    }

    /// Sound theme names (freedesktop sound naming spec).
    static let reminderSound = "bell"
    static let completeSound = "complete"
}
