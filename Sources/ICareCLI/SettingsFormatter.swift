import ReminderCore

/// Settings as `get` prints them: in the form `set` accepts back.
public enum SettingsFormatter {
    /// `20m`, `true`, `09:00-17:30`, `always`, `defer`.
    public static func text(_ key: SettingKey, _ value: SettingValue) -> String {
        switch (key.signature, value) {
        case ("u", .uint(let v)): return DurationText.format(v)
        case (_, .string(let s)) where key == .activeHours: return s.isEmpty ? "always" : s
        default: return value.description
        }
    }

    /// Every known setting, one per line: `Interval        20m`.
    public static func table(_ settings: [SettingKey: SettingValue]) -> String {
        let width = SettingKey.allCases.map(\.name.count).max()! + 2
        return SettingKey.allCases.compactMap { key in
            settings[key].map { key.name.padding(to: width) + text(key, $0) + "\n" }
        }.joined()
    }

    /// The `get --json` shape: setting names as keys, values with their D-Bus types.
    public static func json(_ settings: [SettingKey: SettingValue], only: SettingKey? = nil) -> JSON {
        .object(SettingKey.allCases.compactMap { key in
            guard only == nil || only == key, let v = settings[key] else { return nil }
            switch v {
            case .uint(let n): return (key.name, .int(Int64(n)))
            case .string(let s): return (key.name, .string(s))
            case .bool(let b): return (key.name, .bool(b))
            }
        })
    }
}
