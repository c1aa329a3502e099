import Testing
import Foundation
import TestSupport

/// iCare's package in other languages on the real desktops of Debian testing, the session's locale set as a
/// desktop sets it (LANG and LANGUAGE; the root makes the locales, scripts/desktop-root): the app's welcome
/// and home view in German and in Arabic on GNOME Shell 50.5, gone through with the pointer, every element
/// inside its window and the Arabic one laid out right to left; the reminder in Japanese on Plasma 6.7.4
/// (Wayland), its Start pressed with the pointer. No English left but names (`Catalogs.englishLeft`).
/// Pictures for the docs with ICARE_SCREENSHOTS (docs/screenshots, po/README.md).
@Suite(.serialized) struct RootLanguageTests {
    static func variables(_ language: String) -> [String: String] {
        ["LANG": Catalogs.locale(language), "LANGUAGE": language]
    }

    /// The app on GNOME Shell 50.5 in `language`: its welcome from the first page to Done, then its home view.
    @Test(.timeLimit(.minutes(10)), arguments: ["de", "ar"])
    func theAppOnGnome50(_ language: String) throws {
        // A home iCare ran in before (no first-start notice over the window), but whose app never showed
        // its welcome.
        let rig = try GnomeClicksRig(.forky, variables: Self.variables(language))
        defer { rig.stop() }
        try FileManager.default.removeItem(at: rig.root.work.appendingPathComponent("home/.local/state/icare-app/welcome-seen"))
        try rig.session.start(["/usr/bin/icare"], log: "icare.log",
                              environment: ["WAYLAND_DISPLAY": "wayland-0", "GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo"])
        let app = rig.app
        let t = { (english: String, context: String?) throws -> String in try Catalogs.translation(of: english, context: context, in: language) }
        let welcome = try t("Welcome to iCare", nil)
        let rule = try t("Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain.", nil)
        try app.waitFor(rule, role: "label", in: welcome, timeout: 60)
        let picture = { (name: String, title: String) throws in
            guard let dir = Screenshot.docsFolder else { return }
            _ = try rig.screenshot()
            let crop = try app.crop(title, width: GnomeClicksRig.width, height: GnomeClicksRig.height)
            try Screenshot.writeForDocs("gnome50-\(name)-\(language)", in: dir, magick: ["convert", rig.lastShot, "-crop", crop, "+repage", "+dither"], colours: 64)
        }
        try Self.expectWhole(try app.window(welcome), language: language, "the welcome's first page")
        try picture("welcome", welcome)
        // Page by page with the pointer on Next, each page whole and in the language, to Done.
        let next = try t("Next", "welcome"), done = try t("Done", "welcome")
        var pages = 1
        while try !app.window(welcome).contains(where: { $0.name == done && $0.role == "button" }), pages < 8 {
            let before = try app.window(welcome).filter { $0.role == "label" }.map(\.name)
            try app.press(next, in: welcome)
            // The carousel slides to the next page: its labels change.
            _ = try waitUntil(timeout: 5, interval: 0.2) { try app.window(welcome).filter { $0.role == "label" }.map(\.name) != before }
            Thread.sleep(forTimeInterval: 0.5)
            pages += 1
            try Self.expectWhole(try app.window(welcome), language: language, "page \(pages) of the welcome")
        }
        #expect(pages == 5, "\(language): the welcome has \(pages) pages")
        try app.press(done, in: welcome)
        #expect(try waitUntil(timeout: 15, interval: 0.3) { try app.window(welcome).isEmpty }, "Done did not close the welcome")

        let home = try app.waitFor(try t("Preferences", nil), in: "iCare")
        let shown = try app.window("iCare")
        try Self.expectWhole(shown, language: language, "the home view")
        // Arabic reads right to left: the week's days run from the right, the header's Preferences button
        // (at the line's end) sits on the left.
        let rows = Dictionary(grouping: shown.filter { $0.role == "image" && !$0.name.isEmpty }, by: \.y)
        let days = rows.values.first { $0.count == 7 }?.map(\.x) ?? []
        #expect(days.count == 7, "the week's days in \(language): \(shown)")
        #expect(days == (language == "ar" ? days.sorted(by: >) : days.sorted()), "\(language): the days at \(days)")
        let middle = shown[0].x + shown[0].w / 2
        #expect(language == "ar" ? home.x < middle : home.x > middle, "\(language): Preferences at \(home), the window \(shown[0])")
        try picture("home", "iCare")
    }

    /// The reminder in Japanese on Plasma 6.7.4 (Wayland): its title, body and buttons; Start pressed with the pointer.
    @Test(.timeLimit(.minutes(10)))
    func theReminderInJapaneseOnPlasma67() throws {
        let language = "ja"
        let plasma = try RootPlasma(.forky, variables: Self.variables(language), wayland: true)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")  // the bus activates the installed icared
        try plasma.restartDue()
        let summary = try Catalogs.translation(of: "Time for an eye break", in: language)
        let start = try Catalogs.translation(of: "Start", in: language), skip = try Catalogs.translation(of: "Skip", in: language)
        let reminder = try plasma.popup { $0.texts.contains(summary) }
        #expect(Set(reminder.named).isSuperset(of: [start, skip]) && reminder.named.count >= 3, "\(reminder)")
        let left = try Catalogs.englishLeft(in: (reminder.texts + reminder.named).joined(separator: "\n"), language: language)
        #expect(left.isEmpty, "the reminder in Japanese says in English: \(left); \(reminder)")
        try plasma.docsScreenshot("plasma67-wayland-reminder-ja", x: reminder.box.x - 6, y: reminder.box.y - 6,
                                  w: reminder.box.w + 12, h: reminder.box.h + 12)
        try plasma.press(start, on: reminder)
        #expect(try plasma.state(becomes: "break"), "the Japanese Start did not start the break")
    }

    /// Every text and control of a window's page is across the window's width (nothing cut off at its
    /// sides; a page taller than the window scrolls) and says nothing in English but names.
    static func expectWhole(_ nodes: [AppOnScreen.Node], language: String, _ what: String) throws {
        guard let frame = nodes.first else { Issue.record("\(what) in \(language): no window"); return }
        let shown = nodes.dropFirst().filter { $0.w > 0 && $0.h > 0 && ["label", "button", "push button", "toggle button", "check box"].contains($0.role) }
        let out = shown.filter { $0.x < frame.x - 1 || $0.x + $0.w > frame.x + frame.w + 1 }
        #expect(out.isEmpty, "\(what) in \(language): beyond the window's sides \(frame): \(out)")
        let left = try Catalogs.englishLeft(in: nodes.map(\.name).joined(separator: "\n"), language: language)
        #expect(left.isEmpty, "\(what) in \(language) says in English: \(left)")
    }
}
