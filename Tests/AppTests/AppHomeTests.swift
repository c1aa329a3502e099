import Foundation
import Testing
import TestSupport
import LoopSupport

/// The app's home view, as a person meets it: the real `icare` on Xvfb
/// against the real icared on a private bus, read and pressed through the
/// accessibility tree (what a screen reader reads and does), checked against
/// the service's own properties (busctl) and changed with `icarectl`.
@Suite(.serialized) struct AppHomeTests {
    /// The buttons of the window's frame and header, not the home view's actions.
    static let chrome: Set<String> = ["Main Menu", "Preferences", "Minimize", "Maximize", "Close"]
    static let pauses = ["Pause for 30 min", "Pause for 1 hour", "Pause until resumed"]

    static func actions(_ rig: AppRig) throws -> [String] { try rig.buttons().filter { !chrome.contains($0) } }

    /// `HH:MM` of a service timestamp (µs), in the test's local zone as the app (in C.UTF-8) writes it.
    static func clock(_ micros: UInt64, seconds: Bool = false) -> String {
        let f = DateFormatter()
        f.dateFormat = seconds ? "HH:mm:ss" : "HH:mm"
        return f.string(from: Date(timeIntervalSince1970: Double(micros) / 1e6))
    }

    /// The time as the window words it: "tomorrow 00:07" when it is not today (a run near midnight);
    /// `tomorrow` is the word in the window's language.
    static func words(_ micros: UInt64, seconds: Bool = false, tomorrow: String = "tomorrow") -> String {
        let today = Calendar.current.isDateInToday(Date(timeIntervalSince1970: Double(micros) / 1e6))
        return (today ? "" : tomorrow + " ") + clock(micros, seconds: seconds)
    }

    static func waitForState(_ s: ServiceHarness, _ state: String) throws {
        guard try waitUntil(timeout: 10, { try s.string("State") == state }) else {
            throw HarnessError("icared never reached \(state); it is \(try s.string("State"))\n\(s.log)")
        }
    }

    static func icarectl(_ rig: AppRig, _ args: [String]) throws -> ProcessResult {
        let r = try Subprocess.run([try Products.path("icarectl")] + args, environment: rig.service.environment)
        guard r.status == 0 else { throw HarnessError("icarectl \(args) failed: \(r)") }
        return r
    }

    @Test func waitingPausedResumedAndABreakSkipped() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        let s = rig.service

        // Waiting: the ring named with the state, the time left in it, the actions that make sense.
        let next = Self.words(try s.number("NextBreak"))
        let home = try rig.waitForStateWords("Next break at \(next)")
        #expect(home.contains { $0.role == "image" && $0.name == "Next break at \(next)" }, "the ring is named: \(home)")
        let buttons = home.filter { $0.role == "push button" }
        // (A menu button is two elements of one name, GtkMenuButton and its inner toggle; the inner one takes the keyboard.)
        #expect(buttons.allSatisfy { b in !b.name.isEmpty && buttons.contains { $0.name == b.name && $0.focusable } },
                "every button takes the keyboard and has a name: \(buttons)")
        // The minutes left, drawn in the ring, are its description for screen readers.
        let ring = try #require(home.first { $0.role == "image" && $0.name.hasPrefix("Next break at ") })
        #expect(ring.detail == "20 min" || ring.detail == "19 min", "\(ring)")
        #expect(try Self.actions(rig) == ["Start break now"] + Self.pauses)
        #expect(try rig.texts().contains("0 completed, 0 skipped"))
        #expect(try rig.texts().contains("No breaks yet today."))

        // Each pause, pressed; then Resume.
        for (button, seconds) in [("Pause for 30 min", 1800), ("Pause for 1 hour", 3600), ("Pause until resumed", 0)] {
            let before = Date().timeIntervalSince1970
            try rig.press(button)
            try Self.waitForState(s, "paused")
            #expect(try s.string("PauseReason") == "user")
            let until = try s.number("PausedUntil")
            if seconds == 0 {
                #expect(until == 0)
                try rig.waitForText("Paused until you resume")
            } else {
                let length = Double(until) / 1e6 - before
                #expect(length >= Double(seconds) - 1 && length <= Double(seconds) + 5, "\(button): paused for \(length) s")
                try rig.waitForText("Paused until \(Self.words(until))")
            }
            #expect(try Self.actions(rig) == ["Resume"], "\(button)")
            try rig.press("Resume")
            try Self.waitForState(s, "waiting")
            try rig.waitForHome("the waiting state again") { $0.contains { $0.name.hasPrefix("Next break at ") } }
            #expect(try Self.actions(rig) == ["Start break now"] + Self.pauses)
        }

        // A change made with icarectl shows in the window (the app follows the service's signals).
        _ = try Self.icarectl(rig, ["pause", "30m"])
        try rig.waitForText("Paused until \(Self.words(try s.number("PausedUntil")))", timeout: 5)
        _ = try Self.icarectl(rig, ["resume"])
        try rig.waitForHome("the resume made with icarectl") { $0.contains { $0.name.hasPrefix("Next break at ") } }

        // Start: the break's countdown and what to do; Skip: a skipped break in today's list and the chart.
        try rig.press("Start break now")
        try Self.waitForState(s, "break")
        let ends = Self.words(try s.number("BreakEnds"), seconds: true)
        try rig.waitForText("Break until \(ends)")
        #expect(try rig.texts().contains("Look at something 20 feet (6 m) away for 10 seconds."))
        let during = try rig.home().first { $0.role == "image" && $0.name.hasPrefix("Break until ") }
        #expect(during?.detail.hasPrefix("0:") == true, "the countdown in the ring: \(String(describing: during))")
        #expect(try Self.actions(rig) == ["Skip this break"] + Self.pauses)
        try rig.press("Skip this break")
        try Self.waitForState(s, "waiting")
        #expect(try s.number("SkippedToday") == 1)
        let after = try rig.waitForText("0 completed, 1 skipped")
        #expect(after.contains { $0.role == "label" && $0.name.hasSuffix("  skipped") }, "today's list: \(after)")
        #expect(AppWeekTests.chart(after).last == "\(AppWeekTests.weekday(Date())): 0 completed, 1 skipped", "the chart: \(after)")
    }

    @Test func dueSnoozedStartedAndCompleted() throws {
        // 100 times faster: a 15-minute interval passes in 9 s, a 30-minute snooze in 18 s; the break is its real 10 s.
        let config = "BreakDuration = 10\nSnoozeDuration = 1800\nSound = false\nInterval = 900\n"
        let rig = try AppRig(config: config, serviceArguments: ["--log-stderr", "--time-scale", "100"])
        defer { rig.stop() }
        let s = rig.service
        try rig.waitForText("Time for an eye break", timeout: 20)
        #expect(try rig.texts().contains("Look at something 20 feet (6 m) away for 10 seconds."))
        #expect(try Self.actions(rig) == ["Start break now", "Snooze 30 min", "Skip this break"] + Self.pauses)
        try rig.press("Snooze 30 min")
        try Self.waitForState(s, "snoozed")
        try rig.waitForText("Snoozed until \(Self.words(try s.number("NextBreak")))")
        #expect(try Self.actions(rig) == ["Start break now"] + Self.pauses)
        try rig.press("Start break now")
        try Self.waitForState(s, "break")
        let done = try rig.waitForText("1 completed, 0 skipped", timeout: 20)
        #expect(done.contains { $0.role == "label" && $0.name.hasSuffix("  completed (10 s)") }, "today's list: \(done)")
        #expect(AppWeekTests.chart(done).last == "\(AppWeekTests.weekday(Date())): 1 completed, 0 skipped", "the chart: \(done)")
        #expect(try s.number("CompletedToday") == 1)
    }

    @Test func outsideTheActiveHours() throws {
        // Active from two hours from now for one hour: now is outside.
        let now = Date()
        let f = DateFormatter()
        f.dateFormat = "HH:mm"
        let from = f.string(from: now.addingTimeInterval(7200)), to = f.string(from: now.addingTimeInterval(10800))
        let rig = try AppRig(config: AppRig.config + "ActiveHours = \(from)-\(to)\n")
        defer { rig.stop() }
        let home = try rig.waitForText("Outside active hours")
        // Run in the two hours before midnight, the first break is tomorrow's, and the words say so.
        let first = Self.words(try rig.service.number("NextBreak"))
        #expect(home.contains { $0.role == "label" && $0.name == "The first break is at \(first)." }, "\(home)")
        #expect(try Self.actions(rig) == Self.pauses)
    }
}

/// The desktop in words: do not disturb (GNOME's `show-banners` false in the dconf
/// user database, compiled by the real `dconf compile` and put in place by
/// rename, as dconf-service does), seen by icared through inotify; GNOME's
/// own eyesight breaks, the same way; a call (a real `pw-record` on a real
/// headless PipeWire).
@Suite struct AppDesktopStateTests {
    @Test func doNotDisturbHoldsOrPausesTheReminders() throws {
        let rig = try AppRig(config: AppRig.config + "DndPolicy = defer\n", gnome: true)
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        try rig.writeDconf("[org/gnome/desktop/notifications]\nshow-banners=false\n")
        // defer: the schedule keeps counting, and the window says why no reminder comes.
        try rig.waitForText("Do not disturb is on: reminders wait until it ends.")
        #expect(try rig.service.string("State") == "waiting")
        // pause: the reminders stop while it is on.
        let set = try Subprocess.run([try Products.path("icarectl"), "set", "DndPolicy", "pause"], environment: rig.service.environment)
        #expect(set.status == 0, "\(set)")
        try rig.waitForText("Paused while do not disturb is on")
        #expect(try AppHomeTests.actions(rig) == AppHomeTests.pauses, "no Resume: the pause is not the person's")
    }

    /// GNOME's own eyesight breaks on too (GNOME 48's `selected-breaks`): the window says to keep one, and where.
    @Test func gnomesOwnEyesightBreaksAreNamed() throws {
        let rig = try AppRig(gnome: true)
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        try rig.writeDconf("[org/gnome/desktop/break-reminders]\nselected-breaks=['eyesight']\n")
        let sentence = "GNOME's own eyesight breaks are on too. Keep one: turn them off in Settings (Wellbeing), or stop iCare."
        try rig.waitForText(sentence)
        #expect(try rig.service.property("DesktopEyeBreaks") == "b true")
        try rig.press("Preferences")
        let prefs = try rig.waitForPreferences("the GNOME group") { $0.contains { $0.name == "GNOME's eyesight breaks" } }
        #expect(prefs.contains { $0.role == "label" && $0.name == sentence }, "\(prefs)")
    }

    /// In a call: a microphone recording on PipeWire. Under `defer` the window says why no reminder comes; under `pause`, it is paused.
    @Test func aCallHoldsOrPausesTheReminders() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        let pipeWire = try HeadlessPipeWire(environment: rig.service.environment)
        defer { pipeWire.stop() }
        let call = try pipeWire.stream(["pw-record", "-P", "{ application.name = Meeting }", rig.work.path + "/voice.wav"])
        try rig.waitForText("Busy: in a call or a video.", timeout: 15)
        #expect(try rig.service.property("Busy") == "b true")
        let set = try Subprocess.run([try Products.path("icarectl"), "set", "BusyPolicy", "pause"], environment: rig.service.environment)
        #expect(set.status == 0, "\(set)")
        try rig.waitForText("Paused during a call or video")
        call.terminate()
        try rig.waitForHome(timeout: 15, "the end of the call") { $0.contains { $0.name.hasPrefix("Next break at ") } }
    }

    /// A window in full screen on GNOME, as iCare's Shell extension tells it (`FakeShellRing` has its
    /// shape): under `defer` the window says why no reminder comes, under `pause` it is paused for the
    /// full screen, not for a call; when the window leaves full screen the countdown is back.
    @Test func aFullScreenWindowHoldsOrPausesTheReminders() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        let desktop = try LoopThread()
        desktop.start()
        defer { desktop.stop() }
        let shell = FakeShellRing(fullscreen: true)
        try shell.appear(on: desktop, address: rig.service.bus.address)
        try rig.waitForText("Busy: a window is in full screen.", timeout: 15)
        #expect(try rig.service.string("BusySource") == "full-screen")
        let set = try Subprocess.run([try Products.path("icarectl"), "set", "BusyPolicy", "pause"], environment: rig.service.environment)
        #expect(set.status == 0, "\(set)")
        try rig.waitForText("Paused while a window is in full screen")
        try desktop.sync { shell.set(false) }
        try rig.waitForHome(timeout: 15, "the full screen left") { $0.contains { $0.name.hasPrefix("Next break at ") } }
    }
}
