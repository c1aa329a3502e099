import Testing
import Foundation
import TestSupport

/// The first start's notice on the real Plasma 6.7.4 on Wayland, from the installed package, in a home
/// iCare never ran in: the bus activates icared (in its unit's sandbox), Plasma shows "iCare is on" with
/// "Open iCare", a real pointer presses it, and the bus starts the installed app from its activation
/// file (`/usr/share/dbus-1/services/org.icare.Reminder.Window.service`), whose window comes up in the
/// session. Never again after a restart. A picture for the docs with ICARE_SCREENSHOTS.
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

        // Never again: a new icared (the next login) shows nothing of it.
        try plasma.restartDue()
        _ = try plasma.reminderPopup()
        #expect(try !plasma.popups().contains { $0.texts.contains("iCare is on") })
    }
}
