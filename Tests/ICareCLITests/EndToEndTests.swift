import Testing
import Foundation
import TestSupport
import ICareCLI
import ReminderCore

/// The built `icarectl` against the real `icared` on a private bus: whole
/// outputs and exit codes.
@Suite(.serialized) struct EndToEndTests {
    let usage = Int32(64)

    @Test func serviceNotRunningSaysHowToStartIt() throws {
        let h = try ServiceHarness(start: false)
        defer { h.stop() }
        for args in [[], ["status"], ["status", "--format", "waybar"], ["pause"], ["get", "interval"], ["set", "sound", "off"], ["history", "--days", "7"]] {
            let r = try icarectl(h, args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout == "", "\(args)")
            #expect(r.stderr == "iCare is not running; start it with 'systemctl --user start icared' (or run 'icared').\n", "\(args)")
        }
    }

    @Test func noSessionBusIsOneSentence() throws {
        let h = try ServiceHarness(start: false)
        defer { h.stop() }
        let r = try icarectl(h, ["status"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Could not reach your desktop session ("))
        #expect(r.stderr.hasSuffix("); run icarectl inside the session where iCare runs.\n"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrorsExitWith64AndShowUsage() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let cases: [([String], String)] = [
            (["snooze", "soon"], "Error: 'soon' is not a duration; write a value like 90s, 5m or 1h30m.\nUsage: icarectl snooze [DURATION]\nSee 'icarectl snooze --help'.\n"),
            (["pause", "until", "25:00"], "Error: '25:00' is not a time; write HH:MM on the 24-hour clock, e.g. 17:30.\nUsage: icarectl pause [DURATION | until HH:MM | toggle]\nSee 'icarectl pause --help'.\n"),
            (["get", "intervl"], "Error: 'intervl' is not a setting. Did you mean 'Interval'?\nUsage: icarectl get [KEY] [--json]\nSee 'icarectl get --help'.\n"),
            (["set", "colour", "blue"], "Error: 'colour' is not a setting. The settings are Interval, BreakDuration, SnoozeDuration, ActiveHours, WeekdaysOnly, DndPolicy, Sound, BusyPolicy, StatusItem, PhoneReminders, FullScreenReminders.\nUsage: icarectl set KEY VALUE\nSee 'icarectl set --help'.\n"),
            (["set", "sound", "loud"], "Error: Sound must be true or false.\nUsage: icarectl set KEY VALUE\nSee 'icarectl set --help'.\n"),
            (["stauts"], "Error: 'stauts' is not a command. Did you mean 'status'?\nUsage: icarectl [COMMAND] [OPTIONS]\nSee 'icarectl --help' for the commands.\n"),
            (["history", "--days", "0"], "Error: --days takes a number of days from 1 to 366, not '0'.\nUsage: icarectl history [today | yesterday | YYYY-MM-DD] [--days N] [--json] [--csv]\nSee 'icarectl history --help'.\n"),
        ]
        for (args, stderr) in cases {
            let r = try icarectl(h, args)
            #expect(r.status == usage, "\(args)")
            #expect(r.stdout == "", "\(args)")
            #expect(r.stderr == stderr, "\(args)")
        }
        // Nothing changed on the service.
        #expect(try h.string("State") == "waiting")
    }

    @Test func helpAndVersion() throws {
        let h = try ServiceHarness(start: false)
        defer { h.stop() }
        let help = try icarectl(h, ["snooze", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout == HelpText.command(CommandTable.command("snooze")!))
        let version = try icarectl(h, ["--version"])
        #expect(version.stdout == "icarectl \(CommandTable.version)\n")
        #expect(version.status == 0)
    }

    @Test func settingsRoundTripWithTheirDBusTypes() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        #expect(try icarectl(h, ["get"]).stdout == """
            Interval             20m
            BreakDuration        20s
            SnoozeDuration       5m
            ActiveHours          always
            WeekdaysOnly         false
            DndPolicy            pause
            Sound                true
            BusyPolicy           defer
            StatusItem           true
            PhoneReminders       false
            FullScreenReminders  false

            """)
        let cases: [([String], String, String, String)] = [
            (["set", "interval", "25m"], "Interval is now 25m.\n", "Interval", "u 1500"),
            (["set", "BreakDuration", "30s"], "BreakDuration is now 30s.\n", "BreakDuration", "u 30"),
            (["set", "snoozeduration", "10m"], "SnoozeDuration is now 10m.\n", "SnoozeDuration", "u 600"),
            (["set", "activehours", "09:00-17:30"], "ActiveHours is now 09:00-17:30.\n", "ActiveHours", "s \"09:00-17:30\""),
            (["set", "weekdaysonly", "true"], "WeekdaysOnly is now true.\n", "WeekdaysOnly", "b true"),
            (["set", "dndpolicy", "defer"], "DndPolicy is now defer.\n", "DndPolicy", "s \"defer\""),
            (["set", "sound", "off"], "Sound is now false.\n", "Sound", "b false"),
            (["set", "busypolicy", "PAUSE"], "BusyPolicy is now pause.\n", "BusyPolicy", "s \"pause\""),
            (["set", "activehours", "always"], "ActiveHours is now always.\n", "ActiveHours", "s \"\""),
            (["set", "phonereminders", "on"], "PhoneReminders is now true.\n", "PhoneReminders", "b true"),
            (["set", "fullscreenreminders", "yes"], "FullScreenReminders is now true.\n", "FullScreenReminders", "b true"),
        ]
        for (args, out, property, busctl) in cases {
            let r = try icarectl(h, args)
            #expect(r.status == 0, "\(args): \(r)")
            #expect(r.stdout == out)
            #expect(try h.property(property) == busctl)
        }
        #expect(try icarectl(h, ["get", "interval"]).stdout == "25m\n")
        #expect(try icarectl(h, ["get", "--json"]).stdout
            == #"{"Interval":1500,"BreakDuration":30,"SnoozeDuration":600,"ActiveHours":"","WeekdaysOnly":true,"DndPolicy":"defer","Sound":false,"BusyPolicy":"pause","StatusItem":true,"PhoneReminders":true,"FullScreenReminders":true}"# + "\n")
        #expect(try icarectl(h, ["get", "sound", "--json"]).stdout == #"{"Sound":false}"# + "\n")
    }

    @Test func outOfRangeValueShowsTheServiceSentence() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let r = try icarectl(h, ["set", "interval", "5m"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == SettingKey.interval.allowed + "\n")
        #expect(try h.property("Interval") == "u 1200")
        let snooze = try icarectl(h, ["snooze", "10s"])
        #expect(snooze.status == 1)
        #expect(snooze.stderr.split(separator: "\n").count == 1)
        #expect(!snooze.stderr.contains("org.freedesktop"))
    }

    @Test func pauseStatusAndResume() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let paused = try icarectl(h, ["pause"])
        #expect(paused.stdout == "Paused until you resume ('icarectl resume').\n")
        #expect(paused.status == 0)
        let status = try icarectl(h, [])
        #expect(status.status == 0)
        #expect(status.stdout == """
            State:          paused by you
            Paused until:   you resume (icarectl resume)
            Next break:     not scheduled
            Today:          0 completed, 0 skipped
            Do not disturb: off
            Sound:          played by iCare

            """)
        #expect(try icarectl(h, ["status", "--format", "plain"]).stdout == "paused\n")
        #expect(try icarectl(h, ["status", "--format", "waybar"]).stdout
            == #"{"text":"paused","alt":"paused","tooltip":"Paused until you resume\nToday: 0 completed, 0 skipped","class":"paused","percentage":0}"# + "\n")
        let json = try icarectl(h, ["status", "--json"]).stdout
        #expect(keys(json) == ["running", "state", "pause_reason", "next_break", "next_break_us", "seconds_to_next_break", "break_ends",
                               "break_ends_us", "paused_until", "paused_until_us", "completed_today", "skipped_today", "missed_today", "do_not_disturb",
                               "do_not_disturb_source", "service_version", "now", "now_us", "config_problems",
                               "busy", "busy_source", "busy_reason", "desktop_eye_breaks", "sound_played_by", "phones", "sandbox_limits"])
        let o = try jsonObject(json)
        #expect(o["state"] as? String == "paused")
        #expect(o["pause_reason"] as? String == "user")
        #expect(o["next_break"] is NSNull)
        #expect(o["next_break_us"] as? Int == 0)

        // A D-Bus error is its sentence.
        let snooze = try icarectl(h, ["snooze"])
        #expect(snooze.status == 1)
        #expect(snooze.stdout == "")
        #expect(snooze.stderr.split(separator: "\n").count == 1)
        #expect(!snooze.stderr.contains("org.icare.Reminder.Error"))

        let resumed = try icarectl(h, ["resume"])
        #expect(resumed.status == 0)
        let next = try jsonObject(try icarectl(h, ["status", "--json"]).stdout)["next_break"] as? String ?? ""
        #expect(resumed.stdout == "Resumed; the next break is at \(clockFromToday(next)).\n")

        let timed = try icarectl(h, ["pause", "30m"])
        let until = try jsonObject(try icarectl(h, ["status", "--json"]).stdout)["paused_until"] as? String ?? ""
        #expect(timed.stdout == "Paused until \(clockFromToday(until)).\n")
    }

    @Test func pauseUntilATime() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        // Two hours from now, on the minute, in UTC.
        let target = Date().addingTimeInterval(7200)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let hm = cal.dateComponents([.hour, .minute], from: target)
        let text = String(format: "%02d:%02d", hm.hour!, hm.minute!)
        let r = try icarectl(h, ["pause", "until", text])
        #expect(r.status == 0, "\(r)")
        let expected = cal.date(bySettingHour: hm.hour!, minute: hm.minute!, second: 0, of: target)!
        let pausedUntil = Double(try h.number("PausedUntil")) / 1e6
        #expect(abs(pausedUntil - expected.timeIntervalSince1970) <= 1.5)
        #expect(r.stdout == "Paused until \(text).\n" || r.stdout == "Paused until tomorrow \(text).\n")
    }

    @Test func skipStartAndHistory() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        let empty = try icarectl(h, ["history", "today"])
        let today = utcDay()
        #expect(empty.stdout == "No breaks on \(today.weekday) \(today.date) yet.\n")
        let skipped = try icarectl(h, ["skip"])
        #expect(skipped.status == 0)
        #expect(skipped.stdout.hasPrefix("Skipped; the next break is at "))
        let json = try icarectl(h, ["history", "--json"]).stdout
        let o = try jsonObject(json)
        let breaks = try #require(o["breaks"] as? [[String: Any]])
        #expect(breaks.count == 1)
        let at = try #require(breaks.first?["at"] as? String)
        #expect(breaks.first?["outcome"] as? String == "skipped")
        #expect(keys(json) == ["date", "from", "from_us", "to", "to_us", "breaks", "at", "at_us", "outcome", "seconds", "completed", "skipped", "missed"])
        #expect(try icarectl(h, ["history"]).stdout == """
            Breaks on \(today.weekday) \(today.date):
              \(clock(at, seconds: true))  skipped
            Total: 0 completed, 1 skipped

            """)
        let y = utcDay(offsetDays: -1), b = utcDay(offsetDays: -2)
        #expect(try icarectl(h, ["history", "--days", "3"]).stdout == """
            Breaks, last 3 days (█ completed, ░ skipped or missed):
            \(b.weekday) \(b.date)     0 completed, 0 skipped
            \(y.weekday) \(y.date)     0 completed, 0 skipped
            \(today.weekday) \(today.date)  ░  0 completed, 1 skipped
            Total: 0 completed, 1 skipped (0% completed)

            """)
        #expect(try icarectl(h, ["history", "yesterday"]).stdout == "No breaks on \(y.weekday) \(y.date).\n")
        let start = try icarectl(h, ["start"])
        #expect(start.status == 0)
        #expect(start.stdout.hasPrefix("Break started: look at something 20 feet (6 m) away until "))
        #expect(try icarectl(h, ["status"]).stdout.hasPrefix("State:          on a break\nBreak ends:     "))
        #expect(try icarectl(h, ["status", "--format", "plain"]).stdout == "on break\n")
        let again = try icarectl(h, ["start"])
        #expect(again.status == 1)
        #expect(again.stderr.split(separator: "\n").count == 1)
    }

    @Test func monitorPrintsOneLinePerEvent() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        var env = h.environment
        env["TZ"] = "UTC"
        let text = try Collected([try Products.path("icarectl"), "monitor"], environment: env)
        let json = try Collected([try Products.path("icarectl"), "monitor", "--json"], environment: env)
        defer { text.stop(); json.stop() }
        // The subscription is asynchronous: provoke until it shows.
        let seen = try waitUntil(timeout: 10, interval: 0.1) {
            try h.call("Pause", "u", "0")
            try h.call("Resume")
            return text.text.contains("State = paused") && json.text.contains(#""name":"State","value":"paused""#)
        }
        #expect(seen, "monitor: \(text.text) \(json.text)")
        try h.call("StartBreak")
        #expect(waitUntil(timeout: 5) { text.text.contains("BreakStarted ends ") && json.text.contains(#""kind":"signal","name":"BreakStarted""#) })
        for line in text.lines {
            #expect(line.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}  \S"#, options: .regularExpression) != nil, "\(line)")
        }
        for line in json.lines { #expect(try jsonObject(line)["when_us"] is Int) }
        // The service going away is an event too.
        h.kill9()
        #expect(waitUntil(timeout: 5) { text.text.contains("service stopped") })
    }

    @Test func followPrintsOnEveryChangeWithoutPolling() throws {
        let h = try ServiceHarness()
        defer { h.stop() }
        var env = h.environment
        env["TZ"] = "UTC"
        let bar = try Collected([try Products.path("icarectl"), "status", "--format", "waybar", "--follow"], environment: env)
        defer { bar.stop() }
        #expect(waitUntil(timeout: 5) { bar.lines.count >= 1 })
        #expect(try jsonObject(bar.lines[0])["class"] as? String == "waiting")
        try h.call("Pause", "u", "0")
        #expect(waitUntil(timeout: 5) { bar.lines.last?.contains(#""class":"paused""#) == true }, "\(bar.text)")
        let count = bar.lines.count
        try h.call("Resume")
        #expect(waitUntil(timeout: 5) { bar.lines.count > count && bar.lines.last?.contains(#""class":"waiting""#) == true })
        // Quiet when nothing happens: no line within two seconds (the next is due on the minute).
        let quiet = bar.lines.count
        Thread.sleep(forTimeInterval: 2)
        #expect(bar.lines.count <= quiet + 1)
        // The service stops: the module empties itself and waits.
        h.kill9()
        #expect(waitUntil(timeout: 5) { bar.lines.last == #"{"text":"","alt":"stopped","tooltip":"iCare is not running","class":"stopped","percentage":0}"# })
        try h.start()
        #expect(waitUntil(timeout: 5) { bar.lines.last?.contains(#""class":"waiting""#) == true }, "\(bar.text)")
    }
}
