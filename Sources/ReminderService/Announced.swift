import ReminderCore
import Busy
import DesktopReport
import Sound

/// What the watchers last reported. Each watcher's callback writes its field here and asks for the
/// one pass (`Daemon.report`); nothing else keeps a copy of what they said.
struct Facts: Equatable {
    /// The desktop as the watchers found it (the notification server, do-not-disturb's providers,
    /// the sources of time away and of calls, the ring's place, how icared is started and sandboxed):
    /// what `Capabilities` says. Its settings', sounds', phones' and limits' parts come from `Announced`.
    var desktop = DesktopFacts()
    /// The busy monitor's state, before `FullScreenReminders` decides what of it holds reminders back.
    var busy = BusyState.free
    /// A full-screen window hides all but urgent notifications (the busy monitor says so apart from `busy`).
    var fullScreen = false
    /// The do-not-disturb provider that turned on last, while do-not-disturb is on.
    var doNotDisturbSource = ""
    /// GNOME's own eyesight breaks are on.
    var desktopEyeBreaks = false
    /// The desktop's event sounds are on, as the sounds last heard it; nil until the sounds start
    /// (until then icared is the one to play them).
    var desktopSounds: Bool?
    /// The notification server plays `sound-name` itself.
    var serverPlaysSound = false
    /// The phones as `Phones` lists them, and what they ask of the notifier after a reminder.
    var phones: [String] = []
    var notificationPhones = NotificationPhones()
    /// The config file's lines that could not be used, as the log words them.
    var configProblems: [String] = []
    /// What cannot work now in the sandbox, and every limit that ever applied (each is logged once, then).
    var sandboxLimits: Set<String> = []
    var sandboxLimitsSeen: Set<String> = []
}

/// Everything icared shows on `org.icare.Reminder` that can change: the engine's status and settings,
/// and what the watchers reported, in the interface's words. One function makes it
/// (`init(status:settings:facts:)`); after each change the daemon makes it once, compares it with the
/// value it announced last and sends one `PropertiesChanged` with what differs
/// (`ReminderInterface.changes`); the interface reads the properties from it.
struct Announced: Equatable, Sendable {
    var status: ReminderStatus
    var settings: Settings
    /// `Busy`, `BusySource`, `BusyReason`: what of the busy state holds reminders back.
    var busy: BusyState
    var doNotDisturbSource: String
    var desktopEyeBreaks: Bool
    /// `SoundPlayedBy`: notification-server, icared or none.
    var soundPlayedBy: String
    /// `Phones`: "Pixel 7 (KDE Connect)".
    var phones: [String]
    var configProblems: [String]
    /// `SandboxLimits`, in the documented order.
    var sandboxLimits: [String]
    var capabilities: [Capability]

    init(status: ReminderStatus, settings: Settings, facts: Facts) {
        self.status = status
        self.settings = settings
        busy = Announced.held(facts.busy, settings)
        doNotDisturbSource = status.doNotDisturb ? facts.doNotDisturbSource : ""
        desktopEyeBreaks = facts.desktopEyeBreaks
        soundPlayedBy = SoundWay(sound: settings.sound, desktopAllows: facts.desktopSounds ?? true,
                                 serverPlays: facts.desktopSounds != nil && facts.serverPlaysSound).rawValue
        phones = facts.phones
        configProblems = facts.configProblems
        sandboxLimits = Announced.sandboxLimitOrder.filter(facts.sandboxLimits.contains)
        var desktop = facts.desktop
        desktop.sound = settings.sound
        desktop.soundPlayedBy = soundPlayedBy
        desktop.phoneReminders = settings.phoneReminders
        desktop.phones = phones
        desktop.sandboxLimits = sandboxLimits
        capabilities = desktop.capabilities
    }

    /// What of the busy monitor's state holds reminders back: all of it, but a full-screen window
    /// while `FullScreenReminders` is on (the reminder then goes out urgent, see `Notifier`).
    static func held(_ state: BusyState, _ settings: Settings) -> BusyState {
        state.source == BusyState.fullScreen && settings.fullScreenReminders ? .free : state
    }

    static let sandboxLimitOrder = ["gnome-keys", "sleep", "lock", "phone-commands", "phone-commands-restart", "autostart"]
}
