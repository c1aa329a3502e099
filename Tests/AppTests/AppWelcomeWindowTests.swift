import Foundation
import Testing
import TestSupport

/// The app's welcome (issue 47, item 1), read from the accessibility tree and gone through as a screen
/// reader goes (each button's action): shown on the app's first start in a fresh home, its page of the
/// schedule writing to the service, the ring's, the login's and the desktop's pages in the service's own
/// words, never shown on the second start, and opened again from the main menu.
@Suite(.serialized) struct AppWelcomeWindowTests {
    static let title = "Welcome to iCare"

    /// The welcome window's elements that are on screen: the carousel lays its other pages beside the
    /// shown one, outside the window.
    static func shown(_ rig: AppRig, title: String = title) throws -> [Element] {
        guard let window = try rig.windows().first(where: { $0.first?.name == title }), let frame = window.first else { return [] }
        return window.filter { $0.x >= 0 && $0.x < frame.w }
    }

    @discardableResult
    static func waitForPage(_ rig: AppRig, _ what: String, timeout: TimeInterval = 10, _ condition: ([Element]) -> Bool) throws -> [Element] {
        var seen: [Element] = []
        let ok = try waitUntil(timeout: timeout, interval: 0.1) {
            seen = try shown(rig)
            return condition(seen)
        }
        guard ok else { throw HarnessError("the welcome never showed \(what); it showed \(seen)\napp:\n\(rig.log("app.log"))") }
        return seen
    }

    static func label(_ text: String) -> ([Element]) -> Bool { { $0.contains { $0.role == "label" && $0.name == text } } }

    @Test func shownOnceOnTheFirstStartAndItsScheduleReachesTheService() throws {
        let rig = try AppRig(firstStart: true)
        defer { rig.stop() }
        let rule = "Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain."
        let first = try Self.waitForPage(rig, "the rule", timeout: 20, Self.label(rule))
        #expect(first.contains { $0.role == "push button" && $0.name == "Next" && $0.focusable }, "\(first)")
        #expect(!first.contains { $0.name == "Break every" }, "one page at a time: \(first)")
        let seen = rig.service.appStateDirectory + "/welcome-seen"
        #expect(FileManager.default.fileExists(atPath: seen), "recorded once shown, in the app's own folder")
        #expect(!FileManager.default.fileExists(atPath: rig.service.stateDirectory + "/welcome-seen"), "nothing of the app's in icared's folder")

        try rig.press("Next")
        let schedule = try Self.waitForPage(rig, "the schedule") { $0.contains { $0.role == "spin button" && $0.name == "Break every" } }
        #expect(schedule.first { $0.role == "spin button" && $0.name == "Break every" }?.value == 20, "\(schedule)")
        #expect(schedule.contains { $0.role == "push button" && $0.name == "Back" && $0.sensitive })
        try rig.setValue("Break every", 25)
        try AppPreferencesTests.expectSaved(rig, "Interval", "u 1500", "Interval = 25m")
        try rig.setValue("Break length", 15)
        try AppPreferencesTests.expectSaved(rig, "BreakDuration", "u 15", "BreakDuration = 15s")
        try rig.press("Only during active hours", role: "check box")
        try AppPreferencesTests.expectSaved(rig, "ActiveHours", "s \"09:00-17:30\"", "ActiveHours = 09:00-17:30")
        // And off again: the home view below then says "Next break at" at any hour the suite runs.
        try rig.press("Only during active hours", role: "check box")
        try AppPreferencesTests.expectSaved(rig, "ActiveHours", "s \"\"", "ActiveHours = ")

        // The ring: the service's words for where it is (no panel on this bus).
        try rig.press("Next")
        let ringWords = try Self.capabilityWords(rig, "ring")
        let ring = try Self.waitForPage(rig, "the ring's page", Self.label("The ring"))
        #expect(ring.contains { $0.role == "label" && $0.name == ringWords }, "'\(ringWords)' in \(ring)")
        #expect(ring.contains { $0.role == "check box" && $0.name == "Ring in the panel" && $0.checked == true })
        try rig.press("Ring in the panel", role: "check box")
        try AppPreferencesTests.expectSaved(rig, "StatusItem", "b false", "StatusItem = false")
        // No phone linked: no phone page; starting at login, in the service's words, with no portal to ask.
        try rig.press("Next")
        let loginWords = try Self.capabilityWords(rig, "login")
        let login = try Self.waitForPage(rig, "starting at login", Self.label("Starting at login"))
        #expect(login.contains { $0.role == "label" && $0.name == loginWords }, "'\(loginWords)' in \(login)")
        #expect(!login.contains { $0.name == "Start at Login" }, "the portal is asked in the Flatpak only")
        // What does not work here: no notification server on this bus.
        try rig.press("Next")
        let desktop = try Self.waitForPage(rig, "what iCare can see", Self.label("What iCare can see here"))
        #expect(desktop.contains { $0.role == "label" && $0.name == "iCare reminds you anyway; these do not fully work here." })
        #expect(desktop.contains { $0.role == "label" && $0.name == "No notification server is running: reminders go to iCare's log only." },
                "\(desktop.filter { $0.role == "label" })")
        #expect(desktop.contains { $0.role == "push button" && $0.name == "Done" })
        try rig.press("Done")
        #expect(try waitUntil(timeout: 10) { try Self.shown(rig).isEmpty }, "Done closes the welcome")

        // The second start: the home view, no welcome.
        try rig.restartApp()
        try rig.waitForHome(timeout: 20, "the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        Thread.sleep(forTimeInterval: 1)
        #expect(try rig.windows().allSatisfy { $0.first?.name != Self.title }, "no welcome on the second start")

        // Again from the main menu.
        try rig.press("Main Menu")
        var menu: [[Element]] = []
        let item = try waitUntil(timeout: 10, interval: 0.1) {
            menu = try rig.windows()
            return menu.joined().contains { $0.name == "Welcome" && $0.role != "label" }
        }
        #expect(item, "the menu: \(menu)")
        try rig.press("Welcome", role: "menu item")
        try Self.waitForPage(rig, "the welcome again", Self.label(rule))
    }

    /// A person upgrading from 0.7, whose app wrote `welcome-seen` in icared's state folder: the app opens on
    /// its home view (issue 55, item 4).
    @Test func aWelcomeSeenBy07IsNotShownAgain() throws {
        let rig = try AppRig(startApp: false)
        defer { rig.stop() }
        let before = rig.service.stateDirectory + "/welcome-seen"
        try FileManager.default.removeItem(atPath: rig.service.appStateDirectory + "/welcome-seen")
        #expect(FileManager.default.createFile(atPath: before, contents: Data(), attributes: [.posixPermissions: 0o600]))
        try rig.launchApp()
        try rig.waitForHome(timeout: 20, "the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        Thread.sleep(forTimeInterval: 1)
        #expect(try rig.windows().allSatisfy { $0.first?.name != Self.title }, "the welcome again after the upgrade")
        #expect(!FileManager.default.fileExists(atPath: rig.service.appStateDirectory + "/welcome-seen"), "nothing to record: not shown")
        #expect(FileManager.default.fileExists(atPath: before), "0.7's mark left as it was")
    }

    /// A paired phone (a real kdeconnectd 22.12 and the fake phone): the welcome has the phone's page, its
    /// switch turns phone reminders on.
    @Test func thePhonesPageOnlyWithALinkedPhone() throws {
        let bus = try PrivateBus()
        let phone = try KDEConnectRig(busAddress: bus.address)
        defer { phone.stop() }
        try phone.pair()
        let rig = try AppRig(bus: bus, firstStart: true)
        defer { rig.stop() }
        try Self.waitForPage(rig, "the rule", timeout: 20) { $0.contains { $0.name.hasPrefix("Every 20 minutes") } }
        for title in ["Your breaks", "The ring"] {
            try rig.press("Next")
            try Self.waitForPage(rig, title, Self.label(title))
        }
        try rig.press("Next")
        let page = try Self.waitForPage(rig, "the phone's page", timeout: 20, Self.label("Your phone"))
        #expect(page.contains { $0.role == "label" && $0.name == "A tap with each reminder on Pixel 7 (KDE Connect)" }, "\(page)")
        #expect(page.contains { $0.role == "label" && $0.name.hasPrefix("With each reminder your phone gets a tap.") })
        try rig.press("Remind my phone too", role: "check box")
        try AppPreferencesTests.expectSaved(rig, "PhoneReminders", "b true", "PhoneReminders = true")
        try phone.disconnectPhone()
        // The page goes with the phone (the carousel shows the one before it); Next then goes to starting at login.
        try Self.waitForPage(rig, "the ring's page once the phone went", timeout: 20, Self.label("The ring"))
        try rig.press("Next")
        try Self.waitForPage(rig, "starting at login, after the ring", Self.label("Starting at login"))
    }

    /// The words of one entry of `Capabilities`, from busctl's JSON.
    static func capabilityWords(_ rig: AppRig, _ name: String) throws -> String {
        let r = try rig.service.busctl(["--json=short", "get-property", "org.icare.Reminder", "/org/icare/Reminder",
                                        "org.icare.Reminder", "Capabilities"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let entries = json?["data"] as? [[Any]] ?? []
        return entries.first { $0.first as? String == name }?.last as? String ?? ""
    }
}

/// The welcome with the keyboard alone, on Wayland (a headless sway, real key presses): it opens with the
/// focus on Next, Return goes through every page and Done closes it; opened again, Escape closes it.
@Suite(.serialized) struct AppWelcomeKeyboardTests {
    @Test func returnGoesThroughTheWelcomeAndEscapeClosesIt() throws {
        let rig = try AppRig(startApp: false, wayland: true, firstStart: true)
        defer { rig.stop() }
        try rig.launchApp()
        let first = try AppWelcomeWindowTests.waitForPage(rig, "the rule", timeout: 20) { $0.contains { $0.name.hasPrefix("Every 20 minutes") } }
        #expect(first.contains { $0.role == "push button" && $0.name == "Next" && $0.focused }, "the focus on Next: \(first)")
        #expect(waitUntil(timeout: 10) { rig.sway?.focusedApp() == "org.icare.Reminder" }, "sway focuses the welcome")
        for title in ["Your breaks", "The ring", "Starting at login", "What iCare can see here"] {
            try rig.keys(["Return"])
            try AppWelcomeWindowTests.waitForPage(rig, title) { $0.contains { $0.role == "label" && $0.name == title } }
        }
        try rig.keys(["Return"])
        #expect(try waitUntil(timeout: 10) { try AppWelcomeWindowTests.shown(rig).isEmpty }, "Return on Done closes the welcome")
        let again = try rig.service.busctl(["call", "org.icare.Reminder.Window", "/org/icare/Reminder", "org.freedesktop.Application",
                                            "ActivateAction", "sava{sv}", "welcome", "0", "0"])
        #expect(again.status == 0, "\(again)")
        try AppWelcomeWindowTests.waitForPage(rig, "the welcome again") { $0.contains { $0.name.hasPrefix("Every 20 minutes") } }
        #expect(waitUntil(timeout: 10) { rig.sway?.focusedApp() == "org.icare.Reminder" })
        try rig.keys(["Escape"])
        #expect(try waitUntil(timeout: 10) { try AppWelcomeWindowTests.shown(rig).isEmpty }, "Escape closes the welcome")
    }
}
