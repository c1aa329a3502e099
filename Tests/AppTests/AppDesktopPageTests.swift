import Testing
import Foundation
import TestSupport

/// The preferences' "This desktop" page (issue 47): the service's `Capabilities`, a row each, read from the
/// accessibility tree as a screen reader reads it, and followed live.
@Suite(.serialized) struct AppDesktopPageTests {
    @Test func thePageListsWhatTheServiceSaysAndFollowsIt() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        let prefs = try AppPreferencesTests.open(rig)
        #expect(prefs.contains { $0.role == "page tab" && $0.name == "Settings" }, "the settings' tab: \(prefs.map(\.name))")
        try rig.press("This desktop", role: "page tab")
        let page = try rig.waitForPreferences("the page's rows") { $0.contains { $0.role == "label" && $0.name == "Starting at login" } }
        let said = try rig.service.capabilities()
        for title in ["Reminder buttons", "Do not disturb", "Time away", "Calls and full screen", "The ring", "Sounds", "Phones",
                      "Starting at login", "Sandbox"] {
            #expect(page.contains { $0.role == "label" && $0.name == title }, "no row '\(title)': \(page.map(\.name))")
        }
        let login = try #require(said["login"])
        #expect(page.contains { $0.role == "label" && $0.name == login.words }, "the login row's words '\(login.words)': \(page.map(\.name))")
        // Live: the sounds turned off elsewhere, the row says so.
        _ = try AppHomeTests.icarectl(rig, ["set", "Sound", "false"])
        try rig.waitForPreferences("the sounds row turned off") {
            $0.contains { $0.role == "label" && $0.name == "Turned off in the settings." }
        }
    }
}
