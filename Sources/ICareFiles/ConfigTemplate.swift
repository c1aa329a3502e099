import ReminderCore

/// The commented config file iCare creates when there is none: a short
/// explanation of each key, its allowed values and its default, with every
/// key commented out except the one being set.
enum ConfigTemplate {
    /// The template with `key` set to `text` (already in config form).
    static func text(setting key: SettingKey, to text: String) -> String {
        var out = header
        for each in SettingKey.allCases {
            out += "\n" + explanation(of: each).map { "# " + $0 + "\n" }.joined()
            out += each == key ? "\(each.name) = \(text)\n" : "#\(each.name) = \(example(of: each))\n"
        }
        return out
    }

    private static let header = """
        # iCare settings: reminders for the 20-20-20 rule (every 20 minutes,
        # look at something 20 feet (6 m) away for 20 seconds).
        #
        # One setting per line, `Key = value`; keys ignore case. Lines starting
        # with # or ; are comments. Durations are seconds, or written like 20m,
        # 90s or 1h30m. Remove a line to get its default back. icared applies
        # changes to this file as soon as it is saved.

        """

    private static func explanation(of key: SettingKey) -> [String] {
        let value = Settings().value(of: key).configText(for: key)
        switch key {
        case .interval:
            return ["Time between breaks, \(range(key)). Default: \(value)."]
        case .breakDuration:
            return ["Length of a break, \(range(key)). Default: \(value)."]
        case .snoozeDuration:
            return ["How long Snooze puts a reminder off, \(range(key)). Default: \(value)."]
        case .activeHours:
            return ["Local hours for reminders, HH:MM-HH:MM (an end before the start",
                    "spans midnight); empty means all day. Default: empty."]
        case .weekdaysOnly:
            return ["Reminders only Monday to Friday: true or false. Default: \(value)."]
        case .dndPolicy:
            return ["When the desktop is in do-not-disturb: pause (no reminders; a full",
                    "interval after it ends), defer (keep counting; a reminder that falls",
                    "due is shown when it ends) or ignore. Default: \(value)."]
        case .sound:
            return ["Sounds with reminders and at the end of a break: true or false. Default: \(value)."]
        case .busyPolicy:
            return ["In a call, a screen share or a full-screen video: defer (keep counting;",
                    "a reminder that falls due is shown two minutes after it ends), pause",
                    "(no reminders; a full interval after it ends) or ignore. Default: \(value)."]
        case .statusItem:
            return ["The ring in the panel (KDE, XFCE, waybar, GNOME with AppIndicator):",
                    "true or false. Default: \(value)."]
        case .phoneReminders:
            return ["A tap on each paired phone (KDE Connect, GSConnect) with each reminder:",
                    "true or false. Default: \(value)."]
        case .fullScreenReminders:
            return ["Reminders over a full-screen window (a game, a slide show) instead of",
                    "waiting as BusyPolicy says: true or false. Default: \(value)."]
        }
    }

    /// The commented-out example line's value: the default, or a sample where the default is empty.
    private static func example(of key: SettingKey) -> String {
        key == .activeHours ? "09:00-17:30" : Settings().value(of: key).configText(for: key)
    }

    private static func range(_ key: SettingKey) -> String {
        guard let range = key.range else { return "" }
        return "\(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound))"
    }
}
