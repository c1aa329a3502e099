import Foundation
import Testing
import TestSupport

/// The app in a Dutch locale (LANG=nl_NL.UTF-8 and LANGUAGE=nl), with the
/// catalogs compiled from po/ (scripts/po compile): its home view and its
/// preferences speak Dutch. The locale comes from scripts/deps.sh; without it
/// the test fails.
@Suite struct AppDutchTests {

    static func dutch() throws -> [String: String] { try Catalogs.environment("nl") }

    @Test func theHomeViewAndThePreferencesSpeakDutch() throws {
        let environment = try Self.dutch()
        let rig = try AppRig(appEnvironment: environment)
        defer { rig.stop() }
        let next = AppHomeTests.words(try rig.service.number("NextBreak"), tomorrow: "morgen")
        let home = try rig.waitForText("Volgende pauze om \(next)")
        let buttons = home.filter { $0.role == "push button" }.map(\.name)
        #expect(buttons.contains("Nu pauze nemen"), "\(buttons)")
        #expect(buttons.contains("30 min pauzeren"), "\(buttons)")
        #expect(buttons.contains("Voorkeuren"), "the header's button, named for screen readers: \(buttons)")
        #expect(home.contains { $0.role == "label" && $0.name == "Laatste 7 dagen" })
        #expect(home.contains { $0.role == "label" && $0.name == "Vandaag nog geen pauzes." })
        try rig.press("Voorkeuren")
        let prefs = try rig.waitForPreferences("Dutch rows") { $0.contains { $0.role == "spin button" && $0.name == "Pauze elke" } }
        #expect(prefs.contains { $0.role == "label" && $0.name == "15 tot 45 minuten" }, "\(prefs)")
        #expect(prefs.contains { $0.role == "check box" && $0.name == "Alleen tijdens actieve uren" })
        #expect(prefs.contains { $0.role == "push button" && $0.name == "Uitstellen" })
    }

    /// The welcome in Dutch: its title, the rule (the distance as the Dutch texts say it), and its buttons.
    @Test func theWelcomeSpeaksDutch() throws {
        let environment = try Self.dutch()
        let rig = try AppRig(appEnvironment: environment, firstStart: true)
        defer { rig.stop() }
        var shown: [Element] = []
        let found = try waitUntil(timeout: 20, interval: 0.2) {
            shown = try rig.windows().first { $0.first?.name == "Welkom bij iCare" } ?? []
            return shown.contains { $0.role == "label" && $0.name.hasPrefix("Kijk elke 20 minuten 20 seconden naar iets op zo’n 6 meter afstand.") }
        }
        #expect(found, "\(shown)")
        #expect(shown.contains { $0.role == "push button" && $0.name == "Volgende" }, "\(shown)")
        #expect(try rig.home().contains { $0.role == "push button" && $0.name == "Hoofdmenu" }, "the main menu's name")
    }
}
