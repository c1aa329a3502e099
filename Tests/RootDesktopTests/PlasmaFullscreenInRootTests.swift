import Testing
import Foundation
import TestSupport

/// Issue 40 on the real Plasma 6.3.6 and 6.7.4, on Wayland and on X11, iCare installed from its package: what
/// Plasma does with a reminder while a window fills the screen, measured. The app's window is put in
/// full screen by a KWin script (as F11 does it). 6.7.4 (Plasma 6.4 and later) turns on
/// do-not-disturb while a full-screen window has the focus (`Inhibited`), which icared follows as any
/// do-not-disturb: the reminder is held, nothing is skipped. 6.3.6 says nothing and draws the popup
/// under the window, where no one sees it; with FullScreenReminders on, the popup is critical and
/// drawn over the window.
@Suite(.serialized) struct PlasmaFullscreenInRootTests {
    /// How many different colours the screen has inside `box`: a popup's text and buttons give many,
    /// the app's plain background under a hidden popup few.
    static func colours(_ plasma: RootPlasma, in box: GnomeShellAccessibility.Node) throws -> Int {
        try plasma.pixels().colours(xs: box.x..<(box.x + box.w), ys: box.y..<(box.y + box.h))
    }

    static func inhibited(_ session: DesktopRootSession) throws -> String {
        try session.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties.Get",
                         ["org.freedesktop.Notifications", "Inhibited"])
    }

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases, [true, false])
    func aReminderWhileAWindowIsInFullScreenOnPlasma(_ release: DesktopRoot.Release, wayland: Bool) throws {
        let plasma = try RootPlasma(release, wayland: wayland)
        let kind = wayland ? "Wayland" : "X11"
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")
        try session.start(["/usr/bin/icare"], log: "icare.log")
        try plasma.fullScreen("iCare", true)

        if release == .forky {
            // Plasma 6.4 and later: do-not-disturb while the full-screen window has the focus, and icared follows it.
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try Self.inhibited(session) == "(<true>,)" },
                    "Inhibited is \((try? Self.inhibited(session)) ?? "?") with a focused full-screen window")
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try session.icareProperty("DoNotDisturb") == "(<true>,)" })
            #expect(try plasma.string("DoNotDisturbSource") == "kde")
            try plasma.restartDue()
            #expect(try plasma.state(becomes: "paused"), "DndPolicy pause: held, not shown")
            #expect(try plasma.string("PauseReason") == "dnd")
            Thread.sleep(forTimeInterval: 3)
            let popups = try plasma.popups()
            #expect(popups.isEmpty, "a popup in do-not-disturb: \(popups)")
            try plasma.fullScreen("iCare", false)
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try Self.inhibited(session) == "(<false>,)" })
            #expect(try plasma.state(becomes: "waiting"), "do-not-disturb over: a new interval")
            #expect(try plasma.count("SkippedToday") == 0)
            #expect(try plasma.count("MissedToday") == 0)

            // DndPolicy defer: the reminder that fell due in the full screen is offered as soon as it ends.
            let defer_ = try session.run(["/usr/bin/icarectl", "set", "DndPolicy", "defer"])
            #expect(defer_.status == 0, "\(defer_)")
            try plasma.fullScreen("iCare", true)
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try session.icareProperty("DoNotDisturb") == "(<true>,)" })
            try plasma.restartDue()
            #expect(try plasma.state(becomes: "due"))
            Thread.sleep(forTimeInterval: 3)
            #expect(try plasma.popups().isEmpty, "held while the window is in full screen")
            try plasma.fullScreen("iCare", false)
            _ = try plasma.reminderPopup(timeout: 10)
            #expect(try plasma.count("SkippedToday") == 0)
            #expect(try plasma.count("MissedToday") == 0)
            return
        }

        // Plasma 6.3: nothing on the bus says so, and the reminder's popup is under the window.
        Thread.sleep(forTimeInterval: 2)
        #expect(try Self.inhibited(session) == "(<false>,)")
        try plasma.restartDue()
        let hidden = try plasma.reminderPopup()
        Thread.sleep(forTimeInterval: 1)
        let underneath = try Self.colours(plasma, in: hidden.box)

        // FullScreenReminders on: the next reminder is critical, drawn over the full-screen window.
        let on = try session.run(["/usr/bin/icarectl", "set", "FullScreenReminders", "on"])
        #expect(on.status == 0, "\(on)")
        try plasma.restartDue()
        let shown = try plasma.reminderPopup()
        Thread.sleep(forTimeInterval: 1)
        let over = try Self.colours(plasma, in: shown.box)
        print("Plasma \(release.plasma) \(kind), a full-screen window: \(underneath) colours where the normal popup is, \(over) where the critical one is")
        #expect(underneath < 40 && over > 2 * underneath,
                "the normal popup shows \(underneath) colours, the critical one \(over) (Plasma \(release.plasma), \(kind))")
        try plasma.docsScreenshot("plasma63-wayland-over-full-screen", x: shown.box.x - 6, y: shown.box.y - 6,
                                  w: shown.box.w + 12, h: shown.box.h + 12, always: wayland)
        try plasma.press("Start", on: shown)
        #expect(try plasma.state(becomes: "break"), "Start over the full-screen window did not start the break")
    }
}

extension RootPlasma {
    /// Puts the window whose caption or app id holds `name` in full screen (or out of it) and gives it
    /// the focus, with a KWin script loaded through KWin's own `org.kde.kwin.Scripting` (as System
    /// Settings loads one); waited for (bounded) until KWin says it did.
    func fullScreen(_ name: String, _ on: Bool, timeout: TimeInterval = 30) throws {
        let mark = "icare-test: full screen \(on) \(UUID().uuidString.prefix(8))"
        let script = """
            for (const w of workspace.windowList()) {
                if (String(w.caption).includes("\(name)") || String(w.resourceClass).toLowerCase().includes("\(name.lowercased())")) {
                    w.fullScreen = \(on);
                    workspace.activeWindow = w;
                    print("\(mark)");
                }
            }
            """
        let file = root.work.appendingPathComponent("fullscreen-\(on).js")
        guard try waitUntil(timeout: timeout, interval: 1, {
            try script.write(to: file, atomically: true, encoding: .utf8)
            let answer = try session.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript", [file.path, String(mark)])
            let id = answer.filter(\.isNumber)
            _ = try session.call("org.kde.KWin", "/Scripting/Script\(id)", "org.kde.kwin.Script.run")
            Thread.sleep(forTimeInterval: 0.5)
            _ = try? session.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.unloadScript", [String(mark)])
            return session.log("kwin.log").contains(mark)
        }) else {
            throw HarnessError("KWin put no \(name) window in full screen (\(on)); kwin:\n\(session.log("kwin.log").suffix(2000))")
        }
    }
}
