import Localization
/// What the do-not-disturb state of the desktop does to reminders.
public enum DndPolicy: String, Sendable, CaseIterable {
    /// No reminders while DND is on; a full interval starts when it ends.
    case pause
    /// The schedule keeps counting; a reminder due during DND is held until it ends.
    case `defer`
    /// DND changes nothing.
    case ignore
}

/// What a call, a screen share or a video playing does to reminders.
public enum BusyPolicy: String, Sendable, CaseIterable {
    /// The schedule keeps counting; a reminder due while busy is held and
    /// goes out a short grace period after the busy state ends.
    case `defer`
    /// No reminders while busy; a full interval starts when it ends.
    case pause
    /// Being busy changes nothing (it still never counts as a break).
    case ignore
}

/// The person's settings, always valid: every mutation goes through `set`.
public struct Settings: Equatable, Sendable {
    /// Seconds between breaks (900–2700).
    public private(set) var interval: UInt32 = 1200
    /// Seconds a break lasts (10–30).
    public private(set) var breakDuration: UInt32 = 20
    /// Seconds a snooze postpones a reminder by default (60–1800).
    public private(set) var snoozeDuration: UInt32 = 300
    /// Local hours in which reminders go out; nil means always.
    public private(set) var activeHours: ActiveHours? = nil
    /// Reminders only Monday to Friday.
    public private(set) var weekdaysOnly: Bool = false
    /// What do-not-disturb does.
    public private(set) var dndPolicy: DndPolicy = .pause
    /// Sounds on reminders and at the end of a break.
    public private(set) var sound: Bool = true
    /// What a call, a screen share or a video playing does.
    public private(set) var busyPolicy: BusyPolicy = .defer
    /// The ring in the panel (a StatusNotifierItem) while a panel shows such items.
    public private(set) var statusItem: Bool = true
    /// A tap on each paired phone (KDE Connect, GSConnect) with each reminder.
    public private(set) var phoneReminders: Bool = false
    /// Reminders go out over a full-screen window, urgent where the desktop shows only such (GNOME Shell
    /// over one; Plasma always), instead of waiting as `BusyPolicy` says.
    public private(set) var fullScreenReminders: Bool = false

    /// The defaults of `docs/interface.md`.
    public init() {}

    /// The current value of one setting.
    public func value(of key: SettingKey) -> SettingValue {
        switch key {
        case .interval: return .uint(interval)
        case .breakDuration: return .uint(breakDuration)
        case .snoozeDuration: return .uint(snoozeDuration)
        case .activeHours: return .string(activeHours?.description ?? "")
        case .weekdaysOnly: return .bool(weekdaysOnly)
        case .dndPolicy: return .string(dndPolicy.rawValue)
        case .sound: return .bool(sound)
        case .busyPolicy: return .string(busyPolicy.rawValue)
        case .statusItem: return .bool(statusItem)
        case .phoneReminders: return .bool(phoneReminders)
        case .fullScreenReminders: return .bool(fullScreenReminders)
        }
    }

    /// Validates `value` for `key` and stores it; on error nothing changes.
    public mutating func set(_ key: SettingKey, to value: SettingValue) throws(SettingError) {
        switch (key, value) {
        case (.interval, .uint(let v)): interval = try key.checkRange(v)
        case (.breakDuration, .uint(let v)): breakDuration = try key.checkRange(v)
        case (.snoozeDuration, .uint(let v)): snoozeDuration = try key.checkRange(v)
        case (.activeHours, .string(let s)):
            if s.isEmpty { activeHours = nil; return }
            guard let hours = ActiveHours(s) else {
                if ActiveHours.startEqualsEnd(s) {
                    throw SettingError(key: key, reason: tr("ActiveHours cannot start and end at the same time; leave it empty to be reminded at any hour."))
                }
                throw SettingError(key: key, reason: key.allowed)
            }
            activeHours = hours
        case (.weekdaysOnly, .bool(let b)): weekdaysOnly = b
        case (.dndPolicy, .string(let s)):
            guard let p = DndPolicy(rawValue: s) else { throw SettingError(key: key, reason: key.allowed) }
            dndPolicy = p
        case (.sound, .bool(let b)): sound = b
        case (.busyPolicy, .string(let s)):
            guard let p = BusyPolicy(rawValue: s) else { throw SettingError(key: key, reason: key.allowed) }
            busyPolicy = p
        case (.statusItem, .bool(let b)): statusItem = b
        case (.phoneReminders, .bool(let b)): phoneReminders = b
        case (.fullScreenReminders, .bool(let b)): fullScreenReminders = b
        default:
            throw SettingError(key: key, reason: tr("%s takes a value of type '%s'.", key.name, key.signature))
        }
    }

    /// A copy with one setting changed.
    public func setting(_ key: SettingKey, to value: SettingValue) throws(SettingError) -> Settings {
        var copy = self
        try copy.set(key, to: value)
        return copy
    }
}

/// A value of a setting as it travels on D-Bus (`u`, `s` or `b`).
public enum SettingValue: Equatable, Sendable, CustomStringConvertible {
    case uint(UInt32)
    case string(String)
    case bool(Bool)

    public var description: String {
        switch self {
        case .uint(let v): return String(v)
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

/// The settings by name: `Interval`, `BreakDuration`, … as on D-Bus and in the config file.
public enum SettingKey: String, CaseIterable, Sendable {
    case interval = "Interval"
    case breakDuration = "BreakDuration"
    case snoozeDuration = "SnoozeDuration"
    case activeHours = "ActiveHours"
    case weekdaysOnly = "WeekdaysOnly"
    case dndPolicy = "DndPolicy"
    case sound = "Sound"
    case busyPolicy = "BusyPolicy"
    case statusItem = "StatusItem"
    case phoneReminders = "PhoneReminders"
    case fullScreenReminders = "FullScreenReminders"

    /// The D-Bus property name.
    public var name: String { rawValue }

    /// Finds a key by name, ignoring case (config files and the CLI).
    public init?(name: String) {
        let lower = name.lowercased()
        guard let key = SettingKey.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = key
    }

    /// The D-Bus type signature of the value.
    public var signature: String {
        switch self {
        case .interval, .breakDuration, .snoozeDuration: return "u"
        case .activeHours, .dndPolicy, .busyPolicy: return "s"
        case .weekdaysOnly, .sound, .statusItem, .phoneReminders, .fullScreenReminders: return "b"
        }
    }

    /// The inclusive range of a duration setting, in seconds.
    public var range: ClosedRange<UInt32>? {
        switch self {
        case .interval: return 900...2700
        case .breakDuration: return 10...30
        case .snoozeDuration: return 60...1800
        default: return nil
        }
    }

    /// One sentence saying what values are allowed, in the person's language.
    public var allowed: String { translated(allowedInEnglish) }

    /// The same sentence as written, for the interface's documentation.
    public var allowedInEnglish: String {
        switch self {
        case .interval: return trLater("Interval must be between 900 and 2700 seconds (15–45 min).")
        case .breakDuration: return trLater("BreakDuration must be between 10 and 30 seconds.")
        case .snoozeDuration: return trLater("SnoozeDuration must be between 60 and 1800 seconds (1–30 min).")
        case .activeHours: return trLater("ActiveHours must be empty (always) or HH:MM-HH:MM, for example 09:00-17:30.")
        case .weekdaysOnly: return trLater("WeekdaysOnly must be true or false.")
        case .dndPolicy: return trLater("DndPolicy must be one of pause, defer or ignore.")
        case .sound: return trLater("Sound must be true or false.")
        case .busyPolicy: return trLater("BusyPolicy must be one of defer, pause or ignore.")
        case .statusItem: return trLater("StatusItem must be true or false.")
        case .phoneReminders: return trLater("PhoneReminders must be true or false.")
        case .fullScreenReminders: return trLater("FullScreenReminders must be true or false.")
        }
    }

    func checkRange(_ v: UInt32) throws(SettingError) -> UInt32 {
        guard let r = range, r.contains(v) else { throw SettingError(key: self, reason: allowed) }
        return v
    }

    /// Reads a value written by a person (config file, CLI): durations as
    /// `90`, `90s`, `20m` or `1h30m`; booleans as true/false/yes/no/on/off/1/0.
    /// Range checks are left to `Settings.set`.
    public func parse(text raw: String) throws(SettingError) -> SettingValue {
        let text = raw.trimmingSpaces
        switch signature {
        case "u":
            guard let seconds = DurationText.seconds(text) else {
                throw SettingError(key: self, reason: tr("'%s' is not a duration; write seconds or a value like 90s, 20m or 1h30m.", text))
            }
            return .uint(seconds)
        case "b":
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: throw SettingError(key: self, reason: allowed)
            }
        default:
            return .string(self == .dndPolicy || self == .busyPolicy ? text.lowercased() : text)
        }
    }
}

/// A rejected setting: which one and one sentence on what is allowed.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    public let key: SettingKey
    public let reason: String
    public init(key: SettingKey, reason: String) { self.key = key; self.reason = reason }
    public var description: String { reason }
}

extension String {
    /// The string without leading and trailing spaces and tabs (no Foundation here).
    public var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeLast() }
        return String(s)
    }
}
