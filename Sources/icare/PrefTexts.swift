import Localization

/// The words of the preferences window: the panel menu's where they exist (same msgids).
enum PrefTexts {
    /// The settings page's name beside "This desktop".
    static var settingsPage: String { tr("Settings") }
    static var title: String { tr("Preferences") }
    static var breaks: String { trc("preferences group", "Breaks") }
    static var interval: String { tr("Break every") }
    static var breakLength: String { tr("Break length") }
    static var snooze: String { tr("Snooze length") }
    // TRANSLATORS: under a setting in the app's preferences: its allowed range.
    static func minutesRange(_ low: Int, _ high: Int) -> String { tr("%d to %d minutes", low, high) }
    static func secondsRange(_ low: Int, _ high: Int) -> String { tr("%d to %d seconds", low, high) }

    static var when: String { trc("preferences group", "When") }
    static var activeHours: String { tr("Only during active hours") }
    static var activeHoursHint: String { tr("May span midnight, such as 22:00 to 06:00") }
    static var from: String { trc("active hours", "From") }
    static var to: String { trc("active hours", "To") }
    static var weekdaysOnly: String { tr("Weekdays only") }
    static var weekdaysHint: String { tr("No reminders on Saturday and Sunday") }

    static var reminders: String { trc("preferences group", "Reminders") }
    static var sound: String { tr("Sound") }
    static var soundHint: String { tr("A soft sound with each reminder") }
    static var panelRing: String { tr("Ring in the panel") }
    static var panelRingHint: String { tr("The time to the next break beside the clock, where the desktop shows status icons") }
    static var phone: String { tr("Remind my phone too") }
    /// Under "Remind my phone too": the phones it taps, or how to link one.
    static func phoneHint(_ phones: [String]) -> String {
        // TRANSLATORS: %s is a list of phones, like "Pixel 7 (KDE Connect)".
        phones.isEmpty ? tr("A tap on your phone with each reminder, through KDE Connect or GSConnect. No phone is linked now.")
            : tr("A tap with each reminder on %s", phones.joined(separator: ", "))
    }

    static var dnd: String { tr("When do not disturb is on") }
    static var busy: String { tr("During a call, a screen share or a video") }
    static var fullScreen: String { tr("Remind over full-screen windows") }
    static var fullScreenHint: String { tr("Show reminders over a game or a slide show instead of holding them back") }
    static var interruptions: String { trc("preferences group", "Do not disturb and calls") }
    /// The service's own words for a policy, on its button.
    static func word(_ word: String) -> String {
        switch word {
        // TRANSLATORS: the policies' words (DndPolicy, BusyPolicy) on the app's buttons.
        case "pause": return trc("policy", "Pause")
        case "defer": return trc("policy", "Defer")
        case "ignore": return trc("policy", "Ignore")
        default: return word
        }
    }
    static func policy(_ word: String) -> String {
        switch word {
        case "pause": return tr("Pause reminders")
        case "defer": return tr("Hold reminders until it ends")
        case "ignore": return tr("Remind as usual")
        default: return word
        }
    }

    static var gnomeTitle: String { tr("GNOME's eyesight breaks") }
    static var problemsTitle: String { tr("Problems in the config file") }
    static var problemsHint: String { tr("A setting with an error keeps its previous value; a change made here replaces the line.") }

    /// `09:30` for minutes since midnight.
    static func time(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}
