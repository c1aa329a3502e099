import Testing
import Foundation
import TestSupport

/// The first start's notice on the real Plasma 6.7.4 on Wayland, from the installed package, in a home
/// iCare never ran in: the bus activates icared (in its unit's sandbox), Plasma shows "iCare is on" with
/// "Open iCare", a real pointer presses it, and the bus starts the installed app from its activation
/// file (`/usr/share/dbus-1/services/org.icare.Reminder.Window.service`), whose window comes up in the
/// session, on its welcome, which the pointer goes through to Done; then the preferences' page "This
/// desktop". Never again after a restart. Pictures for the docs with ICARE_SCREENSHOTS.
@Suite(.serialized) struct PlasmaWelcomeInRootTests {
    @Test(.timeLimit(.minutes(10)))
    func theFirstStartsNoticeOpensTheAppWithAPointerOnWayland() throws {
        let plasma = try RootPlasma(.forky, wayland: true, firstStart: true)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")  // the bus activates the installed icared
        let notice = try plasma.popup { $0.texts.contains("iCare is on") }
        // Plasma adds its own Configure and Close; iCare's one button is Open iCare.
        #expect(notice.named.filter { !["Configure", "Close"].contains($0) } == ["Open iCare"], "\(notice)")
        let body = try plasma.popupBodies().first { $0.summary == "iCare is on" }
        let words = body?.text.trimmingCharacters(in: .whitespaces) ?? ""
        #expect(words.hasPrefix("First eye break at ") && words.hasSuffix("away for 20 seconds."),
                "\(String(describing: body))")
        try plasma.docsScreenshot("plasma67-wayland-welcome", x: notice.box.x - 6, y: notice.box.y - 6,
                                  w: notice.box.w + 12, h: notice.box.h + 12)
        #expect(try !session.waitForName("org.icare.Reminder.Window", timeout: 0.5), "no window before the click")

        try plasma.press("Open iCare", on: notice)
        #expect(try session.waitForName("org.icare.Reminder.Window", timeout: 30),
                "the app did not start: \(session.log("session-bus.log"))")
        #expect(try RootDesktopFacts.program(owning: "org.icare.Reminder.Window", in: session) == "/usr/bin/icare")
        let mark = plasma.root.work.appendingPathComponent("home/.local/state/icare/welcome").path
        #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: mark) }, "the debt is settled")

        // The app opens on its welcome (nobody opened it here before), gone through with the pointer; then the
        // preferences' "This desktop", which names what icared's Capabilities says. Pictures for the docs.
        let app = plasma.app
        let picture = { (name: String) throws in
            guard let placed = try plasma.windowPlace(name == "desktop" ? "Preferences" : "Welcome to iCare") else {
                throw HarnessError("KWin has no window for the picture \(name)")
            }
            let f = placed.frame
            try plasma.docsScreenshot("plasma67-wayland-\(name == "welcome" ? "welcome-app" : name)",
                                      x: f.x - 8, y: f.y - 8, w: f.w + 16, h: f.h + 16, colours: 64)
        }
        let titles = try app.goThroughTheWelcome(picture: picture)
        #expect(titles.count == 5, "\(titles)")
        let page = try app.openThisDesktop()
        let buttons = RootDesktopFacts.capabilityWords(try session.icareProperty("Capabilities"), "reminder-buttons")
        #expect(buttons.hasPrefix("Plasma") && buttons.hasSuffix("shows Start, Snooze and Skip."), "Capabilities' words: \(buttons)")
        #expect(page.contains { $0.name == buttons }, "the page shows what icared says: \(page.map(\.name))")
        try picture("desktop")

        // Never again: a new icared (the next login) shows nothing of it.
        try plasma.restartDue()
        _ = try plasma.reminderPopup()
        #expect(try !plasma.popups().contains { $0.texts.contains("iCare is on") })
    }
}
