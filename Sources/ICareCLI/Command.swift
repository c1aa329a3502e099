import ReminderCore

/// A validated command line: what to do, with every argument parsed.
public enum Command: Equatable, Sendable {
    case status(StatusOptions)
    case start
    /// 0 = the configured `SnoozeDuration`.
    case snooze(seconds: UInt32)
    case skip
    case pause(PauseLength)
    /// Resume a pause you started, else pause until resumed (a status bar's click).
    case pauseToggle
    case resume
    case history(HistoryRange, output: HistoryOutput = .text)
    /// nil key = every setting.
    case get(SettingKey?, json: Bool)
    case set(SettingKey, SettingValue)
    case watch
    case monitor(json: Bool)
    /// What the service can see on this desktop (`Capabilities`).
    case doctor(json: Bool)
    /// Help for a command (nil: the overview).
    case help(String?)
    case version
    case completionScript(Shell)
    case manual
}

/// How `status` prints.
public enum StatusFormat: String, CaseIterable, Sendable {
    case text, plain, waybar, json
}

/// `status` options.
public struct StatusOptions: Equatable, Sendable {
    public var format: StatusFormat
    /// Keep running: a new line on every change and every minute.
    public var follow: Bool
    public init(format: StatusFormat = .text, follow: Bool = false) {
        self.format = format
        self.follow = follow
    }
}

/// How long `pause` lasts.
public enum PauseLength: Equatable, Sendable {
    case untilResumed
    case seconds(UInt32)
    /// Until the next time the local clock shows this.
    case until(TimeOfDay)
}

/// Which breaks `history` shows.
public enum HistoryRange: Equatable, Sendable {
    case today
    case yesterday
    case date(LocalDate)
    /// The last N days, today included: a chart.
    case days(Int)
}

/// How `history` prints.
public enum HistoryOutput: Equatable, Sendable {
    /// Words for a person (a list, or a chart for several days).
    case text
    case json
    /// RFC 4180 CSV for a spreadsheet: a row per break, or per day.
    case csv
}

/// Shells with completion scripts.
public enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}

/// A command line with the global choices.
public struct Invocation: Equatable, Sendable {
    public var command: Command
    /// `--no-color` was given.
    public var noColor: Bool
    public init(command: Command, noColor: Bool = false) {
        self.command = command
        self.noColor = noColor
    }
}
