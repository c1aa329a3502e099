import Localization

/// The welcome's words (WelcomeWindow): short, and true of what iCare does.
enum WelcomeTexts {
    static var title: String { tr("Welcome to iCare") }
    static var rule: String {
        tr("Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain.")
    }
    static var scheduleTitle: String { tr("Your breaks") }
    static var scheduleWords: String { tr("Change them here, or later in Preferences.") }
    static var ringTitle: String { tr("The ring") }
    static var phoneTitle: String { tr("Your phone") }
    static var phoneWords: String { tr("With each reminder your phone gets a tap. Its Run command list can start, snooze or skip the break.") }
    static var phoneTapsOnly: String { tr("With each reminder your phone gets a tap.") }
    static var loginTitle: String { tr("Starting at login") }
    // TRANSLATORS: the welcome's button that asks the desktop (the Background portal) to start iCare at login.
    static var allowLogin: String { tr("Start at Login") }
    static var couldNotAsk: String { tr("The desktop did not answer. Try again from Welcome in the main menu.") }
    static var allWorks: String { tr("Everything iCare uses works on this desktop.") }
    static var someMissing: String { tr("iCare reminds you anyway; these do not fully work here.") }
    // TRANSLATORS: the welcome's buttons to go through its pages.
    static var back: String { trc("welcome", "Back") }
    static var next: String { trc("welcome", "Next") }
    static var done: String { trc("welcome", "Done") }
    // TRANSLATORS: the app's menu item that opens the welcome again.
    static var menuItem: String { tr("Welcome") }
    static var menu: String { tr("Main Menu") }
}
