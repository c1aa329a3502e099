import Foundation
import Testing
import TestSupport

/// The preferences window: each setting changed through the accessibility
/// tree (a spin button's value, a switch toggled, a policy's button pressed),
/// then seen in the service's `Properties.Get` and in the config file it
/// writes; a change made with `icarectl set` shown in the window; the config
/// file's problems shown with what to do.
@Suite(.serialized) struct AppPreferencesTests {
    static func config(_ rig: AppRig) -> String {
        (try? String(contentsOfFile: rig.service.configDirectory + "/config", encoding: .utf8)) ?? ""
    }

    /// Waits until busctl reads `expected` for `property` and the config file has `line`.
    static func expectSaved(_ rig: AppRig, _ property: String, _ expected: String, _ line: String) throws {
        let ok = try waitUntil(timeout: 10) {
            try rig.service.property(property) == expected && config(rig).split(separator: "\n").contains(Substring(line))
        }
        let now = try rig.service.property(property)
        #expect(ok, "\(property) is \(now); config:\n\(config(rig))")
    }

    static func open(_ rig: AppRig) throws -> [Element] {
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        try rig.press("Preferences")
        return try rig.waitForPreferences("its rows") { $0.contains { $0.role == "spin button" && $0.name == "Break every" } }
    }

    @Test func everySettingIsWrittenThroughTheService() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        let prefs = try Self.open(rig)
        // What the service says now: 20 min, 10 s, 5 min, always, sound off (AppRig.config), policies pause and defer.
        func spin(_ name: String) -> Double? { prefs.first { $0.role == "spin button" && $0.name == name }?.value }
        #expect(spin("Break every") == 20, "\(prefs)")
        #expect(spin("Break length") == 10)
        #expect(spin("Snooze length") == 5)
        #expect(prefs.first { $0.name == "Sound" && $0.role == "check box" }?.checked == false)
        #expect(prefs.contains { $0.role == "label" && $0.name == "15 to 45 minutes" }, "the service's range")
        let controls = prefs.filter { ["spin button", "check box", "push button"].contains($0.role) }
        #expect(controls.count >= 16 && controls.allSatisfy { $0.focusable && !$0.name.isEmpty },
                "every control takes the keyboard and has a name: \(controls.filter { !$0.focusable || $0.name.isEmpty })")

        try rig.setValue("Break every", 30)
        try Self.expectSaved(rig, "Interval", "u 1800", "Interval = 30m")
        try rig.setValue("Break length", 25)
        try Self.expectSaved(rig, "BreakDuration", "u 25", "BreakDuration = 25s")
        try rig.setValue("Snooze length", 10)
        try Self.expectSaved(rig, "SnoozeDuration", "u 600", "SnoozeDuration = 10m")

        // Active hours: on (09:00-17:30 to start with), then a span over midnight.
        try rig.press("Only during active hours", role: "check box")
        try Self.expectSaved(rig, "ActiveHours", "s \"09:00-17:30\"", "ActiveHours = 09:00-17:30")
        try rig.setValue("From", 22 * 60)
        try rig.setValue("To", 6 * 60)
        try Self.expectSaved(rig, "ActiveHours", "s \"22:00-06:00\"", "ActiveHours = 22:00-06:00")
        try rig.press("Only during active hours", role: "check box")
        try Self.expectSaved(rig, "ActiveHours", "s \"\"", "ActiveHours = ")

        try rig.press("Weekdays only", role: "check box")
        try Self.expectSaved(rig, "WeekdaysOnly", "b true", "WeekdaysOnly = true")
        try rig.press("Sound", role: "check box")
        try Self.expectSaved(rig, "Sound", "b true", "Sound = true")
        try rig.press("Ring in the panel", role: "check box")
        try Self.expectSaved(rig, "StatusItem", "b false", "StatusItem = false")
        // The phone: no phone is linked on this bus, and the row says how to link one (docs/phones.md).
        #expect(prefs.contains { $0.role == "label" && $0.name.hasSuffix("through KDE Connect or GSConnect. No phone is linked now.") },
                "\(prefs.filter { $0.role == "label" })")
        try rig.press("Remind my phone too", role: "check box")
        try Self.expectSaved(rig, "PhoneReminders", "b true", "PhoneReminders = true")

        try rig.press("Ignore", role: "push button", within: "When do not disturb is on")
        try Self.expectSaved(rig, "DndPolicy", "s \"ignore\"", "DndPolicy = ignore")
        try rig.press("Pause", role: "push button", within: "During a call, a screen share or a video")
        try Self.expectSaved(rig, "BusyPolicy", "s \"pause\"", "BusyPolicy = pause")
        try rig.press("Remind over full-screen windows", role: "check box")
        try Self.expectSaved(rig, "FullScreenReminders", "b true", "FullScreenReminders = true")
        let after = try rig.waitForPreferences("the chosen policy explained") { $0.contains { $0.name == "Remind as usual" } }
        // GTK 4.8 gives toggle buttons the push button role, with the pressed state when down.
        #expect(after.first { $0.role == "push button" && $0.name == "Ignore" }?.checked == true, "\(after)")
    }

    /// A real kdeconnectd 22.12 with the fake phone paired on the app's bus: the row names the phone,
    /// and follows it when it goes out of reach.
    @Test func thePhoneRowNamesThePhonesAReminderTaps() throws {
        let bus = try PrivateBus()
        let phone = try KDEConnectRig(busAddress: bus.address)
        defer { phone.stop() }
        try phone.pair()
        let rig = try AppRig(bus: bus)
        defer { rig.stop() }
        _ = try Self.open(rig)
        try rig.waitForPreferences("the phone named") { $0.contains { $0.role == "label" && $0.name == "A tap with each reminder on Pixel 7 (KDE Connect)" } }
        try phone.disconnectPhone()
        try rig.waitForPreferences("no phone any more") { $0.contains { $0.role == "label" && $0.name.hasSuffix("No phone is linked now.") } }
    }

    @Test func aChangeMadeElsewhereAndTheConfigFilesProblemsShow() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        _ = try Self.open(rig)
        let r = try Subprocess.run([try Products.path("icarectl"), "set", "Interval", "25m"], environment: rig.service.environment)
        #expect(r.status == 0, "\(r)")
        try rig.waitForPreferences("the interval set with icarectl") { $0.contains { $0.role == "spin button" && $0.name == "Break every" && $0.value == 25 } }
        // A line the service cannot use: shown with what it keeps, in the preferences and on the home view.
        let file = rig.service.configDirectory + "/config"
        try (Self.config(rig) + "BreakDuration = 5s\n").write(toFile: file, atomically: true, encoding: .utf8)
        let prefs = try rig.waitForPreferences("the config file's problem") { $0.contains { $0.name == "Problems in the config file" } }
        #expect(prefs.contains { $0.role == "label" && $0.name.contains("BreakDuration must be between 10 and 30 seconds.") }, "\(prefs)")
        let home = try rig.waitForHome("the problem on the home view") { $0.contains { $0.name.contains("BreakDuration must be between") } }
        #expect(home.contains { $0.name.hasPrefix("Problems in the config file (a setting with an error keeps its previous value):") })
    }
}
