import ReminderCore
import Localization
import ICareFiles
import PhoneRemote

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
        trn("Look at something 20 feet (6 m) away for %d second.",
            "Look at something 20 feet (6 m) away for %d seconds.", Int(breakSeconds), breakSeconds)
    }
    /// For servers without action buttons.
    static func reminderBodyWithoutButtons(breakSeconds: UInt32) -> String {
        trn("Look at something 20 feet (6 m) away for %d second. Run 'icarectl start' to count the break.",
            "Look at something 20 feet (6 m) away for %d seconds. Run 'icarectl start' to count the break.",
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
    // TRANSLATORS: the break's notification where it is not updated each second (GNOME Shell 49 and later); %d is the break's seconds.
    static func breakSummary(seconds: Int64) -> String { tr("Look far away for %d s", seconds) }
    static var countdownBody: String { tr("Let your eyes rest on something in the distance.") }
    // TRANSLATORS: a button on the countdown notification.
    static var endBreakLabel: String { tr("End break") }

    static var completeSummary: String { tr("Break complete") }
    /// `nextAt` is a clock time in the person's locale.
    static func completeBody(nextAt: String?) -> String {
        if let nextAt { return tr("Well done. Next break at %s.", nextAt) }
        return tr("Well done.")
    }

    // The first start's notice (Notifier+Brief): once per person, with a button that opens the app.
    static var welcomeSummary: String { tr("iCare is on") }
    /// `clock`: the first break's local time.
    static func welcomeBody(clock: String, breakSeconds: UInt32) -> String {
        trn("First eye break at %s: then look at something 20 feet (6 m) away for %d second.",
            "First eye break at %s: then look at something 20 feet (6 m) away for %d seconds.",
            Int(breakSeconds), clock, breakSeconds)
    }
    // TRANSLATORS: a button on the first start's notice; it opens iCare's window.
    static var openAppLabel: String { tr("Open iCare") }

    /// The ping a phone gets with a reminder (KDE Connect and GSConnect show it as a notification of theirs).
    /// `fromPhone`: the phone offers iCare's commands (KDE Connect's Run command), and the ping says so.
    static func phoneReminder(breakSeconds: UInt32, fromPhone: Bool) -> String {
        let reminder = trn("iCare: time for an eye break. Look at something 20 feet (6 m) away for %d second.",
                           "iCare: time for an eye break. Look at something 20 feet (6 m) away for %d seconds.",
                           Int(breakSeconds), breakSeconds)
        return fromPhone ? reminder + " " + tr("Start it from your phone under Run command.") : reminder
    }
    /// iCare's entries in a phone's Run command list.
    static var phoneCommandNames: PhoneCommandNames {
        PhoneCommandNames(start: tr("Start eye break"), snooze: tr("Snooze eye break"), skip: tr("Skip eye break"),
                          pause: tr("Pause eye breaks for an hour"), resume: tr("Resume eye breaks"))
    }

    // icared's own messages on the terminal and in the log.

    /// `--time-scale` or `ICARE_TIME_SCALE` with a bad value (`option` names which; nil: no value given).
    static func badTimeScale(option: String, value: String?) -> String {
        guard let value else { return tr("icared: %s needs a whole number from 1 to 3600. Try 'icared --help'.", option) }
        return tr("icared: %s takes a whole number from 1 to 3600, not '%s'. Try 'icared --help'.", option, value)
    }
    /// `icared --bad-option`.
    static func unknownOption(_ option: String) -> String {
        tr("icared: unknown option '%s'. Try 'icared --help'.", option)
    }
    /// Logged at start when a time scale is in effect (the journal stays in English).
    static func timeScaleInEffect(factor: UInt32) -> String {
        "Time scale \(factor): the time between breaks passes \(factor) times faster than the settings say (a demo and test aid); breaks last their real length."
    }

    // Where no notification server runs, the cycle goes to the log instead
    // (`icared --log-stderr` shows it on the terminal): the notifications' words.

    /// A reminder, logged.
    static func reminderInLog(breakSeconds: UInt32) -> String {
        trn("Time for an eye break: look at something 20 feet (6 m) away for %d second. Run 'icarectl start' to count the break.",
            "Time for an eye break: look at something 20 feet (6 m) away for %d seconds. Run 'icarectl start' to count the break.",
            Int(breakSeconds), breakSeconds)
    }
    /// A break's countdown began, logged.
    static func breakStartedInLog(secondsLeft: Int64) -> String {
        trn("Break started: look far away for %d second and let your eyes rest on something in the distance.",
            "Break started: look far away for %d seconds and let your eyes rest on something in the distance.",
            Int(secondsLeft), secondsLeft)
    }
    /// A break ran to its end, logged (`nextAt`: the next break's local time, if any).
    static func breakCompleteInLog(nextAt: String?) -> String {
        if let nextAt { return tr("Break complete. Well done. Next break at %s.", nextAt) }
        return tr("Break complete. Well done.")
    }

    // One icared per person (Standby): what an icared that defers says of the one that keeps the schedule.

    /// `KeptBy`: the icared holding the lock, in words; nil: its lock file says nothing readable.
    static func keptBy(_ h: Holder?) -> String {
        guard let h else { return tr("another icared") }
        if h.session.isEmpty {
            // TRANSLATORS: which icared keeps the schedule; %d is its process id, %s the computer's name.
            return tr("icared (process %d) on %s", h.pid, h.host)
        }
        // TRANSLATORS: which icared keeps the schedule; %d its process id, %s the computer's name, the last %s a login session's number.
        return tr("icared (process %d) on %s, login session %s", h.pid, h.host, h.session)
    }
    /// The same for the journal (in English).
    static func keptByInLog(_ h: Holder?) -> String {
        guard let h else { return "another icared" }
        return "icared (process \(h.pid)) on \(h.host)" + (h.session.isEmpty ? "" : ", login session \(h.session)")
    }

    /// `icared --help`.
    static var usage: String {
        tr("Usage: icared [--log-stderr] [--debug] [--time-scale N]\n       icared --help | --version\n\nThe iCare eye-break reminder service. It reminds you to look at something\n20 feet (6 m) away for 20 seconds every 20 minutes. It starts by itself\nwhen the app, the ring or icarectl first needs it, or with systemd\n(systemctl --user start icared); control it with icarectl.\n\nOptions:\n  --log-stderr    log to standard error instead of the journal\n  --debug         log debug messages too\n  --time-scale N  run the schedule N times faster (1-3600), a demo and\n                  test aid: at 60 a 20-minute interval passes in 20 s;\n                  breaks keep their real length. Also ICARE_TIME_SCALE=N.\n  --help          show this help and exit\n  --version       show the version and exit\n\nFiles: $XDG_CONFIG_HOME/icare/config (settings),\n       $XDG_STATE_HOME/icare/ (history and schedule state)\n")
    }

    /// Sound theme names (freedesktop sound naming spec).
    static let reminderSound = "bell"
    static let completeSound = "complete"
}
