import Foundation
import Testing
import TestSupport

/// The app in every language of po/LINGUAS, as a desktop sets it (LANG and LANGUAGE): its welcome (every
/// page: the carousel keeps them all in the accessibility tree), its home view and its preferences hold
/// no English text but names (`Catalogs.englishLeft`), and Arabic's window is laid out right to left.
@Suite(.serialized) struct AppEveryLanguageTests {
    static func names(_ windows: [[Element]]) -> String {
        windows.flatMap { $0 }.map(\.name).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    @Test(arguments: Catalogs.languages) func theAppSpeaksIt(_ language: String) throws {
        // The whole session in the language, icared too: what it says of the desktop (Capabilities) is its words.
        let rig = try AppRig(sharedEnvironment: try Catalogs.environment(language), firstStart: true)
        defer { rig.stop() }
        let welcome = try Catalogs.translation(of: "Welcome to iCare", in: language)
        let rule = try Catalogs.translation(of: "Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. "
                                            + "Practised through the day, it relieves eye strain.", in: language)
        var windows: [[Element]] = []
        let opened = try waitUntil(timeout: 20, interval: 0.2) {
            windows = try rig.windows()
            return windows.contains { $0.first?.name == welcome && $0.contains { $0.role == "label" && $0.name == rule } }
                && windows.contains { $0.first?.name == "iCare" && $0.count > 10 }
        }
        #expect(opened, "\(language): no welcome '\(welcome)' over the home view: \(windows)\n\(rig.log("app.log"))")
        // The week's days run in the language's direction: from the right in Arabic (GTK mirrors the
        // app for a language read right to left), from the left in the others.
        let home = windows.first { $0.first?.name == "iCare" } ?? []
        // The chart's days: the seven images in one row (each named with its day, in any script).
        let rows = Dictionary(grouping: home.filter { $0.role == "image" && !$0.name.isEmpty }, by: \.y)
        let days = rows.values.first { $0.count == 7 }?.map(\.x) ?? []
        #expect(days.count == 7, "the week's days in \(language): \(home)")
        #expect(days == (language == "ar" ? days.sorted(by: >) : days.sorted()), "\(language): the days at \(days)")
        let left = try Catalogs.englishLeft(in: Self.names(windows), language: language)
        #expect(left.isEmpty, "the welcome and home view in \(language) say in English: \(left)\n\(Self.names(windows))")

        // Through the welcome as a screen reader goes, to its last page's Done.
        let next = try Catalogs.translation(of: "Next", context: "welcome", in: language)
        let done = try Catalogs.translation(of: "Done", context: "welcome", in: language)
        for _ in 0..<8 {
            if try AppWelcomeWindowTests.shown(rig, title: welcome).contains(where: { $0.role == "push button" && $0.name == done }) { break }
            try rig.press(next)
            Thread.sleep(forTimeInterval: 0.3)
        }
        try rig.press(done)
        #expect(try waitUntil(timeout: 10) { try !rig.windows().contains { $0.first?.name == welcome } })
        try rig.press(try Catalogs.translation(of: "Preferences", in: language))
        let prefs = try rig.waitForPreferences("the preferences in \(language)") { $0.count > 10 }
        let inPrefs = try Catalogs.englishLeft(in: Self.names([prefs]), language: language)
        #expect(inPrefs.isEmpty, "the preferences in \(language) say in English: \(inPrefs)\n\(Self.names([prefs]))")
    }
}
