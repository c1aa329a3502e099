import Testing
import ReminderCore
@testable import ICareCLI

/// Parses a command line; the command or the usage error.
private func parse(_ line: String) -> Result<Command, CLIError> {
    let words = line.split(separator: " ").map(String.init)
    do { return .success(try ArgumentParser.parse(words).command) } catch { return .failure(error) }
}

private func usage(_ line: String) -> String? {
    if case .failure(.usage(let m, _)) = parse(line) { return m }
    return nil
}

@Suite struct ParsingTests {
    @Test func bareCommandIsStatus() {
        #expect(parse("") == .success(.status(StatusOptions())))
        #expect(parse("--json") == .success(.status(StatusOptions(format: .json))))
        #expect(parse("--no-color") == .success(.status(StatusOptions())))
    }

    @Test func status() {
        #expect(parse("status") == .success(.status(StatusOptions())))
        #expect(parse("status --json") == .success(.status(StatusOptions(format: .json))))
        #expect(parse("status --format waybar --follow") == .success(.status(StatusOptions(format: .waybar, follow: true))))
        #expect(parse("status --format=plain") == .success(.status(StatusOptions(format: .plain))))
        #expect(usage("status --format wayber") == "'wayber' is not a format; use text, plain, waybar or json. Did you mean 'waybar'?")
        #expect(usage("status --format waybar --json") == "--json and --format waybar cannot be used together.")
        #expect(usage("status --format") == "--format needs a value (FORMAT).")
        #expect(usage("status --jsn") == "Unknown option '--jsn' for 'status'. Did you mean '--json'?")
        #expect(usage("status now") == "'status' takes no arguments, but got 'now'.")
        #expect(usage("status --follow=yes") == "--follow takes no value.")
    }

    @Test func controlCommands() {
        #expect(parse("start") == .success(.start))
        #expect(parse("skip") == .success(.skip))
        #expect(parse("resume") == .success(.resume))
        #expect(usage("start now") == "'start' takes no arguments, but got 'now'.")
    }

    @Test func snooze() {
        #expect(parse("snooze") == .success(.snooze(seconds: 0)))
        #expect(parse("snooze 90s") == .success(.snooze(seconds: 90)))
        #expect(parse("snooze 5m") == .success(.snooze(seconds: 300)))
        #expect(parse("snooze 1h30m") == .success(.snooze(seconds: 5400)))
        #expect(parse("snooze 600") == .success(.snooze(seconds: 600)))
        #expect(usage("snooze soon") == "'soon' is not a duration; write a value like 90s, 5m or 1h30m.")
        #expect(usage("snooze 5x") == "'5x' is not a duration; write a value like 90s, 5m or 1h30m.")
        // 0 is what Snooze(0) is on D-Bus: the configured SnoozeDuration.
        #expect(parse("snooze 0") == .success(.snooze(seconds: 0)))
        #expect(parse("snooze 0m") == .success(.snooze(seconds: 0)))
        #expect(usage("snooze 5m 10m") == "Unexpected argument '10m'.")
    }

    @Test func pause() throws {
        #expect(parse("pause") == .success(.pause(.untilResumed)))
        #expect(parse("pause 30m") == .success(.pause(.seconds(1800))))
        let halfPastFive = try #require(TimeOfDay("17:30")), fivePastSeven = try #require(TimeOfDay("07:05"))
        #expect(parse("pause until 17:30") == .success(.pause(.until(halfPastFive))))
        #expect(parse("pause UNTIL 07:05") == .success(.pause(.until(fivePastSeven))))
        #expect(usage("pause until") == "Say until when, as a 24-hour time: pause until 17:30.")
        #expect(usage("pause until 25:00") == "'25:00' is not a time; write HH:MM on the 24-hour clock, e.g. 17:30.")
        #expect(usage("pause until 5pm") == "'5pm' is not a time; write HH:MM on the 24-hour clock, e.g. 17:30.")
        #expect(usage("pause later") == "'later' is not a duration; write a value like 90s, 5m or 1h30m.")
        #expect(usage("pause 5m 10m") == "Unexpected '10m'; write 'pause DURATION' or 'pause until HH:MM'.")
        #expect(usage("pause until 17:30 now") == "Unexpected argument 'now'.")
    }

    @Test func history() throws {
        #expect(parse("history") == .success(.history(.today)))
        #expect(parse("history today --json") == .success(.history(.today, output: .json)))
        #expect(parse("history yesterday") == .success(.history(.yesterday)))
        let leapDay = try #require(LocalDate(year: 2024, month: 2, day: 29))
        #expect(parse("history 2024-02-29") == .success(.history(.date(leapDay))))
        #expect(parse("history --days 7") == .success(.history(.days(7))))
        #expect(parse("history --days=30 --json") == .success(.history(.days(30), output: .json)))
        #expect(usage("history 2023-02-29") == "'2023-02-29' is not a day; write today, yesterday or a date as YYYY-MM-DD.")
        #expect(usage("history todya") == "'todya' is not a day; write today, yesterday or a date as YYYY-MM-DD. Did you mean 'today'?")
        #expect(usage("history --days 0") == "--days takes a number of days from 1 to 366, not '0'.")
        #expect(usage("history --days week") == "--days takes a number of days from 1 to 366, not 'week'.")
        #expect(usage("history today --days 7") == "Give either a day or --days N, not both.")
        #expect(parse("history --csv") == .success(.history(.today, output: .csv)))
        #expect(parse("history --days 7 --csv") == .success(.history(.days(7), output: .csv)))
        #expect(usage("history --csv --json") == "Give either --json or --csv, not both.")
    }

    @Test func getAndSet() {
        #expect(parse("get") == .success(.get(nil, json: false)))
        #expect(parse("get interval --json") == .success(.get(.interval, json: true)))
        #expect(parse("get BREAKDURATION") == .success(.get(.breakDuration, json: false)))
        #expect(usage("get intervl") == "'intervl' is not a setting. Did you mean 'Interval'?")
        #expect(usage("get colour") == "'colour' is not a setting. The settings are Interval, BreakDuration, SnoozeDuration, ActiveHours, WeekdaysOnly, DndPolicy, Sound, BusyPolicy, StatusItem, PhoneReminders, FullScreenReminders.")
        #expect(parse("set interval 25m") == .success(.set(.interval, .uint(1500))))
        #expect(parse("set breakduration 20") == .success(.set(.breakDuration, .uint(20))))
        #expect(parse("set snoozeduration 1h") == .success(.set(.snoozeDuration, .uint(3600))))
        #expect(parse("set sound false") == .success(.set(.sound, .bool(false))))
        #expect(parse("set weekdaysonly yes") == .success(.set(.weekdaysOnly, .bool(true))))
        #expect(parse("set activehours 09:00-17:30") == .success(.set(.activeHours, .string("09:00-17:30"))))
        #expect(parse("set activehours always") == .success(.set(.activeHours, .string(""))))
        #expect(parse("set dndpolicy DEFER") == .success(.set(.dndPolicy, .string("defer"))))
        #expect(usage("set interval soon") == "'soon' is not a duration; write seconds or a value like 90s, 20m or 1h30m.")
        #expect(usage("set sound maybe") == "Sound must be true or false.")
        #expect(usage("set activehours 9-5") == "ActiveHours must be empty (always) or HH:MM-HH:MM, for example 09:00-17:30.")
        #expect(usage("set dndpolicy defr") == "DndPolicy must be one of pause, defer or ignore. Did you mean 'defer'?")
        #expect(usage("set interval") == "Say what to set interval to: set KEY VALUE.")
        #expect(usage("set") == "Say which setting to change and to what: set KEY VALUE.")
        #expect(usage("set foo 1") == "'foo' is not a setting. The settings are Interval, BreakDuration, SnoozeDuration, ActiveHours, WeekdaysOnly, DndPolicy, Sound, BusyPolicy, StatusItem, PhoneReminders, FullScreenReminders.")
    }

    @Test func liveAndMeta() {
        #expect(parse("watch") == .success(.watch))
        #expect(parse("monitor") == .success(.monitor(json: false)))
        #expect(parse("monitor --json") == .success(.monitor(json: true)))
        #expect(parse("--version") == .success(.version))
        #expect(parse("--help") == .success(.help(nil)))
        #expect(parse("-h") == .success(.help(nil)))
        #expect(parse("help") == .success(.help(nil)))
        #expect(parse("help snooze") == .success(.help("snooze")))
        #expect(parse("snooze --help") == .success(.help("snooze")))
        #expect(parse("history 2024-01-01 -h") == .success(.help("history")))
        #expect(parse("--generate-completion-script zsh") == .success(.completionScript(.zsh)))
        #expect(parse("--generate-manual") == .success(.manual))
        #expect(usage("help snoze") == "'snoze' is not a command. Did you mean 'snooze'?")
        #expect(usage("--generate-completion-script tcsh") == "'tcsh' is not a supported shell; use bash, zsh or fish.")
    }

    @Test func noColorAnywhere() throws {
        #expect(try ArgumentParser.parse(["--no-color", "get"]).noColor)
        #expect(try ArgumentParser.parse(["history", "--no-color"]).noColor)
        #expect(try !ArgumentParser.parse(["history"]).noColor)
    }

    @Test func typosSuggestTheNearestCommand() {
        #expect(usage("stauts") == "'stauts' is not a command. Did you mean 'status'?")
        #expect(usage("snoze") == "'snoze' is not a command. Did you mean 'snooze'?")
        #expect(usage("histroy") == "'histroy' is not a command. Did you mean 'history'?")
        #expect(usage("mon") == "'mon' is not a command. Did you mean 'monitor'?")
        #expect(usage("frobnicate") == "'frobnicate' is not a command.")
        #expect(usage("--jsn") == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usage("--verison") == "Unknown option '--verison'. Did you mean '--version'?")
    }

    @Test func usageErrorsNameTheirCommand() {
        #expect(parse("snooze soon") == .failure(.usage("'soon' is not a duration; write a value like 90s, 5m or 1h30m.", command: "snooze")))
        #expect(parse("stauts") == .failure(.usage("'stauts' is not a command. Did you mean 'status'?", command: nil)))
        #expect(ExitStatus.of(.usage("x", command: nil)) == 64)
        #expect(ExitStatus.of(.failure("x")) == 1)
    }
}

@Suite struct SuggestionTests {
    @Test func distances() {
        #expect(Suggestion.distance("status", "status") == 0)
        #expect(Suggestion.distance("stauts", "status") == 1)
        #expect(Suggestion.distance("snoze", "snooze") == 1)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
    }

    @Test func nearest() {
        let commands = CommandTable.commands.map(\.name)
        #expect(Suggestion.nearest("stat", among: commands) == "start")
        #expect(Suggestion.nearest("resum", among: commands) == "resume")
        #expect(Suggestion.nearest("xyz", among: commands) == nil)
        #expect(Suggestion.nearest("INTERVL", among: SettingKey.allCases.map(\.name)) == "Interval")
    }
}

@Suite struct DurationTests {
    @Test func durationsAsPeopleWriteThem() {
        #expect(DurationText.seconds("90s") == 90)
        #expect(DurationText.seconds("5m") == 300)
        #expect(DurationText.seconds("1h30m") == 5400)
        #expect(DurationText.seconds("45") == 45)
        #expect(DurationText.seconds("5 m") == 300)
        #expect(DurationText.seconds("soon") == nil)
        #expect(DurationText.seconds("m") == nil)
    }

    @Test func spans() {
        #expect(TimeText.span(45) == "45s")
        #expect(TimeText.span(750) == "12m 30s")
        #expect(TimeText.span(1200) == "20m")
        #expect(TimeText.span(3900) == "1h 5m")
        #expect(TimeText.span(7200) == "2h")
        #expect(TimeText.minutes(750) == "13m")
        #expect(TimeText.minutes(1) == "1m")
        #expect(TimeText.minutes(3900) == "1h 5m")
        #expect(TimeText.countdown(750) == "12:30")
        #expect(TimeText.countdown(7) == "0:07")
        #expect(TimeText.countdown(3723) == "1:02:03")
        #expect(TimeText.secondsUntil(1_500_001, from: 0) == 2)
        #expect(TimeText.secondsUntil(0, from: 5) == 0)
    }

    @Test func pauseUntilIsTheNextSuchLocalTime() throws {
        let cal = LocalZone.fixed(offset: 3600)
        // 2024-11-29 14:20:30 local (+01:00).
        let now = cal.instant(try #require(LocalDate("2024-11-29")), hour: 14, minute: 20) + 30 * Micro.second
        #expect(try Runner.secondsUntil(try #require(TimeOfDay("15:00")), now: now, calendar: cal) == 2370)
        #expect(try Runner.secondsUntil(try #require(TimeOfDay("14:20")), now: now, calendar: cal) == 86_370)
        #expect(try Runner.secondsUntil(try #require(TimeOfDay("09:00")), now: now, calendar: cal) == 67_170)
    }
}
