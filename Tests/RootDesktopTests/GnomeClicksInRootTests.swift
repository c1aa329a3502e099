import Testing
import Foundation
import TestSupport

/// Issue 29 on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots), as a person uses
/// it: a real pointer (Mutter's RemoteDesktop) on the reminder's banner, animations on. The pointer
/// hovers the banner and clicks Start, then rests where it was through the break: "Break complete"
/// pops up under it and must stay on screen; the next reminder's body is clicked (`default`).
@Suite(.serialized) struct GnomeClicksInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theReminderClickedWithThePointerAndBreakCompleteUnderIt(_ release: DesktopRoot.Release) throws {
        let began = Date()
        // Time scale 90: the 15 min interval passes in 10 s (the break's 10 s are not scaled).
        let rig = try GnomeClicksRig(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { rig.stop() }
        let box = try rig.waitForReminder(breakSeconds: 10)

        // Item 1: the pointer onto the banner (GNOME shows its buttons while hovered), then Start.
        // Start's own box, once it has grown into place: a click on it while still 0 px high lands on the body,
        // which starts a break too (`default`) and would hide a Start that does not work.
        let button = try rig.hoverButton("Start", onBanner: box)
        _ = try rig.screenshot()
        rig.keepShot("reminder-hovered")
        try rig.click(x: button.x + button.w / 2, y: button.y + button.h / 2)
        #expect(try rig.waitForState("break"), "Start clicked at \(button): \(rig.state()); events \((try? rig.bannerEvents()) ?? "")")
        let countdown = try waitUntil(timeout: 5, interval: 0.1) {
            try rig.shell.bannerTitle().hasPrefix("Look far away") || rig.shell.listedTitles().contains("Look far away")
        }
        #expect(countdown, "no countdown after Start: shown '\((try? rig.shell.bannerTitle()) ?? "")', listed '\((try? rig.shell.listedTitles()) ?? "")'")
        let restsAt = try rig.pointer()
        print("GNOME Shell \(release.gnomeShell): the break started by a click on Start at \(button); the pointer rests at \(restsAt)")

        // Item 2: the pointer stays; the break ends; "Break complete" pops up under it and is seen ~1 s and ~3 s later.
        var ended = Date()
        _ = try waitUntil(timeout: 20, interval: 0.05) {
            ended = Date()
            return try rig.session.icareProperty("State") != "(<'break'>,)"
        }
        #expect(try rig.session.icareProperty("CompletedToday") == "(<uint32 1>,)")
        for (at, name) in [(1.0, "break-complete-1s"), (3.0, "break-complete-3s")] {
            Thread.sleep(until: ended.addingTimeInterval(at))
            let title = try rig.shell.bannerTitle()
            let banner = try rig.shell.bannerBox()
            let read = try rig.shell.banners()
            _ = try rig.screenshot()
            rig.keepShot(name)
            let pointer = try rig.pointer()
            print("GNOME Shell \(release.gnomeShell), \(at) s after the break's end: banner '\(title)' at \(String(describing: banner)), "
                  + "AT-SPI \(read), pointer \(pointer)")
            #expect(pointer.x == restsAt.x && pointer.y == restsAt.y, "the pointer moved: \(pointer), was \(restsAt)")
            let listed = (try? rig.shell.listedTitles()) ?? "", events = (try? rig.bannerEvents()) ?? ""
            #expect(title == "Break complete" && banner != nil,
                    "\(at) s after the break's end no 'Break complete' banner: shown '\(title)', listed '\(listed)', events \(events)")
            #expect(read.contains { $0.texts.contains("Break complete") }, "\(at) s after the end, AT-SPI reads \(read)")
        }

        // Item 1, `default`: the next reminder's body (not a button) clicked starts the break.
        let next = try rig.waitForReminder(breakSeconds: 10)
        let bodyText = try rig.shell.eval("Main.messageTray._notification.body").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        try rig.move(x: next.x + next.w / 2, y: next.y + next.h / 2)
        var body: (x: Int, y: Int, w: Int, h: Int)?
        _ = try waitUntil(timeout: 3, interval: 0.1) {
            body = try rig.box("""
                (() => { let found = null; const walk = a => { if (a instanceof imports.gi.St.Label && a.text === \(Self.js(bodyText)) && a.is_mapped()) found = a;
                  a.get_children().forEach(walk); }; walk(Main.messageTray._bannerBin); return found; })()
                """)
            return body != nil
        }
        let b = try #require(body, "no body '\(bodyText)' in the banner")
        try rig.click(x: b.x + min(b.w / 2, 40), y: b.y + b.h / 2)
        #expect(try rig.waitForState("break"), "the body clicked at \(b): \(rig.state())")
        print("GnomeClicksInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }

    /// A JavaScript string literal of `text`.
    static func js(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
