import Foundation
import Testing
import TestSupport

/// The paths a person meets when something is in the way: icared refusing a
/// call (its answer shown in words), icared that cannot be started (the Try
/// again button), a locked screen (a real dbusmock
/// org.freedesktop.ScreenSaver, as KDE serves it; DBusMockTemplates), and a
/// weekend with "weekdays only" on.
@Suite struct AppTroubleTests {
    /// icared answers Skip with an error when the break cannot be saved (today's history file is a
    /// folder here, which even root cannot open for writing): the window shows icared's sentence.
    @Test func aRefusedCallIsShownInWords() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        let s = rig.service
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        try rig.press("Start break now")
        try AppHomeTests.waitForState(s, "break")
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        let day = s.stateDirectory + "/history/" + f.string(from: Date())
        try FileManager.default.createDirectory(atPath: day, withIntermediateDirectories: true)
        try rig.press("Skip this break")
        let shown = try rig.waitForHome("icared's error in the window") {
            $0.contains { $0.role == "label" && $0.name.hasPrefix("The break could not be saved to the history, so nothing was changed") }
        }
        #expect(try s.string("State") == "break", "nothing changed: \(shown)")
        let actions = try AppHomeTests.actions(rig)
        #expect(Array(actions.prefix(4)) == ["Skip this break"] + AppHomeTests.pauses, "\(actions)")
    }

    /// The bus cannot start icared (its service file runs a program that fails until a flag file
    /// exists): the window says so with what to do. Then icared could start, but nothing asks
    /// the bus until Try again is pressed; pressed, the bus starts it and the home view shows.
    @Test func tryAgainActivatesIcaredOnceItCanStart() throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("icare-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let bus = try PrivateBus(serviceDirectory: services.path)
        let rig = try AppRig(startService: false, bus: bus, startApp: false)
        defer { rig.stop() }
        let flag = rig.work.appendingPathComponent("may-start").path
        let script = services.appendingPathComponent("start-icared").path
        try "#!/bin/sh\n[ -e '\(flag)' ] || exit 3\nexec \(try rig.icaredCommand())\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        guard chmod(script, 0o755) == 0 else { throw HarnessError("chmod failed") }
        try "[D-BUS Service]\nName=org.icare.Reminder\nExec=\(script)\n"
            .write(to: services.appendingPathComponent("org.icare.Reminder.service"), atomically: true, encoding: .utf8)
        try rig.launchApp()
        let absent = try rig.waitForHome("the sentence for a service that could not start") {
            $0.contains { $0.role == "label" && $0.name == "iCare could not be started; try 'systemctl --user start icared' and see 'journalctl --user -u icared'." }
        }
        #expect(absent.contains { $0.name == "iCare is not running" })
        #expect(absent.contains { $0.role == "push button" && $0.name == "Try again" })
        _ = FileManager.default.createFile(atPath: flag, contents: nil)
        Thread.sleep(forTimeInterval: 2)
        #expect(try !rig.service.nameHasOwner(), "nothing asked the bus again by itself")
        #expect(try rig.home().contains { $0.name == "iCare is not running" })
        try rig.press("Try again")
        try rig.expectActivatedIcaredThenEndIt()
    }

    /// A locked screen (org.freedesktop.ScreenSaver active): paused, in words, with no Resume (not the person's pause).
    @Test func aLockedScreenIsNamed() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        let template = try DBusMockTemplates.freedesktopScreenSaver(in: rig.work)
        try rig.startGroup(["/usr/bin/python3", "-m", "dbusmock", "--template", template, "-p", "{\"active\": true}"], log: "screensaver.log")
        let home = try rig.waitForStateWords("Paused while the screen is locked", timeout: 15)
        #expect(try rig.service.string("PauseReason") == "locked")
        #expect(home.contains { $0.role == "image" && $0.name == "Paused while the screen is locked" }, "the ring says it too")
        #expect(try AppHomeTests.actions(rig) == AppHomeTests.pauses, "no Resume: the pause is not the person's")
    }

    /// On a Saturday with "weekdays only" on, the window says why no reminder comes. The app runs days
    /// ahead of the machine's clock (libfaketime, LD_PRELOAD; the monotonic clock left alone); icared
    /// cannot (sd-event's loop fails with EINVAL under libfaketime), so it is made inactive by its active
    /// hours instead, which begin two hours from now: the app's own day decides the words.
    @Test func theWeekendIsNamed() throws {
        let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        guard FileManager.default.fileExists(atPath: library) else { throw HarnessError("\(library) is missing; scripts/deps.sh --test installs libfaketime") }
        let weekday = Calendar(identifier: .gregorian).component(.weekday, from: Date())  // 1 is Sunday, 7 Saturday
        let days = weekday == 1 ? 0 : 7 - weekday
        let clock = ["LD_PRELOAD": library, "FAKETIME": "+\(days)d", "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
        let f = DateFormatter()
        f.dateFormat = "HH:mm"
        let hours = f.string(from: Date().addingTimeInterval(7200)) + "-" + f.string(from: Date().addingTimeInterval(10800))
        let rig = try AppRig(config: AppRig.config + "WeekdaysOnly = true\nActiveHours = \(hours)\n", appEnvironment: clock)
        defer { rig.stop() }
        try rig.waitForHome("the weekend's words") { $0.contains { $0.name == "Weekend: no reminders today" } }
        #expect(try rig.service.string("State") == "inactive")
        #expect(try AppHomeTests.actions(rig) == AppHomeTests.pauses)
    }
}
