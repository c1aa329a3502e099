import ReminderCore
import Localization

/// The command tree as data: every command, argument and option `icarectl`
/// knows. The parser, `--help`, the man page and the completion scripts are
/// all generated from this table.
public enum CommandTable {
    /// The program's version.
    public static let version = ICareVersion.current

    /// The command run when none is named.
    public static let defaultCommand = "status"

    /// The one-line summary (help's title, the man page's NAME).
    public static var summary: String { tr("control iCare, the 20-20-20 eye-break reminder") }

    /// One paragraph about the program.
    public static let about = tr("iCare reminds you to follow the 20-20-20 rule: every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain. icarectl talks to the icared service of your desktop session.")

    static let durationHelp = tr("A duration such as 90s, 5m or 1h30m (a bare number is seconds).")
    static let keyNames = SettingKey.allCases.map(\.name)

    /// Options every command accepts.
    public static let commonOptions = [
        OptionSpec("no-color", help: tr("Never colour the output (also when NO_COLOR is set).")),
        OptionSpec("help", short: "h", help: tr("Show help for this command.")),
    ]

    /// Options only the top level accepts.
    public static let topLevelOptions = [
        OptionSpec("version", help: tr("Print the version and exit.")),
        OptionSpec("generate-completion-script", value: "SHELL", values: Shell.allCases.map(\.rawValue),
                   help: tr("Print a completion script for bash, zsh or fish.")),
        OptionSpec("generate-manual", help: tr("Print the icarectl(1) man page (roff).")),
    ]

    static let jsonOption = OptionSpec("json", help: tr("Print JSON (the shapes are in icarectl(1), section JSON OUTPUT)."))

    /// Every command, in the order help lists them.
    public static let commands: [CommandSpec] = [
        CommandSpec("status", summary: tr("Show the state, the next break and today's breaks (the default command)"),
                    discussion: tr("Shows the state, when the next break is due, today's completed, skipped and missed breaks, and do not disturb. For status bars, --format waybar prints waybar's JSON and --format plain one short line; with --follow it keeps running and prints a new line on every change and every minute."),
                    options: [
                        OptionSpec("format", value: "FORMAT", values: StatusFormat.allCases.map(\.rawValue),
                                   help: tr("text (the default), plain (one line for i3blocks or polybar), waybar or json.")),
                        jsonOption,
                        OptionSpec("follow", help: tr("Keep running: a new line on every change and every minute.")),
                    ],
                    examples: ["icarectl", "icarectl status --format waybar --follow"],
                    validate: validateStatus),
        CommandSpec("start", summary: tr("Start a break now"),
                    discussion: tr("Starts the break countdown now, whatever the state (except during a break)."),
                    validate: { _ throws(CLIError) in .start }),
        CommandSpec("snooze", summary: tr("Postpone the reminder"),
                    discussion: tr("Postpones the due or next reminder. Without a duration, or with 0, by the configured SnoozeDuration. During a break, the break ends early and is not recorded."),
                    arguments: [ArgumentSpec("DURATION", optional: true, values: ["5m", "10m", "15m"], help: durationHelp)],
                    examples: ["icarectl snooze", "icarectl snooze 10m"],
                    validate: validateSnooze),
        CommandSpec("skip", summary: tr("Skip the due or upcoming break"),
                    discussion: tr("Skips the due, snoozed or running break; the next one comes a full interval from now."),
                    validate: { _ throws(CLIError) in .skip }),
        CommandSpec("pause", summary: tr("Pause reminders until you resume, for a while, or until a time"),
                    discussion: tr("Without an argument, reminders stay off until 'icarectl resume'. With a duration, for that long; with 'until HH:MM', until the next time the clock shows it (at most a day). 'pause toggle' resumes a pause you started, else pauses until you resume: one command for a status bar's click. During a break, the break ends early and is not recorded."),
                    arguments: [ArgumentSpec("DURATION | until HH:MM | toggle", optional: true, values: ["30m", "1h", "until", "toggle"],
                                             help: tr("A duration such as 90s, 5m or 1h30m (a bare number is seconds). Or 'until' and a local time, 24-hour, e.g. until 17:30. Or 'toggle'."))],
                    maxPositionals: 2,
                    examples: ["icarectl pause", "icarectl pause 1h", "icarectl pause until 13:30", "icarectl pause toggle"],
                    validate: validatePause),
        CommandSpec("resume", summary: tr("Resume reminders after a pause"),
                    discussion: tr("Ends a pause you started; a full interval starts now. Pauses for do not disturb or a locked screen end by themselves. When nothing is paused, it says so and changes nothing."),
                    validate: { _ throws(CLIError) in .resume }),
        CommandSpec("history", summary: tr("List a day's breaks, or chart the last days"),
                    discussion: tr("Lists the breaks of a day with their times and outcomes (today when no day is given), or with --days N draws a bar per day of completed, skipped and missed breaks. --csv prints the same as a table a spreadsheet opens: a row per break (date, time, outcome, seconds), or with --days a row per day."),
                    arguments: [ArgumentSpec("today | yesterday | YYYY-MM-DD", optional: true, values: ["today", "yesterday"],
                                             help: tr("The day to list."))],
                    options: [OptionSpec("days", value: "N", values: ["7", "14", "30"], help: tr("Chart the last N days, today included (1–366).")),
                              jsonOption,
                              OptionSpec("csv", help: tr("Print CSV (RFC 4180) with a header row, for a spreadsheet."))],
                    examples: ["icarectl history", "icarectl history 2024-11-29", "icarectl history --days 7",
                               "icarectl history --days 30 --csv > breaks.csv"],
                    validate: validateHistory),
        CommandSpec("get", summary: tr("Show the settings, or one of them"),
                    discussion: tr("Prints every setting, or the value of one in the form 'set' accepts. Names ignore case."),
                    arguments: [ArgumentSpec("KEY", optional: true, values: keyNames, help: tr("A setting: %s.", keyNames.joined(separator: ", ")))],
                    options: [jsonOption],
                    examples: ["icarectl get", "icarectl get interval"],
                    validate: validateGet),
        CommandSpec("set", summary: tr("Change a setting"),
                    discussion: tr("Changes a setting; the service checks it, saves it to its config file and applies it at once.") + " "
                        + allowedSentences,
                    arguments: [ArgumentSpec("KEY", values: keyNames, help: tr("A setting: %s.", keyNames.joined(separator: ", "))),
                                ArgumentSpec("VALUE", valuesAfter: SettingKey.allCases.map { ($0.name, valueSuggestions($0)) },
                                             help: tr("A duration (20m), true or false, HH:MM-HH:MM or always, or pause, defer or ignore."))],
                    examples: ["icarectl set interval 25m", "icarectl set activehours 09:00-17:30", "icarectl set dndpolicy defer"],
                    validate: validateSet),
        CommandSpec("watch", summary: tr("A live full-screen view of the countdown (q to leave)"),
                    discussion: tr("Shows the countdown to the next break, the break's own countdown while it runs, today's breaks and the state, redrawn every second and at once on every change. Keys: s start a break, z snooze, k skip, p pause or resume, q quit."),
                    validate: { _ throws(CLIError) in .watch }),
        CommandSpec("monitor", summary: tr("Print a timestamped line for every signal and property change"),
                    discussion: tr("Prints one line per signal and per changed property until interrupted, and notes when the service starts or stops."),
                    options: [jsonOption],
                    examples: ["icarectl monitor", "icarectl monitor --json | jq ."],
                    validate: { p throws(CLIError) in .monitor(json: p.flags.contains("json")) }),
        CommandSpec("doctor", summary: tr("Show what iCare can see on this desktop"),
                    discussion: tr("Lists what a person expects of iCare (the reminder's buttons, do not disturb, time away, calls and full screen, the ring, sounds, phones, starting at login, the sandbox) and whether each works on this desktop now, with why not. Exits with 1 when something does not work."),
                    options: [jsonOption],
                    examples: ["icarectl doctor", "icarectl doctor --json | jq ."],
                    validate: { p throws(CLIError) in .doctor(json: p.flags.contains("json")) }),
        CommandSpec("help", summary: tr("Show help for a command"),
                    discussion: tr("Shows the help of a command, or the list of commands."),
                    arguments: [ArgumentSpec("COMMAND", optional: true, values: [], help: tr("A command."))],
                    validate: validateHelp),
    ]

    /// The values completion offers after `set KEY`: every choice where the
    /// setting has few, else common values within its range.
    static func valueSuggestions(_ key: SettingKey) -> [String] {
        switch key {
        case .interval: return ["15m", "20m", "25m", "30m", "45m"]
        case .breakDuration: return ["10s", "20s", "30s"]
        case .snoozeDuration: return ["1m", "5m", "10m", "15m", "30m"]
        case .activeHours: return ["always", "09:00-17:00", "09:00-17:30", "08:00-18:00"]
        case .weekdaysOnly, .sound, .statusItem, .phoneReminders, .fullScreenReminders: return ["true", "false"]
        case .dndPolicy: return DndPolicy.allCases.map(\.rawValue)
        case .busyPolicy: return BusyPolicy.allCases.map(\.rawValue)
        }
    }

    static var allowedSentences: String { SettingKey.allCases.map(\.allowed).joined(separator: " ") }

    /// The command named `name`.
    public static func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }
}
