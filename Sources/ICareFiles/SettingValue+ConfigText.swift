import ReminderCore

extension SettingValue {
    /// How the config file writes this value of `key`: durations in a human
    /// form that reads back to the same seconds (`20m`, `90s`, `1h30m`),
    /// booleans as `true`/`false`, strings as they are.
    func configText(for key: SettingKey) -> String {
        switch self {
        case .uint(let seconds): return key.range != nil ? DurationText.format(seconds) : String(seconds)
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return text
        }
    }
}
