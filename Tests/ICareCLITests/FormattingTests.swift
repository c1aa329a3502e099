import Testing
import DBusKit
import Foundation
import ReminderCore
@testable import ICareCLI

/// 2024-11-29 (a Friday) in a +01:00 zone, whatever the machine's zone.
let cal = LocalZone.fixed(offset: 3600)
let text = TimeText(calendar: cal)
let day = LocalDate("2024-11-29")!
func at(_ h: Int, _ m: Int, _ s: Int = 0, on d: LocalDate = day) -> Timestamp {
    cal.instant(d, hour: h, minute: m) + Int64(s) * Micro.second
}

func status(_ state: String, _ edit: (inout ServiceStatus) -> Void = { _ in }) -> ServiceStatus {
    var s = ServiceStatus(properties: [
        "State": .string(state), "PauseReason": .string(""), "NextBreak": .uint64(0), "BreakEnds": .uint64(0),
        "PausedUntil": .uint64(0), "CompletedToday": .uint32(5), "SkippedToday": .uint32(1), "DoNotDisturb": .bool(false),
        "DoNotDisturbSource": .string(""), "Version": .string("0.1.0"), "Interval": .uint32(1200), "BreakDuration": .uint32(20),
        "SnoozeDuration": .uint32(300), "ActiveHours": .string(""), "WeekdaysOnly": .bool(false), "DndPolicy": .string("pause"),
        "Sound": .bool(true),
    ])
    edit(&s)
    return s
}

@Suite struct CalendarTests {
    @Test func dates() throws {
        #expect(day.weekday == 5 && day.localized == "Fri 2024-11-29")
        #expect(day.adding(days: 3).description == "2024-12-02")
        #expect(LocalDate("2024-03-01")!.adding(days: -1).description == "2024-02-29")
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(LocalDate("2024-13-01") == nil)
        #expect(LocalDate("24-01-01") == nil)
    }

    @Test func localTimes() {
        let t = at(14, 32, 5)
        #expect(t == 1_732_887_125_000_000)
        #expect(text.clock(t) == "14:32")
        #expect(text.clockSeconds(t) == "14:32:05")
        #expect(text.iso(t) == "2024-11-29T14:32:05+01:00")
        #expect(TimeText(calendar: .fixed(offset: -34_200)).iso(t) == "2024-11-29T04:02:05-09:30")
        #expect(text.logStamp(t + 123_456) == "2024-11-29 14:32:05.123")
        #expect(text.clock(at(9, 0, on: day.adding(days: 1)), relativeTo: t) == "tomorrow 09:00")
        #expect(text.clock(at(9, 0, on: day.adding(days: -1)), relativeTo: t) == "yesterday 09:00")
        #expect(text.clock(at(9, 0, on: day.adding(days: 3)), relativeTo: t) == "Mon 2024-12-02 09:00")
    }

    @Test func systemCalendarHonoursTheProcessZone() {
        // Whatever the zone, a round trip through local time is exact.
        let t = Timestamp(1_732_887_125) * Micro.second
        let l = LocalZone.system.local(t)
        #expect(LocalZone.system.instant(l.date, hour: l.hour, minute: l.minute) + Int64(l.second) * Micro.second == t)
    }
}

@Suite struct StatusFormattingTests {
    let f = StatusFormatter(time: text)
    let now = at(14, 20, 0)

    @Test func missedRemindersAreCountedApartFromSkips() throws {
        var s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        s.apply(["MissedToday": .uint32(2)])
        #expect(f.text(s, now: now).contains("Today:          5 completed, 1 skipped, 2 missed\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(f.json(s, now: now).text.utf8)) as? [String: Any])
        #expect(json["skipped_today"] as? Int == 1 && json["missed_today"] as? Int == 2)
    }

    @Test func waitingText() {
        let s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        #expect(f.text(s, now: now) == """
            State:          waiting
            Next break:     14:32, in 12m 30s
            Today:          5 completed, 1 skipped
            Do not disturb: off

            """)
        #expect(f.short(s, now: now) == "13m")
        #expect(f.waybar(s, now: now).text
            == #"{"text":"13m","alt":"waiting","tooltip":"Next break at 14:32, in 13m\nToday: 5 completed, 1 skipped","class":"waiting","percentage":37}"#)
    }

    @Test func breakText() {
        let s = status("break") { $0.breakEnds = at(14, 20, 14); $0.nextBreak = at(14, 40, 14); $0.doNotDisturb = true; $0.doNotDisturbSource = "gnome" }
        #expect(f.text(s, now: now) == """
            State:          on a break
            Break ends:     14:20:14, in 14s
            Next break:     14:40, in 20m 14s
            Today:          5 completed, 1 skipped
            Do not disturb: on (gnome)

            """)
        #expect(f.short(s, now: now) == "on break")
        #expect(f.waybar(s, now: now).text
            == #"{"text":"on break","alt":"break","tooltip":"On a break until 14:20:14\nToday: 5 completed, 1 skipped","class":"break","percentage":30}"#)
    }

    @Test func pausedTexts() {
        let byUser = status("paused") { $0.pauseReason = "user" }
        #expect(f.text(byUser, now: now) == """
            State:          paused by you
            Paused until:   you resume (icarectl resume)
            Next break:     not scheduled
            Today:          5 completed, 1 skipped
            Do not disturb: off

            """)
        #expect(f.short(byUser, now: now) == "paused")
        let timed = status("paused") { $0.pauseReason = "user"; $0.pausedUntil = at(15, 0); $0.nextBreak = at(15, 20) }
        #expect(f.text(timed, now: now).contains("Paused until:   15:00, in 40m\nNext break:     15:20, in 1h\n"))
        #expect(f.short(timed, now: now) == "paused 40m")
        let dnd = status("paused") { $0.pauseReason = "dnd"; $0.doNotDisturb = true; $0.doNotDisturbSource = "kde" }
        #expect(f.text(dnd, now: now).hasPrefix("State:          paused while do not disturb is on\nPaused until:   do not disturb ends\n"))
        #expect(f.waybar(dnd, now: now).text
            == #"{"text":"paused","alt":"paused","tooltip":"Paused while do not disturb is on\nToday: 5 completed, 1 skipped","class":"paused","percentage":0}"#)
    }

    @Test func dueSnoozedInactive() {
        let due = status("due") { $0.nextBreak = at(14, 17) }
        #expect(f.text(due, now: now).hasPrefix("State:          due: time to rest your eyes\nNext break:     due since 14:17 (3m ago)\n"))
        #expect(f.short(due, now: now) == "break due")
        #expect(f.percentage(due, now: now) == 100)
        let snoozed = status("snoozed") { $0.nextBreak = at(14, 25) }
        #expect(f.short(snoozed, now: now) == "5m snoozed")
        let inactive = status("inactive") { $0.nextBreak = at(9, 0, on: day.adding(days: 1)) }
        #expect(f.text(inactive, now: now).hasPrefix("State:          inactive (outside the active hours)\nNext break:     tomorrow 09:00, in 18h 40m\n"))
        #expect(f.short(inactive, now: now) == "off")
        let weekend = status("inactive") { $0.settings[.weekdaysOnly] = .bool(true) }
        #expect(f.stateWords(weekend, now: at(12, 0, on: day.adding(days: 1))) == "inactive (weekend)")
    }

    @Test func busyShowsItsSourceAndReasonOnlyWhileBusy() {
        let free = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        #expect(!f.text(free, now: now).contains("Busy"))
        var busy = free
        busy.apply(["Busy": .bool(true), "BusySource": .string("video"), "BusyReason": .string("org.mozilla.firefox: Playing video")])
        #expect(f.text(busy, now: now).hasSuffix("Do not disturb: off\nBusy:           video (org.mozilla.firefox: Playing video)\n"))
        busy.apply(["BusyReason": .string("")])
        #expect(f.text(busy, now: now).hasSuffix("Busy:           video\n"))
        busy.apply(["BusySource": .string("screen-share"), "BusyReason": .string("gnome-shell")])
        #expect(f.text(busy, now: now).hasSuffix("Busy:           screen sharing (gnome-shell)\n"))
        busy.apply(["BusySource": .string("microphone"), "BusyReason": .string("Firefox")])
        #expect(f.text(busy, now: now).hasSuffix("Busy:           microphone (Firefox)\n"))
        #expect(f.json(busy, now: now).text.contains(#""busy_source":"microphone","busy_reason":"Firefox""#))
        busy.apply(["BusySource": .string("video"), "BusyReason": .string("")])
        let paused = status("paused") { $0.pauseReason = "busy"; $0.busy = true; $0.busySource = "video" }
        #expect(f.text(paused, now: now).hasPrefix("State:          paused during a call or video\nPaused until:   the call or video ends\n"))
        let fullScreen = status("paused") { $0.pauseReason = "busy"; $0.busy = true; $0.busySource = "full-screen" }
        #expect(f.text(fullScreen, now: now).hasPrefix(
            "State:          paused while a window is in full screen\nPaused until:   the window leaves full screen\n"))
        #expect(fullScreen.pauseSentence(time: text, now: now) == "Paused while a window is in full screen")
        #expect(f.json(busy, now: now).text.hasSuffix(#""config_problems":[],"busy":true,"busy_source":"video","busy_reason":"","desktop_eye_breaks":false,"sound_played_by":"","phones":[],"sandbox_limits":[]}"#))
        var both = free
        both.apply(["DesktopEyeBreaks": .bool(true)])
        #expect(f.text(both, now: now).hasSuffix(
            "GNOME breaks:   eyesight breaks are on too; keep one: turn them off in Settings (Wellbeing), or stop iCare\n"))
        #expect(f.json(both, now: now).text.hasSuffix(#""desktop_eye_breaks":true,"sound_played_by":"","phones":[],"sandbox_limits":[]}"#))

        // In a sandbox (the Flatpak's, the unit's): a block under the status, one sentence per limit; a word this client
        // does not know is shown as it is.
        var sandboxed = free
        sandboxed.apply(["SandboxLimits": .array(element: "s", [.string("gnome-keys"), .string("autostart"), .string("new-limit")])])
        #expect(f.text(sandboxed, now: now).hasSuffix("""

            Here, iCare cannot do everything:
              GNOME's do-not-disturb and eyesight breaks are seen only with iCare's Shell extension.
              iCare does not start at login: the desktop has not allowed it to run in the background.
              new-limit

            """))
        #expect(f.json(sandboxed, now: now).text.hasSuffix(#""sandbox_limits":["gnome-keys","autostart","new-limit"]}"#))
    }

    @Test func thePhonesAreOneRowThatSaysWhetherTheyAreTapped() {
        var s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        #expect(!f.text(s, now: now).contains("Phones"), "no phones and the setting off: no row")
        s.apply(["Phones": .strings(["Pixel 7 (KDE Connect)", "Fairphone (GSConnect)"])])
        #expect(f.text(s, now: now).hasSuffix(
            "Phones:         Pixel 7 (KDE Connect), Fairphone (GSConnect) (turn on with: icarectl set PhoneReminders on)\n"))
        s.apply(["PhoneReminders": .bool(true)])
        #expect(f.text(s, now: now).hasSuffix("Phones:         Pixel 7 (KDE Connect), Fairphone (GSConnect), tapped with each reminder\n"))
        #expect(f.json(s, now: now).text.hasSuffix(#""phones":["Pixel 7 (KDE Connect)","Fairphone (GSConnect)"],"sandbox_limits":[]}"#))
        s.apply(["Phones": .strings([])])
        #expect(f.text(s, now: now).hasSuffix("Phones:         none linked yet (pair one in KDE Connect or GSConnect)\n"))
    }

    @Test func whoPlaysTheSoundsIsOneRow() {
        var s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        #expect(!f.text(s, now: now).contains("Sound"), "an older service does not say")
        s.apply(["SoundPlayedBy": .string("icared")])
        #expect(f.text(s, now: now).hasSuffix("Do not disturb: off\nSound:          played by iCare\n"))
        #expect(f.json(s, now: now).text.hasSuffix(#""desktop_eye_breaks":false,"sound_played_by":"icared","phones":[],"sandbox_limits":[]}"#))
        s.apply(["SoundPlayedBy": .string("notification-server")])
        #expect(f.text(s, now: now).hasSuffix("Sound:          played by the notification server\n"))
        s.apply(["SoundPlayedBy": .string("none"), "Sound": .bool(false)])
        #expect(f.text(s, now: now).hasSuffix("Sound:          off\n"))
        s.apply(["Sound": .bool(true)])
        #expect(f.text(s, now: now).hasSuffix("Sound:          off (the desktop's event sounds are off)\n"))
    }

    @Test func statusJSONShape() {
        let s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        #expect(f.json(s, now: now).text == """
            {"running":true,"state":"waiting","pause_reason":"","next_break":"2024-11-29T14:32:30+01:00","next_break_us":1732887150000000,\
            "seconds_to_next_break":750,"break_ends":null,"break_ends_us":0,"paused_until":null,"paused_until_us":0,\
            "completed_today":5,"skipped_today":1,"missed_today":0,"do_not_disturb":false,"do_not_disturb_source":"","service_version":"0.1.0",\
            "now":"2024-11-29T14:20:00+01:00","now_us":1732886400000000,"config_problems":[],\
            "busy":false,"busy_source":"","busy_reason":"","desktop_eye_breaks":false,"sound_played_by":"","phones":[],"sandbox_limits":[]}
            """)
        #expect(f.json(nil, now: now).text == #"{"running":false,"now":"2024-11-29T14:20:00+01:00","now_us":1732886400000000}"#)
        #expect(f.waybar(nil, now: now).text
            == #"{"text":"","alt":"stopped","tooltip":"iCare is not running","class":"stopped","percentage":0}"#)
    }

    @Test func colourOnlyWhenWanted() {
        #expect(!Style.decide(noColorFlag: false, environment: [:], isTerminal: false).enabled)
        #expect(Style.decide(noColorFlag: false, environment: [:], isTerminal: true).enabled)
        #expect(!Style.decide(noColorFlag: false, environment: ["NO_COLOR": "1"], isTerminal: true).enabled)
        #expect(Style.decide(noColorFlag: false, environment: ["NO_COLOR": ""], isTerminal: true).enabled)
        #expect(!Style.decide(noColorFlag: true, environment: [:], isTerminal: true).enabled)
        #expect(!Style.decide(noColorFlag: false, environment: ["TERM": "dumb"], isTerminal: true).enabled)
        let coloured = StatusFormatter(time: text, style: Style(enabled: true))
        #expect(coloured.text(status("waiting"), now: now).hasPrefix("State:          \u{1B}[32mwaiting\u{1B}[0m\n"))
    }

    @Test func followTicksOnMinuteBoundaries() {
        let s = status("waiting") { $0.nextBreak = at(14, 32, 30) }
        // 12m30s left shows "13m"; it becomes "12m" at 14:20:30.
        #expect(FollowSession.nextTick(s, now: now) == at(14, 20, 30))
        #expect(FollowSession.nextTick(status("due"), now: now) == at(14, 21, 0))
        #expect(FollowSession.nextTick(nil, now: now) == at(14, 21, 0))
    }

    @Test func propertiesChangedUpdatesTheSnapshot() {
        var s = status("waiting")
        s.apply(["State": .string("break"), "BreakEnds": .uint64(UInt64(at(14, 20, 20))), "Interval": .uint32(1500), "Unknown": .int32(1)])
        #expect(s.state == "break")
        #expect(s.breakEnds == at(14, 20, 20))
        #expect(s.interval == 1500)
    }
}

@Suite struct HistoryFormattingTests {
    let f = HistoryFormatter(time: text)
    let records = [
        BreakRecord(at: at(9, 12, 5), outcome: .completed, seconds: 20),
        BreakRecord(at: at(9, 32, 40), outcome: .skipped, seconds: 0),
        BreakRecord(at: at(9, 52, 40), outcome: .missed, seconds: 0),
        BreakRecord(at: at(10, 1), outcome: .natural, seconds: 312),
        BreakRecord(at: at(10, 30), outcome: Outcome(rawValue: "future"), seconds: 0),
    ]

    @Test func dayList() {
        #expect(f.list(records, on: day, isToday: true) == """
            Breaks on Fri 2024-11-29:
              09:12:05  completed  20s
              09:32:40  skipped
              09:52:40  missed
              10:01:00  natural    5m 12s
              10:30:00  future
            Total: 2 completed, 1 skipped, 1 missed

            """)
        #expect(f.list([], on: day, isToday: true) == "No breaks on Fri 2024-11-29 yet.\n")
        #expect(f.list([], on: day, isToday: false) == "No breaks on Fri 2024-11-29.\n")
    }

    @Test func chart() {
        let days = (0..<3).map { day.adding(days: $0 - 2) }
        var more = records
        more.append(BreakRecord(at: at(23, 59, on: day.adding(days: -2)), outcome: .completed, seconds: 20))
        more.append(BreakRecord(at: at(8, 0, on: day.adding(days: -5)), outcome: .completed, seconds: 20))   // outside
        #expect(f.chart(f.tally(more, days: days)) == """
            Breaks, last 3 days (█ completed, ░ skipped or missed):
            Wed 2024-11-27  █     1 completed, 0 skipped
            Thu 2024-11-28        0 completed, 0 skipped
            Fri 2024-11-29  ██░░  2 completed, 1 skipped, 1 missed
            Total: 3 completed, 1 skipped, 1 missed (60% completed)

            """)
    }

    @Test func chartScalesLongBars() {
        var big = HistoryFormatter(time: text)
        big.maxBar = 10
        var t1 = HistoryDay(date: day)
        t1.completed = 30
        t1.skipped = 6
        t1.missed = 4
        var t0 = HistoryDay(date: day.adding(days: -1))
        t0.missed = 1
        #expect(big.chart([t0, t1]) == """
            Breaks, last 2 days (█ completed, ░ skipped or missed):
            Thu 2024-11-28  ░           0 completed, 0 skipped, 1 missed
            Fri 2024-11-29  ████████░░  30 completed, 6 skipped, 4 missed
            Total: 30 completed, 6 skipped, 5 missed (73% completed)

            """)
    }

    @Test func historyJSONShapes() {
        let from = cal.startOfDay(day), to = cal.startOfDay(day.adding(days: 1))
        #expect(f.dayJSON(Array(records.prefix(2)), on: day, from: from, to: to).text == """
            {"date":"2024-11-29","from":"2024-11-29T00:00:00+01:00","from_us":1732834800000000,\
            "to":"2024-11-30T00:00:00+01:00","to_us":1732921200000000,"breaks":[\
            {"at":"2024-11-29T09:12:05+01:00","at_us":1732867925000000,"outcome":"completed","seconds":20},\
            {"at":"2024-11-29T09:32:40+01:00","at_us":1732869160000000,"outcome":"skipped","seconds":0}],\
            "completed":1,"skipped":1,"missed":0}
            """)
        let tallies = f.tally(records, days: [day])
        #expect(f.daysJSON(tallies, from: from, to: to).text == """
            {"from":"2024-11-29T00:00:00+01:00","from_us":1732834800000000,"to":"2024-11-30T00:00:00+01:00","to_us":1732921200000000,\
            "days":[{"date":"2024-11-29","completed":2,"natural":1,"skipped":1,"missed":1,"other":1}],"completed":2,"skipped":1,"missed":1}
            """)
    }
}

@Suite struct SettingsAndMonitorFormattingTests {
    let all: [SettingKey: SettingValue] = status("waiting").settings

    @Test func settingsTable() {
        #expect(SettingsFormatter.table(all) == """
            Interval             20m
            BreakDuration        20s
            SnoozeDuration       5m
            ActiveHours          always
            WeekdaysOnly         false
            DndPolicy            pause
            Sound                true

            """)
        #expect(SettingsFormatter.text(.activeHours, .string("09:00-17:30")) == "09:00-17:30")
        #expect(SettingsFormatter.text(.interval, .uint(1530)) == "25m30s")
        #expect(SettingsFormatter.json(all).text
            == #"{"Interval":1200,"BreakDuration":20,"SnoozeDuration":300,"ActiveHours":"","WeekdaysOnly":false,"DndPolicy":"pause","Sound":true}"#)
        #expect(SettingsFormatter.json(all, only: .sound).text == #"{"Sound":true}"#)
    }

    @Test func monitorLines() {
        let m = MonitorFormatter(time: text)
        let now = at(14, 20, 0) + 5000
        #expect(m.text(.signal("BreakStarted", [.uint64(UInt64(at(14, 20, 20)))]), at: now) == ["2024-11-29 14:20:00.005  BreakStarted ends 2024-11-29 14:20:20"])
        #expect(m.text(.properties([("State", .string("break")), ("PausedUntil", .uint64(0)), ("Sound", .bool(false))]), at: now) == [
            "2024-11-29 14:20:00.005  State = break",
            "2024-11-29 14:20:00.005  PausedUntil = none",
            "2024-11-29 14:20:00.005  Sound = false",
        ])
        #expect(m.text(.service(running: false), at: now) == ["2024-11-29 14:20:00.005  service stopped"])
        #expect(m.json(.signal("BreakDue", [.uint64(UInt64(at(14, 20, 0)))]), at: now).map(\.text) == [
            #"{"when":"2024-11-29T14:20:00+01:00","when_us":1732886400005000,"kind":"signal","name":"BreakDue","time":"2024-11-29T14:20:00+01:00","time_us":1732886400000000}"#,
        ])
        #expect(m.json(.properties([("NextBreak", .uint64(0)), ("CompletedToday", .uint32(6))]), at: now).map(\.text) == [
            #"{"when":"2024-11-29T14:20:00+01:00","when_us":1732886400005000,"kind":"property","name":"NextBreak","value":0,"value_iso":null}"#,
            #"{"when":"2024-11-29T14:20:00+01:00","when_us":1732886400005000,"kind":"property","name":"CompletedToday","value":6}"#,
        ])
        #expect(m.json(.service(running: true), at: now).map(\.text) == [
            #"{"when":"2024-11-29T14:20:00+01:00","when_us":1732886400005000,"kind":"service","name":"org.icare.Reminder","running":true}"#,
        ])
    }

    @Test func jsonEscapes() {
        #expect(JSON.string("a\"b\\c\nd\u{1}é").text == #""a\"b\\c\nd\u0001é""#)
    }
}

@Suite struct WatchScreenTests {
    let screen = WatchScreen(time: text)
    let now = at(14, 20, 0)

    @Test func countdownFrame() {
        let s = status("waiting") { $0.nextBreak = at(14, 30, 0) }
        #expect(screen.render(s, now: now, columns: 24, rows: 30) == [
            "  iCare · 20-20-20",
            "  ",
            "  Next break in",
            "  10:00",
            "  ██████████░░░░░░░░░░",
            "  at 14:30",
            "  ",
            "  State           waitin",
            "  Today           5 comp",
            "  Do not disturb  off",
            "  ",
            "  s start  z snooze  k s",
        ])
    }

    @Test func breakFrameShowsTheBreakCountdown() {
        let s = status("break") { $0.breakEnds = at(14, 20, 15); $0.nextBreak = at(14, 40, 15) }
        let lines = screen.render(s, now: now, columns: 80, rows: 30, message: "Break started.")
        #expect(lines[2] == "  Break: look at something 20 feet (6 m) away")
        #expect(lines[3] == "  0:15")
        #expect(lines[4] == "  " + String(repeating: "█", count: 30) + String(repeating: "░", count: 10))
        #expect(lines[5] == "  ends at 14:20:15")
        #expect(lines.last == "  Break started.")
    }

    /// Under `icared --time-scale 60` a 20-minute interval lasts 20 s: the
    /// bar is a part of that, not of the setting's 1200 s.
    @Test func theBarFollowsTheServicesTimeScale() {
        let s = status("waiting") { $0.nextBreak = at(14, 20, 15); $0.apply(["TimeScale": .uint32(60)]) }
        #expect(s.realInterval == 20)
        #expect(screen.render(s, now: now, columns: 24, rows: 30)[4] == "  " + String(repeating: "█", count: 15) + String(repeating: "░", count: 5))
        #expect(StatusFormatter(time: text).percentage(s, now: now) == 25)
        #expect(screen.render(s, now: now, columns: 24, rows: 30)[5] == "  at 14:20:15")
        // A service that does not say (an older one) is real time; 3600 rounds up to a second.
        #expect(status("waiting").realInterval == 1200)
        #expect(status("waiting") { $0.apply(["TimeScale": .uint32(3600)]) }.realInterval == 1)
    }

    @Test func notRunningFrame() {
        #expect(screen.render(nil, now: now, columns: 80, rows: 30)[2] == "  iCare is not running.")
    }
}

@Suite struct GeneratedDocsTests {
    @Test func helpComesFromTheTable() {
        let help = HelpText.overview()
        for spec in CommandTable.commands { #expect(help.contains("  \(spec.name)"), "overview lists \(spec.name)") }
        #expect(HelpText.command(CommandTable.command("snooze")!) == """
            icarectl snooze: Postpone the reminder

            Usage: icarectl snooze [DURATION]

            Postpones the due or next reminder. Without a duration, or with 0, by the
            configured SnoozeDuration. During a break, the break ends early and is not
            recorded.

            Arguments:
              DURATION  A duration such as 90s, 5m or 1h30m (a bare number is seconds).

            Options:
              --no-color  Never colour the output (also when NO_COLOR is set).
              -h, --help  Show help for this command.

            Examples:
              icarectl snooze
              icarectl snooze 10m

            """)
        #expect(CommandTable.command("history")!.usage == "icarectl history [today | yesterday | YYYY-MM-DD] [--days N] [--json] [--csv]")
    }

    @Test func noHealthClaimsBeyondEyeStrain() {
        let all = HelpText.overview() + CommandTable.commands.map(HelpText.command).joined() + ManPage.render()
        for word in ["myopia", "prevent", "cure", "nearsighted"] { #expect(!all.lowercased().contains(word)) }
        #expect(all.contains("relieves eye strain"))
    }

    @Test func completionsAndManPageCoverEveryCommand() {
        for shell in Shell.allCases {
            let script = Completions.script(for: shell)
            for spec in CommandTable.commands { #expect(script.contains(spec.name), "\(shell) completes \(spec.name)") }
            #expect(script.contains("Interval"))
            #expect(script.contains("waybar"))
        }
        let man = ManPage.render()
        #expect(man.hasPrefix(".TH ICARECTL 1"))
        for spec in CommandTable.commands { #expect(man.contains(".B \(spec.name)")) }
        #expect(man.contains(".SH JSON OUTPUT"))
        #expect(man.contains(".SH EXIT STATUS"))
    }
}
