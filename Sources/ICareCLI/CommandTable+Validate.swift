import ReminderCore
import Localization

// Validation: parsed words → `Command`, or a usage error with one sentence.
// Pure, and separate from running (nothing here talks to the service).
extension CommandTable {
    static func validateStatus(_ p: ParsedArguments) throws(CLIError) -> Command {
        var format = StatusFormat.text
        if let f = p.values["format"] {
            guard let parsed = StatusFormat(rawValue: f.lowercased()) else {
                throw .usage(tr("'%s' is not a format; use text, plain, waybar or json.", f)
                    + Suggestion.phrase(f, among: StatusFormat.allCases.map(\.rawValue)), command: "status")
            }
            format = parsed
        }
        if p.flags.contains("json") {
            if p.values["format"] != nil, format != .json {
                throw .usage(tr("--json and --format %s cannot be used together.", format.rawValue), command: "status")
            }
            format = .json
        }
        return .status(StatusOptions(format: format, follow: p.flags.contains("follow")))
    }

    static func duration(_ text: String, for command: String) throws(CLIError) -> UInt32 {
        guard let seconds = DurationText.seconds(text) else {
            throw .usage(tr("'%s' is not a duration; write a value like 90s, 5m or 1h30m.", text), command: command)
        }
        guard seconds > 0 else { throw .usage(tr("The duration must be longer than 0 seconds."), command: command) }
        return seconds
    }

    /// `snooze 0` is what `Snooze(0)` is on D-Bus: the configured SnoozeDuration.
    static func validateSnooze(_ p: ParsedArguments) throws(CLIError) -> Command {
        guard let text = p.positionals.first else { return .snooze(seconds: 0) }
        if DurationText.seconds(text) == 0 { return .snooze(seconds: 0) }
        return .snooze(seconds: try duration(text, for: "snooze"))
    }

    static func validatePause(_ p: ParsedArguments) throws(CLIError) -> Command {
        let words = p.positionals
        if words.isEmpty { return .pause(.untilResumed) }
        if words[0].lowercased() == "toggle" {
            guard words.count == 1 else { throw .usage(tr("Unexpected '%s'; write 'pause toggle' alone.", words[1]), command: "pause") }
            return .pauseToggle
        }
        if words[0].lowercased() == "until" {
            guard words.count == 2 else { throw .usage(tr("Say until when, as a 24-hour time: pause until 17:30."), command: "pause") }
            guard let t = TimeOfDay(words[1]) else {
                throw .usage(tr("'%s' is not a time; write HH:MM on the 24-hour clock, e.g. 17:30.", words[1]), command: "pause")
            }
            return .pause(.until(t))
        }
        guard words.count == 1 else { throw .usage(tr("Unexpected '%s'; write 'pause DURATION' or 'pause until HH:MM'.", words[1]), command: "pause") }
        return .pause(.seconds(try duration(words[0], for: "pause")))
    }

    static func validateHistory(_ p: ParsedArguments) throws(CLIError) -> Command {
        guard !(p.flags.contains("json") && p.flags.contains("csv")) else {
            throw .usage(tr("Give either --json or --csv, not both."), command: "history")
        }
        let output: HistoryOutput = p.flags.contains("json") ? .json : p.flags.contains("csv") ? .csv : .text
        if let d = p.values["days"] {
            guard p.positionals.isEmpty else { throw .usage(tr("Give either a day or --days N, not both."), command: "history") }
            guard let n = Int(d), (1...366).contains(n) else {
                throw .usage(tr("--days takes a number of days from 1 to 366, not '%s'.", d), command: "history")
            }
            return .history(.days(n), output: output)
        }
        guard let word = p.positionals.first else { return .history(.today, output: output) }
        switch word.lowercased() {
        case "today": return .history(.today, output: output)
        case "yesterday": return .history(.yesterday, output: output)
        default:
            guard let date = LocalDate(word) else {
                throw .usage(tr("'%s' is not a day; write today, yesterday or a date as YYYY-MM-DD.", word)
                    + Suggestion.phrase(word, among: ["today", "yesterday"]), command: "history")
            }
            return .history(.date(date), output: output)
        }
    }

    static func settingKey(_ name: String, for command: String) throws(CLIError) -> SettingKey {
        guard let key = SettingKey(name: name) else {
            let hint = Suggestion.nearest(name, among: keyNames).map { tr("Did you mean '%s'?", $0) }
                ?? tr("The settings are %s.", keyNames.joined(separator: ", "))
            throw .usage(tr("'%s' is not a setting.", name) + " " + hint, command: command)
        }
        return key
    }

    static func validateGet(_ p: ParsedArguments) throws(CLIError) -> Command {
        let key: SettingKey? = if let name = p.positionals.first { try settingKey(name, for: "get") } else { nil }
        return .get(key, json: p.flags.contains("json"))
    }

    static func validateSet(_ p: ParsedArguments) throws(CLIError) -> Command {
        guard p.positionals.count == 2 else {
            throw .usage(p.positionals.isEmpty ? tr("Say which setting to change and to what: set KEY VALUE.")
                         : tr("Say what to set %s to: set KEY VALUE.", p.positionals[0]), command: "set")
        }
        let key = try settingKey(p.positionals[0], for: "set")
        return .set(key, try settingValue(key, p.positionals[1]))
    }

    /// Reads a value as a person writes it. Only the form is checked here;
    /// ranges are the service's to judge (its sentence is shown).
    static func settingValue(_ key: SettingKey, _ text: String) throws(CLIError) -> SettingValue {
        let value: SettingValue
        do {
            value = try key.parse(text: text)
        } catch {
            throw .usage(error.reason, command: "set")
        }
        switch (key, value) {
        case (.activeHours, .string(let s)):
            if ["", "always", "none"].contains(s.lowercased()) { return .string("") }
            guard let hours = ActiveHours(s) else { throw .usage(key.allowed, command: "set") }
            return .string(hours.description)
        case (.dndPolicy, .string(let s)):
            guard DndPolicy(rawValue: s) != nil else {
                throw .usage(key.allowed + Suggestion.phrase(s, among: DndPolicy.allCases.map(\.rawValue)), command: "set")
            }
            return value
        case (.busyPolicy, .string(let s)):
            guard BusyPolicy(rawValue: s) != nil else {
                throw .usage(key.allowed + Suggestion.phrase(s, among: BusyPolicy.allCases.map(\.rawValue)), command: "set")
            }
            return value
        default:
            return value
        }
    }

    static func validateHelp(_ p: ParsedArguments) throws(CLIError) -> Command {
        guard let name = p.positionals.first else { return .help(nil) }
        guard command(name.lowercased()) != nil else {
            throw .usage(tr("'%s' is not a command.", name) + Suggestion.phrase(name, among: commands.map(\.name)), command: "help")
        }
        return .help(name.lowercased())
    }
}
