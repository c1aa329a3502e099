/// Something that happened, handed to `ReminderEngine.handle(_:at:)` with the wall-clock time it happened.
public enum ReminderEvent: Sendable, Equatable, CustomStringConvertible {
    /// The deadline the engine asked for (`nextDeadline`) has come. Any
    /// early or repeated delivery is harmless.
    case timer
    /// `StartBreak`.
    case startBreak
    /// `Skip`.
    case skip
    /// `Resume`.
    case resume
    /// `Snooze(seconds)`; 0 means the configured `SnoozeDuration`.
    case snooze(seconds: UInt32)
    /// `Pause(seconds)`; 0 means until `Resume`.
    case pause(seconds: UInt32)
    /// The settings changed (already validated); applied at once.
    case settingsChanged(Settings)
    /// The desktop's do-not-disturb turned on or off.
    case doNotDisturb(Bool)
    /// The screen locked (or the session went inactive) / unlocked.
    case locked(Bool)
    /// The person went idle (`true`; pass the moment idleness *began* as
    /// `at`, e.g. when the idle watch says it started) or came back (`false`).
    case idle(Bool)
    /// logind's `PrepareForSleep`: going to sleep (`true`) / woke up (`false`).
    case sleep(Bool)
    /// The person is in a call, sharing the screen, watching a video or in a
    /// full-screen window the desktop shows no reminder over (`true`), or no
    /// longer (`false`). `grace: false` on the end offers a held reminder at
    /// once (a full screen left), not after `busyGrace` (a call ended).
    case busy(Bool, grace: Bool = true)
    /// The desktop's own break (GNOME's break reminders) was taken and ended
    /// now, after `seconds` of rest: counted as a `natural` break and a full
    /// interval starts, instead of a reminder straight after it.
    case desktopBreak(seconds: UInt32)
    /// The wall clock jumped (NTP step, manual change) or the time zone changed.
    case clockChanged

    /// A short name for logs: `snooze(300)`, `locked(true)`.
    public var description: String {
        switch self {
        case .timer: return "timer"
        case .startBreak: return "startBreak"
        case .skip: return "skip"
        case .resume: return "resume"
        case .snooze(let s): return "snooze(\(s))"
        case .pause(let s): return "pause(\(s))"
        case .settingsChanged: return "settingsChanged"
        case .doNotDisturb(let on): return "doNotDisturb(\(on))"
        case .locked(let on): return "locked(\(on))"
        case .idle(let on): return "idle(\(on))"
        case .sleep(let on): return "sleep(\(on))"
        case .busy(let on, let grace): return grace ? "busy(\(on))" : "busy(\(on), no grace)"
        case .desktopBreak(let s): return "desktopBreak(\(s))"
        case .clockChanged: return "clockChanged"
        }
    }
}
