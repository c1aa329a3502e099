import DBusKit
import ReminderCore
import Localization

/// What the service reports about itself: its read-only properties and the
/// settings, as last read with `GetAll` and updated by `PropertiesChanged`.
public struct ServiceStatus: Equatable, Sendable {
    public var state = "waiting"
    public var pauseReason = ""
    public var nextBreak: Timestamp = 0
    public var breakEnds: Timestamp = 0
    public var pausedUntil: Timestamp = 0
    public var completedToday: UInt32 = 0
    public var skippedToday: UInt32 = 0
    /// Reminders left unanswered today (`MissedToday`; 0 from a service before 0.6).
    public var missedToday: UInt32 = 0
    public var doNotDisturb = false
    public var doNotDisturbSource = ""
    /// In a call, a screen share or a video (`Busy`, `BusySource`, `BusyReason`).
    public var busy = false
    public var busySource = ""
    public var busyReason = ""
    /// GNOME's own eyesight breaks are on too (`DesktopEyeBreaks`).
    public var desktopEyeBreaks = false
    /// Who plays the sounds (`SoundPlayedBy`: notification-server, icared, none; "" from an older service).
    public var soundPlayedBy = ""
    public var version = ""
    /// How many times faster than real time the service's schedule runs
    /// (`icared --time-scale`); 1 when it does not say.
    public var timeScale: UInt32 = 1
    /// The config file's lines the service could not use (`ConfigProblems`).
    public var configProblems: [String] = []
    /// The phones the service can remind (`Phones`: "Pixel 7 (KDE Connect)").
    public var phones: [String] = []
    /// What cannot work in the Flatpak sandbox now (`SandboxLimits`: "gnome-keys", …).
    public var sandboxLimits: [String] = []
    /// What the service can see on this desktop (`Capabilities`: name, state, words); [] from a service before 0.6.
    public var capabilities: [ReportedCapability] = []
    /// The settings by D-Bus name (`Interval` → `.uint(1200)`).
    public var settings: [SettingKey: SettingValue] = [:]
    /// Which icared keeps the person's breaks when it is not the one on this bus
    /// (`KeptBy`: another login's); "" when this one keeps them.
    public var keptBy = ""

    public init() {}

    /// From a `GetAll` reply.
    public init(properties: [String: DBusValue]) {
        apply(properties)
    }

    /// Takes the values present in `changes` (a `GetAll` reply or the changed
    /// part of `PropertiesChanged`); unknown names and types are ignored.
    public mutating func apply(_ changes: [String: DBusValue]) {
        for (name, value) in changes {
            switch name {
            case "State": state = value.string ?? state
            case "PauseReason": pauseReason = value.string ?? pauseReason
            case "NextBreak": nextBreak = value.uint64.map(Timestamp.init(clamping:)) ?? nextBreak
            case "BreakEnds": breakEnds = value.uint64.map(Timestamp.init(clamping:)) ?? breakEnds
            case "PausedUntil": pausedUntil = value.uint64.map(Timestamp.init(clamping:)) ?? pausedUntil
            case "CompletedToday": completedToday = value.uint32 ?? completedToday
            case "SkippedToday": skippedToday = value.uint32 ?? skippedToday
            case "MissedToday": missedToday = value.uint32 ?? missedToday
            case "DoNotDisturb": doNotDisturb = value.bool ?? doNotDisturb
            case "DoNotDisturbSource": doNotDisturbSource = value.string ?? doNotDisturbSource
            case "Busy": busy = value.bool ?? busy
            case "BusySource": busySource = value.string ?? busySource
            case "BusyReason": busyReason = value.string ?? busyReason
            case "DesktopEyeBreaks": desktopEyeBreaks = value.bool ?? desktopEyeBreaks
            case "SoundPlayedBy": soundPlayedBy = value.string ?? soundPlayedBy
            case "Version": version = value.string ?? version
            case "KeptBy": keptBy = value.string ?? keptBy
            case "TimeScale": timeScale = value.uint32.map { max(1, $0) } ?? timeScale
            case "ConfigProblems":
                if case .array(_, let items) = value.unwrapped { configProblems = items.compactMap(\.string) }
            case "Phones":
                if case .array(_, let items) = value.unwrapped { phones = items.compactMap(\.string) }
            case "SandboxLimits":
                if case .array(_, let items) = value.unwrapped { sandboxLimits = items.compactMap(\.string) }
            case "Capabilities":
                if let items = value.array { capabilities = items.compactMap(ReportedCapability.init) }
            default:
                if let key = SettingKey(rawValue: name), let v = SettingValue(dbus: value) { settings[key] = v }
            }
        }
    }

    /// Whether each reminder also taps the phones (`PhoneReminders`; off when unknown).
    public var phoneReminders: Bool { settings[.phoneReminders] == .bool(true) }
    /// Whether reminders go out over a full-screen window (`FullScreenReminders`; off when unknown).
    public var fullScreenReminders: Bool { settings[.fullScreenReminders] == .bool(true) }

    /// The interval between breaks in seconds (the default when unknown).
    public var interval: UInt32 {
        if case .uint(let v)? = settings[.interval] { return v }
        return 1200
    }

    /// How long an interval really lasts under the time scale, in whole
    /// seconds (at least 1): what a countdown to `NextBreak` is a part of.
    public var realInterval: UInt32 {
        max(1, (interval + timeScale - 1) / timeScale)
    }

    /// The configured length of a break in seconds (the default when unknown).
    public var breakDuration: UInt32 {
        if case .uint(let v)? = settings[.breakDuration] { return v }
        return 20
    }
}

extension SettingValue {
    /// A setting's value from the wire (`u`, `s` or `b`), or nil for another type.
    package init?(dbus value: DBusValue) {
        switch value.unwrapped {
        case .uint32(let v): self = .uint(v)
        case .string(let s): self = .string(s)
        case .bool(let b): self = .bool(b)
        default: return nil
        }
    }

    /// The D-Bus value to send.
    package var dbus: DBusValue {
        switch self {
        case .uint(let v): return .uint32(v)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        }
    }
}

extension ServiceStatus {
    /// Today's breaks in words (`TallyText`).
    public var todayWords: String {
        TallyText.counts(completed: Int(completedToday), skipped: Int(skippedToday), missed: Int(missedToday))
    }

    /// Whether another icared keeps the breaks: the one on this bus shows nothing else.
    public var isKeptElsewhere: Bool { !keptBy.isEmpty }

    /// Where the breaks are kept, as icared's refusals say it.
    public var keptElsewhereSentence: String { KeptElsewhereText.sentence(keptBy: keptBy) }
}
